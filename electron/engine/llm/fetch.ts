import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/**
 * The `fetch` handed to the ollama client, on Node's own http module:
 * - no timeouts behind our back: undici's fetch has 300 s headers and body
 *   timeouts, and Ollama sends headers only with the first token, which a
 *   slow local model can take minutes to produce. Node's http has none by
 *   default; our own watchdogs (watchdog.ts) bound the wait instead.
 * - our AbortSignal is merged into every request: the client only wires its
 *   own signal into streaming requests after headers, so without this a
 *   cancel before headers, or of a non-streaming call (show, embed), does
 *   nothing. Cancelling the response body closes the socket, which is how
 *   Ollama learns to stop generating.
 * - cheap: one write per request and no WHATWG body machinery on the way
 *   out; undici's fetch cost more CPU per call than the rest of the client.
 * Failures look like fetch's (TypeError 'fetch failed' with the socket error
 * as cause; 'terminated' when the stream dies), so errors.ts classifies them
 * the same way.
 */
export type FetchLike = typeof fetch;

/** Keep-alive pools for one client; the client closes them with itself. */
export interface OllamaAgent {
  http: HttpAgent;
  https: HttpsAgent;
  close(): Promise<void>;
}

export function createOllamaAgent(): OllamaAgent {
  const http = new HttpAgent({ keepAlive: true, keepAliveMsecs: 10_000 });
  const https = new HttpsAgent({ keepAlive: true, keepAliveMsecs: 10_000 });
  return {
    http,
    https,
    close: async () => {
      http.destroy();
      https.destroy();
    },
  };
}

export function createOllamaFetch(options: { agent: OllamaAgent; signal?: AbortSignal; baseFetch?: FetchLike }): FetchLike {
  const { signal, baseFetch } = options;
  const wrapped = (input: Parameters<FetchLike>[0], init?: RequestInit): Promise<Response> => {
    const signals = [init?.signal, signal].filter((s): s is AbortSignal => s != null);
    const merged = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
    const nextInit: RequestInit = { ...init, ...(merged ? { signal: merged } : {}) };
    if (baseFetch) return baseFetch(input, nextInit);
    return nodeFetch(options.agent, input, nextInit);
  };
  return wrapped as FetchLike;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

function requestBody(body: RequestInit['body']): Buffer | undefined {
  if (body == null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('The Ollama fetch only sends string or byte bodies.');
}

function responseHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/**
 * Streamed replies arrive one small frame per token. With the default
 * strategy (one chunk) the socket was paused after every frame and resumed on
 * the next read; a byte budget lets frames queue up to it, and back-pressure
 * still applies beyond it.
 */
const STREAM_BUFFER: QueuingStrategy<Uint8Array> = { highWaterMark: 1024 * 1024, size: (chunk) => chunk.byteLength };

function nodeFetch(agent: OllamaAgent, input: Parameters<FetchLike>[0], init: RequestInit): Promise<Response> {
  return new Promise((resolve, reject) => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const body = requestBody(init.body);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    if (body) headers['content-length'] = String(body.length);
    const secure = url.protocol === 'https:';
    const req = (secure ? httpsRequest : httpRequest)(url, { method: init.method ?? 'GET', headers, agent: secure ? agent.https : agent.http });

    let settled = false;
    let finished = false;
    let failStream: ((error: unknown) => void) | undefined;
    const onAbort = () => {
      const reason = abortError(signal!);
      req.destroy(reason instanceof Error ? reason : new Error(String(reason)));
      failStream?.(reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => signal?.removeEventListener('abort', onAbort);

    req.on('error', (error) => {
      if (settled) {
        failStream?.(signal?.aborted ? abortError(signal) : new TypeError('terminated', { cause: error }));
        return;
      }
      settled = true;
      cleanup();
      reject(signal?.aborted ? abortError(signal) : new TypeError('fetch failed', { cause: error }));
    });

    req.on('response', (res) => {
      settled = true;
      const status = res.statusCode ?? 0;
      const stream = new ReadableStream<Uint8Array>(
        {
          start(controller) {
            failStream = (error) => {
              if (finished) return;
              finished = true;
              cleanup();
              controller.error(error);
            };
            // Frames that arrive together (a fast model, or a backlog after a pause) reach the reader as one chunk: the
            // client's reader, line splitter and decoder then run once per batch instead of once per token.
            let pending: Buffer[] = [];
            let flushScheduled = false;
            const flush = () => {
              flushScheduled = false;
              if (finished || pending.length === 0) return;
              const batch = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
              pending = [];
              controller.enqueue(new Uint8Array(batch.buffer, batch.byteOffset, batch.byteLength));
              if ((controller.desiredSize ?? 1) <= 0) res.pause();
            };
            res.on('data', (chunk: Buffer) => {
              pending.push(chunk);
              if (!flushScheduled) {
                flushScheduled = true;
                setImmediate(flush);
              }
            });
            res.on('end', () => {
              if (finished) return;
              flush();
              finished = true;
              cleanup();
              controller.close();
            });
            // The socket closed before the body ended: fetch calls that 'terminated'.
            res.on('close', () => failStream?.(signal?.aborted ? abortError(signal) : new TypeError('terminated')));
            res.on('error', (error) => failStream?.(signal?.aborted ? abortError(signal) : new TypeError('terminated', { cause: error })));
          },
          pull() {
            res.resume();
          },
          cancel() {
            // The reader gave up (client break, watchdog): closing the socket stops Ollama's generation.
            finished = true;
            cleanup();
            res.destroy();
            req.destroy();
          },
        },
        STREAM_BUFFER,
      );
      const nullBody = status === 204 || status === 304 || init.method === 'HEAD';
      resolve(new Response(nullBody ? null : stream, { status, statusText: res.statusMessage ?? '', headers: responseHeaders(res.headers) }));
    });

    req.end(body);
  });
}
