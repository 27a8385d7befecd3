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

export { stableHash } from '../util/hash';
