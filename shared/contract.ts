/**
 * The contract between the renderer and the engine host. Every command is
 * `domain.verb`, its input a zod schema the host parses before touching the
 * engine, its result `Result<T>` (see errors.ts). Events the host pushes are
 * `domain.noun`. The desktop app's preload and the dev/test WebSocket bridge
 * both expose exactly this, nothing more.
 *
 * Views read everything through these commands; findings, split attempts,
 * the judge's decision, summaries and chunk results come from the tables the
 * pipeline writes (the host takes providers to substitute fixed data in tests).
 */
import { z } from 'zod';
import type { ErrorInfo } from './errors';
import type { CommandName } from './channels';
import { OCR_MODES, ocrLanguagesSchema } from './ocr';
import type { ChunkNode, ChunkOrigin, ProgressEvent, RunPhase, RunStatus } from './types';
import type { CompletenessVerdict } from './completeness';
import type { ReviewState } from './review';
import type { VerdictSummary } from './runOutcome';
import { EDITABLE_FIELDS, REVIEW_STATES, type EditableField, type ReviewView, type TrailEntry } from './review';
import { extractionProfileSchema } from './profileSchema';
import type { IdOrigin, MergeConflictDraft } from './findings';
import { MAX_QUESTION_CHARS, retrievalSettingsSchema, type AskEvent, type ConversationMessage, type ConversationSummary } from './retrieval';
import { MODEL_STAGES, RUN_MODES, STRATEGY_CHOICES, type ModelStage } from './pipeline';
import { REPORT_FORMATS } from './reportFormats';
import { endpointSettingsSchema } from './runSettings';
import type { EndpointKind } from './endpoints';
import type { KeyStorageStatus } from './keyStorage';
import { COMPARE_FORMATS, type CompareExportResult, type Comparison } from './compare';
import { RECONCILE_FORMATS, TIE_OUT_ACTIONS, type PopulationPreview, type Reconciliation, type ReconcileExportResult } from './reconcile';

const id = z.number().int().positive();
const empty = z.object({}).strict();

// The stages that may each use their own model are pipeline.ts's MODEL_STAGES (one stage list); re-exported for the contract's users.
export { MODEL_STAGES, type ModelStage } from './pipeline';

export const idPatternSchema = z
  .object({
    name: z.string().min(1).max(64),
    source: z
      .string()
      .min(1)
      .max(500)
      .refine(
        (source) => {
          try {
            new RegExp(source, 'u');
            return true;
          } catch {
            return false;
          }
        },
        { message: 'not a valid regular expression' },
      ),
    caseSensitive: z.boolean().optional(),
  })
  .strict();

export const contextPolicySchema = z
  .object({
    /** auto: the run plans one num_ctx from the models' limits and the chunk sizes; fixed: always `numCtx`. */
    mode: z.enum(['auto', 'fixed']),
    numCtx: z.number().int().min(512).max(1_048_576),
  })
  .strict();

export const runModeSchema = z.enum(RUN_MODES);
export type RunMode = z.infer<typeof runModeSchema>;

export { STRATEGY_CHOICES };
export const strategyChoiceSchema = z.enum(STRATEGY_CHOICES);
export type StrategyChoiceSetting = z.infer<typeof strategyChoiceSchema>;

export { OCR_MODES };
export const ocrModeSchema = z.enum(OCR_MODES);
export type OcrMode = z.infer<typeof ocrModeSchema>;

export const settingsSchema = z
  .object({
    /** Where Ollama listens; empty = OLLAMA_HOST or http://127.0.0.1:11434. */
    ollamaHost: z.string().max(500),
    /** Model per stage; null = automatic (first installed recommended model). */
    models: z
      .object(Object.fromEntries(MODEL_STAGES.map((s) => [s, z.string().min(1).max(200).nullable()])) as Record<ModelStage, z.ZodNullable<z.ZodString>>)
      .strict(),
    contextPolicy: contextPolicySchema,
    /** Empty = the built-in patterns. */
    idPatterns: z.array(idPatternSchema).max(100),
    reviewerName: z.string().max(200),
    /** full: judge, tree, LLM extraction, merge and summary; rules-only: tree and ID mentions, no LLM. */
    analysisMode: runModeSchema,
    /** How the chunk tree is cut; auto lets the judge (or the deterministic rules) choose. */
    strategy: strategyChoiceSchema,
    /** Ask the LLM judge for the strategy when `strategy` is auto. */
    useJudge: z.boolean(),
    /** Chunk size a run aims at, in tokens (the planned context may make it smaller, never larger). */
    chunkTokens: z.number().int().min(128).max(32_768),
    /** What counts as a finding, types, severity scale and ID patterns; null = the built-in audit profile. */
    profile: extractionProfileSchema.nullable(),
    /** Pages without a usable text layer: auto reads them with OCR (offline), off leaves them out, force reads every page with OCR. */
    ocrMode: ocrModeSchema,
    /** OCR languages, tesseract codes in order (the first is the main one); each must have its data package installed (`ocr.languages`). */
    ocrLanguages: ocrLanguagesSchema,
    /** Ask the documents: relevance threshold, the retrieval judge and its rounds (the embedding model is models.embed). */
    retrieval: retrievalSettingsSchema,
    /**
     * Inference endpoints (Settings › Inference, issue 29): empty = the one Ollama of `ollamaHost`. Keys are kept by
     * the operating system's keychain (safeStorage) under each endpoint's `keyRef`, never in these settings.
     */
    endpoints: z.array(endpointSettingsSchema).max(16),
  })
  .strict();

