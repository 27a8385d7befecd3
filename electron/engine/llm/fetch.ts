import { Agent, fetch as undiciFetch } from 'undici';

/**
 * The `fetch` handed to the ollama client. Two fixes over Node's global fetch:
 * - undici's 300 s headersTimeout/bodyTimeout are off: Ollama sends headers
 *   only with the first token, which a slow local model can take minutes to
 *   produce. Our own watchdogs (watchdog.ts) bound the wait instead.
 * - our AbortSignal is merged into every request: the client only wires its
 *   own signal into streaming requests after headers, so without this a
 *   cancel before headers, or of a non-streaming call (show, embed), does
 *   nothing.
 */
export type FetchLike = typeof fetch;

/** A keep-alive pool for one client, without undici's timeouts; the client closes it with itself. */
export function createOllamaAgent(): Agent {
  return new Agent({ headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 10_000 });
}

export function createOllamaFetch(options: { agent: Agent; signal?: AbortSignal; baseFetch?: FetchLike }): FetchLike {
  const { signal, baseFetch } = options;
  const wrapped = (input: Parameters<FetchLike>[0], init?: RequestInit): Promise<Response> => {
    const signals = [init?.signal, signal].filter((s): s is AbortSignal => s != null);
    const merged = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
    const nextInit: RequestInit = { ...init, ...(merged ? { signal: merged } : {}) };
    if (baseFetch) return baseFetch(input, nextInit);
    const dispatcher = options.agent;
    // undici's own fetch: same WHATWG shapes, typed separately from lib.dom.
    return undiciFetch(input as never, { ...(nextInit as object), dispatcher } as never) as unknown as Promise<Response>;
  };
  return wrapped as FetchLike;
}
