import { AppError, ErrorCode } from '../../../shared/errors';
import { cancelledError, sha256 } from '../util';
import { iso, nsToMs, type ClientContext } from './context';
import { classifyError, toAppError } from './errors';
import { findInstalled, type InstalledModel, type ModelInfo } from './models';

export interface ProbeResult {
  host: string;
  version: string;
  supportsTruncate: boolean;
  installed: InstalledModel[];
  models: Record<string, ModelInfo>;
  numCtx: number;
  /** Requests the server runs at once, where it says so (llama-server); the endpoint's concurrency should not exceed it. */
  slots?: number;
  /** Things the user should know but that do not stop the run (e.g. num_ctx above the model's maximum). */
  warnings: string[];
  /** The server is a stand-in, not a language model (shared/simulator.ts): its description. */
  simulator?: string;
}

export function listInstalled(ctx: ClientContext, signal?: AbortSignal): Promise<InstalledModel[]> {
  return ctx.transport.listModels(signal);
}

/**
 * Before a run: is the server there (for an OpenAI-compatible one, its model list, which also checks the key), are the models installed, what can they do,
 * and does each load with the run's num_ctx? The load-only request
 * (`messages: []`) surfaces out-of-memory and missing models before the
 * first chunk, and leaves the runner loaded with exactly the options the
 * run's calls will send (no reload on the first chunk).
 */
export async function probe(ctx: ClientContext, modelNames: readonly string[], numCtx: number, signal?: AbortSignal): Promise<ProbeResult> {
  const fail = (error: unknown, model?: string): never => {
    if (error instanceof AppError) throw error;
    const c = classifyError(error, signal);
    if (c.kind === 'cancelled') throw cancelledError(signal);
    throw toAppError(c, { host: ctx.host, kind: ctx.kind, numCtx, ...(model ? { model } : {}) }, error);
  };

  let server: Awaited<ReturnType<ClientContext['serverInfo']>>;
  try {
    server = await ctx.transport.serverInfo(signal);
  } catch (error) {
    const c = classifyError(error, signal);
    if (c.kind === 'cancelled') throw cancelledError(signal);
    // A refused key is the answer of a live server: say that, not "unreachable".
    if (c.code === ErrorCode.LLM_UNAUTHORIZED) throw toAppError(c, { host: ctx.host, kind: ctx.kind }, error);
    if (ctx.kind === 'openai' && c.status === 404) {
      throw new AppError(
        ErrorCode.ENDPOINT_INVALID,
        `${ctx.host} answers, but not with an OpenAI-compatible API (no /models there, HTTP 404). The URL usually ends in /v1, e.g. http://host:8000/v1.`,
        { host: ctx.host },
      );
    }
    throw toAppError({ ...c, code: ErrorCode.OLLAMA_UNREACHABLE }, { host: ctx.host, kind: ctx.kind }, error);
  }
  const version = server.version;
  const installed = await listInstalled(ctx, signal).catch(fail);

  const models: Record<string, ModelInfo> = {};
  const warnings: string[] = [];
  for (const name of new Set(modelNames)) {
    if (!findInstalled(name, installed)) {
      const where = ctx.kind === 'ollama' ? '/api/tags' : '/v1/models';
      throw toAppError(
        { kind: 'permanent', code: ErrorCode.MODEL_NOT_FOUND, detail: `${name} is not in ${where}` },
        { host: ctx.host, kind: ctx.kind, model: name },
      );
    }
    const info = await ctx.modelInfo(name, signal).catch((e) => fail(e, name));
    models[name] = info;
    if (info.contextLength !== undefined && numCtx > info.contextLength) {
      warnings.push(
        `${name} supports at most ${info.contextLength} tokens of context; the run asks for ${numCtx}. Plan the run's context with the model's limit.`,
      );
    }
    await loadModel(ctx, info, numCtx, signal).catch((e) => fail(e, name));
  }
  return {
    host: ctx.host,
    version,
    supportsTruncate: server.supportsTruncate,
    installed,
    models,
    numCtx,
    warnings,
    ...(server.slots ? { slots: server.slots } : {}),
    ...(server.simulator ? { simulator: server.simulator } : {}),
  };
}

async function loadModel(ctx: ClientContext, info: ModelInfo, numCtx: number, signal?: AbortSignal): Promise<void> {
  const startedAt = ctx.now();
  const options = { num_ctx: numCtx };
  const callId = ctx.newCallId();
  const base = {
    callId,
    runId: null,
    documentId: null,
    chunkRef: null,
    purpose: 'probe' as const,
    model: info.name,
    options: { ...options, load: true },
    promptHash: sha256(''),
    estimatedPromptTokens: 0,
    evalCount: null,
    promptEvalMs: null,
    evalMs: null,
    attempt: 1,
    startedAt: iso(startedAt),
  };
  try {
    const res = await ctx.queue.run(() => ctx.transport.load(info, numCtx, ctx.settings.keepAlive, signal), signal);
    // Nothing to load on request (an OpenAI-compatible server loads its model at start): no call, nothing logged.
    if (res === null) return;
    ctx.record({
      ...base,
      promptEvalCount: typeof res.prompt_eval_count === 'number' ? res.prompt_eval_count : null,
      totalMs: nsToMs(res.total_duration),
      loadMs: nsToMs(res.load_duration),
      doneReason: typeof res.done_reason === 'string' ? res.done_reason : null,
      outcome: 'ok',
      errorCode: null,
      errorMessage: null,
      finishedAt: iso(ctx.now()),
    });
  } catch (error) {
    const c = classifyError(error, signal);
    ctx.record({
      ...base,
      promptEvalCount: null,
      totalMs: null,
      loadMs: null,
      doneReason: null,
      outcome: c.kind === 'cancelled' ? 'cancelled' : 'failed',
      errorCode: c.code,
      errorMessage: c.detail,
      finishedAt: iso(ctx.now()),
    });
    throw error;
  }
}
