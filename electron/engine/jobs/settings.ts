import type { OcrMode } from '../../../shared/contract';
import { DEFAULT_PROFILE, type ExtractionProfile } from '../../../shared/findings';
import { DEFAULT_OCR_LANGUAGES } from '../../../shared/ocr';
import type { LlmStage, RunMode, StrategyChoice } from '../../../shared/pipeline';
import type { StoredRunSettings } from '../../../shared/runSettings';
import type { EndpointSettings } from '../../../shared/endpoints';
import type { ChunkingOptions } from '../chunking';
import { DEFAULT_ID_PATTERNS, type IdPattern } from '../rules';

export type { RunMode, StrategyChoice } from '../../../shared/pipeline';

export interface RunLlmSettings {
  /** Ollama host; default from OLLAMA_HOST, else 127.0.0.1:11434. */
  host?: string;
  /** Per-stage model names, `default` for every stage without its own. */
  models: Partial<Record<LlmStage | 'default', string>>;
  /** A faster model for the map step of a long summary; the reduce step uses the summary model. */
  summaryMapModel?: string;
  /** Response cache: re-running a run does not pay twice for the same call. */
  cache: boolean;
  /** Chunk size the run would like; the planned num_ctx may make it smaller, never larger. */
  desiredChunkTokens: number;
  /** Room for each extraction reply (num_predict). */
  replyTokens: number;
  /**
   * Extraction unit: consecutive leaves of the chunk tree are analysed together in one call, up to this many tokens
   * of text (never above what the run's num_ctx carries; num_ctx is planned to carry it). The tree keeps its leaves
   * for display, navigation and grounding; a unit is what one call reads and what a resume redoes. Fewer, larger calls
   * repeat the instructions and the reply overhead less often (see docs/model-time.md for the measurement behind the
   * default); a small model may find fewer findings in larger units, so `npm run eval` compares sizes. Absent in runs
   * stored before units existed: one leaf per call, as those runs were made.
   */
  unitTokens?: number;
  /** Requests in flight at once: 1 on a workstation, more only for a shared GPU server. */
  maxInFlight: number;
  /**
   * A fixed context size chosen by the user (memory is tight, or a server is set up for one size); absent: the run
   * plans it from the models and the chunk size. Either way it is one num_ctx for the whole run, and chunks fit it.
   */
  numCtx?: number;
  /**
   * Where the model calls go (issue 29): one endpoint, or a pool whose files are spread over its endpoints. Absent:
   * one Ollama at `host`, one file at a time, as before endpoints existed. Keys are stored only by reference.
   */
  endpoints?: EndpointSettings[];
}

/** What a run is asked to do. Stored with the run so a resume and a report use exactly the same settings. */
export interface RunSettings {
  /** 'rules-only': ingest, chunk tree, ID mentions; no LLM. 'full': the whole pipeline. */
  mode: RunMode;
  chunking: Partial<Omit<ChunkingOptions, 'estimateTokens'>>;
  idPatterns: IdPattern[];
  strategy: StrategyChoice;
  /** Ask the LLM judge for the strategy when `strategy` is 'auto'. */
  judge: boolean;
  profile: ExtractionProfile;
  llm: RunLlmSettings;
  /** Pages without a usable text layer: 'auto' reads them with OCR, 'off' leaves them out, 'force' OCRs every page. Absent (runs stored before OCR): 'auto'. */
  ocr?: OcrMode;
  /** OCR languages (tesseract codes, the first is the main one), each with its `@tesseract.js-data` package installed. Absent (runs stored before languages): English. */
  ocrLanguages?: string[];
}

export const DEFAULT_RUN_LLM_SETTINGS: RunLlmSettings = {
  models: {},
  cache: true,
  desiredChunkTokens: 1500,
  replyTokens: 2048,
  unitTokens: 4000,
  maxInFlight: 1,
};

/** What the store parses from a run's row is usable as these settings: this stops compiling when the two drift apart. */
export const fromStoredSettings = (stored: StoredRunSettings): RunSettings => stored;

export function defaultRunSettings(overrides: Partial<RunSettings> = {}): RunSettings {
  return {
    mode: 'full',
    chunking: {},
    idPatterns: [...DEFAULT_ID_PATTERNS],
    strategy: 'auto',
    judge: true,
    profile: DEFAULT_PROFILE,
    ocr: 'auto',
    ocrLanguages: [...DEFAULT_OCR_LANGUAGES],
    ...overrides,
    llm: { ...DEFAULT_RUN_LLM_SETTINGS, ...overrides.llm },
  };
}

export { stableHash } from '../util';
