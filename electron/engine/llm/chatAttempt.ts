/**
 * One attempt of a chat call (chat.ts): the request sent through the queue with its watchdog, what the server's
 * counts say about the prompt it saw, and what a failure was. Acting on the outcome is chat.ts's loop.
 */
import { ErrorCode } from '../../../shared/errors';
import type { PreparedCall } from './chatCall';
import type { ClientContext } from './context';
import { calibrationSample } from './estimator';
import { classifyError, type Classified } from './errors';
import { commonPrefixLength } from './prompt';
import type { DoneRecord } from './transport';
import { looksTruncated } from './truncation';
import { DEFAULT_LIVENESS_MS, type ChatMessage } from './types';
import type { Watchdog } from './watchdog';

/** What changes from one attempt of a call to the next. */
export interface AttemptState {
  options: Record<string, number>;
  /** The caller's messages, or after an invalid JSON reply those plus the bad reply and what was wrong with it. */
  sendMessages: ChatMessage[];
  /** The one reply retry (cut or invalid) has been used. */
  replyRetried: boolean;
  transientFailures: number;
}

/** The previous rendered prompt per model: what Ollama's prefix cache may still hold. */
export type PrefixTracker = Map<string, string>;

export interface AttemptReply {
  content: string;
  done: DoneRecord;
  /** The prompt sent before this one to the same model (undefined: none, or its cache state is unknown). */
  previous: string | undefined;
}

/** Step 3: one request, streamed, under the watchdog; the reply as it came. Throws what the transport throws. */
export async function sendAttempt(
  ctx: ClientContext,
  prefixes: PrefixTracker,
  call: PreparedCall<unknown>,
  state: AttemptState,
  rendered: string,
  watchdog: Watchdog,
): Promise<AttemptReply> {
  const { req } = call;
  const attemptSignal = req.signal ? AbortSignal.any([req.signal, watchdog.signal]) : watchdog.signal;
  const sendMessages = state.sendMessages;
  return ctx.queue.run(async () => {
    const previous = prefixes.get(req.model);
    prefixes.set(req.model, rendered);
    let soFar = '';
    const result = await ctx.transport.chat(
      {
        model: req.model,
        messages: sendMessages,
        options: state.options,
        keepAlive: ctx.settings.keepAlive,
        estimatedPromptTokens: sendMessages === call.messages ? call.estimate : ctx.estimator.estimateMessages(sendMessages, req.model),
        ...(call.format ? { format: call.format } : {}),
        ...(call.think !== undefined ? { think: call.think } : {}),
        ...(call.truncate !== undefined ? { truncate: call.truncate } : {}),
      },
      attemptSignal,
      (piece) => {
        watchdog.frame();
        if (!piece || !req.onContent) return;
        soFar += piece;
        req.onContent(soFar);
      },
    );
    return { ...result, previous };
  }, req.signal);
}

/** What the server's prompt count says: whether it cut the prompt, and a calibration sample for the estimator. */
export interface PromptMeasure {
  promptEvalCount: number | undefined;
  truncated: boolean;
  sample: { raw: number; observed: number } | undefined;
}

export function measurePrompt(ctx: ClientContext, call: PreparedCall<unknown>, state: AttemptState, rendered: string, reply: AttemptReply): PromptMeasure {
  const { estimator } = ctx;
  const { req } = call;
  const pe = typeof reply.done.prompt_eval_count === 'number' ? reply.done.prompt_eval_count : undefined;
  const rawFull = state.sendMessages === call.messages ? call.rawEstimate : estimator.rawMessages(state.sendMessages);
  // Only the part after what the server may still have cached is evaluated again.
  const rawUncached = reply.previous === undefined ? undefined : estimator.rawText(rendered.slice(commonPrefixLength(reply.previous, rendered)));
  const factor = estimator.factor(req.model);
  const truncated =
    !call.refusesOverflow &&
    looksTruncated({
      promptEvalCount: pe,
      numCtx: req.numCtx,
      estimatedPromptTokens: Math.ceil(rawFull * factor),
      ...(rawUncached !== undefined ? { estimatedUncachedTokens: Math.ceil(rawUncached * factor) } : {}),
    });
  // A truncated prompt's count says nothing about the estimate: no sample from it.
  const sample = truncated
    ? undefined
    : calibrationSample({
        promptEvalCount: pe,
        numCtx: req.numCtx,
        truncated: false,
        rawFullTokens: rawFull,
        rawUncachedTokens: rawUncached,
        currentFactor: factor,
      });
  return { promptEvalCount: pe, truncated, sample };
}

/** What an attempt's error was; a watchdog timeout is told apart from a server that is gone by a liveness check. */
export async function classifyAttemptError(ctx: ClientContext, error: unknown, watchdog: Watchdog, signal: AbortSignal | undefined): Promise<Classified> {
  let c: Classified = classifyError(error, signal);
  if (watchdog.fired && !signal?.aborted) {
    c = { kind: 'transient', code: ErrorCode.LLM_TIMEOUT, detail: watchdog.fired.message };
    // A slow model still answers a liveness check; a server that is gone (a machine switched off) does not. Then
    // the call fails at once as unreachable, which a run treats as the server's failure, not the chunk's (a pool
    // moves the file to another endpoint), instead of waiting out the watchdog again on every retry.
    if (!(await ctx.answers(signal))) {
      c = {
        kind: 'permanent',
        code: ErrorCode.OLLAMA_UNREACHABLE,
        detail: `${watchdog.fired.message}, and the server then did not answer a liveness check within ${ctx.settings.watchdog.livenessMs ?? DEFAULT_LIVENESS_MS} ms`,
      };
    }
  }
  return c;
}
