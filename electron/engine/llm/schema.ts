import { z } from 'zod';

/**
 * zod -> the JSON Schema we put in `format`. Ollama turns it into a grammar;
 * `pattern`, `format` and other exotic keywords can make it fail ("invalid
 * JSON schema in format") or be ignored silently, so only the structural
 * keywords survive. Every reply is validated with the zod schema anyway.
 */
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonSchema = { [k: string]: Json };

const KEEP = new Set([
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  'description',
  'additionalProperties',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  '$ref',
  '$defs',
  'definitions',
  'title',
  'nullable',
]);
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions']);
const SCHEMA_ARRAYS = new Set(['anyOf', 'oneOf', 'allOf']);

export function sanitizeJsonSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(sanitizeJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: { [k: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    if (!KEEP.has(key)) continue;
    if (SCHEMA_MAPS.has(key) && value && typeof value === 'object' && !Array.isArray(value)) {
      // Property names are data, not keywords: a property called "pattern" stays.
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sanitizeJsonSchema(v)]));
    } else if (SCHEMA_ARRAYS.has(key) && Array.isArray(value)) {
      out[key === 'oneOf' ? 'anyOf' : key] = value.map(sanitizeJsonSchema);
    } else if ((key === 'items' || key === 'additionalProperties') && value && typeof value === 'object') {
      out[key] = sanitizeJsonSchema(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

// Schemas are module-level constants of the stages; converting one per call would cost more than the rest of the client.
const formatCache = new WeakMap<z.ZodType, JsonSchema>();

export function toOllamaFormat(schema: z.ZodType): JsonSchema {
  let format = formatCache.get(schema);
  if (!format) {
    const raw = z.toJSONSchema(schema, { target: 'draft-7', unrepresentable: 'any', io: 'output' }) as unknown as Json;
    format = sanitizeJsonSchema(raw) as JsonSchema;
    formatCache.set(schema, format);
  }
  return format;
}

/**
 * A compact, TypeScript-like description of the expected JSON for the prompt
 * (models follow a shape they read better than a grammar they cannot see).
 */
export function describeSchema(schema: z.ZodType | JsonSchema): string {
  const json = schema instanceof z.ZodType ? toOllamaFormat(schema) : schema;
  const defs = (json.$defs ?? json.definitions ?? {}) as Record<string, JsonSchema>;
  return render(json, defs, 0);
}

function render(node: JsonSchema, defs: Record<string, JsonSchema>, depth: number): string {
  if (depth > 8) return 'any';
  const ref = node.$ref;
  if (typeof ref === 'string') {
    const name = ref.split('/').pop() ?? '';
    const target = defs[name];
    return target ? render(target, defs, depth + 1) : 'any';
  }
  if (Array.isArray(node.enum)) return node.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (node.const !== undefined) return JSON.stringify(node.const);
  const union = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return union.map((n) => render(n, defs, depth + 1)).join(' | ');
  const type = node.type;
  if (Array.isArray(type)) return type.map((t) => render({ ...node, type: t }, defs, depth + 1)).join(' | ');
  switch (type) {
    case 'object': {
      const props = (node.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((node.required ?? []) as string[]);
      const parts = Object.entries(props).map(([key, value]) => {
        const desc = typeof value.description === 'string' ? ` /* ${value.description} */` : '';
        return `${JSON.stringify(key)}${required.has(key) ? '' : '?'}: ${render(value, defs, depth + 1)}${desc}`;
      });
      return parts.length === 0 ? 'object' : `{ ${parts.join(', ')} }`;
    }
    case 'array':
      return `${wrap(render((node.items ?? {}) as JsonSchema, defs, depth + 1))}[]`;
    case 'string':
      return 'string';
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    default:
      return 'any';
  }
}

function wrap(s: string): string {
  return s.includes(' | ') && !(s.startsWith('{') && s.endsWith('}')) ? `(${s})` : s;
}

export type ParsedReply = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Tolerant JSON extraction from a *complete* reply: strips ```json fences and
 * any chatter before the first `{` or `[` (and after the matching end). The
 * caller must never pass a cut reply (done_reason 'length') here as if whole.
 */
export function parseJsonReply(text: string): ParsedReply {
  let s = text.trim();
  const fence = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(s);
  if (fence?.[1] !== undefined) s = fence[1].trim();
  const start = s.search(/[{[]/);
  if (start < 0) return { ok: false, error: 'no JSON object or array in the reply' };
  s = s.slice(start);
  try {
    return { ok: true, value: JSON.parse(s) };
  } catch (first) {
    const close = s[0] === '{' ? '}' : ']';
    const end = s.lastIndexOf(close);
    if (end > 0) {
      try {
        return { ok: true, value: JSON.parse(s.slice(0, end + 1)) };
      } catch {
        /* fall through */
      }
    }
    return { ok: false, error: (first as Error).message };
  }
}

export type ValidatedReply<T> = { ok: true; value: T } | { ok: false; error: string };

export function validateReply<T>(text: string, schema: z.ZodType<T>): ValidatedReply<T> {
  const parsed = parseJsonReply(text);
  if (!parsed.ok) return { ok: false, error: `not JSON: ${parsed.error}` };
  const result = schema.safeParse(parsed.value);
  if (!result.success) {
    const issues = result.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    return { ok: false, error: `does not match the schema: ${issues.join('; ')}` };
  }
  return { ok: true, value: result.data };
}