export type AppSettings = z.infer<typeof settingsSchema>;
export type IdPatternSetting = z.infer<typeof idPatternSchema>;

/** A file to import: a path the host can read (Electron, CLI), or the bytes themselves (drag and drop in a browser). */
export const importFileSchema = z.union([
  z.object({ path: z.string().min(1).max(4096) }).strict(),
  z
    .object({
      name: z.string().min(1).max(255),
      /** The file's bytes, base64. */
      bytes: z.string().max(700_000_000),
    })
    .strict(),
]);
export type ImportFile = z.infer<typeof importFileSchema>;

export { REPORT_FORMATS };
export type ReportFormatName = (typeof REPORT_FORMATS)[number];

const reviewText = (max: number) => z.string().max(max);
const editValues = z
  .object(
    Object.fromEntries(
      EDITABLE_FIELDS.map((f) => [
        f,
        z
          .string()
          .max(f === 'description' ? 20_000 : 500)
          .nullable()
          .optional(),
      ]),
    ) as Record<EditableField, z.ZodOptional<z.ZodNullable<z.ZodString>>>,
  )
  .strict();

export const commands = {
  /** The app's version, where its data lives, and which transport the UI is on. */
  'app.info': { input: empty },
  /** The persisted settings, defaults filled in. */
  'settings.get': { input: empty },
  /** Changes some settings (the others stay) and returns all of them. */
  'settings.update': { input: settingsSchema.partial().strict() },
  /** Is Ollama reachable at `host` (default: the saved host), which version, which models; with guidance when something is missing. */
  'ollama.check': { input: z.object({ host: z.string().max(500).optional() }).strict() },
  /** Settings › Inference: does this endpoint answer (with its key), which models, what context; a warning for plain http to another machine. */
  'endpoints.check': {
    input: z
      .object({
        endpoint: endpointSettingsSchema,
        /** A key typed in Settings and not stored yet: this check uses it instead of the stored one (it is never kept). */
        apiKey: z.string().min(1).max(4096).optional(),
      })
      .strict(),
  },
  /** Keeps an endpoint's API key with the operating system's keychain (Electron safeStorage) under `keyRef`; an empty key removes it. */
  'endpoints.setKey': { input: z.object({ keyRef: z.string().min(1).max(100), key: z.string().max(4096) }).strict() },
  /** Whether a key typed in Settings can be stored safely here (no keyring on Linux: Electron's basic_text), and what to do if not. */
  'endpoints.keyStorage': { input: empty },
  /**
   * Checks files (non-PDF and unreadable ones are rejected with the reason),
   * stores uploaded bytes under the data folder, and starts one run over the
   * accepted ones. Rejections never stop the others.
   */
  'documents.import': { input: z.object({ files: z.array(importFileSchema).min(1).max(500), mode: runModeSchema.optional() }).strict() },
  /** Every stored document with pages, status, findings count and last run. */
  'documents.list': { input: empty },
  /** Starts a run over file paths; answers at once with its id, progress follows as `run.progress` events. */
  'runs.start': { input: z.object({ files: z.array(z.string().min(1).max(4096)).min(1).max(500), mode: runModeSchema.optional() }).strict() },
  /** Stops a run; what was done stays and the run can be resumed. */
  'runs.cancel': { input: z.object({ runId: id }).strict() },
  /** Stops a run to continue later (status `paused`); resume picks it up at the first unfinished input. */
  'runs.pause': { input: z.object({ runId: id }).strict() },
  /** Continues a cancelled, paused or interrupted run. */
  'runs.resume': { input: z.object({ runId: id }).strict() },
  /** Every run, newest first, with its inputs and their status, errors and warnings. */
  'runs.list': { input: empty },
  /** A run's stored event log (warnings, errors). */
  'runs.events': { input: z.object({ runId: id }).strict() },
  /** A document's current chunk tree (all nodes, pre-order), or null before its tree is built. */
  'tree.get': { input: z.object({ documentId: id }).strict() },
  /** The text of one node with the ranges to highlight (ID mentions now, findings' evidence once stored). */
  'chunk.text': { input: z.object({ documentId: id, nodeIndex: z.number().int().min(0) }).strict() },
  /** Every LLM tree-split attempt for a document (failed ones included). */
  'splitAttempts.list': { input: z.object({ documentId: id }).strict() },
  /** Merged findings, for one document or all. */
  'findings.list': { input: z.object({ documentId: id.optional(), runId: id.optional() }).strict() },
  /** ID mentions the rules found in a document, grouped by ID, with pages. */
  'mentions.list': { input: z.object({ documentId: id }).strict() },
  /**
   * What a full analysis stored for a document (its latest analysed run unless `runId`): the judge's decision,
   * the summary, every chunk's status (done, failed, queued...), the failed chunks and the unreviewed ID mentions.
   */
  'documents.analysis': { input: z.object({ documentId: id, runId: id.optional() }).strict() },
  /**
   * Writes the audit report of a run (or one of its documents) to the exports folder under the data folder and
   * says where it went. `confirmedOnly` lists only findings an auditor confirmed. In the desktop app `saveAs`
   * also asks where to save a copy (main shows the dialog; the host never does).
   */
  'reports.export': {
    input: z
      .object({
        runId: id,
        documentId: id.optional(),
        format: z.enum(REPORT_FORMATS),
        confirmedOnly: z.boolean().optional(),
        outlineDepth: z.number().int().min(1).max(10).optional(),
        saveAs: z.boolean().optional(),
      })
      .strict(),
  },
  /** A document's review (carried over to its newest analysed run first): reviewed findings in document order, counters, evidence context. */
  'review.get': { input: z.object({ documentId: id }).strict() },
  /** Sets a finding's review state; `rejected` needs a reason. Needs the reviewer name from the settings (as every review change). */
  'review.setState': { input: z.object({ reviewedId: id, state: z.enum(REVIEW_STATES), reason: reviewText(2000).optional() }).strict() },
  /** Edits fields (null or the model's value removes the edit); the model's values are kept beside the edit. */
  'review.edit': { input: z.object({ reviewedId: id, values: editValues }).strict() },
  'review.note': { input: z.object({ reviewedId: id, text: reviewText(5000).min(1) }).strict() },
  /** Adopts a re-run's changed model values as the new originals (the auditor has seen them). */
  'review.acknowledge': { input: z.object({ reviewedId: id }).strict() },
  /** Moves the chosen sources (raw finding ids) out into a new reviewed finding. */
  'review.split': { input: z.object({ reviewedId: id, findingIds: z.array(id).min(1).max(500) }).strict() },
  /** Merges `absorbId` into `keepId` (same document): sources and notes move, the absorbed finding stays readable in the trail. */
  'review.merge': { input: z.object({ keepId: id, absorbId: id }).strict() },
  /** A finding the model missed, from a selection of the canonical text [start, end): grounded by construction. */
  'review.addManual': {
    input: z
      .object({
        documentId: id,
        start: z.number().int().min(0),
        end: z.number().int().min(1),
        title: z.string().min(1).max(500),
        severity: z.string().max(100),
        type: z.string().max(100),
        description: z.string().max(20_000),
      })
      .strict(),
  },
  /** Undo of a note (issue 16): the note goes, the trail keeps it added and removed. */
  'review.removeNote': { input: z.object({ noteId: id }).strict() },
  /** Undo of a split (issue 16): the finding split out goes back into the one it came from. */
  'review.undoSplit': { input: z.object({ reviewedId: id }).strict() },
  /** Undo of a merge (issue 16): the absorbed finding gets back its sources and notes and is listed again. */
  'review.unmerge': { input: z.object({ absorbId: id }).strict() },
  /** The append-only trail of one reviewed finding, or of a whole document. */
  'review.trail': { input: z.union([z.object({ reviewedId: id }).strict(), z.object({ documentId: id }).strict()]) },
  // Ask the documents (issue 17)
  /**
   * Asks a question about some documents (none = the whole library); answers at once with an id, then the
   * steps (index, retrieve, judge, answer) and the answer arrive as `ask.event` events. The exchange is
   * stored in `conversationId`, or in a new conversation of the document (one given) or of the library.
   */
  'ask.start': {
    input: z
      .object({
        question: z
          .string()
          .trim()
          .min(1)
          .max(MAX_QUESTION_CHARS, `A question takes at most ${MAX_QUESTION_CHARS} characters: ask one thing at a time, quoting only the words you need.`),
        documentIds: z.array(id).max(500).optional(),
        conversationId: id.optional(),
        /** false: answer from the search ranking without the retrieval judge. */
        judge: z.boolean().optional(),
        maxRounds: z.number().int().min(1).max(5).optional(),
        /** Relevance a passage needs (0..1) to be used. */
        threshold: z.number().min(0).max(1).optional(),
      })
      .strict(),
  },
  /** Stops a question being answered (nothing is stored for it). */
  'ask.cancel': { input: z.object({ askId: z.string().min(1).max(100) }).strict() },
  /** Stored conversations, newest first: of one document, or all. */
  'conversations.list': { input: z.object({ documentId: id.optional() }).strict() },
  /** One conversation with its questions and answers (citations, judge steps). */
  'conversations.get': { input: z.object({ conversationId: id }).strict() },
  /** Writes a conversation as Markdown or HTML (escaped) to the exports folder and says where. */
  'conversations.export': { input: z.object({ conversationId: id, format: z.enum(['md', 'html']) }).strict() },
  /**
   * Retries one input of a run that failed for want of a password (PDF_ENCRYPTED) or with a wrong one
   * (PDF_PASSWORD_WRONG), with the password the user typed. The password opens that file once and is never stored;
   * a wrong one fails the input again with PDF_PASSWORD_WRONG. Answers at once; progress follows as for runs.resume.
   */
  'runs.unlock': { input: z.object({ runId: id, ordinal: z.number().int().min(0), password: z.string().min(1).max(1024) }).strict() },
  /** The words OCR read on one page (empty for a page with a text layer): boxes as page fractions, offsets into the canonical text, for a page viewer. */
  'pages.ocrWords': { input: z.object({ documentId: id, pageNumber: z.number().int().min(1) }).strict() },
  /**
   * A document's completeness verdict (issue 19): what it states about its own findings against what was found,
   * with every place to check and its page. From its latest run that checked it, unless `runId`.
   */
  'completeness.get': { input: z.object({ documentId: id, runId: id.optional() }).strict() },
  // Workspace (issue 16)
  /** The document's original file (for the source page beside a finding); refused when the file changed since it was read. */
  'documents.file': { input: z.object({ documentId: id }).strict() },
  /** What a document's latest analysis left out: its pages without text or unreadable, and chunks that failed. */
  'documents.health': { input: z.object({ documentId: id }).strict() },
  /** A short sample audit report (a real PDF) for the first-run screen: the renderer imports it like a dropped file. */
  'documents.sample': { input: empty },
  /** Findings of a document's run in progress, chunk by chunk as they are committed, before they are merged. */
  'findings.arriving': { input: z.object({ documentId: id }).strict() },
  /** Opens an exported report, or shows it in its folder (desktop app only: main does it, for files an export produced). */
  'reports.reveal': { input: z.object({ path: z.string().min(1).max(4096), action: z.enum(['open', 'show']) }).strict() },
  // OCR (issue 18)
  /** A document's pages read by OCR, with their mean confidence and whether it is low (quotes from them may be misread). */
  'documents.ocrPages': { input: z.object({ documentId: id }).strict() },
  /** The OCR languages whose data is installed on this computer (npm packages `@tesseract.js-data/<code>`), for Settings. */
  'ocr.languages': { input: empty },
  /**
   * What a "find all ..." answer offers: starts a full run (the saved extraction profile over every chunk) on these
   * documents, or on every document of the library when none is given. Answers at once with the run.
   */
  'ask.extractAll': { input: z.object({ documentIds: z.array(id).max(500).optional() }).strict() },
  /**
   * Compares the stored analyses of an earlier and a later version of a report (issue 30): findings paired and
   * labelled, the later one's stated statuses, candidates for the auditor. Stored, and answered with the result.
   * `rules-only` pairs by printed IDs even when a model analysis exists.
   */
  'compare.run': { input: z.object({ earlierDocumentId: id, laterDocumentId: id, mode: z.enum(['auto', 'rules-only']).optional() }).strict() },
  /**
   * The auditor's answer to a candidate pair (null takes it back), recorded with the reviewer name from the
   * settings; answers with the comparison computed again.
   */
  'compare.decide': {
    input: z
      .object({
        earlierDocumentId: id,
        laterDocumentId: id,
        earlierKey: z.string().min(1).max(1000),
        laterKey: z.string().min(1).max(1000),
        decision: z.enum(['confirmed', 'rejected']).nullable(),
        mode: z.enum(['auto', 'rules-only']).optional(),
      })
      .strict(),
  },
  /** Writes a stored comparison as a report (Markdown, HTML, PDF, CSV or JSON: docs/compare.schema.json) to the exports folder and says where. */
  'compare.export': { input: z.object({ comparisonId: id, format: z.enum(COMPARE_FORMATS) }).strict() },
  /**
   * Reads a population (issue 41: a tracker's export, CSV or XLSX; a path, or the bytes of a dropped file) to
   * reconcile a document with: its columns, a few rows, and the key and title columns proposed from the IDs the
   * document prints. Stored once per content and sheet; a file that cannot be a population is refused with its
   * code and nothing is stored.
   */
  'reconcile.import': { input: z.object({ documentId: id, file: importFileSchema, sheet: z.string().min(1).max(200).optional() }).strict() },
  /**
   * Ties every row of a stored population to the item the document prints for it (printed ID, a mention of the
   * key, the title), with the exceptions both ways. Columns as chosen (`keyColumn: null`: titles only), else as
   * proposed. Stored, and answered with the tie-out.
   */
  'reconcile.run': {
    input: z
      .object({
        documentId: id,
        populationId: id,
        keyColumn: z.string().min(1).max(500).nullable().optional(),
        titleColumn: z.string().min(1).max(500).optional(),
        mode: z.enum(['auto', 'rules-only']).optional(),
      })
      .strict(),
  },
  /**
   * The auditor's review of a stored tie-out: confirm or break a match, match a row to an item by hand, take a
   * decision back, or note why; recorded with the reviewer name of the settings (and in the review trail), kept
   * across re-runs. Answers with the tie-out reconciled again.
   */
  'reconcile.review': {
    input: z
      .object({
        reconciliationId: id,
        action: z.enum(TIE_OUT_ACTIONS),
        rowKey: z.string().min(1).max(2000).optional(),
        itemKey: z.string().min(1).max(2000).optional(),
        text: z.string().max(5000).optional(),
      })
      .strict(),
  },
  /** Writes a stored tie-out as the XLSX workpaper or a report (Markdown, HTML, PDF, CSV, JSON) to the exports folder and says where. */
  'reconcile.export': { input: z.object({ reconciliationId: id, format: z.enum(RECONCILE_FORMATS) }).strict() },
} as const;

