import { describe, expect, it } from 'vitest';
import type { ProposedChapter } from '../../../shared/treesplit';
import { plainSplitProblem } from '../../../shared/plainWords';
import { chunkingText } from '../../../electron/engine/report/format';
import { validateChapters } from '../../../electron/engine/treesplit/validate';
import { checkWindowAnswer } from '../../../electron/engine/treesplit/windowAnswer';
import { nodeText } from '../../../electron/engine/treesplit/view';
import { newWindow, type WindowPlan } from '../../../electron/engine/treesplit/windows';

const chapters = (lines: number[]): ProposedChapter[] =>
  lines.map((n, i) => ({ chapterIndex: i + 1, chapterTitle: `C${i + 1}`, chapterStartLineNumber: n, importantContextChapterIndexes: [] }));
const text = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of the node with enough words to count`).join('\n');
const nt = nodeText(text, 0, text.length);

describe('tree-split problems said to the user', () => {
  it('keeps the problem and leaves out the instruction to the model, on the validator’s real words', () => {
    const whole = validateChapters(nt, chapters([1]), { minChapterChars: 10 });
    if (whole.ok) throw new Error('one chapter covering the whole text must be refused');
    expect(whole.errors[0]).toContain('propose at least two chapters');
    expect(plainSplitProblem(whole.errors[0]!)).toBe('The split made no progress: one chapter covered the whole text.');

    const w = newWindow({ entries: [], authoritativeFrom: 1, authoritativeTo: 41, firstLine: 1, lastLine: 40 }, 0, 3);
    const plan: WindowPlan = { windows: [w], perCall: 10, nodeTokens: 500, lineCount: 40 };
    const order = checkWindowAnswer(nt, plan, w, chapters([1, 10, 10])).errors[0]!;
    expect(order).toContain('start lines must strictly increase');
    expect(plainSplitProblem(order)).toBe('Chapter "C3" starts at line 10, not after the previous chapter\'s line 10.');
  });

  it('a strategy set in the settings is reported without its internal id', () => {
    const judge = { strategy: 'pages', source: 'override', cached: false, justification: 'Strategy "pages" chosen by the user.', fallbackReason: null };
    expect(chunkingText('pages', judge)).toBe('one chunk per page, chosen in the settings');
  });
});
