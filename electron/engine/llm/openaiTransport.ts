import { simulatorOf } from '../../../shared/simulator';
import { DEFAULT_OPENAI_CONTEXT_TOKENS } from '../../../shared/endpoints';
import { createOllamaFetch, type FetchLike, type OllamaAgent } from './fetch';
import type { InstalledModel, ModelInfo } from './models';
import type { DoneRecord, LlmTransport, ServerInfo, TransportChatRequest, TransportEmbedResult } from './transport';

/**
 * The OpenAI-compatible API (`/v1/chat/completions`) that llama.cpp's llama-server, vLLM, LM Studio and LocalAI
 * share. What differs from Ollama, and how it is met:
 * - no num_ctx: the context is the server's, a setting of the endpoint (`contextTokens`), else `max_model_len` from
 *   `/v1/models` (vLLM lists it), else llama-server's `/props` (`default_generation_settings.n_ctx`, the context of
 *   one slot), else DEFAULT_OPENAI_CONTEXT_TOKENS. `/props` also gives llama-server's slot count (`total_slots`). The planner keeps every prompt within it, and
 *   max_tokens within what the prompt leaves: vLLM refuses prompt + max_tokens above the context with a 400.
 * - structured output through `response_format: json_schema`; a server that refuses it (a 400 naming the response
 *   format or schema) gets `json_object` from then on, and the reply is validated against the schema either way.
 * - streaming is Server-Sent Events ending with `data: [DONE]`; token counts come in `usage` (asked for with
 *   `stream_options.include_usage`) and are reported in Ollama's done-frame names, `finish_reason: "length"` as
 *   `done_reason: "length"`.
 * - an API key goes in `Authorization: Bearer`; it is never put in an error, a log line or the call log.
 * HTTP failures are thrown as a `ResponseError` with `status_code`, as the ollama client does, so errors.ts
 * classifies both APIs the same way (401 bad key, 404 model, 400 context length, 429/503 busy).
 */
export interface OpenAiEndpointInit {
  /** Base URL ending before `/chat/completions`, usually `.../v1`. */
  baseUrl: string;
  apiKey?: string;
  contextTokens?: number;
  agent: OllamaAgent;
  fetch?: FetchLike;
}

class ResponseError extends Error {
  override readonly name = 'ResponseError';
  constructor(
    message: string,
    readonly status_code: number,
    /** A busy server's Retry-After (429, 503), in ms: the retry waits at least that long (retry.ts). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** Retry-After as seconds or as an HTTP date, in ms from now; undefined when absent or unreadable. */
function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** The server's own message from an OpenAI-style error body (`{error:{message}}`, vLLM's `{message}`, or text). */
function errorMessage(text: string, status: number): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    if (body.error && typeof body.error === 'object' && typeof (body.error as { message?: unknown }).message === 'string')
      return (body.error as { message: string }).message;
    if (typeof body.error === 'string') return body.error;
    if (typeof body.message === 'string') return body.message;
    if (typeof body.detail === 'string') return body.detail;
  } catch {
    // not JSON: the text itself
  }
  return text.trim().slice(0, 500) || `HTTP ${status}`;
}

/** A 400 that says the server does not take `response_format: json_schema` (the reply format, not the prompt). */
const SCHEMA_REFUSED = /response_format|json_schema|schema|grammar/i;

/** What one client of an OpenAI-compatible endpoint learns and keeps between requests. */
interface OpenAiState {
  readonly init: OpenAiEndpointInit;
  /** The base URL without a trailing slash. */
  readonly base: string;
  /** The reply format the server takes: json_schema until it refuses it once. */
  structured: 'json_schema' | 'json_object';
  /** The last /models answer (models with their max_model_len), shared by serverInfo and show. */
  listed: Promise<Map<string, { maxModelLen?: number }>> | undefined;
  /** llama-server's /props, asked once per client. */
  serverProps: Promise<{ nCtx?: number; slots?: number }> | undefined;
  /** What the last /models answer said the server is, when it is a stand-in (shared/simulator.ts). */
  simulator: string | null;
}

export function createOpenAiTransport(init: OpenAiEndpointInit): LlmTransport {
  const state: OpenAiState = {
    init,
    base: init.baseUrl.replace(/\/+$/, ''),
    structured: 'json_schema',
    listed: undefined,
    serverProps: undefined,
    simulator: null,
  };
  return {
    kind: 'openai',
    serverInfo: (signal) => serverInfo(state, signal),
    listModels: (signal) => listModels(state, signal),
    show: (model, signal) => show(state, model, signal),
    chat: (request, signal, onFrame) => chat(state, request, signal, onFrame),
    embed: (request, signal) => embed(state, request, signal),
    load: async () => null,
  };
}

/** Some servers quote the key they refused in their error text: it must not reach an error, a log line or the store. */
function redact(state: OpenAiState, text: string): string {
  const key = state.init.apiKey;
  return key && key.length >= 4 ? text.split(key).join('[the API key]') : text;
}

