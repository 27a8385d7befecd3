import type { z } from 'zod';
import { AppError, ErrorCode, type ErrorCode as ErrorCodeT } from '../../../shared/errors';
import { fitsContext } from './budget';
import { cacheKey } from './cache';
import { sha256, stableStringify, throwIfAborted } from '../util';
import { getCached, putCached, type LlmCallOutcome, type LlmCallRecord } from './store';
import { iso, nsToMs, type ClientContext } from './context';
import { calibrationSample } from './estimator';
import { classifyError, toAppError, type Classified } from './errors';
import { commonPrefixLength, renderMessages } from './prompt';
import { retryDelay } from './retry';
import { toOllamaFormat, validateReply } from './schema';
import { looksTruncated } from './truncation';
import { DEFAULT_LIVENESS_MS, type ChatMessage, type LlmPurpose } from './types';
import { startWatchdog } from './watchdog';

export interface ChatRequestBase {
  purpose: LlmPurpose;
  model: string;
  /** The run's num_ctx (budget.planContext): the same for every call of a run, or the model reloads. */
  numCtx: number;
  numPredict?: number;
  /** Fixed instructions; with `user` (already delimited, see prompt.ts). Or give `messages`. */
  system?: string;
  user?: string;
  messages?: ChatMessage[];
  runId?: number | null;
  documentId?: number | null;
  chunkRef?: string | null;
  /** false bypasses the response cache (read and write). */
  cache?: boolean;
  /**
   * false: a reply cut at num_predict fails at once instead of being retried with a larger limit (a caller that has
   * already had that larger limit once and now asks differently, e.g. the tree split's smaller windows).
   */
  retryCutReply?: boolean;
  /**
   * true: a reply cut at num_predict (done_reason "length") is returned as it is, with `cut: true` and no value,
   * instead of being retried or failed: a caller that can use a partial reply (extraction keeps every complete
   * finding and continues after the last one) so that no output is thrown away. The call is logged as ok with its
   * done_reason "length"; it is never cached.
   */
  acceptCutReply?: boolean;
  signal?: AbortSignal;
  /** The reply so far, after each streamed frame (a retry starts again from empty; a cached reply is not streamed). */
  onContent?: (contentSoFar: string) => void;
}

export interface ChatJsonRequest<T> extends ChatRequestBase {
  schema: z.ZodType<T>;
}

export interface ChatResult {
  content: string;
  call: LlmCallRecord;
  /** Set when the reply was cut at num_predict and accepted as it is (acceptCutReply): the content is a fragment. */
  cut?: boolean;
}

/** Attempt-level failure already turned into the final AppError; skips reclassification. */
class FinalError extends Error {
  constructor(readonly appError: AppError) {
    super(appError.message);
  }
}

/** The previous rendered prompt per model: what Ollama's prefix cache may still hold. */
export type PrefixTracker = Map<string, string>;

