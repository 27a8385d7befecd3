import type { Database } from 'better-sqlite3';
import { AppError, ErrorCode } from '../../../shared/errors';
import { fitsContext } from './budget';
import { sha256, stableStringify } from '../util';
import type { LlmCallRecord } from './store';
import { chatCore, type ChatJsonRequest, type ChatRequestBase, type PrefixTracker } from './chat';
import { createContext, iso, nsToMs } from './context';
import { createEstimator, type TokenEstimator } from './estimator';
import { classifyError } from './errors';
import type { FetchLike } from './fetch';
import { resolveHost } from './host';
import { resolveModelsFrom, type InstalledModel, type ModelInfo, type ResolvedModels, type ResolveModelsInput } from './models';
import { listInstalled, probe, type ProbeResult } from './probe';
import { createQueue } from './queue';
import { realSleep } from './retry';
import { mergeSettings, type LlmLogger, type LlmSettings, type Sleep } from './types';
import { startWatchdog } from './watchdog';
import { createOllamaAgent } from './fetch';
import { createOllamaTransport } from './ollamaTransport';
import { createOpenAiTransport } from './openaiTransport';
import type { EndpointKind } from '../../../shared/endpoints';

/** Where the client's calls go when it is not the default Ollama: the endpoint's kind, URL and (resolved) key. */
export interface LlmEndpoint {
  kind: EndpointKind;
  url: string;
  /** The key itself, resolved by the caller from where it is kept; only ever sent in the Authorization header. */
  apiKey?: string;
  /** OpenAI-compatible: the server's context size (see openaiTransport.ts). */
  contextTokens?: number;
}

export interface LlmClientDeps {
  /** Overrides settings.host and OLLAMA_HOST. */
  host?: string;
  /** An endpoint of either kind; absent: Ollama at `host` (settings.host, OLLAMA_HOST, the default). */
  endpoint?: LlmEndpoint;
  db?: Database;
  settings?: Partial<LlmSettings>;
  /** Base fetch (tests); the client still merges its AbortSignal into every request. Default: Node http without timeouts (fetch.ts). */
  fetch?: FetchLike;
  /** Back-off sleep; inject a fast one in tests. */
  sleep?: Sleep;
  now?: () => number;
  random?: () => number;
  logger?: LlmLogger;
  env?: Record<string, string | undefined>;
}

export interface EmbedRequest {
  model: string;
  input: string | string[];
  /** The run's num_ctx (the same for embeddings, or the runner reloads). */
  numCtx: number;
  runId?: number | null;
  documentId?: number | null;
  chunkRef?: string | null;
  signal?: AbortSignal;
}

export interface LlmClient {
  readonly host: string;
  readonly kind: EndpointKind;
  readonly settings: LlmSettings;
  readonly estimator: TokenEstimator;
  probe(models: readonly string[], numCtx: number, signal?: AbortSignal): Promise<ProbeResult>;
  /** `cut`: the reply was cut at num_predict and accepted as a fragment (req.acceptCutReply); `value` is then undefined. */
  chatJson<T>(req: ChatJsonRequest<T>): Promise<{ value: T; content: string; call: LlmCallRecord; cut?: boolean }>;
  chatText(req: ChatRequestBase): Promise<{ text: string; call: LlmCallRecord }>;
  embed(req: EmbedRequest): Promise<{ embeddings: number[][]; call: LlmCallRecord }>;
  listModels(signal?: AbortSignal): Promise<InstalledModel[]>;
  resolveModels(input?: ResolveModelsInput, signal?: AbortSignal): Promise<ResolvedModels>;
  modelInfo(model: string, signal?: AbortSignal): Promise<ModelInfo>;
  /** Change how many requests may be in flight (settings change). */
  setMaxInFlight(n: number): void;
  /** Closes the client's connection pool. */
  close(): Promise<void>;
}

