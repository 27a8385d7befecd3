/**
 * A run's settings are defined once, in shared/runSettings.ts: the zod schema
 * with the type inferred from it, the defaults table, and runSettingsFrom (the
 * one function the host and the CLI make a run's settings with). The engine
 * takes them from there; this is the pipeline module's name for them.
 */
export { DEFAULT_RUN_LLM_SETTINGS, defaultRunSettings, type RunLlmSettings, type RunSettings } from '../../../shared/runSettings';
export type { RunMode, StrategyChoice } from '../../../shared/pipeline';
export { stableHash } from '../util';
