/** Types shared by the LLM layer's modules and its callers. */

import type { LlmStage } from '../../../shared/pipeline';

export { LLM_STAGES, type LlmPurpose, type LlmStage } from '../../../shared/pipeline';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface RetrySettings {
  /** Tries in total, the first included (at most 4: a server that keeps failing is not coming back soon). */
  maxAttempts: number;
  /** Delay before retry n is baseDelayMs * 2^(n-1), capped: 1, 2, 4, 8 s. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** +- fraction of the delay drawn at random so parallel clients do not retry in lock step. */
  jitter: number;
}

export interface WatchdogSettings {
  /** Allowed before the first frame regardless of prompt size (covers a cold model load). */
  firstTokenBaseMs: number;
  /** The slowest prefill we accept, tokens per second; adds promptTokens / rate to the first-token limit. */
  minPrefillTokensPerSec: number;
  /** Longest silence between two frames once streaming started. */
  idleMs: number;
  /** Whole call, first byte to done frame. */
  deadlineMs: number;
  /**
   * After a call timed out: how long the server has to answer a liveness check (its version or model list). A server
   * that does not is gone (a machine switched off answers nothing, not even a refusal): the call fails at once as
   * unreachable instead of waiting out the watchdog again on every retry. Default DEFAULT_LIVENESS_MS.
   */
  livenessMs?: number;
}

export const DEFAULT_LIVENESS_MS = 15_000;

export interface LlmSettings {
  host?: string;
  /** Per-stage model choice; missing stages fall back to defaultModel, then to the recommended list. */
  models: Partial<Record<LlmStage, string>>;
  defaultModel?: string;
  /** Requests in flight at once. 1 = one at a time, in order (a local Ollama serves one request per model at a time by default). */
  maxInFlight: number;
  temperature: number;
  seed: number;
  /** num_predict when a call does not give one. */
  numPredict: number;
  keepAlive: string | number;
  /** Response cache on by default; a call or run can bypass it with `cache: false`. */
  cache: boolean;
  retry: RetrySettings;
  watchdog: WatchdogSettings;
  recommendedModels: string[];
  recommendedEmbedModels: string[];
}

export const DEFAULT_RECOMMENDED_MODELS = ['qwen3:8b', 'llama3.1:8b', 'gemma3:12b', 'qwen2.5:7b', 'mistral:7b', 'gemma3:4b', 'llama3.2:3b'];
export const DEFAULT_RECOMMENDED_EMBED_MODELS = ['nomic-embed-text', 'mxbai-embed-large', 'bge-m3', 'all-minilm'];

export const DEFAULT_LLM_SETTINGS: LlmSettings = {
  models: {},
  maxInFlight: 1,
  temperature: 0,
  seed: 42,
  numPredict: 2048,
  keepAlive: '30m',
  cache: true,
  retry: { maxAttempts: 4, baseDelayMs: 1000, maxDelayMs: 8000, jitter: 0.2 },
  // Generous on purpose: a CPU-only 8B model may need minutes to load and prefill.
  watchdog: { firstTokenBaseMs: 300_000, minPrefillTokensPerSec: 10, idleMs: 120_000, deadlineMs: 60 * 60_000, livenessMs: DEFAULT_LIVENESS_MS },
  recommendedModels: DEFAULT_RECOMMENDED_MODELS,
  recommendedEmbedModels: DEFAULT_RECOMMENDED_EMBED_MODELS,
};

export function mergeSettings(partial: Partial<LlmSettings> | undefined): LlmSettings {
  const p = partial ?? {};
  return {
    ...DEFAULT_LLM_SETTINGS,
    ...p,
    models: { ...DEFAULT_LLM_SETTINGS.models, ...p.models },
    retry: { ...DEFAULT_LLM_SETTINGS.retry, ...p.retry },
    watchdog: { ...DEFAULT_LLM_SETTINGS.watchdog, ...p.watchdog },
  };
}

export interface LlmLogger {
  debug?(message: string, data?: Record<string, unknown>): void;
  info?(message: string, data?: Record<string, unknown>): void;
  warn?(message: string, data?: Record<string, unknown>): void;
  error?(message: string, data?: Record<string, unknown>): void;
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;
