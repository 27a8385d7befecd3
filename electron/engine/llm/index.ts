/**
 * The LLM layer: everything the engine needs to talk to a local Ollama.
 * One client per engine (createLlmClient); the pipeline plans one num_ctx per
 * run (planContext), probes before the run, then calls chatJson/chatText/embed.
 */
export { createLlmClient, type LlmClient, type LlmClientDeps, type LlmEndpoint, type EmbedRequest } from './client';
export type { ChatJsonRequest, ChatRequestBase } from './chat';
export type { ProbeResult } from './probe';
export { resolveEndpoint, type KeySource } from './endpoint';
export { planContext, fitsContext, type PlanContextInput, type ContextPlan } from './budget';
export { buildMessages, delimitDocument, escapeDelimiters, DATA_NOTICE, type BuildMessagesInput } from './prompt';
export { chatJsonPrompt, jsonPromptMessages, promptText, type JsonCallOptions, type JsonPrompt } from './jsonPrompt';
export { toOllamaFormat, describeSchema, parseJsonReply, validateReply } from './schema';
export { completeListEntries, completeString, valueStart, type ListEntry, type PartialList } from './partialReply';
export { createEstimator, rawTokenEstimate, type TokenEstimator } from './estimator';
export { resolveHost, normalizeHost, DEFAULT_OLLAMA_HOST } from './host';
export {
  lastLlmCallRowId,
  llmUsageSince,
  listLlmCalls,
  llmCallIdsAfter,
  llmCallStats,
  runTokensPerSecond,
  type LlmCallRecord,
  type LlmCallOutcome,
  type LlmCallStats,
} from './store';
export { findInstalled, resolveModelsFrom, sameModel, type InstalledModel, type ModelInfo, type ResolvedModels, type ResolveModelsInput } from './models';
export { classifyError, isRunWideLlmError, type Classified, type ErrorClass } from './errors';
export {
  DEFAULT_LLM_SETTINGS,
  LLM_STAGES,
  mergeSettings,
  type ChatMessage,
  type LlmLogger,
  type LlmPurpose,
  type LlmSettings,
  type LlmStage,
  type RetrySettings,
  type WatchdogSettings,
} from './types';
