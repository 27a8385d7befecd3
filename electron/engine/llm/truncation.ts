/**
 * Silent truncation on servers that cannot refuse (no `truncate: false`
 * before 0.12.6): a prompt longer than num_ctx is cut with HTTP 200, and the
 * only trace is prompt_eval_count, equal to num_ctx or about num_ctx/2.
 *
 * The prefix cache makes prompt_eval_count *small* for a healthy call (only
 * the part after the cached prefix is evaluated), so "smaller than the
 * estimate" alone proves nothing. The half-context signal counts only when
 * the estimate says more should have been evaluated than was: the prompt is
 * estimated well above num_ctx/2 and the part not shared with the previous
 * prompt (what a cache hit could not have skipped) is estimated well above the
 * reported count.
 */
export interface TruncationInput {
  promptEvalCount: number | undefined;
  numCtx: number;
  /** Calibrated estimate of the whole prompt. */
  estimatedPromptTokens: number;
  /** Calibrated estimate of the part after the prefix shared with this client's previous prompt to the model; undefined when unknown. */
  estimatedUncachedTokens?: number;
}

export function looksTruncated(i: TruncationInput): boolean {
  const pe = i.promptEvalCount ?? 0;
  if (pe <= 0) return false;
  if (pe >= i.numCtx - 1) return true;
  const half = i.numCtx / 2;
  const expected = i.estimatedUncachedTokens ?? i.estimatedPromptTokens;
  const nearHalf = Math.abs(pe - half) <= Math.max(16, i.numCtx * 0.03);
  if (nearHalf && i.estimatedPromptTokens > half * 1.1 && expected > pe * 1.1) return true;
  // Chat drops old messages first: far fewer tokens evaluated than even the uncached part. Only judged when the
  // cache state is known (this client's previous prompt), since a cache from another process makes counts small.
  if (i.estimatedUncachedTokens !== undefined && i.estimatedPromptTokens > half && pe < i.estimatedUncachedTokens * 0.5) return true;
  return false;
}
