/**
 * A run's settings, in one place: the schema (the type is inferred from it),
 * the defaults table, and the one function that makes a run's settings from
 * what the app's Settings (or the CLI's options) chose, used by the host and
 * the CLI alike. Stored with the run (runs.settings_json) and parsed with
 * this schema where the store reads the row, so the runner, the reports and
 * the host get typed settings or a clear error for an old or damaged row,
 * never a silent cast.
 */
import { z } from 'zod';
import type { AppSettings } from './contract';
import { CHUNK_STRATEGIES, LLM_STAGES, RUN_MODES, STRATEGY_CHOICES, type LlmStage, type RunMode } from './pipeline';
import { DEFAULT_OCR_LANGUAGES, OCR_MODES, ocrLanguagesSchema } from './ocr';
import { ENDPOINT_KINDS } from './endpoints';
import { DEFAULT_PROFILE } from './findings';
import { DEFAULT_ID_PATTERNS } from './idPatterns';
import { extractionProfileSchema } from './profileSchema';

const positiveInt = z.number().int().positive();
const size = z.number().nonnegative();

const chunkingSchema = z.object({
  strategy: z.enum(['auto', ...CHUNK_STRATEGIES]).optional(),
  minChars: size.optional(),
  preferredChars: size.optional(),
  maxChars: size.optional(),
  minTokens: size.optional(),
  preferredTokens: size.optional(),
  maxTokens: size.optional(),
  overlapChars: size.optional(),
  pageMaxChars: size.optional(),
  pageOverlapChars: size.optional(),
  minHeadings: size.optional(),
  maxHeadingChars: size.optional(),
  headingFontRatio: size.optional(),
});

/** An inference endpoint as stored with a run (issue 29): its key only by reference (shared/endpoints.ts). */
export const endpointSettingsSchema = z.object({
  kind: z.enum(ENDPOINT_KINDS),
  url: z.string().min(1),
  concurrency: positiveInt,
  contextTokens: positiveInt.optional(),
  keyRef: z.string().min(1).optional(),
  label: z.string().min(1).optional(),
});

const runLlmSettingsSchema = z.object({
  /** Ollama host; default from OLLAMA_HOST, else 127.0.0.1:11434. */
  host: z.string().optional(),
  /** Per-stage model names, `default` for every stage without its own. */
  models: z.partialRecord(z.enum([...LLM_STAGES, 'default']), z.string().min(1)),
  /** A faster model for the map step of a long summary; the reduce step uses the summary model. */
  summaryMapModel: z.string().min(1).optional(),
  /** Response cache: re-running a run does not pay twice for the same call. */
  cache: z.boolean(),
  /** Chunk size the run would like; the planned num_ctx may make it smaller, never larger. */
  desiredChunkTokens: positiveInt,
  /** Room for each extraction reply (num_predict). */
  replyTokens: positiveInt,
  /** Requests in flight at once: 1 on a workstation, more only for a shared GPU server. */
  maxInFlight: positiveInt,
  /**
   * A fixed context size chosen by the user (memory is tight, or a server is set up for one size); absent: the run
   * plans it from the models and the chunk size. Either way it is one num_ctx for the whole run, and chunks fit it.
   */
  numCtx: positiveInt.optional(),
  /**
   * Extraction unit: consecutive leaves of the chunk tree are analysed together in one call, up to this many tokens
   * of text (never above what the run's num_ctx carries; num_ctx is planned to carry it). The tree keeps its leaves
   * for display, navigation and grounding; a unit is what one call reads and what a resume redoes. Fewer, larger calls
   * repeat the instructions and the reply overhead less often (see docs/model-time.md for the measurement behind the
   * default); a small model may find fewer findings in larger units, so `npm run eval` compares sizes. Absent in runs
   * stored before units existed: one leaf per call, as those runs were made.
   */
  unitTokens: positiveInt.optional(),
  /**
   * Where the model calls go (issue 29): one endpoint, or a pool whose files are spread over its endpoints. Absent:
   * one Ollama at `host`, one file at a time, as before endpoints existed. Keys are stored only by reference.
   */
  endpoints: z.array(endpointSettingsSchema).min(1).optional(),
});

/** What a run is asked to do. Stored with the run so a resume and a report use exactly the same settings. */
export const runSettingsSchema = z.object({
  /** 'rules-only': ingest, chunk tree, ID mentions; no LLM. 'full': the whole pipeline. */
  mode: z.enum(RUN_MODES),
  chunking: chunkingSchema,
  idPatterns: z.array(z.object({ name: z.string().min(1), source: z.string().min(1), caseSensitive: z.boolean().optional() })),
  strategy: z.enum(STRATEGY_CHOICES),
  /** Ask the LLM judge for the strategy when `strategy` is 'auto'. */
  judge: z.boolean(),
  profile: extractionProfileSchema,
  llm: runLlmSettingsSchema,
  /** Pages without a usable text layer: 'auto' reads them with OCR, 'off' leaves them out, 'force' OCRs every page. Absent (runs stored before OCR): 'auto'. */
  ocr: z.enum(OCR_MODES).optional(),
  /** OCR languages (tesseract codes, the first is the main one), each with its `@tesseract.js-data` package installed. Absent (runs stored before languages): English. */
  ocrLanguages: ocrLanguagesSchema.optional(),
});

