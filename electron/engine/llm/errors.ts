import type { EndpointKind } from '../../../shared/endpoints';
import { AppError, ErrorCode } from '../../../shared/errors';

/**
 * Classification of whatever the ollama client (or our own code) throws, by
 * what the caller should do about it:
 * - transient: back off and retry (connection refused/reset, `terminated`,
 *   503, 429, runner crashed/stopped, load timeout, missing done frame,
 *   watchdog timeouts);
 * - resource: out of memory, never retried unchanged;
 * - context: the prompt does not fit num_ctx (the caller splits the chunk);
 * - permanent: 404, 400, 403, invalid schema, bad option;
 * - cancelled: our AbortSignal fired.
 */
export type ErrorClass = 'transient' | 'resource' | 'context' | 'permanent' | 'cancelled';

export interface Classified {
  kind: ErrorClass;
  code: ErrorCode;
  /** The server's or runtime's own message. */
  detail: string;
  status?: number;
}

const OOM =
  /requires more system memory|out of memory|cudaMalloc failed|insufficient memory|not enough memory|unable to allocate|failed to allocate|memory layout cannot be allocated|cannot allocate memory/i;
// Ollama's two wordings, vLLM's "maximum context length is N tokens", llama-server's "exceeds the available context size".
const CONTEXT =
  /input length exceeds the context length|prompt is longer than the context length|exceeds the context|context length exceeded|maximum context length|exceeds the available context size|exceed_context_size/i;
const RUNNER_DOWN =
  /runner has unexpectedly stopped|runner process has terminated|runner process no longer running|error was encountered while running the model|unexpected EOF|server busy|try again|timed out waiting for llama runner|connection reset|broken pipe/i;
