/** The tree split's options: a typed object with defaults, invariants checked once when resolved. */
import { AppError, ErrorCode } from '../../../shared/errors';

export interface TreeSplitOptions {
  /** Attempts per node; every failed validation, failed review or invalid reply counts. */
  maxAttempts: number;
  /** A chapter larger than this (estimated tokens) is split again. */
  leafTokens: number;
  /** Optional: also split chapters with more non-blank lines than this (PolicySynth used 15). */
  leafLineLimit?: number;
  /** Depth of LLM recursion below the input node; deeper oversized chapters fall back to the deterministic splitter. */
  maxDepth: number;
  /** Chapters with fewer non-blank characters merge into a neighbour. */
  minChapterChars: number;
  reviewEnabled: boolean;
  /** Lines shown before and after each proposed start in the review. */
  contextLines: number;
  /** The most detailed view whose tokens stay under this share of the node's tokens is used (cost control). */
  viewTokenRatio: number;
  /** Share of a window repeated at the start of the next one. */
  windowOverlapRatio: number;
  /** Reply room for a split call (default min(2048, numCtx/4)) and a review call (default 384). */
  splitNumPredict?: number;
  reviewNumPredict?: number;
  /** Most chapters asked for in one call. */
  maxChaptersPerCall: number;
  /**
   * Give up early when the model returns the same rejected split this many times in a row despite the feedback
   * (a temperature-0 model that repeats itself will not converge; on a local model each attempt costs minutes).
   * 0 disables the check.
   */
  maxIdenticalFailures: number;
  /**
   * A chapter over the leaf budget but under this many times it is cut by the deterministic splitter instead of
   * another LLM call: that call (instructions, view, review) would cost about as many prompt tokens as the chapter
   * has, to place one or two cuts.
   */
  llmMinLeafMultiple: number;
}

export const DEFAULT_TREE_SPLIT_OPTIONS: TreeSplitOptions = {
  maxAttempts: 20,
  leafTokens: 1200,
  maxDepth: 4,
  minChapterChars: 200,
  reviewEnabled: true,
  contextLines: 1,
  viewTokenRatio: 0.12,
  windowOverlapRatio: 0.12,
  maxChaptersPerCall: 30,
  maxIdenticalFailures: 2,
  llmMinLeafMultiple: 2,
};

export function resolveTreeSplitOptions(partial: Partial<TreeSplitOptions> = {}): TreeSplitOptions {
  const o: TreeSplitOptions = { ...DEFAULT_TREE_SPLIT_OPTIONS, ...Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) };
  const problems: string[] = [];
  for (const key of ['maxAttempts', 'leafTokens', 'maxDepth', 'maxChaptersPerCall'] as const)
    if (!Number.isInteger(o[key]) || o[key] < 1) problems.push(`${key} must be a positive integer`);
  for (const key of ['minChapterChars', 'contextLines', 'maxIdenticalFailures'] as const)
    if (!Number.isInteger(o[key]) || o[key] < 0) problems.push(`${key} must be a non-negative integer`);
  if (o.leafLineLimit !== undefined && (!Number.isInteger(o.leafLineLimit) || o.leafLineLimit < 1)) problems.push('leafLineLimit must be a positive integer');
  if (!(o.viewTokenRatio > 0)) problems.push('viewTokenRatio must be > 0');
  if (!(o.llmMinLeafMultiple >= 1)) problems.push('llmMinLeafMultiple must be >= 1');
  if (!(o.windowOverlapRatio >= 0 && o.windowOverlapRatio < 0.5)) problems.push('windowOverlapRatio must be in [0, 0.5)');
  if (problems.length > 0) throw new AppError(ErrorCode.INVALID_INPUT, `Invalid tree split options: ${problems.join('; ')}.`);
  return o;
}
