/**
 * What one attempt of a chat call came to, judged from plain facts (chat.ts acts on the verdict: return, retry,
 * fail). Pure: the tests hold every rule here without a server.
 *
 * Two retry policies, kept apart on purpose:
 * - a bad reply (cut at num_predict, or not the requested JSON) is retried once, at temperature 0 with more room;
 * - a transient failure (server busy, connection lost, a watchdog limit) is retried up to settings.retry.maxAttempts
 *   times in all, with a backoff.
 */
import type { z } from 'zod';
import { ErrorCode, type ErrorCode as ErrorCodeT } from '../../../shared/errors';
import type { Classified } from './errors';
import { validateReply } from './schema';

/** What was wrong with a reply that came back whole. */
export interface ReplyProblem {
  code: ErrorCodeT;
  message: string;
}

export type ReplyVerdict<T> =
  /** The server cut the prompt to fit its context: the model never saw the instructions. Never an answer. */
  | { kind: 'prompt-truncated' }
  /** Cut at num_predict, and the caller takes a fragment (acceptCutReply). */
  | { kind: 'accept-cut' }
  | { kind: 'accept'; value: T | undefined }
  | { kind: 'retry-reply'; problem: ReplyProblem }
  | { kind: 'fail-reply'; problem: ReplyProblem };

export interface ReplyFacts<T> {
  content: string;
  /** The done frame's done_reason ("stop", "length", ...). */
  doneReason: unknown;
  /** The server evaluated fewer prompt tokens than were sent (truncation.ts). */
  promptTruncated: boolean;
  schema: z.ZodType<T> | undefined;
  /** num_predict of this attempt, for the message of a cut reply. */
  numPredict: number | undefined;
  acceptCutReply: boolean | undefined;
  retryCutReply: boolean | undefined;
  /** This call has already had its one reply retry. */
  replyRetried: boolean;
}

export function verdictOnReply<T>(facts: ReplyFacts<T>): ReplyVerdict<T> {
  if (facts.promptTruncated) return { kind: 'prompt-truncated' };
  const cut = facts.doneReason === 'length';
  if (cut && facts.acceptCutReply) return { kind: 'accept-cut' };
  let problem: ReplyProblem | undefined;
  let value: T | undefined;
  if (cut) {
    // Checked before the schema: a reply cut at the limit is a fragment even when the fragment parses.
    problem = { code: ErrorCode.LLM_REPLY_CUT, message: `The reply was cut at ${facts.numPredict} tokens (done_reason "length").` };
  } else if (facts.schema) {
    const validated = validateReply(facts.content, facts.schema);
    if (validated.ok) value = validated.value;
    else problem = { code: ErrorCode.LLM_INVALID_REPLY, message: `The reply is not the expected JSON: ${validated.error}.` };
  }
  if (!problem) return { kind: 'accept', value };
  // A caller that already had the larger limit once (retryCutReply: false) asks differently instead.
  const mayRetry = !facts.replyRetried && !(problem.code === ErrorCode.LLM_REPLY_CUT && facts.retryCutReply === false);
  return mayRetry ? { kind: 'retry-reply', problem } : { kind: 'fail-reply', problem };
}

export type FailureVerdict =
  | { kind: 'cancelled' }
  /** Wait and try again; `transientFailures` counts this one. */
  | { kind: 'retry-transient'; transientFailures: number }
  | { kind: 'fail' };

/**
 * An attempt that threw (after classification, watchdog and liveness included). Only a transient failure is
 * retried, and only while the call has had fewer than `maxAttempts` of them.
 */
export function verdictOnFailure(c: Classified, transientFailuresBefore: number, maxAttempts: number): FailureVerdict {
  if (c.kind === 'cancelled') return { kind: 'cancelled' };
  if (c.kind !== 'transient') return { kind: 'fail' };
  const transientFailures = transientFailuresBefore + 1;
  return transientFailures < Math.max(1, maxAttempts) ? { kind: 'retry-transient', transientFailures } : { kind: 'fail' };
}
