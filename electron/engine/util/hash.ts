import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted and undefined dropped, so equal values always
 * give equal text: the basis of every cache key (LLM responses, chunk trees,
 * mentions by rule set).
 */
export function stableStringify(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && typeof v !== 'function')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Short stable hash of a JSON-serialisable value. */
export function stableHash(value: unknown): string {
  return sha256(stableStringify(value)).slice(0, 16);
}
