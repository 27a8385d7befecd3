/**
 * Minimal valid instance of a JSON Schema (the subset used with Ollama's `format`): objects with
 * their required properties, empty arrays (or `minItems` copies of the item instance), the first
 * enum / const value, empty strings (padded to minLength), 0 (or the minimum), false, null.
 */
type Schema = Record<string, unknown>;

function isObj(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function resolveRef(ref: string, root: Schema): unknown {
  if (!ref.startsWith('#')) return {};
  const parts = ref
    .slice(1)
    .split('/')
    .filter((p) => p !== '');
  let cur: unknown = root;
  for (const raw of parts) {
    const p = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObj(cur)) return {};
    cur = cur[p];
  }
  return cur ?? {};
}

export function minimalInstance(schema: unknown, root: unknown = schema, depth = 0): unknown {
  if (depth > 32 || !isObj(schema)) return null;
  const r = isObj(root) ? root : {};
  if (typeof schema.$ref === 'string') return minimalInstance(resolveRef(schema.$ref, r), root, depth + 1);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const alts = schema[key];
    if (Array.isArray(alts) && alts.length > 0) {
      // prefer a non-null alternative
      const pick = alts.find((a) => !(isObj(a) && a.type === 'null')) ?? alts[0];
      return minimalInstance(pick, root, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    const merged: Schema = {};
    const props: Schema = {};
    const required: string[] = [];
    for (const part of schema.allOf) {
      const p = isObj(part) && typeof part.$ref === 'string' ? resolveRef(part.$ref, r) : part;
      if (!isObj(p)) continue;
      Object.assign(merged, p);
      if (isObj(p.properties)) Object.assign(props, p.properties);
      if (Array.isArray(p.required)) required.push(...p.required.filter((x): x is string => typeof x === 'string'));
    }
    delete merged.allOf;
    merged.properties = props;
    merged.required = required;
    if (merged.type === undefined && Object.keys(props).length > 0) merged.type = 'object';
    return minimalInstance(merged, root, depth + 1);
  }
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t) => t !== 'null') ?? type[0];
  if (type === undefined) {
    if (isObj(schema.properties)) type = 'object';
    else if (schema.items !== undefined) type = 'array';
  }
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = isObj(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      for (const name of required) {
        if (typeof name !== 'string') continue;
        out[name] = minimalInstance(props[name] ?? {}, root, depth + 1);
      }
      return out;
    }
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const out: unknown[] = [];
      for (let i = 0; i < min; i++) out.push(minimalInstance(schema.items ?? {}, root, depth + 1));
      return out;
    }
    case 'string': {
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      return 'x'.repeat(min);
    }
    case 'integer':
    case 'number': {
      if (typeof schema.minimum === 'number') return type === 'integer' ? Math.ceil(schema.minimum) : schema.minimum;
      if (typeof schema.exclusiveMinimum === 'number') return Math.floor(schema.exclusiveMinimum) + 1;
      if (typeof schema.maximum === 'number' && schema.maximum < 0) return schema.maximum;
      return 0;
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return {};
  }
}
