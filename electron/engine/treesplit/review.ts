/**
 * The review of a validated split: a second call sees each proposed start with the lines around it and says
 * whether every start is at a natural boundary. Long proposals are reviewed in parts that fit the context; a part
 * that fails names the chapters it covers, so only the windows holding them are asked again.
 */
import { AppError, ErrorCode } from '../../../shared/errors';
import type { SplitReview } from '../../../shared/treesplit';
import { chatJsonPrompt, jsonPromptMessages } from '../llm';
import { clipText } from './feedback';
import { reviewPrompt } from './prompts';
import { nodeLabel, signalOption, type SplitContext, type SplitTreeNode } from './splitContext';
import type { CutChapter } from './validate';
import { isBlank, type NodeText } from './view';

export interface ReviewOutcome extends SplitReview {
  /** Indexes of the chapters in review parts that did not pass. */
  failedChapters: number[];
}

/** How many times a prompt that did not fit is made smaller before the node falls back. */
export const MAX_SHRINKS = 6;
/** Review lines are clipped: the start and its surroundings decide, not whole paragraphs. */
const REVIEW_LINE_CHARS = 60;

/** Each chapter's start in context, as the review shows it (">" marks the start line). */
export function reviewBlocks(
  nt: NodeText,
  chapters: readonly CutChapter[],
  contextLines: number,
  estimate: (text: string) => number,
): { text: string; tokens: number }[] {
  return chapters.map((c, i) => {
    const from = Math.max(1, c.startLine - contextLines);
    const to = Math.min(nt.lines.length, c.startLine + contextLines);
    const lines: string[] = [`Chapter ${i + 1} "${c.title}" starts at line ${c.startLine}:`];
    for (let n = from; n <= to; n++) {
      const line = nt.lines[n - 1]!;
      lines.push(`${n === c.startLine ? '>' : ' '}${n}|${isBlank(line) ? '' : clipText(line, REVIEW_LINE_CHARS)}`);
    }
    const text = lines.join('\n');
    return { text, tokens: estimate(`${text}\n`) };
  });
}

/** Consecutive blocks packed into parts of at most `budget` tokens (a block larger than that is a part alone). */
export function reviewBatches(blocks: readonly { tokens: number }[], budget: number): { from: number; to: number }[] {
  const batches: { from: number; to: number }[] = [];
  for (let i = 0; i < blocks.length; ) {
    let j = i;
    let used = 0;
    while (j < blocks.length && (j === i || used + blocks[j]!.tokens <= budget)) used += blocks[j++]!.tokens;
    batches.push({ from: i, to: j });
    i = j;
  }
  return batches;
}

export async function reviewSplit(
  ctx: SplitContext,
  node: SplitTreeNode,
  nt: NodeText,
  chapters: readonly CutChapter[],
  attempt: number,
): Promise<ReviewOutcome> {
  const { options, numCtx, model, reviewNumPredict } = ctx;
  const blocks = reviewBlocks(nt, chapters, options.contextLines, ctx.estimate);
  for (let shrink = 0; ; shrink++) {
    const context = (k: number, n: number, a: number, b: number) =>
      `Proposal ${attempt} for "${nodeLabel(node)}" (${nt.lines.length} lines): ${chapters.length} chapters${n > 1 ? `; part ${k} of ${n} shows chapters ${a}-${b}` : ''}.`;
    const probe = reviewPrompt({ context: context(99, 99, 999, 999), view: '', documentId: ctx.documentId });
    const fixed = ctx.llm.estimator.estimateMessages(jsonPromptMessages(probe), model);
    const budget = Math.floor((numCtx - reviewNumPredict - fixed - Math.ceil(numCtx * 0.04) - 32) * ctx.budget.factor);
    const batches = reviewBatches(blocks, budget);
    try {
      const comments: string[] = [];
      let passes = true;
      const failedChapters: number[] = [];
      for (const [k, b] of batches.entries()) {
        const prompt = reviewPrompt({
          context: context(k + 1, batches.length, b.from + 1, b.to),
          view: blocks
            .slice(b.from, b.to)
            .map((x) => x.text)
            .join('\n\n'),
          documentId: ctx.documentId,
        });
        ctx.stats.llmCalls++;
        const r = await chatJsonPrompt(ctx.llm, prompt, {
          purpose: 'review',
          model,
          numCtx,
          numPredict: reviewNumPredict,
          runId: ctx.runId,
          documentId: ctx.documentId,
          chunkRef: `review:${node.start}-${node.end}`,
          ...signalOption(ctx),
        });
        // Only the boolean decides; the wording of the comments never does.
        if (r.value.passes !== true) {
          passes = false;
          for (let i = b.from; i < b.to; i++) failedChapters.push(i);
        }
        if (r.value.comments.trim())
          comments.push(batches.length > 1 ? `(chapters ${b.from + 1}-${b.to}) ${r.value.comments.trim()}` : r.value.comments.trim());
      }
      return { passes, comments: comments.join('\n'), failedChapters };
    } catch (error) {
      const overflow = error instanceof AppError && (error.code === ErrorCode.LLM_CONTEXT_OVERFLOW || error.code === ErrorCode.LLM_TRUNCATED_PROMPT);
      if (!overflow || shrink >= MAX_SHRINKS) throw error;
      ctx.budget.factor *= 0.7;
    }
  }
}
