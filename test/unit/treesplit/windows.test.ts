import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors';
import { classifyLines, nodeText } from '../../../electron/engine/treesplit/view';
import { newWindow, planWindows, sendBack, shrinkAfterCut, splitAfterCut, windowHeader, type WindowPlan } from '../../../electron/engine/treesplit/windows';
import { useTempDir } from '../../helpers/tempDir';
import { sectionedDoc, splitContext, wholeNode } from './splitContextFixture';

const tempDir = useTempDir('treesplit-windows-');

function plan(numCtx: number, sections = 12, linesEach = 30, splitNumPredict = 256) {
  const doc = sectionedDoc(sections, linesEach);
  const { ctx } = splitContext(tempDir(), doc, () => ({ chapters: [] }), { leafTokens: 300, splitNumPredict }, numCtx);
  const nt = nodeText(doc.text, 0, doc.text.length);
  return { plan: planWindows(ctx, wholeNode(doc), nt, classifyLines(nt, new Set()), ctx.estimate(nt.text)), lines: nt.lines.length, nt };
}

describe('planWindows', () => {
  it('shows a node that fits in one window, asking for its chapters there', () => {
    const { plan: p, lines } = plan(16384, 4, 10);
    expect(p.windows).toHaveLength(1);
    expect(p.windows[0]!.authoritativeFrom).toBe(1);
    expect(p.windows[0]!.authoritativeTo).toBeGreaterThan(lines);
    expect(p.windows[0]!.want).toBeGreaterThanOrEqual(2);
  });
  it('cuts a node too large for the context into windows that give every line to exactly one window', () => {
    const { plan: p, lines } = plan(1400);
    expect(p.windows.length).toBeGreaterThan(1);
    expect(p.windows[0]!.authoritativeFrom).toBe(1);
    for (let i = 1; i < p.windows.length; i++) expect(p.windows[i]!.authoritativeFrom).toBe(p.windows[i - 1]!.authoritativeTo);
    expect(p.windows.at(-1)!.authoritativeTo).toBeGreaterThan(lines);
    // Every window but the first is numbered from 1 in its own part.
    for (const w of p.windows.slice(1)) expect(w.base).toBe(w.firstLine - 1);
  });
  it('refuses a context with no room for text after the instructions and the reply', () => {
    expect(() => plan(700, 12, 30, 512)).toThrow(AppError);
    try {
      plan(700, 12, 30, 512);
    } catch (error) {
      expect((error as AppError).code).toBe(ErrorCode.LLM_CONTEXT_OVERFLOW);
    }
  });
});

describe('shrinkAfterCut', () => {
  it('halves a window into two top-level-only windows covering the same lines', () => {
    const { plan: p } = plan(16384, 8, 20);
    const w = p.windows[0]!;
    const [from, to, want] = [w.authoritativeFrom, w.authoritativeTo, w.want];
    expect(shrinkAfterCut(p, w)).toBe(true);
    expect(p.windows).toHaveLength(2);
    expect(p.windows.every((x) => x.topLevelOnly)).toBe(true);
    expect(p.windows[0]!.authoritativeFrom).toBe(from);
    expect(p.windows[0]!.authoritativeTo).toBe(p.windows[1]!.authoritativeFrom);
    expect(p.windows[1]!.authoritativeTo).toBe(to);
    expect(p.windows[0]!.want).toBe(Math.max(1, Math.ceil(want / 2)));
  });
  it('asks a small window for top-level chapters once, then gives up', () => {
    const w = newWindow({ entries: [{ line: 1, text: '1|a', tokens: 1 }], authoritativeFrom: 1, authoritativeTo: 2, firstLine: 1, lastLine: 1 }, 0, 2);
    const p: WindowPlan = { windows: [w], perCall: 4, nodeTokens: 10, lineCount: 1 };
    expect(shrinkAfterCut(p, w)).toBe(true);
    expect(w.topLevelOnly).toBe(true);
    expect(shrinkAfterCut(p, w)).toBe(false);
  });
});

describe('splitAfterCut', () => {
  it('ends the window after the last complete chapter and asks for the lines after it in a window of their own', () => {
    const { plan: p, nt } = plan(16384, 8, 20);
    const w = p.windows[0]!;
    const [to, lastShown] = [w.authoritativeTo, w.lastLine];
    const lastStart = w.entries[Math.floor(w.entries.length / 3)]!.line;
    const split = splitAfterCut(p, nt, w, lastStart)!;
    expect(p.windows).toEqual([split.answered, split.rest]);
    const rest = split.rest!;
    // The answered part ends with the last complete chapter's line; the rest starts at the next line shown.
    expect(split.answered.entries.at(-1)!.line).toBe(lastStart);
    expect(split.answered.authoritativeTo).toBe(rest.authoritativeFrom);
    expect(rest.entries[0]!.line).toBe(rest.authoritativeFrom);
    expect(rest.authoritativeFrom).toBeGreaterThan(lastStart);
    expect([rest.authoritativeTo, rest.lastLine, rest.chapters, rest.base]).toEqual([to, lastShown, null, rest.firstLine - 1]);
    expect(split.answered.want + rest.want).toBeGreaterThanOrEqual(w.want);
  });
  it('makes no split when the cut reply got no further than the first line, and none is needed past the last line', () => {
    const { plan: p, nt } = plan(16384, 8, 20);
    const w = p.windows[0]!;
    expect(splitAfterCut(p, nt, w, w.authoritativeFrom)).toBeNull();
    expect(splitAfterCut(p, nt, w, w.entries.at(-1)!.line)).toEqual({ answered: w, rest: null });
    expect(p.windows).toEqual([w]);
  });
});

describe('windowHeader and sendBack', () => {
  const node = {
    title: 'Report',
    section: { level: 1, path: ['Report', 'Findings'] },
    start: 0,
    end: 10,
    origin: 'llm' as const,
    isLeaf: false,
    overlapBefore: 0,
    children: [],
  };
  it('names the part, the lines it decides and the count asked for', () => {
    expect(windowHeader(node, 900, 40, null, 1, 1, 1, 40, 3, false)).toBe('Node: "Report / Findings", lines 1-40, about 900 tokens. Propose about 3 chapters.');
    const multi = windowHeader(node, 900, 40, null, 2, 3, 5, 20, 2, true);
    expect(multi).toMatch(/shown in 3 parts\. Propose about 2 chapters, only the top-level sections/);
    expect(multi).toMatch(/Part 2 of 3: .* start at lines 5 to 20; the lines before belong to chapters found in earlier parts/);
  });
  it('withdraws an accepted answer with feedback that quotes the previous starts', () => {
    const w = newWindow({ entries: [], authoritativeFrom: 1, authoritativeTo: 5, firstLine: 1, lastLine: 4 }, 0, 2);
    w.chapters = [{ chapterIndex: 1, chapterTitle: 'A', chapterStartLineNumber: 1, importantContextChapterIndexes: [] }];
    w.localChapters = w.chapters;
    sendBack(w, 3, 20, [], null, 'chapter 1 starts mid-sentence');
    expect(w.chapters).toBeNull();
    expect(w.feedback).toMatch(/^Attempt 4 of 20\. Your previous proposal \(attempt 3\) was rejected\./);
    expect(w.feedback).toMatch(/start lines were: 1\./);
    expect(w.feedback).toMatch(/Reviewer comments: chapter 1 starts mid-sentence/);
  });
});
