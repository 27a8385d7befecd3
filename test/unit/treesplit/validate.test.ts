import { describe, expect, it } from 'vitest';
import { validateChapters } from '../../../electron/engine/treesplit/validate';
import { classifyLines, nodeText, renderView, VIEW_LEVELS, viewTokens, windowsOf } from '../../../electron/engine/treesplit/view';
import { clampParams, fallbackStrategy, sampleText } from '../../../electron/engine/judge';
import { feedbackText } from '../../../electron/engine/treesplit';

const text = ['Title one', '', 'First paragraph line one.', 'continues here.', '', 'Title two', '', 'Second paragraph text.', 'more text here.'].join('\n');
const ch = (starts: number[]) =>
  starts.map((n, i) => ({ chapterIndex: i + 1, chapterTitle: `C${i + 1}`, chapterStartLineNumber: n, importantContextChapterIndexes: i === 1 ? [1] : [] }));

describe('validateChapters', () => {
  const nt = nodeText(`xx${text}`, 2, 2 + text.length);
  it('cuts at line starts and partitions the node exactly', () => {
    const v = validateChapters(nt, ch([1, 6]), { minChapterChars: 5 });
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.chapters.map((c) => [c.start, c.end])).toEqual([
      [2, 2 + text.indexOf('Title two')],
      [2 + text.indexOf('Title two'), 2 + text.length],
    ]);
    expect(v.chapters[1]!.contextChapters).toEqual([0]);
  });
  it.each([
    [[0, 6], /chapter 1 starts at line 0, outside the text \(lines 1-9\)/],
    [[1, 10], /chapter 2 starts at line 10, outside the text/],
    [[3, 6], /chapter 1 starts at line 3, but the first chapter must start at the first line \(1\)/],
    [[1, 6, 3], /chapter 3 starts before chapter 2 \(line 3 < line 6\)/],
    [[1, 6, 6], /chapter 3 starts at the same line as chapter 2/],
    [[1, 5, 6], /chapter 2 "C2" \(lines 5-5\) is empty/],
    [[], /no chapters were proposed/],
  ])('rejects %j', (starts, message) => {
    const v = validateChapters(nt, ch(starts), { minChapterChars: 5 });
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.errors.join('\n')).toMatch(message);
  });
  it('merges tiny chapters and refuses a split that makes no progress', () => {
    const merged = validateChapters(nt, ch([1, 3, 6]), { minChapterChars: 12 });
    expect(merged.ok).toBe(true);
    if (merged.ok) expect(merged.chapters.map((c) => c.startLine)).toEqual([1, 6]);
    const none = validateChapters(nt, ch([1, 6]), { minChapterChars: 1000 });
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.errors[0]).toMatch(/no progress/);
  });
});

describe('compact view and windows', () => {
  const lines = Array.from({ length: 400 }, (_, i) =>
    i % 6 === 5 ? '' : i % 6 === 0 ? `Heading ${i}` : `The quick brown fox number ${i} jumps over the lazy dog again and again and again.`,
  );
  const nt = nodeText(lines.join('\n'), 0, lines.join('\n').length);
  const kinds = classifyLines(nt, new Set());
  const est = (s: string) => Math.ceil(s.length / 3.5);
  it('gets cheaper level by level and always shows heading-like lines in full', () => {
    const views = VIEW_LEVELS.map((l) => renderView(nt, kinds, l, est));
    const costs = views.map(viewTokens);
    for (let i = 1; i < costs.length; i++) expect(costs[i]!).toBeLessThanOrEqual(costs[i - 1]!);
    expect(costs.at(-1)!).toBeLessThan(costs[0]! * 0.4);
    expect(views.at(-1)!.some((e) => e.text === '7|The quick brown…')).toBe(false);
    expect(views.at(-1)!.find((e) => e.line === 1)!.text).toBe('1|Heading 0');
  });
  it('windows fit the budget, overlap, and give every line to exactly one window', () => {
    const entries = renderView(nt, kinds, VIEW_LEVELS[1]!, est);
    const ws = windowsOf(entries, 400, nt.lines.length, 0.2);
    expect(ws.length).toBeGreaterThan(2);
    for (const w of ws) expect(viewTokens(w.entries)).toBeLessThanOrEqual(400);
    expect(ws[0]!.authoritativeFrom).toBe(1);
    expect(ws.at(-1)!.authoritativeTo).toBe(nt.lines.length + 1);
    for (let i = 1; i < ws.length; i++) {
      expect(ws[i]!.authoritativeFrom).toBe(ws[i - 1]!.authoritativeTo);
      expect(ws[i]!.firstLine).toBeLessThan(ws[i - 1]!.lastLine); // overlap: context from the previous window
    }
  });
});

describe('judge helpers', () => {
  it('clamps parameters to sane ranges', () => {
    expect(clampParams({ targetChunkTokens: 10, overlapChars: 99999 })).toEqual({ targetChunkTokens: 128, overlapChars: 112 });
    expect(clampParams({ targetChunkTokens: 5000, overlapChars: 300 }, 2000)).toEqual({ targetChunkTokens: 2000, overlapChars: 300 });
  });
  it('falls back to outline, then headings, then pages', () => {
    const base = {
      pageCount: 3,
      outlinePresent: false,
      outlineEntries: 0,
      outlineEntriesResolved: 0,
      headingCandidates: 0,
      pagesWithText: 3,
      textLayerCoverage: 1,
      textChars: 100,
    };
    expect(fallbackStrategy({ ...base, outlinePresent: true, outlineEntries: 3, outlineEntriesResolved: 3 }).strategy).toBe('outline');
    expect(fallbackStrategy({ ...base, headingCandidates: 5 }).strategy).toBe('headings');
    expect(fallbackStrategy(base).strategy).toBe('pages');
  });
  it('samples beginning, middle and end within about 5000 characters', () => {
    const long = Array.from({ length: 2000 }, (_, i) => `line ${i} of the document text`).join('\n');
    const s = sampleText(long);
    expect(s.length).toBeLessThanOrEqual(5100);
    expect(s).toContain('line 0 of');
    expect(s).toContain('line 1999 of');
    expect(s).toContain('line 1000 of');
  });
});

