import type { EndpointKind } from '../../../shared/endpoints';
import type { InstalledModel, ModelInfo } from './models';
import type { ChatMessage } from './types';

/**
 * One API behind the client: Ollama's native API (ollamaTransport.ts) or the OpenAI-compatible one
 * (openaiTransport.ts). Everything above it (retries, watchdogs, cancellation, the call log, the response cache,
 * reply validation) is the same for both kinds, so a transport only moves requests and replies and reports the
 * server's failures the way errors.ts classifies them (a `ResponseError` with `status_code`, fetch's TypeErrors).
 */
export interface ServerInfo {
  version: string;
  /** Ollama >= 0.12.6: `truncate: false` makes an over-long prompt a 400 instead of a silent cut. */
  supportsTruncate: boolean;
  /** An over-long prompt is refused (an error) rather than cut silently: no truncation check is needed. */
  refusesOverflow: boolean;
  /** Requests the server runs at once, where it says (llama-server's /props total_slots). */
  slots?: number;
  /** The server says it is a stand-in, not a language model (shared/simulator.ts): its description. */
  simulator?: string;
}

export interface TransportChatRequest {
  model: string;
  messages: ChatMessage[];
  /** num_ctx, temperature, seed, num_predict (Ollama's names; the OpenAI transport maps them). */
  options: Record<string, number>;
  /** JSON schema the reply must follow. */
  format?: Record<string, unknown>;
  think?: boolean;
  truncate?: boolean;
  keepAlive: string | number;
  /** Calibrated prompt estimate: the OpenAI transport keeps max_tokens within the context it leaves. */
  estimatedPromptTokens: number;
}

/** The end of a reply in Ollama's done-frame shape (done_reason, prompt_eval_count, eval_count, *_duration in ns), whichever API. */
export type DoneRecord = Record<string, unknown>;

export interface TransportEmbedResult {
  embeddings: number[][];
  prompt_eval_count?: number;
  total_duration?: number;
  load_duration?: number;
}

export interface LlmTransport {
  readonly kind: EndpointKind;
  serverInfo(signal?: AbortSignal): Promise<ServerInfo>;
  listModels(signal?: AbortSignal): Promise<InstalledModel[]>;
  show(model: string, signal?: AbortSignal): Promise<ModelInfo>;
  /** Streams one reply; `onFrame` runs on every frame received (the piece may be empty). */
  chat(request: TransportChatRequest, signal: AbortSignal, onFrame: (piece: string) => void): Promise<{ content: string; done: DoneRecord }>;
  embed(request: { model: string; input: string[]; numCtx: number; keepAlive: string | number }, signal?: AbortSignal): Promise<TransportEmbedResult>;
  /** Loads a model at num_ctx before the run (Ollama); null where the server has nothing to load on request. */
  load(info: ModelInfo, numCtx: number, keepAlive: string | number, signal?: AbortSignal): Promise<DoneRecord | null>;
}
