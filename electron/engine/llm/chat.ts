import type { z } from 'zod';
import { AppError, ErrorCode } from '../../../shared/errors';
import { fitsContext } from './budget';
import { classifyAttemptError, measurePrompt, sendAttempt, type AttemptReply, type AttemptState, type PrefixTracker, type PromptMeasure } from './chatAttempt';
import { describedOptions, prepareCall, readCachedReply, recordAttempt, replyCacheKey, usesCache, type PreparedCall } from './chatCall';
import { verdictOnFailure, verdictOnReply, type ReplyProblem, type ReplyVerdict } from './chatVerdict';
import type { ClientContext } from './context';
import { toAppError } from './errors';
import { renderMessages } from './prompt';
import { retryDelay } from './retry';
import { putCached, type LlmCallRecord } from './store';
import type { ChatMessage, LlmPurpose } from './types';
import { startWatchdog, type Watchdog } from './watchdog';

export type { PrefixTracker } from './chatAttempt';

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

/**
 * One chat call, in steps: prepare it (chatCall.ts), answer from the cache when it can, then attempts
 * (chatAttempt.ts), each judged (chatVerdict.ts) and acted on here: return the reply, retry, or fail. Every attempt
 * is logged (ctx.record).
 */
export async function chatCore<T>(
  ctx: ClientContext,
  prefixes: PrefixTracker,
  req: ChatRequestBase,
  schema: z.ZodType<T> | undefined,
): Promise<ChatResult & { value: T | undefined }> {
  const call = await prepareCall(ctx, req, schema);
  const cacheKey = usesCache(ctx, call) ? replyCacheKey(ctx, call) : '';
  const cached = readCachedReply(ctx, call, cacheKey);
  if (cached) return cached;

  const state: AttemptState = { options: { ...call.baseOptions }, sendMessages: call.messages, replyRetried: false, transientFailures: 0 };
  for (let attempt = 1; ; attempt++) {
    const startedAt = ctx.now();
    const watchdog = startWatchdog(ctx.settings.watchdog, call.estimate);
    const rendered = renderMessages(state.sendMessages);
    try {
      const reply = await sendAttempt(ctx, prefixes, call, state, rendered, watchdog);
      watchdog.stop();
      const measured = measurePrompt(ctx, call, state, rendered, reply);
      const verdict = verdictOnReply({
        content: reply.content,
        doneReason: reply.done.done_reason,
        promptTruncated: measured.truncated,
        schema,
        numPredict: state.options.num_predict,
        acceptCutReply: req.acceptCutReply,
        retryCutReply: req.retryCutReply,
        replyRetried: state.replyRetried,
      });
      const result = actOnReply(ctx, prefixes, call, state, { attempt, startedAt, reply, measured, verdict, cacheKey });
      if (result) return result;
    } catch (error) {
      watchdog.stop();
      if (error instanceof FinalError) throw error.appError;
      await actOnFailure(ctx, prefixes, call, state, { error, watchdog, attempt, startedAt });
    }
  }
}

interface JudgedReply<T> {
  attempt: number;
  startedAt: number;
  reply: AttemptReply;
  measured: PromptMeasure;
  verdict: ReplyVerdict<T>;
  cacheKey: string;
}

/** The result to return, or undefined to try again (state updated); a final failure is thrown as a FinalError. */
function actOnReply<T>(
  ctx: ClientContext,
  prefixes: PrefixTracker,
  call: PreparedCall<T>,
  state: AttemptState,
  judged: JudgedReply<T>,
): (ChatResult & { value: T | undefined }) | undefined {
  const { req } = call;
  const { attempt, startedAt, reply, verdict } = judged;
  const { done, content } = reply;
  const log = { options: describedOptions(call, state.options), attempt, startedAt, done };
  if (verdict.kind === 'prompt-truncated') {
    // Never an answer: the model saw the tail of the prompt without its instructions.
    prefixes.delete(req.model);
    const pe = judged.measured.promptEvalCount;
    const err = new AppError(
      ErrorCode.LLM_TRUNCATED_PROMPT,
      `Ollama cut the prompt to fit ${req.numCtx} tokens (it evaluated ${pe} tokens; about ${call.estimate} were sent), so the reply was discarded: split the chunk.`,
      { promptEvalCount: pe, estimate: call.estimate, numCtx: req.numCtx, model: req.model },
    );
    recordAttempt(ctx, call, { ...log, outcome: 'failed', errorCode: err.code, errorMessage: err.message });
    throw new FinalError(err);
  }
  const sample = judged.measured.sample;
  if (sample) ctx.estimator.observe(req.model, sample.raw, sample.observed);

  switch (verdict.kind) {
    case 'accept-cut':
      return { content, value: undefined, call: recordAttempt(ctx, call, { ...log, outcome: 'ok' }), cut: true };
    case 'retry-reply':
      state.replyRetried = true;
      recordAttempt(ctx, call, { ...log, outcome: 'retried', errorCode: verdict.problem.code, errorMessage: verdict.problem.message });
      prepareReplyRetry(ctx, call, state, verdict.problem, content);
      return undefined;
    case 'fail-reply': {
      const { problem } = verdict;
      const err = new AppError(
        problem.code,
        problem.code === ErrorCode.LLM_REPLY_CUT
          ? `${problem.message} Even after a retry with a larger limit the reply did not fit: split the chunk; it is marked failed.`
          : `${problem.message} A retry did not fix it; the chunk is marked failed.`,
        { model: req.model, chunkRef: req.chunkRef ?? null, reply: content.slice(0, 2000) },
      );
      recordAttempt(ctx, call, { ...log, outcome: 'failed', errorCode: err.code, errorMessage: err.message });
      throw new FinalError(err);
    }
    case 'accept': {
      const logged = recordAttempt(ctx, call, { ...log, outcome: 'ok' });
      if (usesCache(ctx, call) && ctx.db) putCached(ctx.db, { key: judged.cacheKey, model: req.model, purpose: req.purpose, content }, ctx.now());
      return { content, value: verdict.value, call: logged };
    }
  }
}

