import { describe, expect, it } from 'vitest';
import { PAGE_SEPARATOR } from '../../../shared/canonical';
import {
  chunkPages,
  defaultEstimateTokens,
  greedyMerge,
  resolveChunkingOptions,
  splitRange,
  validateLeaves,
  type MergeCandidate,
} from '../../../electron/engine/chunking';
import { buildDocument, prose } from './buildDocument';

const est = defaultEstimateTokens;
const pageOptions = { pageMaxChars: 4000, pageOverlapChars: 500, maxTokens: 1429, estimateTokens: est };

describe('options', () => {
  it('defaults follow the rules and derive token budgets from chars / 3.5', () => {
    const o = resolveChunkingOptions();
    expect([o.minChars, o.preferredChars, o.maxChars, o.pageMaxChars, o.pageOverlapChars, o.overlapChars]).toEqual([500, 1500, 5000, 4000, 500, 0]);
    expect([o.minTokens, o.preferredTokens, o.maxTokens]).toEqual([143, 429, 1429]);
    expect(o.estimateTokens('x'.repeat(35))).toBe(10);
    expect(resolveChunkingOptions({ maxChars: 7000 }).maxTokens).toBe(2000);
  });

  it.each([
    [{ minChars: 2000 }, /minChars <= preferredChars/],
    [{ preferredTokens: 5000 }, /preferredTokens <= maxTokens/],
    [{ overlapChars: 800 }, /overlapChars must be < preferredChars \/ 2/],
    [{ pageOverlapChars: 2000 }, /pageOverlapChars/],
    [{ pageMaxChars: 6000 }, /pageMaxChars \+ 3 must be <= maxChars/],
    [{ maxChars: 0 }, /maxChars must be a positive integer/],
    [{ strategy: 'magic' as never }, /strategy must be one of/],
  ])('rejects %o', (partial, message) => {
    expect(() => resolveChunkingOptions(partial)).toThrow(message);
  });
});

describe('splitRange', () => {
  const split = (text: string, chars: number, overlapChars = 0) =>
    splitRange(text, 0, text.length, { limit: { chars, tokens: Infinity }, overlapChars, estimateTokens: est });
  const texts = (text: string, pieces: ReturnType<typeof split>) => pieces.map((p) => text.slice(p.start, p.end));

  it('prefers paragraph breaks, then sentence ends', () => {
    const text = 'First sentence here. Second one follows.\n\nNew paragraph starts. And goes on.';
    expect(texts(text, split(text, 60))).toEqual(['First sentence here. Second one follows.\n\n', 'New paragraph starts. And goes on.']);
    expect(texts(text, split(text, 30))).toEqual(['First sentence here. ', 'Second one follows.\n\n', 'New paragraph starts. ', 'And goes on.']);
  });

  it('does not end a sentence after an abbreviation', () => {
    const text = 'See the figure e.g. the second one for details. Then more text follows here.';
    const pieces = texts(text, split(text, 60));
    expect(pieces[0]).toBe('See the figure e.g. the second one for details. ');
  });

  it('falls back to whitespace, then to a hard cut, and always makes progress', () => {
    const words = 'alpha beta gamma delta epsilon zeta';
    expect(texts(words, split(words, 12))).toEqual(['alpha beta ', 'gamma delta ', 'epsilon zeta']);
    const noSpaces = 'x'.repeat(10_007);
    const pieces = split(noSpaces, 1000, 400);
    expect(pieces.every((p) => p.end - p.start <= 1000 && p.end > p.start)).toBe(true);
    expect(validateLeaves(noSpaces, pieces)).toEqual({ ok: true });
  });

  it('never cuts a surrogate pair in a hard cut', () => {
    const text = '😀'.repeat(50);
    const pieces = split(text, 7);
    expect(pieces.every((p) => !/[\uD800-\uDBFF]$/.test(text.slice(p.start, p.end)))).toBe(true);
    expect(validateLeaves(text, pieces)).toEqual({ ok: true });
  });

  it('declares overlap that starts on a word', () => {
    const text = prose(3000);
    const pieces = split(text, 1000, 200);
    expect(pieces.length).toBeGreaterThan(3);
    for (const p of pieces.slice(1)) {
      expect(p.overlapBefore).toBeGreaterThan(0);
      expect(p.overlapBefore).toBeLessThanOrEqual(200);
      expect(text[p.start - 1]).toBe(' ');
    }
    expect(validateLeaves(text, pieces)).toEqual({ ok: true });
  });

  it('respects the token budget with a custom estimator and drops overlap that no longer fits', () => {
    const text = prose(2000);
    const wordsEstimator = (t: string) => t.split(/\s+/).filter(Boolean).length;
    const pieces = splitRange(text, 0, text.length, { limit: { chars: 5000, tokens: 10 }, overlapChars: 400, estimateTokens: wordsEstimator });
    expect(pieces.every((p) => wordsEstimator(text.slice(p.start, p.end)) <= 10)).toBe(true);
    expect(validateLeaves(text, pieces)).toEqual({ ok: true });
  });
});