export function createLlmClient(deps: LlmClientDeps = {}): LlmClient {
  const settings = mergeSettings(deps.settings);
  const endpoint = deps.endpoint;
  const host =
    endpoint?.kind === 'openai' ? endpoint.url.replace(/\/+$/, '') : resolveHost(endpoint?.url ?? deps.host ?? settings.host, deps.env ?? process.env);
  const now = deps.now ?? Date.now;
  const estimator = createEstimator({ ...(deps.db ? { db: deps.db } : {}), now });
  const queue = createQueue(settings.maxInFlight);
  const agent = createOllamaAgent();
  const transport =
    endpoint?.kind === 'openai'
      ? createOpenAiTransport({
          baseUrl: host,
          agent,
          ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}),
          ...(endpoint.contextTokens ? { contextTokens: endpoint.contextTokens } : {}),
          ...(deps.fetch ? { fetch: deps.fetch } : {}),
        })
      : createOllamaTransport({ host, agent, ...(deps.fetch ? { fetch: deps.fetch } : {}) });
  const ctx = createContext({
    transport,
    host,
    settings,
    ...(deps.db ? { db: deps.db } : {}),
    now,
    sleep: deps.sleep ?? realSleep,
    random: deps.random ?? Math.random,
    logger: deps.logger ?? {},
    queue,
    estimator,
  });
  const prefixes: PrefixTracker = new Map();

  return {
    host,
    kind: transport.kind,
    settings,
    estimator,
    probe: (models, numCtx, signal) => probe(ctx, models, numCtx, signal),
    async chatJson<T>(req: ChatJsonRequest<T>) {
      const r = await chatCore(ctx, prefixes, req, req.schema);
      return { value: r.value as T, content: r.content, call: r.call, ...(r.cut ? { cut: true } : {}) };
    },
    async chatText(req) {
      const r = await chatCore(ctx, prefixes, req, undefined);
      return { text: r.content, call: r.call };
    },
    embed: (req) => embed(ctx, req),
    listModels: (signal) => ctx.retrying({}, () => listInstalled(ctx, signal), signal),
    async resolveModels(input, signal) {
      const installed = await ctx.retrying({}, () => listInstalled(ctx, signal), signal);
      return resolveModelsFrom(installed, settings, input);
    },
    modelInfo: (model, signal) => ctx.modelInfo(model, signal),
    setMaxInFlight: (n) => queue.setMaxInFlight(n),
    close: () => agent.close(),
  };
}

async function embed(ctx: ReturnType<typeof createContext>, req: EmbedRequest): Promise<{ embeddings: number[][]; call: LlmCallRecord }> {
  const inputs = Array.isArray(req.input) ? req.input : [req.input];
  const estimates = inputs.map((t) => ctx.estimator.estimateText(t, req.model));
  const estimate = estimates.reduce((a, b) => a + b, 0);
  const options = { num_ctx: req.numCtx };
  const callId = ctx.newCallId();
  const base = {
    callId,
    runId: req.runId ?? null,
    documentId: req.documentId ?? null,
    chunkRef: req.chunkRef ?? null,
    purpose: 'embed' as const,
    model: req.model,
    options: { ...options, truncate: false },
    promptHash: sha256(stableStringify(inputs)),
    estimatedPromptTokens: estimate,
    evalCount: null,
    promptEvalMs: null,
    evalMs: null,
    doneReason: null,
  };
  const fail = (outcome: 'failed' | 'retried' | 'cancelled', attempt: number, startedAt: number, code: string, message: string) =>
    ctx.record({
      ...base,
      promptEvalCount: null,
      totalMs: null,
      loadMs: null,
      outcome,
      attempt,
      errorCode: code as ErrorCode,
      errorMessage: message,
      startedAt: iso(startedAt),
      finishedAt: iso(ctx.now()),
    });

  const tooLong = estimates.findIndex((e) => !fitsContext(e, req.numCtx, 0));
  if (tooLong >= 0) {
    const err = new AppError(
      ErrorCode.LLM_CONTEXT_OVERFLOW,
      `Input ${tooLong} (about ${estimates[tooLong]} tokens) does not fit the context of ${req.numCtx} tokens: split it.`,
      { numCtx: req.numCtx },
    );
    fail('failed', 0, ctx.now(), err.code, err.message);
    throw err;
  }

  let startedAt = ctx.now();
  let lastAttempt = 1;
  try {
    const res = await ctx.retrying(
      { model: req.model, numCtx: req.numCtx },
      async (attempt) => {
        lastAttempt = attempt;
        startedAt = ctx.now();
        const wd = startWatchdog(ctx.settings.watchdog, estimate);
        const signal = req.signal ? AbortSignal.any([req.signal, wd.signal]) : wd.signal;
        try {
          return await ctx.queue.run(
            () => ctx.transport.embed({ model: req.model, input: inputs, numCtx: req.numCtx, keepAlive: ctx.settings.keepAlive }, signal),
            req.signal,
          );
        } catch (error) {
          if (wd.fired && !req.signal?.aborted) throw wd.fired;
          throw error;
        } finally {
          wd.stop();
        }
      },
      req.signal,
      (c, attempt) => fail('retried', attempt, startedAt, c.code, c.detail),
    );
    if (typeof res.prompt_eval_count === 'number') {
      ctx.estimator.observe(
        req.model,
        inputs.reduce((a, t) => a + ctx.estimator.rawText(t), 0),
        res.prompt_eval_count,
      );
    }
    const call = ctx.record({
      ...base,
      promptEvalCount: typeof res.prompt_eval_count === 'number' ? res.prompt_eval_count : null,
      totalMs: nsToMs(res.total_duration),
      loadMs: nsToMs(res.load_duration),
      outcome: 'ok',
      attempt: lastAttempt,
      errorCode: null,
      errorMessage: null,
      startedAt: iso(startedAt),
      finishedAt: iso(ctx.now()),
    });
    return { embeddings: res.embeddings, call };
  } catch (error) {
    const c = classifyError(error, req.signal);
    fail(c.kind === 'cancelled' ? 'cancelled' : 'failed', lastAttempt, startedAt, c.code, error instanceof Error ? error.message : c.detail);
    throw error;
  }
}