export async function chatCore<T>(
  ctx: ClientContext,
  prefixes: PrefixTracker,
  req: ChatRequestBase,
  schema: z.ZodType<T> | undefined,
): Promise<ChatResult & { value: T | undefined }> {
  const { settings, estimator } = ctx;
  const signal = req.signal;
  throwIfAborted(signal);
  const messages: ChatMessage[] =
    req.messages ??
    [
      ...(req.system ? [{ role: 'system' as const, content: req.system }] : []),
      ...(req.user !== undefined ? [{ role: 'user' as const, content: req.user }] : []),
    ];
  if (messages.length === 0) throw new AppError(ErrorCode.INVALID_INPUT, 'An LLM call needs a system/user text or messages.');

  const callId = ctx.newCallId();
  const numPredict = req.numPredict ?? settings.numPredict;
  // The raw count is reused after the reply (calibration, truncation check) when the same messages were sent.
  const rawEstimate = estimator.rawMessages(messages);
  const estimate = Math.ceil(rawEstimate * estimator.factor(req.model));
  // Serialised once: the prompt hash and the response-cache key both cover the messages.
  const messagesJson = stableStringify(messages);
  const promptHash = sha256(messagesJson);
  const format = schema ? toOllamaFormat(schema) : undefined;
  const baseOptions: Record<string, number> = { num_ctx: req.numCtx, temperature: settings.temperature, seed: settings.seed, num_predict: numPredict };

  const base = {
    callId,
    runId: req.runId ?? null,
    documentId: req.documentId ?? null,
    chunkRef: req.chunkRef ?? null,
    purpose: req.purpose,
    model: req.model,
    promptHash,
    estimatedPromptTokens: estimate,
  };
  const blank = { promptEvalCount: null, evalCount: null, totalMs: null, loadMs: null, promptEvalMs: null, evalMs: null, doneReason: null };
  const record = (r: { options: Record<string, unknown>; outcome: LlmCallOutcome; attempt: number; startedAt: number; errorCode?: ErrorCodeT | null; errorMessage?: string | null; done?: Record<string, unknown> }) =>
    ctx.record({
      ...base,
      ...blank,
      ...(r.done ? metrics(r.done) : {}),
      options: r.options,
      outcome: r.outcome,
      attempt: r.attempt,
      errorCode: r.errorCode ?? null,
      errorMessage: r.errorMessage ?? null,
      startedAt: iso(r.startedAt),
      finishedAt: iso(ctx.now()),
    });

  if (!fitsContext(estimate, req.numCtx)) {
    const err = new AppError(
      ErrorCode.LLM_CONTEXT_OVERFLOW,
      `The prompt (about ${estimate} tokens) does not fit the context of ${req.numCtx} tokens: split the chunk.`,
      { estimate, numCtx: req.numCtx, model: req.model },
    );
    record({ options: baseOptions, outcome: 'failed', attempt: 0, startedAt: ctx.now(), errorCode: err.code, errorMessage: err.message });
    throw err;
  }

  const [server, info] = await Promise.all([ctx.serverInfo(signal), ctx.modelInfo(req.model, signal)]);
  // think: false only where the model can think; anything else gets a 400 "does not support thinking".
  const think = info.thinking ? false : undefined;
  const truncate = server.supportsTruncate ? false : undefined;
  const described = (options: Record<string, number>) => ({
    ...options,
    ...(think !== undefined ? { think } : {}),
    ...(truncate !== undefined ? { truncate } : {}),
    format: format ? 'schema' : 'text',
  });

  const useCache = Boolean(ctx.db) && (req.cache ?? settings.cache);
  // An OpenAI-compatible server's replies are keyed apart: the same model name there may be other weights.
  const keyOptions = ctx.kind === 'ollama' ? baseOptions : { ...baseOptions, api: ctx.kind };
  const key = useCache ? cacheKey({ model: req.model, options: keyOptions, format, think, messagesJson }) : '';
  if (useCache && ctx.db) {
    const started = ctx.now();
    const hit = getCached(ctx.db, key, started);
    if (hit !== undefined) {
      const validated = schema ? validateReply(hit, schema) : ({ ok: true, value: undefined } as const);
      if (validated.ok) {
        const call = record({ options: described(baseOptions), outcome: 'cached', attempt: 0, startedAt: started });
        return { content: hit, value: validated.value as T | undefined, call };
      }
    }
  }

  let options = { ...baseOptions };
  let sendMessages = messages;
  let replyRetried = false;
  let transientFailures = 0;
  const maxAttempts = Math.max(1, settings.retry.maxAttempts);

  for (let attempt = 1; ; attempt++) {
    const startedAt = ctx.now();
    const wd = startWatchdog(settings.watchdog, estimate);
    const attemptSignal = signal ? AbortSignal.any([signal, wd.signal]) : wd.signal;
    const rendered = renderMessages(sendMessages);
    let done: Record<string, unknown> | undefined;
    try {
      const outcome = await ctx.queue.run(async () => {
        const previous = prefixes.get(req.model);
        prefixes.set(req.model, rendered);
        let soFar = '';
        const result = await ctx.transport.chat(
          {
            model: req.model,
            messages: sendMessages,
            options,
            keepAlive: settings.keepAlive,
            estimatedPromptTokens: sendMessages === messages ? estimate : estimator.estimateMessages(sendMessages, req.model),
            ...(format ? { format } : {}),
            ...(think !== undefined ? { think } : {}),
            ...(truncate !== undefined ? { truncate } : {}),
          },
          attemptSignal,
          (piece) => {
            wd.frame();
            if (!piece || !req.onContent) return;
            soFar += piece;
            req.onContent(soFar);
          },
        );
        return { ...result, previous };
      }, signal);
      done = outcome.done;
      wd.stop();

      const pe = typeof done.prompt_eval_count === 'number' ? done.prompt_eval_count : undefined;
      const rawFull = sendMessages === messages ? rawEstimate : estimator.rawMessages(sendMessages);
      const rawUncached =
        outcome.previous === undefined ? undefined : estimator.rawText(rendered.slice(commonPrefixLength(outcome.previous, rendered)));
      const factor = estimator.factor(req.model);
      const truncated =
        !server.refusesOverflow &&
        looksTruncated({
          promptEvalCount: pe,
          numCtx: req.numCtx,
          estimatedPromptTokens: Math.ceil(rawFull * factor),
          ...(rawUncached !== undefined ? { estimatedUncachedTokens: Math.ceil(rawUncached * factor) } : {}),
        });
      if (truncated) {
        // Never an answer: the model saw the tail of the prompt without its instructions.
        prefixes.delete(req.model);
        const err = new AppError(
          ErrorCode.LLM_TRUNCATED_PROMPT,
          `Ollama cut the prompt to fit ${req.numCtx} tokens (it evaluated ${pe} tokens; about ${estimate} were sent), so the reply was discarded: split the chunk.`,
          { promptEvalCount: pe, estimate, numCtx: req.numCtx, model: req.model },
        );
        record({ options: described(options), outcome: 'failed', attempt, startedAt, done, errorCode: err.code, errorMessage: err.message });
        throw new FinalError(err);
      }
      const sample = calibrationSample({ promptEvalCount: pe, numCtx: req.numCtx, truncated: false, rawFullTokens: rawFull, rawUncachedTokens: rawUncached, currentFactor: factor });
      if (sample) estimator.observe(req.model, sample.raw, sample.observed);

      if (done.done_reason === 'length' && req.acceptCutReply) {
        const call = record({ options: described(options), outcome: 'ok', attempt, startedAt, done });
        return { content: outcome.content, value: undefined, call, cut: true };
      }
      let problem: { code: ErrorCodeT; message: string } | undefined;
      let value: T | undefined;
      if (done.done_reason === 'length') {
        problem = { code: ErrorCode.LLM_REPLY_CUT, message: `The reply was cut at ${options.num_predict} tokens (done_reason "length").` };
      } else if (schema) {
        const validated = validateReply(outcome.content, schema);
        if (validated.ok) value = validated.value;
        else problem = { code: ErrorCode.LLM_INVALID_REPLY, message: `The reply is not the expected JSON: ${validated.error}.` };
      }

      if (problem) {
        if (!replyRetried && !(problem.code === ErrorCode.LLM_REPLY_CUT && req.retryCutReply === false)) {
          replyRetried = true;
          record({ options: described(options), outcome: 'retried', attempt, startedAt, done, errorCode: problem.code, errorMessage: problem.message });
          // One retry at temperature 0 with more room. For invalid JSON, the bad reply and what was wrong are
          // appended after the original prompt, which keeps the cached prefix and gives a deterministic model
          // a reason to answer differently.
          const room = Math.max(options.num_predict ?? numPredict, req.numCtx - estimate - 16);
          options = { ...options, temperature: 0, num_predict: Math.min((options.num_predict ?? numPredict) * 2, room) };
          if (problem.code === ErrorCode.LLM_INVALID_REPLY) {
            const retryMessages: ChatMessage[] = [
              ...messages,
              { role: 'assistant', content: outcome.content.slice(0, 4000) },
              { role: 'user', content: `${problem.message} Reply again with only the JSON, exactly of the requested shape.` },
            ];
            if (fitsContext(estimator.estimateMessages(retryMessages, req.model), req.numCtx)) sendMessages = retryMessages;
          }
          continue;
        }
        const err = new AppError(
          problem.code,
          problem.code === ErrorCode.LLM_REPLY_CUT
            ? `${problem.message} Even after a retry with a larger limit the reply did not fit: split the chunk; it is marked failed.`
            : `${problem.message} A retry did not fix it; the chunk is marked failed.`,
          { model: req.model, chunkRef: req.chunkRef ?? null, reply: outcome.content.slice(0, 2000) },
        );
        record({ options: described(options), outcome: 'failed', attempt, startedAt, done, errorCode: err.code, errorMessage: err.message });
        throw new FinalError(err);
      }

      const call = record({ options: described(options), outcome: 'ok', attempt, startedAt, done });
      if (useCache && ctx.db) putCached(ctx.db, { key, model: req.model, purpose: req.purpose, content: outcome.content }, ctx.now());
      return { content: outcome.content, value, call };
    } catch (error) {
      wd.stop();
      if (error instanceof FinalError) throw error.appError;
      let c: Classified = classifyError(error, signal);
      if (wd.fired && !signal?.aborted) {
        c = { kind: 'transient', code: ErrorCode.LLM_TIMEOUT, detail: wd.fired.message };
        // A slow model still answers a liveness check; a server that is gone (a machine switched off) does not. Then
        // the call fails at once as unreachable, which a run treats as the server's failure, not the chunk's (a pool
        // moves the file to another endpoint), instead of waiting out the watchdog again on every retry.
        if (!(await ctx.answers(signal))) {
          c = { kind: 'permanent', code: ErrorCode.OLLAMA_UNREACHABLE, detail: `${wd.fired.message}, and the server then did not answer a liveness check within ${settings.watchdog.livenessMs ?? DEFAULT_LIVENESS_MS} ms` };
        }
      }
      // Whatever was in flight, Ollama's cache state is now unknown.
      prefixes.delete(req.model);
      if (c.kind === 'cancelled') {
        record({ options: described(options), outcome: 'cancelled', attempt, startedAt, errorCode: ErrorCode.CANCELLED, errorMessage: 'Cancelled.' });
        throw new AppError(ErrorCode.CANCELLED, 'Cancelled.', { model: req.model }, { cause: error });
      }
      if (c.kind === 'transient' && ++transientFailures < maxAttempts) {
        record({ options: described(options), outcome: 'retried', attempt, startedAt, errorCode: c.code, errorMessage: c.detail });
        ctx.logger.warn?.('llm: transient failure, retrying', { model: req.model, attempt, code: c.code, detail: c.detail });
        try {
          await ctx.sleep(retryDelay(transientFailures, settings.retry, ctx.random, error), signal);
        } catch (sleepError) {
          record({ options: described(options), outcome: 'cancelled', attempt: attempt + 1, startedAt: ctx.now(), errorCode: ErrorCode.CANCELLED, errorMessage: 'Cancelled.' });
          throw sleepError;
        }
        continue;
      }
      const err = toAppError(c, { host: ctx.host, kind: ctx.kind, model: req.model, numCtx: req.numCtx }, error);
      record({ options: described(options), outcome: 'failed', attempt, startedAt, errorCode: err.code, errorMessage: err.message });
      throw err;
    }
  }
}

function metrics(done: Record<string, unknown>) {
  const int = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return {
    promptEvalCount: int(done.prompt_eval_count),
    evalCount: int(done.eval_count),
    totalMs: nsToMs(done.total_duration),
    loadMs: nsToMs(done.load_duration),
    promptEvalMs: nsToMs(done.prompt_eval_duration),
    evalMs: nsToMs(done.eval_duration),
    doneReason: typeof done.done_reason === 'string' ? done.done_reason : null,
  };
}