export { COMMAND_NAMES, EVENT_CHANNEL, ipcChannel, isCommandName, type CommandName } from './channels';

// The zod-free name list (channels.ts) and the command map must name the same commands.
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _namesMatch: SameKeys<keyof typeof commands, CommandName> = true;
void _namesMatch;
export type CommandInput<C extends CommandName> = z.input<(typeof commands)[C]['input']>;
export type ParsedInput<C extends CommandName> = z.output<(typeof commands)[C]['input']>;

export interface AppInfo {
  version: string;
  dataDir: string;
  dbPath: string;
}

export interface InstalledModelView {
  name: string;
  parameterSize?: string;
  quantization?: string;
  sizeBytes?: number;
  /** An embedding model (offered only for the embed stage). */
  embedding?: boolean;
}

export interface OllamaStatus {
  host: string;
  reachable: boolean;
  version: string | null;
  models: InstalledModelView[];
  /** Chosen models that are not installed. */
  missing: { stage: ModelStage; model: string }[];
  /** Sentences that say what to do; empty when all is well. */
  guidance: string[];
  error: ErrorInfo | null;
  /** What "Automatic" picks per stage on this server (the first installed recommended model); null when none is installed. */
  automatic?: Partial<Record<ModelStage, string | null>>;
  /** The server said it is a stand-in, not a language model (shared/simulator.ts): its description. */
  simulator?: string;
}

