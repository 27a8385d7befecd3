import { describe, expect, it } from 'vitest';
import type { ProposedChapter } from '../../../shared/treesplit';
import { askWindow, checkWindowAnswer, joinWindows } from '../../../electron/engine/treesplit/windowAnswer';
import { classifyLines, nodeText } from '../../../electron/engine/treesplit/view';
import { newWindow, planWindows, type WindowPlan } from '../../../electron/engine/treesplit/windows';
import { useTempDir } from '../../helpers/tempDir';
import { sectionedDoc, splitContext, wholeNode } from './splitContextFixture';

const tempDir = useTempDir('treesplit-answer-');
const chapters = (lines: number[]): ProposedChapter[] =>
  lines.map((n, i) => ({ chapterIndex: i + 1, chapterTitle: `C${i + 1}`, chapterStartLineNumber: n, importantContextChapterIndexes: [] }));
const text = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of the node with enough words to count`).join('\n');
const nt = nodeText(text, 0, text.length);

function window(from: number, to: number, base: number, want = 3) {
  const w = newWindow({ entries: [], authoritativeFrom: from, authoritativeTo: to, firstLine: base + 1, lastLine: to - 1 }, base === 0 ? 0 : 1, want);
  w.base = base;
  return w;
}

describe('checkWindowAnswer', () => {
  it("maps the part's own numbering to the node's and drops starts outside the part with a note", () => {
    const w = window(21, 41, 18);
    const plan: WindowPlan = { windows: [window(1, 21, 0), w], perCall: 10, nodeTokens: 500, lineCount: 40 };
    const a = checkWindowAnswer(nt, plan, w, chapters([1, 5, 12]));
    expect(a.raw.map((c) => c.chapterStartLineNumber)).toEqual([19, 23, 30]);
    expect(a.kept.map((c) => c.chapterStartLineNumber)).toEqual([23, 30]);
    expect(a.errors).toEqual([]);
    expect(a.notes).toEqual(['chapter "C1" starts at line 1, outside lines 3-22 of this part: dropped']);
  });
  it('rejects starts that do not increase and line numbers that are not whole', () => {
    const w = window(1, 41, 0);
    const plan: WindowPlan = { windows: [w], perCall: 10, nodeTokens: 500, lineCount: 40 };
    expect(checkWindowAnswer(nt, plan, w, chapters([1, 10, 10])).errors).toEqual([
      'chapter "C3" starts at line 10, not after the previous chapter\'s line 10: start lines must strictly increase',
    ]);
    expect(checkWindowAnswer(nt, plan, w, chapters([1, 2.5])).errors).toEqual(['chapter 2 has no whole line number (2.5)']);
  });
  it('thins a model that lists every line to about the number asked, cutting evenly', () => {
    const w = window(1, 41, 0, 2);
    const plan: WindowPlan = { windows: [w], perCall: 30, nodeTokens: 500, lineCount: 40 };
    const a = checkWindowAnswer(nt, plan, w, chapters(Array.from({ length: 20 }, (_, i) => 1 + i * 2)));
    expect(a.kept.map((c) => c.chapterStartLineNumber)).toEqual([1, 21]);
    expect(a.notes[0]).toMatch(/^20 chapters proposed where about 2 were asked for: kept the 2 starts/);
  });
});

describe('joinWindows', () => {
  it('renumbers across windows and makes the text before the first start a chapter of its own', () => {
    const a = window(1, 21, 0);
    const b = window(21, 41, 18);
    a.chapters = chapters([5, 12]);
    b.chapters = [{ chapterIndex: 1, chapterTitle: 'D', chapterStartLineNumber: 30, importantContextChapterIndexes: [1] }];
    const joined = joinWindows(nt, { windows: [a, b], perCall: 10, nodeTokens: 500, lineCount: 40 });
    expect(joined.chapters.map((c) => [c.chapterIndex, c.chapterStartLineNumber])).toEqual([
      [0, 1],
      [1, 5],
      [2, 12],
      [3, 30],
    ]);
    expect(joined.chapters[3]!.importantContextChapterIndexes).toEqual([3]);
    expect(joined.notes).toEqual([
      'no chapter started at the first line (1): the text before the first start became chapter "line 1 of the node with enough words to count"',
    ]);
  });
});

describe('askWindow', () => {
  it("asks once with the part's context and the reply room, and checks the answer", async () => {
    const doc = sectionedDoc(4, 6);
    const { ctx, calls } = splitContext(
      tempDir(),
      doc,
      () => ({
        chapters: [
          { line: 1, title: 'Section 1' },
          { line: 9, title: 'Section 2' },
        ],
      }),
      { splitNumPredict: 300 },
    );
    const docNt = nodeText(doc.text, 0, doc.text.length);
    const plan = planWindows(ctx, wholeNode(doc), docNt, classifyLines(docNt, new Set()), ctx.estimate(doc.text));
    const answer = await askWindow(ctx, wholeNode(doc), docNt, plan, plan.windows[0]!, 1);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.purpose).toBe('split');
    expect(calls[0]!.numPredict).toBe(300);
    expect(calls[0]!.user).toMatch(/Attempt 1 of 20\./);
    expect(ctx.stats.llmCalls).toBe(1);
    if ('cut' in answer) throw new Error('a whole reply came back as cut');
    expect(answer.kept.map((c) => c.chapterTitle)).toEqual(['Section 1', 'Section 2']);
  });
});