export type RunSettings = z.output<typeof runSettingsSchema>;
export type RunLlmSettings = RunSettings['llm'];

/** A stored row is loose at the top: a host may store its own context with the run (the app's `app` block), kept for the report. */
export const storedRunSettingsSchema = runSettingsSchema.loose();
export type StoredRunSettings = z.output<typeof storedRunSettingsSchema>;

/** The defaults of a run's LLM settings. */
export const DEFAULT_RUN_LLM_SETTINGS: RunLlmSettings = {
  models: {},
  cache: true,
  desiredChunkTokens: 1500,
  replyTokens: 2048,
  unitTokens: 4000,
  maxInFlight: 1,
};

/** The defaults table: what a run does where nobody chose otherwise (the app's Settings start from these too). */
export const DEFAULT_RUN_SETTINGS = {
  mode: 'full',
  chunking: {},
  idPatterns: [...DEFAULT_ID_PATTERNS],
  strategy: 'auto',
  judge: true,
  profile: DEFAULT_PROFILE,
  ocr: 'auto',
  ocrLanguages: [...DEFAULT_OCR_LANGUAGES],
  llm: DEFAULT_RUN_LLM_SETTINGS,
} satisfies RunSettings;

/** Run settings over the defaults table (the LLM block merged field by field). */
export function defaultRunSettings(overrides: Partial<RunSettings> = {}): RunSettings {
  return {
    ...DEFAULT_RUN_SETTINGS,
    idPatterns: [...DEFAULT_RUN_SETTINGS.idPatterns],
    ocrLanguages: [...DEFAULT_OCR_LANGUAGES],
    ...overrides,
    llm: { ...DEFAULT_RUN_LLM_SETTINGS, ...overrides.llm },
  };
}

/**
 * What a run is made from, under the app's Settings names: the app passes its
 * settings as they are, the CLI its options (what an option does not set
 * falls back to the defaults table). Models are per stage, null or absent for
 * automatic; `default` (CLI --model) is for every stage without its own.
 */
export type RunChoices = Partial<
  Pick<
    AppSettings,
    'ollamaHost' | 'strategy' | 'useJudge' | 'chunkTokens' | 'profile' | 'idPatterns' | 'ocrMode' | 'ocrLanguages' | 'endpoints' | 'contextPolicy'
  >
> & {
  models?: Partial<Record<LlmStage | 'default', string | null>>;
};

/** What belongs to one run rather than to the settings: its mode and the options only the CLI offers. */
export interface RunRequest {
  mode: RunMode;
  unitTokens?: number;
  cache?: boolean;
  summaryMapModel?: string;
}

/**
 * The one function from chosen settings to a run's settings, used by the host
 * (app Settings) and the CLI (its options), so the same choices make the same
 * run wherever it is started.
 */
export function runSettingsFrom(choices: RunChoices, run: RunRequest): RunSettings {
  const models: RunLlmSettings['models'] = {};
  for (const [stage, model] of Object.entries(choices.models ?? {}) as [LlmStage | 'default', string | null | undefined][]) {
    if (model) models[stage] = model;
  }
  // The reviewer of an LLM tree split works on the same text as the splitter: it uses the split model unless given its own.
  if (models.split && !models.review) models.review = models.split;
  const host = choices.ollamaHost?.trim();
  const profile = choices.profile ?? DEFAULT_PROFILE;
  const contextPolicy = choices.contextPolicy;
  return defaultRunSettings({
    mode: run.mode,
    ...(choices.strategy === undefined ? {} : { strategy: choices.strategy }),
    ...(choices.useJudge === undefined ? {} : { judge: choices.useJudge }),
    ...(choices.ocrMode === undefined ? {} : { ocr: choices.ocrMode }),
    ...(choices.ocrLanguages === undefined ? {} : { ocrLanguages: [...choices.ocrLanguages] }),
    profile,
    // ID patterns set on their own win; else the profile's, which are also what extraction is told to look for.
    idPatterns: choices.idPatterns && choices.idPatterns.length > 0 ? choices.idPatterns : [...profile.idPatterns],
    llm: {
      ...DEFAULT_RUN_LLM_SETTINGS,
      models,
      ...(choices.chunkTokens === undefined ? {} : { desiredChunkTokens: choices.chunkTokens }),
      ...(run.unitTokens === undefined ? {} : { unitTokens: run.unitTokens }),
      ...(run.cache === undefined ? {} : { cache: run.cache }),
      ...(run.summaryMapModel ? { summaryMapModel: run.summaryMapModel } : {}),
      ...(host ? { host } : {}),
      ...(choices.endpoints && choices.endpoints.length > 0 ? { endpoints: choices.endpoints } : {}),
      ...(contextPolicy?.mode === 'fixed' ? { numCtx: contextPolicy.numCtx } : {}),
    },
  });
}