/** `path` is below the base URL, or with `absolute` a whole URL. */
async function send(state: OpenAiState, path: string, signal: AbortSignal | undefined, body?: unknown, absolute = false): Promise<Response> {
  const { init } = state;
  const fetch = createOllamaFetch({ agent: init.agent, ...(signal ? { signal } : {}), ...(init.fetch ? { baseFetch: init.fetch } : {}) });
  const headers: Record<string, string> = { accept: body === undefined ? 'application/json' : 'text/event-stream, application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (init.apiKey) headers.authorization = `Bearer ${init.apiKey}`;
  const res = await fetch(absolute ? path : `${state.base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) {
    const wait = res.status === 429 || res.status === 503 ? retryAfterMs(res.headers.get('retry-after')) : undefined;
    throw new ResponseError(redact(state, errorMessage(await res.text().catch(() => ''), res.status)), res.status, wait);
  }
  return res;
}

async function models(state: OpenAiState, signal?: AbortSignal): Promise<Map<string, { maxModelLen?: number }>> {
  const res = await send(state, '/models', signal);
  const body = (await res.json()) as { data?: Array<{ id?: unknown; max_model_len?: unknown }> };
  state.simulator = simulatorOf(body);
  const out = new Map<string, { maxModelLen?: number }>();
  for (const m of body.data ?? []) {
    if (typeof m.id !== 'string') continue;
    out.set(m.id, typeof m.max_model_len === 'number' && m.max_model_len > 0 ? { maxModelLen: m.max_model_len } : {});
  }
  return out;
}

/**
 * llama-server's `/props` at the server's root (beside `/v1`): the context of one slot and the slot count. Other
 * servers have no such route (404) or another shape: then nothing is known from it. Asked once per client.
 */
function props(state: OpenAiState, signal?: AbortSignal): Promise<{ nCtx?: number; slots?: number }> {
  state.serverProps ??= (async () => {
    const positive = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);
    try {
      const res = await send(state, `${state.base.replace(/\/v1$/, '')}/props`, signal, undefined, true);
      const body = (await res.json()) as { default_generation_settings?: { n_ctx?: unknown }; total_slots?: unknown };
      const nCtx = positive(body.default_generation_settings?.n_ctx);
      const slots = positive(body.total_slots);
      return { ...(nCtx ? { nCtx } : {}), ...(slots ? { slots } : {}) };
    } catch (error) {
      if (signal?.aborted) throw error;
      return {};
    }
  })();
  state.serverProps.catch(() => (state.serverProps = undefined));
  return state.serverProps;
}

function contextOf(init: OpenAiEndpointInit, serverContext: number | undefined): number {
  const setting = init.contextTokens && init.contextTokens > 0 ? init.contextTokens : undefined;
  // The smaller of what the user set and what the server says it has: a prompt beyond the server's is refused.
  if (setting && serverContext) return Math.min(setting, serverContext);
  return setting ?? serverContext ?? DEFAULT_OPENAI_CONTEXT_TOKENS;
}

async function serverInfo(state: OpenAiState, signal?: AbortSignal): Promise<ServerInfo> {
  // No version endpoint is common to these servers: the model list is the liveness check (and the key check).
  const listed = models(state, signal);
  state.listed = listed;
  listed.catch(() => (state.listed = undefined));
  await listed;
  const { slots } = await props(state, signal);
  return {
    version: 'openai-compatible',
    supportsTruncate: false,
    refusesOverflow: true,
    ...(slots ? { slots } : {}),
    ...(state.simulator ? { simulator: state.simulator } : {}),
  };
}

async function listModels(state: OpenAiState, signal?: AbortSignal): Promise<InstalledModel[]> {
  const found = await models(state, signal);
  state.listed = Promise.resolve(found);
  return [...found.keys()].map((name): InstalledModel => ({ name }));
}

async function show(state: OpenAiState, model: string, signal?: AbortSignal): Promise<ModelInfo> {
  state.listed ??= models(state, signal);
  const found = await state.listed;
  const entry = found.get(model);
  if (!entry) throw new ResponseError(`model "${model}" not found: the server lists ${[...found.keys()].join(', ') || 'no model'}`, 404);
  const serverContext = entry.maxModelLen ?? (await props(state, signal)).nCtx;
  return { name: model, contextLength: contextOf(state.init, serverContext), capabilities: ['completion'], thinking: false, embedding: false };
}

function chatBody(state: OpenAiState, request: TransportChatRequest): Record<string, unknown> {
  const numCtx = request.options.num_ctx ?? DEFAULT_OPENAI_CONTEXT_TOKENS;
  const room = numCtx - Math.ceil(request.estimatedPromptTokens * 1.05) - 16;
  const maxTokens = Math.max(16, Math.min(request.options.num_predict ?? room, room));
  return {
    model: request.model,
    messages: request.messages,
    stream: true,
    stream_options: { include_usage: true },
    ...(request.options.temperature !== undefined ? { temperature: request.options.temperature } : {}),
    ...(request.options.seed !== undefined ? { seed: request.options.seed } : {}),
    max_tokens: maxTokens,
    ...(request.format
      ? {
          response_format:
            state.structured === 'json_schema'
              ? { type: 'json_schema', json_schema: { name: 'reply', strict: true, schema: request.format } }
              : { type: 'json_object' },
        }
      : {}),
  };
}

/** The request; a server that refuses `json_schema` is asked again (and from then on) with `json_object`. */
async function postChat(state: OpenAiState, request: TransportChatRequest, signal: AbortSignal): Promise<Response> {
  try {
    return await send(state, '/chat/completions', signal, chatBody(state, request));
  } catch (error) {
    if (
      !(
        request.format &&
        state.structured === 'json_schema' &&
        error instanceof ResponseError &&
        error.status_code === 400 &&
        SCHEMA_REFUSED.test(error.message)
      )
    )
      throw error;
    state.structured = 'json_object';
    return send(state, '/chat/completions', signal, chatBody(state, request));
  }
}

/** What the stream has said so far. */
interface StreamedReply {
  content: string;
  finish: string | undefined;
  usage: { prompt_tokens?: unknown; completion_tokens?: unknown } | undefined;
  sawDone: boolean;
}

/** One line of the Server-Sent Events stream, added to `reply`; an error event is thrown (redacted). */
function readEventLine(state: OpenAiState, reply: StreamedReply, line: string, onFrame: (piece: string) => void): void {
  if (!line.startsWith('data:')) return; // comments (":"), event names, blank separators
  const data = line.slice(5).trim();
  if (data === '[DONE]') {
    reply.sawDone = true;
    return;
  }
  let event: { error?: unknown; choices?: Array<{ delta?: { content?: unknown }; finish_reason?: unknown }>; usage?: StreamedReply['usage'] };
  try {
    event = JSON.parse(data) as typeof event;
  } catch {
    return; // as the ollama client does with an unparsable line
  }
  if (event.error) throw new Error(redact(state, errorMessage(JSON.stringify({ error: event.error }), 500)));
  const choice = event.choices?.[0];
  const piece = typeof choice?.delta?.content === 'string' ? choice.delta.content : '';
  reply.content += piece;
  onFrame(piece);
  if (typeof choice?.finish_reason === 'string') reply.finish = choice.finish_reason;
  if (event.usage) reply.usage = event.usage;
}

async function chat(
  state: OpenAiState,
  request: TransportChatRequest,
  signal: AbortSignal,
  onFrame: (piece: string) => void,
): Promise<{ content: string; done: DoneRecord }> {
  const started = Date.now();
  const res = await postChat(state, request, signal);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const reply: StreamedReply = { content: '', finish: undefined, usage: undefined, sawDone: false };
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        readEventLine(state, reply, buffer.slice(0, nl).replace(/\r$/, ''), onFrame);
        buffer = buffer.slice(nl + 1);
      }
    }
    if (buffer) readEventLine(state, reply, buffer, onFrame);
  } finally {
    // Leaving early (watchdog, cancel, an error event) closes the socket, which stops the server generating.
    if (!reply.sawDone) await reader.cancel().catch(() => undefined);
  }
  return { content: reply.content, done: doneRecord(reply, started) };
}

/** The stream's end in Ollama's done-frame names (chat.ts and the call log read those whichever the API). */
function doneRecord(reply: StreamedReply, started: number): DoneRecord {
  const { finish, usage } = reply;
  if (finish === undefined) throw new Error('Did not receive done or success response in stream.');
  const int = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return {
    done: true,
    done_reason: finish === 'length' ? 'length' : finish === 'stop' ? 'stop' : finish,
    ...(int(usage?.prompt_tokens) !== undefined ? { prompt_eval_count: int(usage?.prompt_tokens) } : {}),
    ...(int(usage?.completion_tokens) !== undefined ? { eval_count: int(usage?.completion_tokens) } : {}),
    total_duration: (Date.now() - started) * 1e6,
  };
}

async function embed(state: OpenAiState, request: { model: string; input: string[] }, signal?: AbortSignal): Promise<TransportEmbedResult> {
  const res = await send(state, '/embeddings', signal, { model: request.model, input: request.input });
  const body = (await res.json()) as { data?: Array<{ embedding?: number[]; index?: number }>; usage?: { prompt_tokens?: number } };
  const data = [...(body.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  return {
    embeddings: data.map((d) => d.embedding ?? []),
    ...(typeof body.usage?.prompt_tokens === 'number' ? { prompt_eval_count: body.usage.prompt_tokens } : {}),
  };
}