describe('feedback', () => {
  it('tells the next attempt the starts, the errors, the diff and the review comments', () => {
    const f = feedbackText(
      2,
      20,
      ch([1, 9, 4]),
      ['chapter 3 starts before chapter 2'],
      { offset: 5, expectedContext: 'abc def', actualContext: 'abc xyz', before: 'abc ', expected: 'def', actual: 'xyz' },
      'Chapter 2 cuts a sentence',
    );
    expect(f).toContain('Attempt 3 of 20');
    expect(f).toContain('start lines were: 1, 9, 4');
    expect(f).toContain('- chapter 3 starts before chapter 2');
    expect(f).toContain('expected "abc def" but got "abc xyz"');
    expect(f).toContain('Reviewer comments: Chapter 2 cuts a sentence');
  });
});

describe('chapters that start where a heading is only listed (trial 2026-11-28 row 23)', () => {
  // A fix review: its contents, a summary table of findings, then the findings' sections.
  const lines = [
    'Fix Review',
    'Contents',
    '1 Executive Summary . . . . . . . . . . 3',
    '2 Detailed Fix Review Results . . . . . 5',
    'Summary of findings',
    '1. Lack of two-step process for ownership transfer Resolved',
    '2. Missing zero-address checks Resolved',
    '3. Use of error-prone pattern for token transfers Unresolved',
    '4. Incorrect rounding in share calculation Resolved',
    '',
    '1 Executive Summary',
    'Trail of Bits reviewed the fixes for the issues found in the earlier audit of the vault contracts.',
    'Most of the issues were resolved, some were not; the details follow in the next section.',
    '',
    '2 Detailed Fix Review Results',
    '1. Lack of two-step process for ownership transfer',
    'Status: Resolved. The owner is now set in two steps, and the new owner must accept it explicitly.',
    '2. Missing zero-address checks',
    'Status: Resolved. Every setter now checks that the address given is not the zero address.',
    '3. Use of error-prone pattern for token transfers',
    'Status: Unresolved. The contract still calls transfer without checking the value it returns.',
    '4. Incorrect rounding in share calculation',
    'Status: Resolved. Shares are now rounded down when they are minted and up when they are burned.',
  ];
  const body = lines.join('\n');
  const nt = nodeText(body, 0, body.length);
  const at = (title: string) => lines.indexOf(title) + 1;
  const split = (starts: number[]) =>
    starts.map((n, i) => ({ chapterIndex: i + 1, chapterTitle: lines[n - 1]!, chapterStartLineNumber: n, importantContextChapterIndexes: [] }));

  it('fails a chapter that starts on a line of the contents', () => {
    const v = validateChapters(nt, split([1, at('2 Detailed Fix Review Results . . . . . 5'), at('1 Executive Summary')]), { minChapterChars: 10 });
    expect(v.ok).toBe(false);
    if (!v.ok)
      expect(v.errors).toEqual([
        'chapter 2 starts at line 4, a line of the contents ("2 Detailed Fix Review Results . . . . . 5"): start each chapter at its section\'s heading, not at its entry in the contents',
      ]);
  });

  it('fails a chapter that starts on a summary row whose heading the text prints again further on, and names that line', () => {
    const v = validateChapters(
      nt,
      split([1, at('3. Use of error-prone pattern for token transfers Unresolved'), at('1 Executive Summary'), at('2 Detailed Fix Review Results')]),
      { minChapterChars: 10 },
    );
    expect(v.ok).toBe(false);
    if (!v.ok)
      expect(v.errors).toEqual([
        'chapter 2 starts at line 8, where the heading "3. Use of error-prone pattern for token transfers Unresolved" is only listed: the text prints it again at line 20, where its section starts',
      ]);
  });

  it('passes chapters that start at the sections’ own headings, though the contents and the summary list them too', () => {
    const v = validateChapters(
      nt,
      split([1, at('1 Executive Summary'), at('2 Detailed Fix Review Results'), at('3. Use of error-prone pattern for token transfers')]),
      { minChapterChars: 10 },
    );
    expect(v.ok).toBe(true);
  });

  it('takes no numbered code line for a heading, though a listing prints it again further on', () => {
    // A code listing with line numbers, shown twice (as reports quote a function before and after a fix).
    const code = ['338 {', '339 ;', '340 }', '341 ]'];
    const listing = ['Finding 1: unchecked return', 'The code reads:', ...code, 'The fix reads:', ...code, 'Recommendation: check the value.'];
    const text = listing.join('\n');
    const codeNt = nodeText(text, 0, text.length);
    const start = listing.indexOf('340 }') + 1;
    const v = validateChapters(
      codeNt,
      [1, start].map((n, i) => ({ chapterIndex: i + 1, chapterTitle: listing[n - 1]!, chapterStartLineNumber: n, importantContextChapterIndexes: [] })),
      { minChapterChars: 10 },
    );
    expect(v.ok).toBe(true);
  });
});