describe('page chunker (4000 / 500)', () => {
  it('one page per chunk when the page is at most 4000 characters; separators go to the page before', () => {
    const doc = buildDocument([[prose(4000).slice(0, 3990)], [prose(100)], [prose(4000).slice(0, 4000)]]);
    const chunks = chunkPages(doc.text, doc.pages, pageOptions);
    expect(chunks.map((c) => [c.pageStart, c.part, c.partCount])).toEqual([
      [1, 1, 1],
      [2, 1, 1],
      [3, 1, 1],
    ]);
    expect(doc.text.slice(chunks[0]!.start, chunks[0]!.end).endsWith(PAGE_SEPARATOR)).toBe(true);
    expect(validateLeaves(doc.text, chunks)).toEqual({ ok: true });
  });

  it('a longer page is cut at sentence ends into pieces of at most 4000 with about 500 overlap', () => {
    const doc = buildDocument([[prose(10_000)], [prose(200)]]);
    const chunks = chunkPages(doc.text, doc.pages, pageOptions);
    const page1 = chunks.filter((c) => c.pageStart === 1);
    expect(page1.length).toBe(3);
    for (const [i, c] of page1.entries()) {
      expect(c.end - c.start).toBeLessThanOrEqual(4000);
      if (i > 0) expect(c.overlapBefore).toBeGreaterThan(400);
      if (i < page1.length - 1) expect(doc.text.slice(c.start, c.end)).toMatch(/\. $/);
    }
    expect(validateLeaves(doc.text, chunks)).toEqual({ ok: true });
  });

  it('blank pages are folded into the previous page', () => {
    const doc = buildDocument([[prose(100)], [], [prose(100)], []]);
    const chunks = chunkPages(doc.text, doc.pages, pageOptions);
    expect(chunks.map((c) => [c.pageStart, c.pageEnd])).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(validateLeaves(doc.text, chunks)).toEqual({ ok: true });
  });
});

describe('greedy merger', () => {
  const size = (chars: number) => ({ chars, tokens: Infinity });
  const merge = (text: string, candidates: MergeCandidate[]) =>
    greedyMerge(text, candidates, { min: size(500), preferred: size(1500), max: size(5000), estimateTokens: est });
  const candidate = (start: number, end: number, level: number, path: string[], major = level <= 2): MergeCandidate => ({
    start,
    end,
    overlapBefore: 0,
    section: { level, path },
    title: path[path.length - 1] ?? '',
    origin: 'heading',
    startsMajorSection: major,
  });
  const text = 'x'.repeat(20_000);

  it('merges small neighbours and combines their sections', () => {
    const merged = merge(text, [candidate(0, 100, 1, ['A']), candidate(100, 300, 2, ['A', 'B']), candidate(300, 400, 3, ['A', 'B', 'C'])]);
    expect(merged).toEqual([
      { start: 0, end: 400, overlapBefore: 0, section: { level: 1, path: ['A', 'B', 'C'] }, title: 'A (+2)', origin: 'heading', parts: 3 },
    ]);
  });

  it('never merges across a level 1 or 2 boundary once the chunk has the minimum', () => {
    const merged = merge(text, [candidate(0, 600, 1, ['A']), candidate(600, 700, 2, ['A', 'B']), candidate(700, 800, 1, ['C'])]);
    expect(merged.map((m) => [m.start, m.end])).toEqual([
      [0, 600],
      [600, 800],
    ]);
    expect(merged[1]!.section).toEqual({ level: 1, path: [] });
  });

  it('merges across level 3+ boundaries up to the preferred size', () => {
    const merged = merge(text, [
      candidate(0, 600, 2, ['A', 'B']),
      candidate(600, 1200, 3, ['A', 'B', 'C']),
      candidate(1200, 1800, 3, ['A', 'B', 'D']),
      candidate(1800, 1900, 3, ['A', 'B', 'E']),
    ]);
    expect(merged.map((m) => [m.start, m.end])).toEqual([
      [0, 1800],
      [1800, 1900],
    ]);
    expect(merged[0]!.section).toEqual({ level: 2, path: ['A', 'B'] });
  });

  it('below the minimum it does cross major boundaries, but never the maximum', () => {
    const merged = merge(text, [candidate(0, 100, 1, ['A']), candidate(100, 200, 1, ['B']), candidate(200, 5100, 1, ['C'])]);
    expect(merged.map((m) => [m.start, m.end])).toEqual([
      [0, 200],
      [200, 5100],
    ]);
  });

  it('budgets in tokens too', () => {
    const tokenHeavy = (t: string) => t.length; // 1 char = 1 token
    const merged = greedyMerge(text, [candidate(0, 300, 3, ['A', 'B', 'C']), candidate(300, 600, 3, ['A', 'B', 'D'])], {
      min: { chars: 500, tokens: 100 },
      preferred: { chars: 1500, tokens: 400 },
      max: { chars: 5000, tokens: 500 },
      estimateTokens: tokenHeavy,
    });
    expect(merged).toHaveLength(2);
  });
});
