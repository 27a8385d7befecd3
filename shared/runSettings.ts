/**
 * A run's settings as stored with the run (runs.settings_json): parsed with
 * this schema once, where the store reads the row, so the runner, the reports
 * and the host get typed settings or a clear error for an old or damaged row,
 * never a silent cast.
 */
import { z } from 'zod';
import { CHUNK_STRATEGIES, LLM_STAGES, RUN_MODES, STRATEGY_CHOICES } from './pipeline';
import { OCR_MODES, ocrLanguagesSchema } from './ocr';
import { ENDPOINT_KINDS } from './endpoints';
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
  host: z.string().optional(),
  models: z.partialRecord(z.enum([...LLM_STAGES, 'default']), z.string().min(1)),
  summaryMapModel: z.string().min(1).optional(),
  cache: z.boolean(),
  desiredChunkTokens: positiveInt,
  replyTokens: positiveInt,
  maxInFlight: positiveInt,
  numCtx: positiveInt.optional(),
  /** Extraction unit size in tokens; absent in runs stored before units (they resume one leaf per call). */
  unitTokens: positiveInt.optional(),
  /** Inference endpoints of the run (issue 29); absent: one Ollama at `host`. */
  endpoints: z.array(endpointSettingsSchema).min(1).optional(),
});

/** Loose at the top: a host may store its own context with the run (the app's `app` block), kept for the report. */
export const runSettingsSchema = z.looseObject({
  mode: z.enum(RUN_MODES),
  chunking: chunkingSchema,
  idPatterns: z.array(z.object({ name: z.string().min(1), source: z.string().min(1), caseSensitive: z.boolean().optional() })),
  strategy: z.enum(STRATEGY_CHOICES),
  judge: z.boolean(),
  profile: extractionProfileSchema,
  llm: runLlmSettingsSchema,
  /** Absent in runs stored before OCR (they read as 'auto'). */
  ocr: z.enum(OCR_MODES).optional(),
  /** Absent in runs stored before OCR languages (they read English). */
  ocrLanguages: ocrLanguagesSchema.optional(),
});

export type StoredRunSettings = z.output<typeof runSettingsSchema>;
