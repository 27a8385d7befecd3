/** /api/embed: embeddings of one text or a list, deterministic (a hashed bag of words), through the same scheduler, runners and faults. */
import { ollamaErrors } from './errors';
import { findFault, httpFaultResponse, pickFaults } from './faults';
import { findModel } from './models';
import { normalizeOptions, parseKeepAlive, sendError, sendJson } from './protocol';
import { ensureRunner, finishRunner, resolveRunnerOptions, runnerMemory } from './runners';
import type { ReqCtx, Runner, SimState } from './state';
import { Cancelled } from './timing';
import { embedTokens } from './util';

export async function handleEmbed(state: SimState, body: Record<string, unknown>, ctx: ReqCtx): Promise<void> {
  const res = ctx.res;
  const index = state.embedIndex++;
  state.counters.embedRequests++;
  const modelName = body.model;
  if (typeof modelName !== 'string' || modelName.trim() === '') return sendError(res, 400, ollamaErrors.modelRequired);
  let input: string[] = [];
  const raw = body.input;
  if (typeof raw === 'string') {
    if (raw !== '') input = [raw];
  } else if (Array.isArray(raw)) {
    if (!raw.every((x) => typeof x === 'string')) return sendError(res, 400, ollamaErrors.invalidInput);
    input = raw as string[];
  } else if (raw !== undefined && raw !== null) {
    return sendError(res, 400, ollamaErrors.invalidInput);
  }
  const model = findModel(state.models, modelName);
  if (!model) return sendError(res, 404, ollamaErrors.notFound(modelName));
  const fs = pickFaults(state, 'embed', index, model.name);
  if (findFault(fs, 'modelNotFound')) return sendError(res, 404, ollamaErrors.notFound(modelName));
  if (findFault(fs, 'busy')) return sendError(res, 503, ollamaErrors.busy);
  if (!model.capabilities.includes('embedding')) return sendError(res, 400, ollamaErrors.noEmbeddings(modelName));
  let keepAliveMs: number | undefined;
  if (body.keep_alive !== undefined && body.keep_alive !== null) {
    const ka = parseKeepAlive(body.keep_alive);
    if ('error' in ka) return sendError(res, 400, ka.error);
    keepAliveMs = ka.ms;
  }
  const norm = normalizeOptions(body.options);
  if ('error' in norm) return sendError(res, 500, norm.error);
  const { numCtx, key } = resolveRunnerOptions(state, model, norm.opts);

  const got = state.scheduler.acquire(ctx.ac.signal);
  if ('busy' in got) return sendError(res, 503, ollamaErrors.busy);
  if (!(await got)) {
    state.counters.cancellations++;
    return;
  }
  let runner: Runner | undefined;
  try {
    for (const f of fs) {
      const need = runnerMemory(model, numCtx);
      const hf = httpFaultResponse(f, modelName, need, state.options.memoryBytes ?? Math.floor(need * 0.75));
      if (hf) return sendError(res, hf.status, hf.error);
    }
    if (findFault(fs, 'dropBeforeHeaders') || findFault(fs, 'dropMidStream')) {
      ctx.intentional = true;
      res.socket?.destroy();
      return;
    }
    const ensured = await ensureRunner(state, model, numCtx, key, ctx);
    if ('error' in ensured) return sendError(res, 500, ensured.error);
    runner = ensured.runner;
    if (input.length === 0) return sendJson(res, 200, { model: modelName, embeddings: [] });
    const truncate = body.truncate !== false;
    let total = 0;
    const embeddings: number[][] = [];
    for (const text of input) {
      let toks = state.tokenize(text);
      if (toks.length > numCtx) {
        if (!truncate) return sendError(res, 400, ollamaErrors.inputTooLong);
        toks = toks.slice(0, numCtx);
      }
      total += toks.length;
      embeddings.push(embedTokens(toks, state.embedDim));
    }
    const prefillSec = total / state.rates.prefillTokensPerSec;
    await state.spend(prefillSec, ctx);
    const load_duration = Math.round(ensured.loadSec * 1e9) + 250_000;
    sendJson(res, 200, {
      model: modelName,
      embeddings,
      total_duration: load_duration + Math.round(prefillSec * 1e9) + 100_000,
      load_duration,
      prompt_eval_count: total,
    });
  } catch (e) {
    if (e instanceof Cancelled) {
      if (!ctx.intentional) state.counters.cancellations++;
    } else sendError(res, 500, e instanceof Error ? e.message : String(e));
  } finally {
    if (runner) finishRunner(state, runner, keepAliveMs);
    state.scheduler.release();
  }
}
