import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorCode } from '../../../shared/errors';
import { verdictOnFailure, verdictOnReply, type ReplyFacts } from '../../../electron/engine/llm/chatVerdict';
import type { Classified } from '../../../electron/engine/llm/errors';

const Schema = z.object({ findings: z.array(z.string()) });
type Reply = z.infer<typeof Schema>;

/** A whole, valid reply on its first attempt; each test changes the one fact it is about. */
function facts(over: Partial<ReplyFacts<Reply>> = {}): ReplyFacts<Reply> {
  return {
    content: '{"findings":["A-1"]}',
    doneReason: 'stop',
    promptTruncated: false,
    schema: Schema,
    numPredict: 512,
    acceptCutReply: undefined,
    retryCutReply: undefined,
    replyRetried: false,
    ...over,
  };
}

describe('verdictOnReply: what a reply that came back is worth', () => {
  it('accepts a whole reply of the requested shape, with its parsed value', () => {
    expect(verdictOnReply(facts())).toEqual({ kind: 'accept', value: { findings: ['A-1'] } });
  });

  it('accepts any whole reply without a schema, with no value', () => {
    expect(verdictOnReply(facts({ schema: undefined, content: 'plain text, not JSON' }))).toEqual({ kind: 'accept', value: undefined });
  });

  it('never takes a reply to a truncated prompt, even a valid one, a cut one the caller would accept, or after a retry', () => {
    expect(verdictOnReply(facts({ promptTruncated: true }))).toEqual({ kind: 'prompt-truncated' });
    expect(verdictOnReply(facts({ promptTruncated: true, doneReason: 'length', acceptCutReply: true }))).toEqual({ kind: 'prompt-truncated' });
    expect(verdictOnReply(facts({ promptTruncated: true, replyRetried: true, content: 'nope' }))).toEqual({ kind: 'prompt-truncated' });
  });

  it('retries a reply cut at num_predict once, naming the limit it was cut at', () => {
    const verdict = verdictOnReply(facts({ doneReason: 'length', numPredict: 300 }));
    expect(verdict).toEqual({
      kind: 'retry-reply',
      problem: { code: ErrorCode.LLM_REPLY_CUT, message: 'The reply was cut at 300 tokens (done_reason "length").' },
    });
  });

  it('treats a cut reply as cut even when the fragment parses as the schema', () => {
    // The content is valid JSON of the shape; the cut still wins: later findings may be missing.
    expect(verdictOnReply(facts({ doneReason: 'length' })).kind).toBe('retry-reply');
  });

  it('hands a cut reply to a caller that takes fragments, instead of retrying it', () => {
    expect(verdictOnReply(facts({ doneReason: 'length', acceptCutReply: true, content: '{"findings":["A-1",' }))).toEqual({ kind: 'accept-cut' });
  });

  it('judges a whole reply on its own for a caller that takes fragments: parsed when valid, retried when not', () => {
    expect(verdictOnReply(facts({ acceptCutReply: true }))).toEqual({ kind: 'accept', value: { findings: ['A-1'] } });
    expect(verdictOnReply(facts({ acceptCutReply: true, content: 'not JSON' })).kind).toBe('retry-reply');
  });

  it('fails a cut reply at once when the caller asked for no larger-limit retry', () => {
    const verdict = verdictOnReply(facts({ doneReason: 'length', retryCutReply: false }));
    expect(verdict.kind).toBe('fail-reply');
    expect(verdict.kind === 'fail-reply' && verdict.problem.code).toBe(ErrorCode.LLM_REPLY_CUT);
  });

  it('still retries invalid JSON once when only cut replies are not to be retried', () => {
    const verdict = verdictOnReply(facts({ content: '{"findings": 3}', retryCutReply: false }));
    expect(verdict.kind).toBe('retry-reply');
    expect(verdict.kind === 'retry-reply' && verdict.problem.code).toBe(ErrorCode.LLM_INVALID_REPLY);
  });

  it('retries a reply that is not the requested JSON once, saying what was wrong', () => {
    const verdict = verdictOnReply(facts({ content: 'Here are the findings: A-1' }));
    expect(verdict.kind).toBe('retry-reply');
    if (verdict.kind !== 'retry-reply') return;
    expect(verdict.problem.code).toBe(ErrorCode.LLM_INVALID_REPLY);
    expect(verdict.problem.message).toMatch(/^The reply is not the expected JSON: .+\.$/);
  });

  it('fails a bad reply after the one retry, cut or invalid', () => {
    const invalid = verdictOnReply(facts({ content: '{"findings": 3}', replyRetried: true }));
    const cut = verdictOnReply(facts({ doneReason: 'length', replyRetried: true }));
    expect(invalid.kind === 'fail-reply' && invalid.problem.code).toBe(ErrorCode.LLM_INVALID_REPLY);
    expect(cut.kind === 'fail-reply' && cut.problem.code).toBe(ErrorCode.LLM_REPLY_CUT);
  });

  it('accepts a good reply after a retry', () => {
    expect(verdictOnReply(facts({ replyRetried: true }))).toEqual({ kind: 'accept', value: { findings: ['A-1'] } });
  });
});

describe('verdictOnFailure: whether an attempt that threw is tried again', () => {
  const transient: Classified = { kind: 'transient', code: ErrorCode.LLM_TIMEOUT, detail: 'idle gap between frames exceeded 100 ms' };
  const permanent: Classified = { kind: 'permanent', code: ErrorCode.OLLAMA_UNREACHABLE, detail: 'gone' };

  it('retries a transient failure while the call has had fewer than maxAttempts, counting it', () => {
    expect(verdictOnFailure(transient, 0, 3)).toEqual({ kind: 'retry-transient', transientFailures: 1 });
    expect(verdictOnFailure(transient, 1, 3)).toEqual({ kind: 'retry-transient', transientFailures: 2 });
  });

  it('fails the transient failure that reaches maxAttempts', () => {
    expect(verdictOnFailure(transient, 2, 3)).toEqual({ kind: 'fail' });
  });

  it('never retries with maxAttempts 1 or less (one attempt in all)', () => {
    expect(verdictOnFailure(transient, 0, 1)).toEqual({ kind: 'fail' });
    expect(verdictOnFailure(transient, 0, 0)).toEqual({ kind: 'fail' });
  });

  it('fails a permanent, resource or context failure on the first attempt', () => {
    expect(verdictOnFailure(permanent, 0, 5)).toEqual({ kind: 'fail' });
    expect(verdictOnFailure({ kind: 'resource', code: ErrorCode.LLM_OUT_OF_MEMORY, detail: 'oom' }, 0, 5)).toEqual({ kind: 'fail' });
    expect(verdictOnFailure({ kind: 'context', code: ErrorCode.LLM_CONTEXT_OVERFLOW, detail: 'too long' }, 0, 5)).toEqual({ kind: 'fail' });
  });

  it('stops at a cancel, whatever the retry budget left', () => {
    expect(verdictOnFailure({ kind: 'cancelled', code: ErrorCode.CANCELLED, detail: 'aborted' }, 0, 5)).toEqual({ kind: 'cancelled' });
  });
});
