/**
 * The OpenAI-compatible surface of the simulator, as llama.cpp's llama-server and vLLM serve it: a server of its
 * own on 127.0.0.1, answering from the same Responder functions as the Ollama surface (index.ts), so the truth
 * responder of the eval and every scripted reply work unchanged against either API.
 *
 * - `GET /v1/models` (with vLLM's `max_model_len` unless `listContextLength: false`, as llama-server omits it),
 *   `GET /health`, llama-server's `GET /props` with `props: true`, `POST /v1/chat/completions` (SSE or one JSON reply), `POST /v1/embeddings`.
 * - `slots` requests run at once (llama-server `-np`, vLLM's batch); up to `maxQueue` more wait; beyond that, 429.
 *   Each running request spends its own simulated time, so N slots finish N requests in the time of one.
 * - context: prompt tokens + max_tokens above `contextLength` is vLLM's 400 "maximum context length"; no max_tokens
 *   means all the room the prompt leaves. A reply longer than max_tokens is cut with `finish_reason: "length"`.
 * - `response_format`: json_schema hands the schema to the responder as `format`, json_object hands `'json'`;
 *   `structuredOutput: 'json_object'` makes the server refuse json_schema with a 400, as some builds do.
 * - `apiKey`: without `Authorization: Bearer <key>` every /v1 route is a 401.
 * - faults: `busy` (429, with Retry-After when `retryAfterSeconds` is given), `unavailable` (503), `dropMidStream`, `noFinish` (stream ends without finish_reason or
 *   [DONE]), `errorEvent` (an `error` event inside the 200 stream); `kill()` closes the server and every socket,
 *   as a machine that dies mid-run.
 */
import type http from 'node:http';
import { SIMULATOR_FIELD } from '../../shared/simulator';
import { serveOnLoopback } from './loopback';
import { defaultSimModels } from './models';
import { renderPrompt } from './protocol';
import { schemaResponder } from './responders';
import { Cancelled, pacedTime, simulatedTime } from './timing';
import { defaultTokenize } from './tokenizer';
import { SIM_DESCRIPTION, type Responder, type SimChatRequest, type SimModel, type SimRates } from './types';
import { embedTokens } from './util';

export type OpenAiFault =
  | { kind: 'busy'; retryAfterSeconds?: number }
  | { kind: 'unavailable' }
  | { kind: 'dropMidStream'; afterFrames: number }
  | { kind: 'noFinish' }
  | { kind: 'errorEvent'; afterFrames: number; message: string };

export interface OpenAiFaultRule {
  fault: OpenAiFault;
  /** The Nth chat request (0-based), or the next `times` chat requests. */
  onRequest?: number;
  times?: number;
}

export interface OpenAiSimOptions {
  models?: SimModel[];
  responder?: Responder;
  /** The server's context size (llama-server -c, vLLM --max-model-len); default 8192. */
  contextLength?: number;
  /** List max_model_len in /v1/models, as vLLM does (default true). */
  listContextLength?: boolean;
  /** Serve llama-server's `GET /props` (the context of a slot and the slot count); default false. */
  props?: boolean;
  /** Requests served at once (default 1). */
  slots?: number;
  /** Requests waiting for a slot before the server answers 429 (default 64). */
  maxQueue?: number;
  apiKey?: string;
  structuredOutput?: 'json_schema' | 'json_object';
  rates?: SimRates;
  /** 0 = never sleep (simulated time only counted), 1 = real time, 0.01 = 100x faster. */
  timeScale?: number;
  faults?: OpenAiFaultRule[];
  tokenize?: (text: string) => string[];
  port?: number;
  /** Tokens per SSE frame (default 4): fewer frames than tokens, as servers batch them. */
  tokensPerFrame?: number;
}

export interface OpenAiSimCounters {
  requests: number;
  chatRequests: number;
  completed: number;
  inFlight: number;
  maxInFlight: number;
  unauthorized: number;
  rejectedBusy: number;
  contextOverflows: number;
  cancellations: number;
  promptTokens: number;
  outputTokens: number;
  simulatedSeconds: number;
}

