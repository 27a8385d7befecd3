import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors';
import { reviewBatches, reviewBlocks, reviewSplit } from '../../../electron/engine/treesplit/review';
import { validateChapters } from '../../../electron/engine/treesplit/validate';
import { nodeText } from '../../../electron/engine/treesplit/view';
import { useTempDir } from '../../helpers/tempDir';
import { sectionedDoc, splitContext, wholeNode } from './splitContextFixture';

const tempDir = useTempDir('treesplit-review-');

function cut(sections: number) {
  const doc = sectionedDoc(sections, 4);
  const nt = nodeText(doc.text, 0, doc.text.length);
  const starts = nt.lines.flatMap((l, i) => (l.startsWith('Section ') ? [i + 1] : []));
  const v = validateChapters(
    nt,
    starts.map((n, i) => ({ chapterIndex: i + 1, chapterTitle: `S${i + 1}`, chapterStartLineNumber: n, importantContextChapterIndexes: [] })),
    { minChapterChars: 10 },
  );
  if (!v.ok) throw new Error(v.errors.join('; '));
  return { doc, nt, chapters: v.chapters };
}

describe('reviewBlocks and reviewBatches', () => {
  it('shows each start with the lines around it, the start marked', () => {
    const { nt, chapters } = cut(2);
    const blocks = reviewBlocks(nt, chapters, 1, (t) => t.length);
    expect(blocks[0]!.text.split('\n')).toEqual(['Chapter 1 "S1" starts at line 1:', '>1|Section 1 overview', ' 2|']);
    expect(blocks[0]!.tokens).toBe(blocks[0]!.text.length + 1);
    expect(blocks[1]!.text.split('\n')).toEqual(['Chapter 2 "S2" starts at line 8:', ' 7|', '>8|Section 2 overview', ' 9|']);
  });
  it('packs consecutive blocks up to the budget, a block larger than it alone', () => {
    expect(reviewBatches([{ tokens: 5 }, { tokens: 5 }, { tokens: 5 }, { tokens: 20 }, { tokens: 1 }], 10)).toEqual([
      { from: 0, to: 2 },
      { from: 2, to: 3 },
      { from: 3, to: 4 },
      { from: 4, to: 5 },
    ]);
  });
});

describe('reviewSplit', () => {
  it('fails only the chapters of the part whose reply did not pass, whatever the comments say', async () => {
    const { doc, nt, chapters } = cut(30);
    const { ctx, calls } = splitContext(
      tempDir(),
      doc,
      (_, n) => (n === 2 ? { passes: false, comments: 'chapter starts mid-sentence' } : { passes: true, comments: 'looks wrong but passes' }),
      { contextLines: 2 },
      1400,
    );
    const outcome = await reviewSplit(ctx, wholeNode(doc), nt, chapters, 1);
    expect(calls.length).toBeGreaterThan(2);
    expect(outcome.passes).toBe(false);
    const second = /part 2 of \d+ shows chapters (\d+)-(\d+)/.exec(calls[1]!.user)!;
    const expected = Array.from({ length: Number(second[2]) - Number(second[1]) + 1 }, (_, i) => Number(second[1]) - 1 + i);
    expect(outcome.failedChapters).toEqual(expected);
  });
  it('makes the prompt smaller after a context overflow and tries again', async () => {
    const { doc, nt, chapters } = cut(3);
    const { ctx, calls } = splitContext(tempDir(), doc, (_, n) =>
      n === 1 ? new AppError(ErrorCode.LLM_CONTEXT_OVERFLOW, 'too long') : { passes: true, comments: '' },
    );
    const outcome = await reviewSplit(ctx, wholeNode(doc), nt, chapters, 1);
    expect(outcome.passes).toBe(true);
    expect(calls).toHaveLength(2);
    expect(ctx.budget.factor).toBeCloseTo(0.63);
  });
});
