export { executeRun, startRun, type RunControl, type RunDeps, type RunOutcome } from './runner';
export { DEFAULT_RUN_LLM_SETTINGS, defaultRunSettings, stableHash, type RunLlmSettings, type RunMode, type RunSettings, type StrategyChoice } from './settings';
export { prepareLlmRun, type LlmRunPlan } from './llmPlan';
export {
  isPasswordFailure,
  MAX_PASSWORD_ATTEMPTS,
  needsPassword,
  oneTimePassword,
  requeueForPassword,
  withPassword,
  type PasswordRequest,
  type PasswordSource,
} from './passwords';
export { markEnded, markRunning, reopenRun, stopIdleRun } from './runStatus';
export { arrivingFindings } from './arrivingFindings';