export interface EndpointStatus {
  url: string;
  kind: EndpointKind;
  reachable: boolean;
  /** What the server serves (Ollama: installed models; OpenAI-compatible: /v1/models). */
  models: string[];
  /** OpenAI-compatible: the context the run will plan within (the setting, else the server's max_model_len, else the default). */
  contextTokens: number | null;
  /** Requests the server runs at once, where it says so (llama-server's slots); null when it does not. */
  slots: number | null;
  /** Document text would leave the machine unencrypted (plain http to another machine); null otherwise. */
  warning: string | null;
  error: ErrorInfo | null;
}

export interface ImportResult {
  runId: number | null;
  accepted: { name: string; path: string }[];
  rejected: { name: string; error: ErrorInfo }[];
}

export interface RunRef {
  runId: number;
  status: RunStatus;
}

export interface LastRun {
  runId: number;
  status: RunStatus;
  at: string;
}

export interface DocumentSummary {
  id: number;
  fileName: string;
  pageCount: number;
  sha256: string;
  /** Status of the document in its last run ('done', 'failed', 'running'...). */
  status: RunStatus | 'stored';
  /** Merged findings; null until findings are stored for it. */
  findingsCount: number | null;
  /**
   * Of those, the ones known only from a row of the document's own list of findings (its contents or summary
   * table): the model reported nothing for their sections, so the completeness check does not count them as found.
   */
  listedOnlyCount?: number;
  lastRun: LastRun | null;
  error: ErrorInfo | null;
  /**
   * Findings its latest run has reported and not merged yet (the run is working on it, or was paused or cancelled
   * part-way); null when that run merged them or none works on it. The library shows "N so far" from it.
   */
  arrivingCount?: number | null;
  /** Its latest completeness verdict in brief (the badge follows it); null before a full run has checked it. */
  verdict?: VerdictSummary | null;
}