export interface OpenAiSim {
  url: string;
  /** The base URL a client is given: `${url}/v1`. */
  baseUrl: string;
  port: number;
  counters: OpenAiSimCounters;
  /** Every chat request that reached a slot, in the shape the Ollama surface records. */
  requests: SimChatRequest[];
  /** The raw bodies of chat requests as received (what the client sent). */
  bodies: Record<string, unknown>[];
  setResponder(fn: Responder): void;
  addFault(rule: OpenAiFaultRule): void;
  /** Ends the server and every open connection at once: a machine that dies mid-run. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

export async function startOpenAiSim(options: OpenAiSimOptions = {}): Promise<OpenAiSim> {
  const models = options.models ?? defaultSimModels.filter((m) => m.capabilities.includes('completion'));
  const contextLength = options.contextLength ?? 8192;
  const slots = Math.max(1, options.slots ?? 1);
  const maxQueue = options.maxQueue ?? 64;
  const rates: SimRates = options.rates ?? { prefillTokensPerSec: 1000, decodeTokensPerSec: 40, loadSeconds: 0 };
  const timeScale = options.timeScale ?? 0;
  const tokenize = options.tokenize ?? defaultTokenize;
  const tokensPerFrame = Math.max(1, options.tokensPerFrame ?? 4);
  let responder: Responder = options.responder ?? schemaResponder;
  const faults: OpenAiFaultRule[] = (options.faults ?? []).map((f) => ({ ...f }));
  const counters: OpenAiSimCounters = {
    requests: 0,
    chatRequests: 0,
    completed: 0,
    inFlight: 0,
    maxInFlight: 0,
    unauthorized: 0,
    rejectedBusy: 0,
    contextOverflows: 0,
    cancellations: 0,
    promptTokens: 0,
    outputTokens: 0,
    simulatedSeconds: 0,
  };
  const requests: SimChatRequest[] = [];
  const bodies: Record<string, unknown>[] = [];
  const waiting: Array<() => void> = [];
  let chatIndex = 0;

  const findModel = (name: string) => models.find((m) => m.name === name);

  function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }
  /** OpenAI's error body; vLLM and llama-server use the same `{error:{message,type,code}}` shape. */
  function sendError(res: http.ServerResponse, status: number, message: string, type: string, headers: Record<string, string> = {}): void {
    sendJson(res, status, { error: { message, type, code: status } }, headers);
  }

  function pickFaults(index: number): OpenAiFault[] {
    const out: OpenAiFault[] = [];
    for (const rule of faults) {
      if (rule.onRequest !== undefined) {
        if (rule.onRequest === index) out.push(rule.fault);
      } else if (rule.times !== undefined && rule.times > 0) {
        rule.times--;
        out.push(rule.fault);
      }
    }
    return out;
  }

  const spend = simulatedTime(timeScale, counters);

  /** A slot, or false when the queue is full (429). Resolves when one frees; the request may be gone by then. */
  function acquire(): Promise<void> | false {
    if (counters.inFlight < slots) {
      counters.inFlight++;
      counters.maxInFlight = Math.max(counters.maxInFlight, counters.inFlight);
      return Promise.resolve();
    }
    if (waiting.length >= maxQueue) return false;
    return new Promise((resolve) =>
      waiting.push(() => {
        counters.inFlight++;
        counters.maxInFlight = Math.max(counters.maxInFlight, counters.inFlight);
        resolve();
      }),
    );
  }
  function release(): void {
    counters.inFlight--;
    waiting.shift()?.();
  }

