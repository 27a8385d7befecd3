/**
 * Each list of modes, statuses, phases, strategies and LLM stages, defined
 * once: the contract's schemas, the CLI's options, the LLM plan and the stored
 * run settings use these, and a test keeps the migrations' CHECK lists in step
 * with them (a shipped migration is never edited, so a new value needs a new one).
 */

/** 'rules-only': ingest, chunk tree, ID mentions; no LLM. 'full': the whole pipeline. */
export const RUN_MODES = ['rules-only', 'full'] as const;
export type RunMode = (typeof RUN_MODES)[number];

export const RUN_STATUSES = ['queued', 'running', 'paused', 'cancelled', 'failed', 'done'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * An input's phases in the order they run (pipeline/runner.ts, then analyzeDocument): each is reported as it starts, and
 * the window's progress bar places them in this order (host/progress.ts PHASE_SPANS). 'ocr': reading pages without a
 * usable text layer from their images, page by page (a phase of its own: it takes seconds a page). 'rules': the ID
 * mentions the document prints. 'tree': the chunk tree, the judge's choice of strategy and the LLM tree split
 * included. Rules-only mode ends after 'tree'.
 */
export const RUN_PHASES = ['ingest', 'ocr', 'rules', 'tree', 'extract', 'merge', 'completeness', 'summary', 'done'] as const;
export type RunPhase = (typeof RUN_PHASES)[number];

/** The deterministic chunk-tree strategies (no model). */
export const CHUNK_STRATEGIES = ['outline', 'headings', 'pages', 'sentences'] as const;
export type ChunkStrategy = (typeof CHUNK_STRATEGIES)[number];

/** What a chunk tree can be built with: the deterministic strategies and the LLM tree split (what the judge chooses from). */
export const TREE_STRATEGIES = [...CHUNK_STRATEGIES, 'llm-tree'] as const;
export type TreeStrategy = (typeof TREE_STRATEGIES)[number];

/** What a user chooses: a tree strategy, or 'auto' (the judge, or without it the deterministic rules, decide). */
export const STRATEGY_CHOICES = ['auto', ...TREE_STRATEGIES] as const;
export type StrategyChoice = (typeof STRATEGY_CHOICES)[number];

/** The LLM stages of an analysis run, each of which may use its own model. */
export const PIPELINE_STAGES = ['judge', 'split', 'review', 'extract', 'summary'] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

/** Every stage that calls a model: the run's, question answering and embeddings. */
export const LLM_STAGES = [...PIPELINE_STAGES, 'qa', 'embed'] as const;
export type LlmStage = (typeof LLM_STAGES)[number];

/**
 * The stages Settings picks a model for: one list, a subset of LLM_STAGES
 * (the compiler checks it). Not 'review': the tree split's reviewer works on
 * the splitter's text and takes the split model (shared/runSettings.ts,
 * runSettingsFrom); not 'qa': Ask resolves its chat model itself (retrieval
 * resolveAskModels).
 */
export const MODEL_STAGES = ['judge', 'split', 'extract', 'summary', 'embed'] as const satisfies readonly LlmStage[];
export type ModelStage = (typeof MODEL_STAGES)[number];

/** Why an LLM call was made (the call log's `purpose`): a stage, or the load-only probe before a run. */
export const LLM_PURPOSES = [...LLM_STAGES, 'probe'] as const;
export type LlmPurpose = (typeof LLM_PURPOSES)[number];