/** Live progress of one input (file) of a run. */
export interface InputProgress {
  phase: RunPhase;
  current: number;
  total: number;
  message: string;
  /** 0..1 of this input's whole analysis (phases weighted by the mode); set on what the host sends. */
  fraction?: number;
  /** The inference endpoint the input is analysed on, in a run with a pool of them (its label). */
  endpoint?: string;
  /** Findings this input has reported so far in the run (before its merge); never falls. */
  findings?: number;
}

export interface RunInputView {
  ordinal: number;
  fileName: string;
  filePath: string;
  documentId: number | null;
  status: RunStatus;
  phase: RunPhase | null;
  error: ErrorInfo | null;
  warnings: ErrorInfo[];
  progress: InputProgress | null;
  /** The completeness verdict this run gave the document, in brief (null until it was checked). */
  verdict?: VerdictSummary | null;
}

export interface RunView {
  id: number;
  mode: string;
  status: RunStatus;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  error: ErrorInfo | null;
  /** True while the host executes it. */
  active: boolean;
  inputs: RunInputView[];
}

export interface RunEventView {
  id: number;
  at: string;
  level: 'info' | 'warn' | 'error';
  phase: RunPhase;
  documentId: number | null;
  message: string;
}

export interface TreeView {
  documentId: number;
  treeId: number;
  strategy: string;
  nodes: ChunkNode[];
}

