/**
 * The fixed part of one chat call (chat.ts): what is sent, what it is estimated to cost, how each attempt is
 * recorded in the call log, and the response cache in front of it. Nothing here changes between attempts; what does
 * (options, messages, retry counts) is the loop's `AttemptState` in chat.ts.
 */
import type { z } from 'zod';
import { AppError, ErrorCode, type ErrorCode as ErrorCodeT } from '../../../shared/errors';
import { sha256, stableStringify, throwIfAborted } from '../util';
import { fitsContext } from './budget';
import { cacheKey } from './cache';
import type { ChatRequestBase } from './chat';
import { iso, nsToMs, type ClientContext } from './context';
import { toOllamaFormat, validateReply, type JsonSchema } from './schema';
import { getCached, type LlmCallOutcome, type LlmCallRecord } from './store';
import type { ChatMessage } from './types';

/** One call as prepared once, before its first attempt. */
export interface PreparedCall<T> {
  readonly req: ChatRequestBase;
  readonly schema: z.ZodType<T> | undefined;
  /** What the caller asked to send (a retry after invalid JSON may send more: AttemptState.sendMessages). */
  readonly messages: ChatMessage[];
  readonly numPredict: number;
  /** The estimator's raw count of `messages`, reused after the reply (calibration, truncation check). */
  readonly rawEstimate: number;
  /** `rawEstimate` calibrated for the model: what the watchdog and the context checks go by. */
  readonly estimate: number;
  readonly messagesJson: string;
  readonly format: JsonSchema | undefined;
  readonly baseOptions: Record<string, number>;
  /** false where the model can think (else undefined: a model that cannot gets a 400 for `think`). */
  readonly think: false | undefined;
  /** false where the server takes `truncate` (an over-long prompt is then an error, not a silent cut). */
  readonly truncate: false | undefined;
  /** The server refuses an over-long prompt itself: no truncation check is needed. */
  readonly refusesOverflow: boolean;
  /** The call-log fields every attempt of this call shares. */
  readonly logFields: Pick<LlmCallRecord, 'callId' | 'runId' | 'documentId' | 'chunkRef' | 'purpose' | 'model' | 'promptHash' | 'estimatedPromptTokens'>;
}

/** One attempt's line in the call log. */
export interface AttemptLog {
  options: Record<string, unknown>;
  outcome: LlmCallOutcome;
  attempt: number;
  startedAt: number;
  errorCode?: ErrorCodeT | null;
  errorMessage?: string | null;
  /** The reply's done frame (token counts, durations, done_reason), when a reply came. */
  done?: Record<string, unknown>;
}

const NO_METRICS = { promptEvalCount: null, evalCount: null, totalMs: null, loadMs: null, promptEvalMs: null, evalMs: null, doneReason: null };

export function recordAttempt(ctx: ClientContext, call: PreparedCall<unknown>, r: AttemptLog): LlmCallRecord {
  return ctx.record({
    ...call.logFields,
    ...NO_METRICS,
    ...(r.done ? metrics(r.done) : {}),
    options: r.options,
    outcome: r.outcome,
    attempt: r.attempt,
    errorCode: r.errorCode ?? null,
    errorMessage: r.errorMessage ?? null,
    startedAt: iso(r.startedAt),
    finishedAt: iso(ctx.now()),
  });
}

/** The options as the call log shows them: what was sent, and whether the reply was held to a schema. */
export function describedOptions(call: PreparedCall<unknown>, options: Record<string, number>): Record<string, unknown> {
  return {
    ...options,
    ...(call.think !== undefined ? { think: call.think } : {}),
    ...(call.truncate !== undefined ? { truncate: call.truncate } : {}),
    format: call.format ? 'schema' : 'text',
  };
}

/**
 * Step 1: what is sent and what it costs. A prompt that cannot fit the context is refused here (and logged), before
 * the server is asked anything.
 */
