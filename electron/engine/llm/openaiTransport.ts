import { simulatorOf } from '../../../shared/simulator';
import { DEFAULT_OPENAI_CONTEXT_TOKENS } from '../../../shared/endpoints';
import { createOllamaFetch, type FetchLike, type OllamaAgent } from './fetch';
import type { InstalledModel, ModelInfo } from './models';
import type { DoneRecord, LlmTransport, TransportChatRequest } from './transport';

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
    if (body.error && typeof body.error === 'object' && typeof (body.error as { message?: unknown }).message === 'string') return (body.error as { message: string }).message;
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

export function createOpenAiTransport(init: OpenAiEndpointInit): LlmTransport {
  const base = init.baseUrl.replace(/\/+$/, '');
  let structured: 'json_schema' | 'json_object' = 'json_schema';
  let listed: Promise<Map<string, { maxModelLen?: number }>> | undefined;
  let serverProps: Promise<{ nCtx?: number; slots?: number }> | undefined;
  /** What the last /models answer said the server is, when it is a stand-in (shared/simulator.ts). */
  let simulator: string | null = null;
  // Some servers quote the key they refused in their error text: it must not reach an error, a log line or the store.
  const redact = (text: string) => (init.apiKey && init.apiKey.length >= 4 ? text.split(init.apiKey).join('[the API key]') : text);

  /** `path` is below the base URL, or with `absolute` a whole URL. */
  async function send(path: string, signal: AbortSignal | undefined, body?: unknown, absolute = false): Promise<Response> {
    const fetch = createOllamaFetch({ agent: init.agent, ...(signal ? { signal } : {}), ...(init.fetch ? { baseFetch: init.fetch } : {}) });
    const headers: Record<string, string> = { accept: body === undefined ? 'application/json' : 'text/event-stream, application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (init.apiKey) headers.authorization = `Bearer ${init.apiKey}`;
    const res = await fetch(absolute ? path : `${base}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    if (!res.ok) {
      const wait = res.status === 429 || res.status === 503 ? retryAfterMs(res.headers.get('retry-after')) : undefined;
      throw new ResponseError(redact(errorMessage(await res.text().catch(() => ''), res.status)), res.status, wait);
    }
    return res;
  }

  async function models(signal?: AbortSignal): Promise<Map<string, { maxModelLen?: number }>> {
    const res = await send('/models', signal);
    const body = (await res.json()) as { data?: Array<{ id?: unknown; max_model_len?: unknown }> };
    simulator = simulatorOf(body);
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
  function props(signal?: AbortSignal): Promise<{ nCtx?: number; slots?: number }> {
    serverProps ??= (async () => {
      const positive = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);
      try {
        const res = await send(`${base.replace(/\/v1$/, '')}/props`, signal, undefined, true);
        const body = (await res.json()) as { default_generation_settings?: { n_ctx?: unknown }; total_slots?: unknown };
        const nCtx = positive(body.default_generation_settings?.n_ctx);
        const slots = positive(body.total_slots);
        return { ...(nCtx ? { nCtx } : {}), ...(slots ? { slots } : {}) };
      } catch (error) {
        if (signal?.aborted) throw error;
        return {};
      }
    })();
    serverProps.catch(() => (serverProps = undefined));
    return serverProps;
  }

  function contextOf(serverContext: number | undefined): number {
    const setting = init.contextTokens && init.contextTokens > 0 ? init.contextTokens : undefined;
    // The smaller of what the user set and what the server says it has: a prompt beyond the server's is refused.
    if (setting && serverContext) return Math.min(setting, serverContext);
    return setting ?? serverContext ?? DEFAULT_OPENAI_CONTEXT_TOKENS;
  }

  function chatBody(request: TransportChatRequest): Record<string, unknown> {
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
        ? { response_format: structured === 'json_schema' ? { type: 'json_schema', json_schema: { name: 'reply', strict: true, schema: request.format } } : { type: 'json_object' } }
        : {}),
    };
  }

  return {
    kind: 'openai',
    async serverInfo(signal) {
      // No version endpoint is common to these servers: the model list is the liveness check (and the key check).
      listed = models(signal);
      listed.catch(() => (listed = undefined));
      await listed;
      const { slots } = await props(signal);
      return { version: 'openai-compatible', supportsTruncate: false, refusesOverflow: true, ...(slots ? { slots } : {}), ...(simulator ? { simulator } : {}) };
    },
    async listModels(signal) {
      const found = await models(signal);
      listed = Promise.resolve(found);
      return [...found.keys()].map((name): InstalledModel => ({ name }));
    },
    async show(model, signal): Promise<ModelInfo> {
      listed ??= models(signal);
      const found = await listed;
      const entry = found.get(model);
      if (!entry) throw new ResponseError(`model "${model}" not found: the server lists ${[...found.keys()].join(', ') || 'no model'}`, 404);
      const serverContext = entry.maxModelLen ?? (await props(signal)).nCtx;
      return { name: model, contextLength: contextOf(serverContext), capabilities: ['completion'], thinking: false, embedding: false };
    },
    async chat(request, signal, onFrame) {
      const started = Date.now();
      let res: Response;
      try {
        res = await send('/chat/completions', signal, chatBody(request));
      } catch (error) {
        if (!(request.format && structured === 'json_schema' && error instanceof ResponseError && error.status_code === 400 && SCHEMA_REFUSED.test(error.message))) throw error;
        structured = 'json_object';
        res = await send('/chat/completions', signal, chatBody(request));
      }
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let content = '';
      let finish: string | undefined;
      let usage: { prompt_tokens?: unknown; completion_tokens?: unknown } | undefined;
      let sawDone = false;
      let buffer = '';
      const handle = (line: string) => {
        if (!line.startsWith('data:')) return; // comments (":"), event names, blank separators
        const data = line.slice(5).trim();
        if (data === '[DONE]') {
          sawDone = true;
          return;
        }
        let event: { error?: unknown; choices?: Array<{ delta?: { content?: unknown }; finish_reason?: unknown }>; usage?: typeof usage };
        try {
          event = JSON.parse(data) as typeof event;
        } catch {
          return; // as the ollama client does with an unparsable line
        }
        if (event.error) throw new Error(redact(errorMessage(JSON.stringify({ error: event.error }), 500)));
        const choice = event.choices?.[0];
        const piece = typeof choice?.delta?.content === 'string' ? choice.delta.content : '';
        content += piece;
        onFrame(piece);
        if (typeof choice?.finish_reason === 'string') finish = choice.finish_reason;
        if (event.usage) usage = event.usage;
      };
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let nl: number;
          while ((nl = buffer.indexOf('\n')) >= 0) {
            handle(buffer.slice(0, nl).replace(/\r$/, ''));
            buffer = buffer.slice(nl + 1);
          }
        }
        if (buffer) handle(buffer);
      } finally {
        // Leaving early (watchdog, cancel, an error event) closes the socket, which stops the server generating.
        if (!sawDone) await reader.cancel().catch(() => undefined);
      }
      if (finish === undefined) throw new Error('Did not receive done or success response in stream.');
      const int = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
      const done: DoneRecord = {
        done: true,
        done_reason: finish === 'length' ? 'length' : finish === 'stop' ? 'stop' : finish,
        ...(int(usage?.prompt_tokens) !== undefined ? { prompt_eval_count: int(usage?.prompt_tokens) } : {}),
        ...(int(usage?.completion_tokens) !== undefined ? { eval_count: int(usage?.completion_tokens) } : {}),
        total_duration: (Date.now() - started) * 1e6,
      };
      return { content, done };
    },
    async embed(request, signal) {
      const res = await send('/embeddings', signal, { model: request.model, input: request.input });
      const body = (await res.json()) as { data?: Array<{ embedding?: number[]; index?: number }>; usage?: { prompt_tokens?: number } };
      const data = [...(body.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      return { embeddings: data.map((d) => d.embedding ?? []), ...(typeof body.usage?.prompt_tokens === 'number' ? { prompt_eval_count: body.usage.prompt_tokens } : {}) };
    },
    load: async () => null,
  };
}