export type HighlightKind = 'evidence' | 'mention';

export interface Highlight {
  /** [start, end) relative to the chunk's `text`. */
  start: number;
  end: number;
  kind: HighlightKind;
  label: string;
}

export interface ChunkText {
  documentId: number;
  nodeIndex: number;
  title: string;
  origin: ChunkOrigin;
  /** [start, end) of `text` in the canonical text. */
  start: number;
  end: number;
  pageStart: number;
  pageEnd: number;
  text: string;
  highlights: Highlight[];
}

export interface MentionView {
  /** Normalised ID, e.g. TOB-ACME-001. */
  id: string;
  patternName: string;
  pages: number[];
  occurrences: { raw: string; start: number; end: number; page: number }[];
}

export interface FindingSourceView {
  findingId: number;
  documentId: number;
  nodeIndex: number;
  page: number | null;
  evidence: string;
  evidenceStart: number | null;
  evidenceEnd: number | null;
  grounded: boolean;
  isMain: boolean;
}

/** One merged finding as the findings table shows it. */
export interface FindingView {
  id: number;
  documentId: number;
  runId: number;
  /** The document's own ID (TOB-ACME-001), null when it prints none. */
  findingKey: string | null;
  /** The ID as shown: the document's ID or printed number, else the model's label marked as such. */
  idLabel: string;
  /** Where that ID comes from: printed in the document, only the model's label, or none. */
  idOrigin: IdOrigin;
  /** Other findings the document gives the same ID or number, kept apart because they disagree: for the auditor to resolve. */
  conflicts: { kind: MergeConflictDraft['kind']; key: string; otherFindingId: number; otherTitle: string }[];
  title: string;
  severity: string;
  /** 0 = highest on the profile's scale. */
  severityRank: number;
  type: string;
  description: string;
  pages: number[];
  grounded: boolean;
  sources: FindingSourceView[];
  /** The auditor's review state of the finding this merged finding belongs to (null when no review holds it). */
  reviewState?: ReviewState | null;
  /** The fields the auditor edited: title, severity, type and description above are then the auditor's (the effective values). */
  edited?: EditableField[];
}

export interface SplitChapterView {
  chapterIndex: number;
  chapterTitle: string;
  chapterStartLineNumber: number;
}

export interface SplitDiffView {
  /** Offset of the first difference, in the node's text. */
  offset: number;
  expectedContext: string;
  actualContext: string;
}

/** One attempt of the LLM tree split on one node. */
export interface SplitAttemptView {
  id: number;
  documentId: number;
  runId: number | null;
  nodeKey: string;
  nodePath: string[];
  attempt: number;
  outcome: 'accepted' | 'validation_failed' | 'review_failed' | 'invalid_reply' | 'fallback';
  chapters: SplitChapterView[];
  review: { passes: boolean; comments: string } | null;
  validationErrors: string[];
  diff: SplitDiffView | null;
  createdAt: string;
}

export type ChunkStatusView = 'queued' | 'running' | 'done' | 'failed';

