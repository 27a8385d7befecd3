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
  /** Things the user should know but that do not stop the run (e.g. num_ctx above the model's maximum). */
  warnings: string[];
}

export async function listInstalled(ctx: ClientContext, signal?: AbortSignal): Promise<InstalledModel[]> {
  const tags = await ctx.ollama(signal).list();
  return (tags.models ?? []).map((m) => ({
    name: m.name ?? m.model,
    ...(m.details?.parameter_size ? { parameterSize: m.details.parameter_size } : {}),
    ...(m.details?.quantization_level ? { quantization: m.details.quantization_level } : {}),
    ...(typeof m.size === 'number' ? { sizeBytes: m.size } : {}),
    ...(m.digest ? { digest: m.digest } : {}),
  }));
}

/**
 * Before a run: is Ollama there, are the models installed, what can they do,
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
    throw toAppError(c, { host: ctx.host, numCtx, ...(model ? { model } : {}) }, error);
  };

  let version: string;
  try {
    ({ version } = await ctx.ollama(signal).version());
  } catch (error) {
    const c = classifyError(error, signal);
    if (c.kind === 'cancelled') throw cancelledError(signal);
    throw toAppError({ ...c, code: ErrorCode.OLLAMA_UNREACHABLE }, { host: ctx.host }, error);
  }
  const server = await ctx.serverInfo(signal).catch(fail);
  const installed = await listInstalled(ctx, signal).catch(fail);

  const models: Record<string, ModelInfo> = {};
  const warnings: string[] = [];
  for (const name of new Set(modelNames)) {
    if (!findInstalled(name, installed)) {
      throw toAppError({ kind: 'permanent', code: ErrorCode.MODEL_NOT_FOUND, detail: `${name} is not in /api/tags` }, { host: ctx.host, model: name });
    }
    const info = await ctx.modelInfo(name, signal).catch((e) => fail(e, name));
    models[name] = info;
    if (info.contextLength !== undefined && numCtx > info.contextLength) {
      warnings.push(`${name} supports at most ${info.contextLength} tokens of context; the run asks for ${numCtx}. Plan the run's context with the model's limit.`);
    }
    await loadModel(ctx, info, numCtx, signal).catch((e) => fail(e, name));
  }
  return { host: ctx.host, version, supportsTruncate: server.supportsTruncate, installed, models, numCtx, warnings };
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
    const res = await ctx.queue.run(async () => {
      const ollama = ctx.ollama(signal);
      if (info.embedding) {
        const r = await ollama.embed({ model: info.name, input: 'load', options, keep_alive: ctx.settings.keepAlive });
        return { total_duration: r.total_duration, load_duration: r.load_duration, prompt_eval_count: r.prompt_eval_count, done_reason: 'load' };
      }
      const r = await ollama.chat({ model: info.name, messages: [], options, keep_alive: ctx.settings.keepAlive, stream: false });
      return r as unknown as Record<string, unknown>;
    }, signal);
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
