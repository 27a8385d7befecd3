/**
 * The simulator's public types: the models it serves, the request a responder sees, faults and options, its
 * counters and handle. index.ts re-exports all of them.
 */
/**
 * What the simulator says it is, in the field real servers never send (shared/simulator.ts): the app then marks every
 * model of a run against it "simulator", so its scripted findings are never taken for a model's.
 */
export const SIM_DESCRIPTION = {
  ollama: "Offline Audit's Ollama simulator",
  openai: "Offline Audit's OpenAI-compatible simulator",
} as const;

export interface SimModel {
  name: string;
  architecture: string;
  contextLength: number;
  capabilities: string[];
  parameterSize: string;
  quantization: string;
  digest: string;
  sizeBytes: number;
  modelfileNumCtx?: number;
  /** bytes of memory needed per 1k tokens of num_ctx, for OOM simulation */
  memoryPerKCtx?: number;
}

export interface SimChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  /** the rendered prompt text the model actually sees (after truncation) */
  prompt: string;
  promptTokens: number;
  /** tokens of the full prompt before truncation */
  fullPromptTokens: number;
  truncated: boolean;
  numCtx: number;
  options: Record<string, unknown>;
  format: unknown;
  think: unknown;
  requestIndex: number;
  /** addition: which endpoint produced the request */
  endpoint: 'chat' | 'generate';
  /** addition: whether the reply is streamed */
  stream: boolean;
  /** addition: prompt tokens actually evaluated (after the prefix cache) */
  evaluatedTokens: number;
}

export type SimReply = string | { content: string; /** optional thinking text */ thinking?: string; doneReason?: 'stop' | 'length' };
export type Responder = (req: SimChatRequest) => SimReply | Promise<SimReply>;

export type Fault =
  | { kind: 'http'; status: number; error: string }
  | { kind: 'modelNotFound' }
  | { kind: 'outOfMemory' }
  | { kind: 'runnerCrash' }
  | { kind: 'loadTimeout' }
  | { kind: 'busy' }
  | { kind: 'invalidSchema' }
  | { kind: 'streamErrorLine'; afterFrames: number; error: string }
  | { kind: 'dropBeforeHeaders' }
  | { kind: 'dropMidStream'; afterFrames: number }
  | { kind: 'noDoneFrame' }
  | { kind: 'slowFirstToken'; ms: number }
  | { kind: 'stall'; afterFrames: number; ms: number }
  | { kind: 'codeFences' }
  | { kind: 'cutJson'; keepChars?: number }
  | { kind: 'splitMultibyte' };

export interface FaultRule {
  fault: Fault;
  /** apply to the Nth chat request (0-based), or the next `times` requests, or with seeded probability */
  onRequest?: number;
  times?: number;
  probability?: number;
  endpoint?: 'chat' | 'embed' | 'any';
  model?: string;
}

export interface SimRates {
  prefillTokensPerSec: number;
  decodeTokensPerSec: number;
  loadSeconds: number;
}

export interface SimOptions {
  version?: string /* default '0.12.11' */;
  models?: SimModel[];
  responder?: Responder;
  rates?: SimRates;
  /** 0 = never sleep (default): simulated time is only counted; 1 = real time; 0.01 = 100x faster */
  timeScale?: number;
  faults?: FaultRule[];
  seed?: number;
  defaultNumCtx?: number /* default 4096 */;
  maxQueue?: number /* pending requests before 503, default 512 */;
  memoryBytes?: number;
  tokenize?: (text: string) => string[];
  // ---- additions ----
  /** port to listen on (default 0 = random) */
  port?: number;
  /** clock used for keep_alive / expires_at (default Date.now); tests can move time forward */
  now?: () => number;
  /** put the last piece of content in the done frame, as newer servers may (default true) */
  contentInDoneFrame?: boolean;
  /**
   * What `prompt_eval_count` reports. 'all' (default, as Ollama's Go runners do: numPromptInputs is
   * set after truncation and before the KV-cache lookup) = every prompt token after truncation,
   * cache hits included; 'evaluated' = only tokens evaluated after the prefix cache.
   */
  promptEvalCountMode?: 'all' | 'evaluated';
  /** OLLAMA_KEEP_ALIVE: default keep_alive when a request sends none (default '5m') */
  defaultKeepAlive?: string | number;
  /** dimension of /api/embed vectors (default 64) */
  embeddingDimension?: number;
}

export interface SimCounters {
  requests: number;
  chatRequests: number;
  embedRequests: number;
  loads: number;
  reloads: number;
  unloads: number;
  cancellations: number;
  promptTokens: number /* sent */;
  promptTokensEvaluated: number /* after prefix cache */;
  outputTokens: number;
  truncations: number;
  simulatedSeconds: number;
  maxInFlight: number;
  maxPromptTokens: number;
  faultsInjected: number;
}

export interface OllamaSim {
  url: string;
  port: number;
  counters: SimCounters;
  requests: SimChatRequest[];
  setResponder(fn: Responder): void;
  addFault(rule: FaultRule): void;
  clearFaults(): void;
  resetCounters(): void;
  loaded(): { model: string; numCtx: number; expiresAt: string }[];
  close(): Promise<void>;
}
