export { executeRun, startRun, type RunControl, type RunDeps, type RunOutcome } from './runner';
export { DEFAULT_RUN_LLM_SETTINGS, defaultRunSettings, fromStoredSettings, stableHash, type RunLlmSettings, type RunMode, type RunSettings, type StrategyChoice } from './settings';
export { prepareLlmRun, type LlmRunPlan } from './llmPlan';