export async function prepareCall<T>(ctx: ClientContext, req: ChatRequestBase, schema: z.ZodType<T> | undefined): Promise<PreparedCall<T>> {
  const { settings, estimator } = ctx;
  throwIfAborted(req.signal);
  const messages: ChatMessage[] = req.messages ?? [
    ...(req.system ? [{ role: 'system' as const, content: req.system }] : []),
    ...(req.user !== undefined ? [{ role: 'user' as const, content: req.user }] : []),
  ];
  if (messages.length === 0) throw new AppError(ErrorCode.INVALID_INPUT, 'An LLM call needs a system/user text or messages.');

  const callId = ctx.newCallId();
  const numPredict = req.numPredict ?? settings.numPredict;
  const rawEstimate = estimator.rawMessages(messages);
  const estimate = Math.ceil(rawEstimate * estimator.factor(req.model));
  // Serialised once: the prompt hash and the response-cache key both cover the messages.
  const messagesJson = stableStringify(messages);
  // What the server says (think, truncate, refusesOverflow) is filled in below, once the prompt is known to fit.
  const call: PreparedCall<T> = {
    req,
    schema,
    messages,
    numPredict,
    rawEstimate,
    estimate,
    messagesJson,
    format: schema ? toOllamaFormat(schema) : undefined,
    baseOptions: { num_ctx: req.numCtx, temperature: settings.temperature, seed: settings.seed, num_predict: numPredict },
    think: undefined,
    truncate: undefined,
    refusesOverflow: false,
    logFields: {
      callId,
      runId: req.runId ?? null,
      documentId: req.documentId ?? null,
      chunkRef: req.chunkRef ?? null,
      purpose: req.purpose,
      model: req.model,
      promptHash: sha256(messagesJson),
      estimatedPromptTokens: estimate,
    },
  };

  if (!fitsContext(estimate, req.numCtx)) {
    const err = new AppError(
      ErrorCode.LLM_CONTEXT_OVERFLOW,
      `The prompt (about ${estimate} tokens) does not fit the context of ${req.numCtx} tokens: split the chunk.`,
      { estimate, numCtx: req.numCtx, model: req.model },
    );
    recordAttempt(ctx, call, {
      options: call.baseOptions,
      outcome: 'failed',
      attempt: 0,
      startedAt: ctx.now(),
      errorCode: err.code,
      errorMessage: err.message,
    });
    throw err;
  }

  const [server, info] = await Promise.all([ctx.serverInfo(req.signal), ctx.modelInfo(req.model, req.signal)]);
  // think: false only where the model can think; anything else gets a 400 "does not support thinking".
  return { ...call, think: info.thinking ? false : undefined, truncate: server.supportsTruncate ? false : undefined, refusesOverflow: server.refusesOverflow };
}

/** Whether this call reads and writes the response cache at all. */
export function usesCache(ctx: ClientContext, call: PreparedCall<unknown>): boolean {
  return Boolean(ctx.db) && (call.req.cache ?? ctx.settings.cache);
}

/** The response-cache key: everything that decides the reply. */
export function replyCacheKey(ctx: ClientContext, call: PreparedCall<unknown>): string {
  // An OpenAI-compatible server's replies are keyed apart: the same model name there may be other weights.
  const keyOptions = ctx.kind === 'ollama' ? call.baseOptions : { ...call.baseOptions, api: ctx.kind };
  return cacheKey({ model: call.req.model, options: keyOptions, format: call.format, think: call.think, messagesJson: call.messagesJson });
}

/**
 * Step 2: a cached reply, when there is one that still passes the schema (a schema may have changed since it was
 * stored: then the call is made again). Logged as 'cached'.
 */
export function readCachedReply<T>(
  ctx: ClientContext,
  call: PreparedCall<T>,
  key: string,
): { content: string; value: T | undefined; call: LlmCallRecord } | undefined {
  if (!usesCache(ctx, call) || !ctx.db) return undefined;
  const started = ctx.now();
  const hit = getCached(ctx.db, key, started);
  if (hit === undefined) return undefined;
  const validated = call.schema ? validateReply(hit, call.schema) : ({ ok: true, value: undefined } as const);
  if (!validated.ok) return undefined;
  const logged = recordAttempt(ctx, call, { options: describedOptions(call, call.baseOptions), outcome: 'cached', attempt: 0, startedAt: started });
  return { content: hit, value: validated.value as T | undefined, call: logged };
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
