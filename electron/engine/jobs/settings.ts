import { createHash } from 'node:crypto';
import type { ChunkingOptions } from '../chunking';
import { DEFAULT_ID_PATTERNS, type IdPattern } from '../rules';

/** What a run is asked to do. Stored with the run so a report can say exactly how it was made. */
export interface RunSettings {
  /** 'rules-only': ingest, chunk tree, ID mentions; no LLM. */
  mode: 'rules-only';
  chunking: Partial<ChunkingOptions>;
  idPatterns: IdPattern[];
}

export function defaultRunSettings(overrides: Partial<RunSettings> = {}): RunSettings {
  return { mode: 'rules-only', chunking: {}, idPatterns: [...DEFAULT_ID_PATTERNS], ...overrides };
}

/** Stable hash of a JSON-serialisable value (keys sorted), used to cache trees and mentions by the settings that made them. */
export function stableHash(value: unknown): string {
  return createHash('sha256').update(stableStringify(value)).digest('hex').slice(0, 16);
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && typeof v !== 'function')
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