export interface ChunkResultView {
  nodeIndex: number;
  status: ChunkStatusView;
  findingCount: number;
  attempts: number;
  error: ErrorInfo | null;
  pageStart: number | null;
  pageEnd: number | null;
  title: string | null;
}

export interface JudgeDecisionView {
  strategy: string;
  /** llm: the model chose; fallback: the deterministic rules after a failed call; override: the user's choice; disabled: the judge was off. */
  source: string;
  justification: string;
  fallbackReason: string | null;
  targetChunkTokens: number;
  overlapChars: number;
  cached: boolean;
  createdAt: string;
  /** The chunk size the run's settings asked for (tokens); null when unknown. The judge's target may be smaller. */
  settingsChunkTokens?: number | null;
}

export interface UnreviewedMentionView {
  /** Normalised ID no merged finding covers. */
  id: string;
  pages: number[];
}

/** What the pipeline stored for one document in one run. */
export interface DocumentAnalysis {
  documentId: number;
  /** The run this describes; null when no run analysed the document with the LLM. */
  runId: number | null;
  /** The tree the chunks of that run belong to (may be older than the current tree). */
  treeId: number | null;
  judge: JudgeDecisionView | null;
  /** `ungroundedIds`: IDs the model-written summary names that no grounded finding has (shown marked). */
  summary: { text: string; chunkCount: number; levels: number; model: string | null; ungroundedIds: string[] } | null;
  chunks: ChunkResultView[];
  counts: Record<ChunkStatusView, number>;
  unreviewedMentions: UnreviewedMentionView[];
}

export interface ExportResult {
  runId: number;
  documentId: number | null;
  format: ReportFormatName;
  confirmedOnly: boolean;
  /** Where the host wrote the report (the exports folder under the data folder). */
  path: string;
  fileName: string;
  bytes: number;
  /** Desktop app with `saveAs`: where the user saved a copy (null when the dialog was cancelled). */
  savedTo?: string | null;
}

/** The main source's evidence in its sentence: a few words each side, on one line. */
export interface EvidenceContext {
  page: number | null;
  before: string;
  text: string;
  after: string;
}

/** Another finding the document gives the same ID or number; kept apart because they disagree. */
export interface IdConflict {
  kind: 'id' | 'number' | 'title';
  key: string;
  otherTitle: string;
  /** The reviewed finding that holds the other one (issue 16: the triage detail opens it), when there is one. */
  otherReviewedId?: number;
  otherLabel?: string;
}

/** A reviewed finding's ID as the triage detail shows it (issue 16). */
export interface ReviewIdentity {
  /** The document's ID or printed number, else the model's label marked as such, else "—". */
  idLabel: string;
  idOrigin: IdOrigin;
  conflicts: IdConflict[];
}

export interface ReviewViewResult extends ReviewView {
  /** Review id -> its evidence in context (null when it has no grounded evidence). */
  context: Record<number, EvidenceContext | null>;
  /** Review id -> where its ID comes from and the findings the document gives the same ID (issue 16). */
  identity: Record<number, ReviewIdentity>;
}

export interface CommandOutputs {
  'compare.run': Comparison;
  'compare.decide': Comparison;
  'compare.export': CompareExportResult;
  'reconcile.import': PopulationPreview;
  'reconcile.run': Reconciliation;
  'reconcile.review': Reconciliation;
  'reconcile.export': ReconcileExportResult;
  'app.info': AppInfo;
  'settings.get': AppSettings;
  'settings.update': AppSettings;
  'ollama.check': OllamaStatus;
  'endpoints.check': EndpointStatus;
  'endpoints.setKey': { keyRef: string; stored: boolean };
  'endpoints.keyStorage': KeyStorageStatus;
  'documents.import': ImportResult;
  'documents.list': DocumentSummary[];
  'runs.start': RunRef;
  'runs.cancel': RunRef;
  'runs.pause': RunRef;
  'runs.resume': RunRef;
  'runs.list': RunView[];
  'runs.events': RunEventView[];
  'tree.get': TreeView | null;
  'chunk.text': ChunkText;
  'splitAttempts.list': SplitAttemptView[];
  'findings.list': FindingView[];
  'mentions.list': MentionView[];
  'documents.analysis': DocumentAnalysis;
  'reports.export': ExportResult;
  'review.get': ReviewViewResult;
  'review.setState': ReviewViewResult;
  'review.edit': ReviewViewResult;
  'review.note': ReviewViewResult & { noteId: number };
  'review.acknowledge': ReviewViewResult;
  'review.split': ReviewViewResult & { createdId: number };
  'review.merge': ReviewViewResult;
  'review.addManual': ReviewViewResult & { createdId: number };
  'review.removeNote': ReviewViewResult;
  'review.undoSplit': ReviewViewResult;
  'review.unmerge': ReviewViewResult;
  'review.trail': TrailEntry[];
  'ask.start': { askId: string };
  'ask.cancel': { askId: string; cancelled: boolean };
  'conversations.list': ConversationSummary[];
  'conversations.get': { summary: ConversationSummary; messages: ConversationMessage[] };
  'conversations.export': { conversationId: number; format: 'md' | 'html'; path: string; fileName: string; bytes: number };
  'runs.unlock': RunRef;
  'pages.ocrWords': OcrWordBox[];
  'completeness.get': CompletenessView;
  'documents.file': DocumentFile;
  'documents.health': DocumentHealth;
  'documents.sample': { name: string; bytes: string };
  'findings.arriving': ArrivingFindings;
  'reports.reveal': { done: boolean; message: string };
  'documents.ocrPages': OcrPageInfo[];
  'ocr.languages': OcrLanguageInfo[];
  'ask.extractAll': { runId: number; files: number; profile: string };
}