/**
 * The one reply retry, at temperature 0 with more room. For invalid JSON, the bad reply and what was wrong are
 * appended after the original prompt, which keeps the cached prefix and gives a deterministic model a reason to
 * answer differently (when that still fits the context).
 */
function prepareReplyRetry(ctx: ClientContext, call: PreparedCall<unknown>, state: AttemptState, problem: ReplyProblem, badReply: string): void {
  const { req } = call;
  const current = state.options.num_predict ?? call.numPredict;
  const room = Math.max(current, req.numCtx - call.estimate - 16);
  state.options = { ...state.options, temperature: 0, num_predict: Math.min(current * 2, room) };
  if (problem.code !== ErrorCode.LLM_INVALID_REPLY) return;
  const retryMessages: ChatMessage[] = [
    ...call.messages,
    { role: 'assistant', content: badReply.slice(0, 4000) },
    { role: 'user', content: `${problem.message} Reply again with only the JSON, exactly of the requested shape.` },
  ];
  if (fitsContext(ctx.estimator.estimateMessages(retryMessages, req.model), req.numCtx)) state.sendMessages = retryMessages;
}

interface FailedAttempt {
  error: unknown;
  watchdog: Watchdog;
  attempt: number;
  startedAt: number;
}

/** Returns after the backoff when the failure is retried (state updated); otherwise throws the call's AppError. */
async function actOnFailure(
  ctx: ClientContext,
  prefixes: PrefixTracker,
  call: PreparedCall<unknown>,
  state: AttemptState,
  failed: FailedAttempt,
): Promise<void> {
  const { req } = call;
  const { error, attempt, startedAt } = failed;
  const c = await classifyAttemptError(ctx, error, failed.watchdog, req.signal);
  // Whatever was in flight, Ollama's cache state is now unknown.
  prefixes.delete(req.model);
  const options = describedOptions(call, state.options);
  const verdict = verdictOnFailure(c, state.transientFailures, ctx.settings.retry.maxAttempts);
  if (verdict.kind === 'cancelled') {
    recordAttempt(ctx, call, { options, outcome: 'cancelled', attempt, startedAt, errorCode: ErrorCode.CANCELLED, errorMessage: 'Cancelled.' });
    throw new AppError(ErrorCode.CANCELLED, 'Cancelled.', { model: req.model }, { cause: error });
  }
  if (verdict.kind === 'retry-transient') {
    state.transientFailures = verdict.transientFailures;
    recordAttempt(ctx, call, { options, outcome: 'retried', attempt, startedAt, errorCode: c.code, errorMessage: c.detail });
    ctx.logger.warn?.('llm: transient failure, retrying', { model: req.model, attempt, code: c.code, detail: c.detail });
    try {
      await ctx.sleep(retryDelay(state.transientFailures, ctx.settings.retry, ctx.random, error), req.signal);
    } catch (sleepError) {
      recordAttempt(ctx, call, {
        options,
        outcome: 'cancelled',
        attempt: attempt + 1,
        startedAt: ctx.now(),
        errorCode: ErrorCode.CANCELLED,
        errorMessage: 'Cancelled.',
      });
      throw sleepError;
    }
    return;
  }
  const err = toAppError(c, { host: ctx.host, kind: ctx.kind, model: req.model, numCtx: req.numCtx }, error);
  recordAttempt(ctx, call, { options, outcome: 'failed', attempt, startedAt, errorCode: err.code, errorMessage: err.message });
  throw err;
}