  async function write(res: http.ServerResponse, text: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted || res.destroyed) throw new Cancelled();
    if (!res.write(text)) await new Promise<void>((resolve) => res.once('drain', resolve));
  }

  async function chat(body: Record<string, unknown>, res: http.ServerResponse, signal: AbortSignal): Promise<void> {
    const requestIndex = chatIndex++;
    counters.chatRequests++;
    bodies.push(body);
    const modelName = typeof body.model === 'string' ? body.model : '';
    const model = findModel(modelName);
    if (!model) return sendError(res, 404, `The model \`${modelName}\` does not exist.`, 'NotFoundError');
    const rawMessages = Array.isArray(body.messages) ? (body.messages as Array<Record<string, unknown>>) : [];
    const messages = rawMessages.map((m) => ({ role: typeof m.role === 'string' ? m.role : '', content: typeof m.content === 'string' ? m.content : '' }));
    if (messages.length === 0) return sendError(res, 400, 'messages must not be empty', 'BadRequestError');

    const rf = body.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined;
    let format: unknown;
    if (rf?.type === 'json_schema') {
      if (options.structuredOutput === 'json_object')
        return sendError(res, 400, "response_format of type 'json_schema' is not supported by this server", 'BadRequestError');
      format = rf.json_schema?.schema;
    } else if (rf?.type === 'json_object') format = 'json';

    const prompt = renderPrompt(messages);
    const promptTokens = tokenize(prompt).length;
    const maxTokens = typeof body.max_tokens === 'number' ? Math.floor(body.max_tokens) : undefined;
    if (promptTokens + (maxTokens ?? 1) > contextLength) {
      counters.contextOverflows++;
      return sendError(
        res,
        400,
        `This model's maximum context length is ${contextLength} tokens. However, you requested ${promptTokens + (maxTokens ?? 0)} tokens (${promptTokens} in the messages, ${maxTokens ?? 0} in the completion). Please reduce the length of the messages or completion.`,
        'BadRequestError',
      );
    }
    const limit = maxTokens ?? contextLength - promptTokens;

    const fs = pickFaults(requestIndex);
    const busy = fs.find((f): f is Extract<OpenAiFault, { kind: 'busy' }> => f.kind === 'busy');
    if (busy) {
      counters.rejectedBusy++;
      const retryAfter: Record<string, string> = busy.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(busy.retryAfterSeconds) };
      return sendError(res, 429, 'Too many requests: the server is busy, retry later.', 'RateLimitError', retryAfter);
    }
    if (fs.some((f) => f.kind === 'unavailable')) return sendError(res, 503, 'Service unavailable: the model is loading.', 'ServiceUnavailableError');

    const slot = acquire();
    if (slot === false) {
      counters.rejectedBusy++;
      return sendError(res, 429, 'Too many requests: every slot is busy and the queue is full.', 'RateLimitError');
    }
    await slot;
    try {
      if (signal.aborted) throw new Cancelled();
      const stream = body.stream === true;
      const options_: Record<string, unknown> = { temperature: body.temperature, seed: body.seed, num_predict: maxTokens };
      const simReq: SimChatRequest = {
        model: model.name,
        messages,
        prompt,
        promptTokens,
        fullPromptTokens: promptTokens,
        truncated: false,
        numCtx: contextLength,
        options: options_,
        format,
        think: undefined,
        requestIndex,
        endpoint: 'chat',
        stream,
        evaluatedTokens: promptTokens,
      };
      requests.push(simReq);
      counters.promptTokens += promptTokens;
      const reply = await responder(simReq);
      const content = typeof reply === 'string' ? reply : reply.content;
      let tokens = tokenize(content);
      let finish: 'stop' | 'length' = typeof reply === 'object' && reply.doneReason === 'length' ? 'length' : 'stop';
      if (tokens.length > limit) {
        tokens = tokens.slice(0, limit);
        finish = 'length';
      }
      await spend(promptTokens / rates.prefillTokensPerSec, signal);
      // Decoding is paced against its own clock, as the Ollama surface paces its tokens (completion.ts).
      const decode = pacedTime(timeScale, counters);
      const usage = { prompt_tokens: promptTokens, completion_tokens: tokens.length, total_tokens: promptTokens + tokens.length };
      const id = `chatcmpl-sim-${requestIndex}`;
      const created = Math.floor(Date.now() / 1000);
      if (!stream) {
        await decode(tokens.length / rates.decodeTokensPerSec, signal);
        counters.outputTokens += tokens.length;
        counters.completed++;
        return sendJson(res, 200, {
          id,
          object: 'chat.completion',
          created,
          model: model.name,
          choices: [{ index: 0, message: { role: 'assistant', content: tokens.join('') }, finish_reason: finish }],
          usage,
        });
      }
      // Headers go with the first frame, after prefill, as the real servers send them.
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
      const frame = (delta: Record<string, unknown>, finishReason: string | null) =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: model.name, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
      await write(res, frame({ role: 'assistant', content: '' }, null), signal);
      let frames = 0;
      for (let i = 0; i < tokens.length; i += tokensPerFrame) {
        const piece = tokens.slice(i, i + tokensPerFrame);
        await decode(piece.length / rates.decodeTokensPerSec, signal);
        counters.outputTokens += piece.length;
        await write(res, frame({ content: piece.join('') }, null), signal);
        frames++;
        const drop = fs.find((f): f is Extract<OpenAiFault, { kind: 'dropMidStream' }> => f.kind === 'dropMidStream');
        if (drop && frames >= drop.afterFrames) {
          res.destroy();
          return;
        }
        const errorEvent = fs.find((f): f is Extract<OpenAiFault, { kind: 'errorEvent' }> => f.kind === 'errorEvent');
        if (errorEvent && frames >= errorEvent.afterFrames) {
          await write(res, `data: ${JSON.stringify({ error: { message: errorEvent.message, type: 'InternalServerError', code: 500 } })}\n\n`, signal);
          res.end();
          return;
        }
      }
      if (fs.some((f) => f.kind === 'noFinish')) {
        res.end();
        return;
      }
      await write(res, frame({}, finish), signal);
      const wantUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
      if (wantUsage)
        await write(res, `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: model.name, choices: [], usage })}\n\n`, signal);
      await write(res, 'data: [DONE]\n\n', signal);
      counters.completed++;
      res.end();
    } catch (error) {
      if (!(error instanceof Cancelled)) throw error;
      counters.cancellations++;
    } finally {
      release();
    }
  }

  async function route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    counters.requests++;
    const ac = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) ac.abort();
    });
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname.replace(/\/+$/, '');
    if (req.method === 'GET' && path === '/health') return sendJson(res, 200, { status: 'ok' });
    const llamaProps = options.props === true && req.method === 'GET' && path === '/props';
    if (!path.startsWith('/v1/') && !llamaProps) return sendError(res, 404, `Not found: ${path}`, 'NotFoundError');
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      counters.unauthorized++;
      return sendError(res, 401, 'Incorrect API key provided.', 'invalid_request_error');
    }
    if (llamaProps) return sendJson(res, 200, { default_generation_settings: { n_ctx: contextLength }, total_slots: slots });
    if (req.method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, {
        object: 'list',
        [SIMULATOR_FIELD]: SIM_DESCRIPTION.openai,
        data: models.map((m) => ({
          id: m.name,
          object: 'model',
          created: 0,
          owned_by: 'sim',
          ...(options.listContextLength === false ? {} : { max_model_len: contextLength }),
        })),
      });
    }
    if (req.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/v1/embeddings'))
      return sendError(res, 404, `Not found: ${path}`, 'NotFoundError');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      return sendError(res, 400, 'The request body is not valid JSON.', 'BadRequestError');
    }
    if (path === '/v1/embeddings') {
      const input = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? '')];
      const tokens = input.map((t) => tokenize(t));
      return sendJson(res, 200, {
        object: 'list',
        data: tokens.map((t, index) => ({ object: 'embedding', index, embedding: embedTokens(t) })),
        model: body.model,
        usage: { prompt_tokens: tokens.reduce((n, t) => n + t.length, 0), total_tokens: tokens.reduce((n, t) => n + t.length, 0) },
      });
    }
    return chat(body, res, ac.signal);
  }

  const { port, close } = await serveOnLoopback(route, (res, message) => sendError(res, 500, message, 'InternalServerError'), options.port);
  return {
    url: `http://127.0.0.1:${port}`,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    counters,
    requests,
    bodies,
    setResponder(fn) {
      responder = fn;
    },
    addFault(rule) {
      faults.push({ ...rule });
    },
    kill: close,
    close,
  };
}