/** One page of a document read by OCR. */
export interface OcrPageInfo {
  page: number;
  /** Mean word confidence 0..100; null when OCR found no words (a blank page or a picture). */
  confidence: number | null;
  /** Below the low-confidence threshold: words may be misread. */
  low: boolean;
  /** OCR gave the page text to analyse; false for a page holding only pictures (a logo, a blank page). */
  hasText: boolean;
}

/** An installed OCR language: its tesseract code (eng, deu...) and the name shown to the user. */
export interface OcrLanguageInfo {
  code: string;
  name: string;
}

/** One finding a chunk reported in a run still in progress (merged and reviewable once the run has merged them). */
export interface ArrivingFinding {
  findingId: number;
  findingKey: string | null;
  title: string;
  severity: string;
  severityRank: number;
  page: number | null;
  grounded: boolean;
}

export interface ArrivingFindings {
  /** The document's latest run, while it has not merged the document's findings (working, paused or cancelled part-way); null otherwise. */
  runId: number | null;
  /** Where that run stands with the document: still working on it, or stopped part-way (the findings are kept). */
  inputStatus?: RunStatus;
  findings: ArrivingFinding[];
}

/** One word OCR read on a page. */
export interface OcrWordBox {
  text: string;
  /** 0..100 */
  confidence: number;
  /** [x0, y0, x1, y1] as fractions of the page's width and height, origin top-left, page rotation applied. */
  box: [number, number, number, number];
  /** [start, end) in the document's canonical text. */
  start: number;
  end: number;
}

/** A document's completeness verdict and the run it belongs to; both null before a full run has checked it. */
export interface CompletenessView {
  documentId: number;
  runId: number | null;
  verdict: CompletenessVerdict | null;
}

/** A stored document's original bytes, as read when it was imported. */
export interface DocumentFile {
  documentId: number;
  fileName: string;
  kind: 'pdf' | 'text';
  /** base64 */
  bytes: string;
}

/** What was lost from a document's analysis (the document view's "Done with problems"). */
export interface DocumentHealth {
  documentId: number;
  /** Pages with no text to read: scanned and not read by OCR. */
  pagesWithoutText: number[];
  /** Pages OCR read and found no words on (a picture-only cover, a blank page): noted quietly, nothing was lost. */
  picturePages?: number[];
  unreadablePages: number[];
  failedChunks: number;
  /** The pages the failed chunks cover (named as ranges: "8 parts not analysed (pp. 83-96)"). */
  failedChunkPages?: number[];
}

/** Progress as the host forwards it: the engine's event plus what the window needs to draw bars. */
export interface RunProgressPayload {
  runId: number;
  /** The latest engine event: the input it is about (by ordinal), its phase and counts, and speed and ETA when measured. */
  event: ProgressEvent & { tokensPerSecond?: number; etaSeconds?: number };
  /** 0..1 over all inputs. */
  overall: number;
  /** Seconds left, estimated from the run's pace (or the engine's own estimate); null when unknown. */
  etaSeconds: number | null;
  tokensPerSecond: number | null;
  inputs: RunInputView[];
  /**
   * Working seconds of this execution (since it started or was resumed); null when the run is not executing.
   * Time spent paused or cancelled is never in it. The one elapsed figure every view shows.
   */
  elapsedSeconds?: number | null;
  /** This execution continues a paused or cancelled run (it started part-way). */
  resumed?: boolean;
}

/** What the host pushes. `run.progress` is throttled (about 10 per second per run, the last always delivered). */
export type HostEvent =
  | { type: 'run.progress'; data: RunProgressPayload }
  | { type: 'run.finished'; data: RunView }
  | { type: 'documents.changed'; data: Record<string, never> }
  | { type: 'ask.event'; data: AskEvent };

export type HostEventType = HostEvent['type'];