const NOT_FOUND = /model ['"]?[^'"]*['"]? not found|not found, try pulling|file does not exist/i;
const BAD_SCHEMA = /invalid JSON schema|failed to load model vocabulary|grammar/i;
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ENOTFOUND',
]);

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && SOCKET_CODES.has(code)) return code;
    const nested = (current as { errors?: unknown[] }).errors;
    if (Array.isArray(nested)) {
      for (const inner of nested) {
        const innerCode = (inner as { code?: unknown })?.code;
        if (typeof innerCode === 'string' && SOCKET_CODES.has(innerCode)) return innerCode;
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function byMessage(message: string): Classified | undefined {
  if (OOM.test(message)) return { kind: 'resource', code: ErrorCode.LLM_OUT_OF_MEMORY, detail: message };
  if (CONTEXT.test(message)) return { kind: 'context', code: ErrorCode.LLM_CONTEXT_OVERFLOW, detail: message };
  if (BAD_SCHEMA.test(message)) return { kind: 'permanent', code: ErrorCode.LLM_BAD_REQUEST, detail: message };
  if (RUNNER_DOWN.test(message)) return { kind: 'transient', code: ErrorCode.LLM_TRANSIENT, detail: message };
  return undefined;
}

export function classifyError(error: unknown, signal?: AbortSignal): Classified {
  if (error instanceof AppError) {
    const kind: ErrorClass =
      error.code === ErrorCode.CANCELLED
        ? 'cancelled'
        : error.code === ErrorCode.LLM_TIMEOUT || error.code === ErrorCode.LLM_TRANSIENT
          ? 'transient'
          : error.code === ErrorCode.LLM_OUT_OF_MEMORY
            ? 'resource'
            : error.code === ErrorCode.LLM_CONTEXT_OVERFLOW || error.code === ErrorCode.LLM_TRUNCATED_PROMPT
              ? 'context'
              : 'permanent';
    return { kind, code: error.code, detail: error.message };
  }
  if (signal?.aborted) return { kind: 'cancelled', code: ErrorCode.CANCELLED, detail: 'cancelled' };
  const err = error as { name?: string; message?: string; status_code?: number } | undefined;
  const message = String(err?.message ?? error);
  if (err?.name === 'AbortError') return { kind: 'cancelled', code: ErrorCode.CANCELLED, detail: message };

  if (err?.name === 'ResponseError' && typeof err.status_code === 'number') {
    const status = err.status_code;
    const found = byMessage(message);
    if (status === 404) return { kind: 'permanent', code: ErrorCode.MODEL_NOT_FOUND, detail: message, status };
    // A wrong or missing API key (an OpenAI-compatible server, or Ollama behind an authenticating proxy): no retry helps.
    if (status === 401) return { kind: 'permanent', code: ErrorCode.LLM_UNAUTHORIZED, detail: message, status };
    if (status === 429 || status === 503) return { kind: 'transient', code: ErrorCode.LLM_TRANSIENT, detail: message, status };
    if (status === 400) {
      if (found?.kind === 'context') return { ...found, status };
      return { kind: 'permanent', code: ErrorCode.LLM_BAD_REQUEST, detail: message, status };
    }
    if (found) return { ...found, status };
    if (/must be of type|invalid option|does not support/i.test(message))
      return { kind: 'permanent', code: ErrorCode.LLM_BAD_REQUEST, detail: message, status };
    if (status >= 500) return { kind: 'transient', code: ErrorCode.LLM_TRANSIENT, detail: message, status };
    return { kind: 'permanent', code: ErrorCode.LLM_BAD_REQUEST, detail: message, status };
  }

  const socket = causeCode(error);
  if (socket === 'ECONNREFUSED' || socket === 'ENOTFOUND' || socket === 'EHOSTUNREACH' || socket === 'ENETUNREACH') {
    return { kind: 'transient', code: ErrorCode.OLLAMA_UNREACHABLE, detail: `${message} (${socket})` };
  }
  if (socket) return { kind: 'transient', code: ErrorCode.LLM_TRANSIENT, detail: `${message} (${socket})` };
  if (err?.name === 'TypeError' && /terminated|fetch failed|other side closed|socket/i.test(message)) {
    return { kind: 'transient', code: ErrorCode.LLM_TRANSIENT, detail: message };
  }
  if (/Did not receive done or success response in stream/i.test(message)) {
    return { kind: 'transient', code: ErrorCode.LLM_TRANSIENT, detail: message };
  }
  // A plain Error(msg) from an `{"error"}` line inside a 200 stream.
  const found = byMessage(message);
  if (found) return found;
  if (/not found/i.test(message) && NOT_FOUND.test(message)) return { kind: 'permanent', code: ErrorCode.MODEL_NOT_FOUND, detail: message };
  return { kind: 'permanent', code: ErrorCode.INTERNAL, detail: message };
}

/** A user-facing AppError for a classified failure: says what happened and what to do, for the endpoint's kind. */
export function toAppError(c: Classified, ctx: { host: string; kind?: EndpointKind; model?: string; numCtx?: number }, cause?: unknown): AppError {
  const model = ctx.model ?? 'the model';
  const details = { host: ctx.host, model: ctx.model, status: c.status, detail: c.detail };
  const opts = cause === undefined ? undefined : { cause };
  if (ctx.kind === 'openai') {
    const openai = openAiAppError(c, { ...ctx, model }, details, opts);
    if (openai) return openai;
  }
  switch (c.code) {
    case ErrorCode.LLM_UNAUTHORIZED:
      return new AppError(
        c.code,
        `Ollama at ${ctx.host} refused the request as unauthorised (${c.detail}). Check the key or the proxy in front of it.`,
        details,
        opts,
      );
    case ErrorCode.OLLAMA_UNREACHABLE:
      return new AppError(c.code, `Ollama is not reachable. Start Ollama: run \`ollama serve\` or open the Ollama app. Tried ${ctx.host}.`, details, opts);
    case ErrorCode.MODEL_NOT_FOUND:
      return new AppError(
        c.code,
        `The model ${model} is not installed in Ollama: run \`ollama pull ${model}\`, or choose an installed model in the settings.`,
        details,
        opts,
      );
    case ErrorCode.LLM_OUT_OF_MEMORY:
      return new AppError(
        c.code,
        `${model} does not fit in memory${ctx.numCtx ? ` with a context of ${ctx.numCtx} tokens` : ''} (${c.detail}). Choose a smaller context (smaller chunks) or a smaller model, or close other programs.`,
        details,
        opts,
      );
    case ErrorCode.LLM_CONTEXT_OVERFLOW:
      return new AppError(
        c.code,
        `The prompt is longer than the model's context${ctx.numCtx ? ` (${ctx.numCtx} tokens)` : ''}: split the chunk. (${c.detail})`,
        details,
        opts,
      );
    case ErrorCode.LLM_TIMEOUT:
      return new AppError(
        c.code,
        `${model} did not answer in time (${c.detail}). The model may be too slow for this machine; try a smaller model or raise the time limits.`,
        details,
        opts,
      );
    case ErrorCode.LLM_TRANSIENT:
      return new AppError(
        c.code,
        `Ollama failed temporarily and kept failing after retries (${c.detail}). Check that Ollama is running and try again.`,
        details,
        opts,
      );
    case ErrorCode.LLM_BAD_REQUEST:
      return new AppError(
        c.code,
        `Ollama refused the request for ${model} (${c.detail}). Check the model settings; this is likely a bug if it persists.`,
        details,
        opts,
      );
    case ErrorCode.CANCELLED:
      return new AppError(c.code, 'Cancelled.', details, opts);
    default:
      return new AppError(c.code, `LLM call failed: ${c.detail}`, details, opts);
  }
}

/** The sentences that differ for an OpenAI-compatible server (no `ollama pull`, no `ollama serve`); undefined: the shared one. */
function openAiAppError(
  c: Classified,
  ctx: { host: string; model: string; numCtx?: number },
  details: Record<string, unknown>,
  opts: { cause: unknown } | undefined,
): AppError | undefined {
  const server = `The inference server at ${ctx.host}`;
  switch (c.code) {
    case ErrorCode.OLLAMA_UNREACHABLE:
    case ErrorCode.ENDPOINT_UNREACHABLE:
      return new AppError(
        ErrorCode.ENDPOINT_UNREACHABLE,
        `${server} does not answer (${c.detail}). Start it, or check the endpoint's URL (an OpenAI-compatible one usually ends in /v1).`,
        details,
        opts,
      );
    case ErrorCode.LLM_BAD_REQUEST:
    case ErrorCode.LLM_UNAUTHORIZED:
      // A 403 from an OpenAI-compatible server is a key without the right to this model or API.
      if (c.code === ErrorCode.LLM_BAD_REQUEST && c.status !== 403) {
        return new AppError(
          c.code,
          `${server} refused the request for ${ctx.model} (${c.detail}). Check the endpoint's settings; this is likely a bug if it persists.`,
          details,
          opts,
        );
      }
      return new AppError(
        ErrorCode.LLM_UNAUTHORIZED,
        `${server} refused the API key (HTTP ${c.status ?? 401}: ${c.detail}). Check the key given for this endpoint (the environment variable named by key-env on the command line, Settings › Inference in the app).`,
        details,
        opts,
      );
    case ErrorCode.MODEL_NOT_FOUND:
      return new AppError(
        c.code,
        `${server} does not serve the model ${ctx.model} (${c.detail}). Choose one of the models it lists at /v1/models, or start the server with that model.`,
        details,
        opts,
      );
    case ErrorCode.LLM_CONTEXT_OVERFLOW:
      return new AppError(
        c.code,
        `The prompt is longer than the server's context${ctx.numCtx ? ` (planned for ${ctx.numCtx} tokens)` : ''}: split the chunk. If this repeats, set the endpoint's context to what the server was started with (context=… on the command line). (${c.detail})`,
        details,
        opts,
      );
    case ErrorCode.LLM_TRANSIENT:
      if (c.status === 429) {
        return new AppError(
          c.code,
          `${server} kept answering that it is busy (HTTP 429: ${c.detail}), also after waiting and retrying. Give this endpoint no more files at once (concurrency) than the server has slots (llama-server -np), or run when it is less used.`,
          details,
          opts,
        );
      }
      return new AppError(
        c.code,
        `${server} failed temporarily and kept failing after retries (${c.detail}). Check that it is running and not overloaded, then try again.`,
        details,
        opts,
      );
    case ErrorCode.LLM_OUT_OF_MEMORY:
      return new AppError(
        c.code,
        `${server} ran out of memory with ${ctx.model} (${c.detail}). Give it fewer parallel requests (concurrency) or a smaller model.`,
        details,
        opts,
      );
    default:
      return undefined;
  }
}

/**
 * Errors about Ollama itself rather than one prompt: every further call would
 * fail the same way, so a run stops (resumable once fixed) instead of marking
 * each chunk failed in turn or falling back silently.
 */
const RUN_WIDE_CODES = new Set<string>([
  ErrorCode.OLLAMA_UNREACHABLE,
  ErrorCode.ENDPOINT_UNREACHABLE,
  ErrorCode.LLM_UNAUTHORIZED,
  ErrorCode.MODEL_NOT_FOUND,
  ErrorCode.NO_MODEL_INSTALLED,
  ErrorCode.LLM_OUT_OF_MEMORY,
]);

export function isRunWideLlmError(code: string): boolean {
  return RUN_WIDE_CODES.has(code);
}
