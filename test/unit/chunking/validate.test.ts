import { describe, expect, it } from 'vitest';
import { firstDifference, validateLeaves, validateTree, type LeafRange } from '../../../electron/engine/chunking';
import type { ChunkNode } from '../../../shared/types';

describe('firstDifference', () => {
  it('returns null for equal strings', () => {
    expect(firstDifference('abc', 'abc')).toBeNull();
  });

  it('gives the offset and context on both sides', () => {
    const expected = `${'a'.repeat(100)}XYZ${'b'.repeat(100)}`;
    const actual = `${'a'.repeat(100)}XQZ${'b'.repeat(100)}`;
    const diff = firstDifference(expected, actual)!;
    expect(diff.offset).toBe(101);
    expect(diff.before).toBe(`${'a'.repeat(39)}X`);
    expect(diff.expected).toBe(`YZ${'b'.repeat(38)}`);
    expect(diff.actual).toBe(`QZ${'b'.repeat(38)}`);
    expect(diff.expectedContext).toBe(diff.before + diff.expected);
    expect(diff.actualContext).toBe(diff.before + diff.actual);
  });

  it('reports a truncated actual at its end', () => {
    expect(firstDifference('hello world', 'hello', 3)).toMatchObject({ offset: 5, before: 'llo', expected: ' wo', actual: '' });
  });

  it('ignoreLineBreaks collapses whitespace and maps the offset back to the original', () => {
    const expected = 'line one\nline two\n\n  line three';
    expect(firstDifference(expected, 'line one line two line three', 40, { ignoreLineBreaks: true })).toBeNull();
    const diff = firstDifference(expected, 'line one line two line FOUR', 40, { ignoreLineBreaks: true })!;
    expect(diff.offset).toBe(expected.indexOf('three'));
    expect(diff.expected).toBe('three');
    expect(diff.actual).toBe('FOUR');
  });
});

describe('validateLeaves', () => {
  const text = 'The quick brown fox jumps over the lazy dog.';
  const leaf = (start: number, end: number, overlapBefore = 0): LeafRange => ({ start, end, overlapBefore });

  it('accepts a partition and declared overlaps', () => {
    expect(validateLeaves(text, [leaf(0, 10), leaf(10, 44)])).toEqual({ ok: true });
    expect(validateLeaves(text, [leaf(0, 20), leaf(15, 44, 5)])).toEqual({ ok: true });
    expect(validateLeaves('', [])).toEqual({ ok: true });
  });

  it('reports a gap with the first difference', () => {
    const result = validateLeaves(text, [leaf(0, 10), leaf(16, 44)]);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.diff.offset).toBe(10);
      expect(result.diff.expected.startsWith('brown fox')).toBe(true);
      expect(result.diff.actual.startsWith('fox')).toBe(true);
    }
  });

  it('reports an undeclared overlap, a missing tail, empty leaves, disorder and oversized overlap', () => {
    const reasons = [
      [leaf(0, 20), leaf(15, 44)],
      [leaf(0, 30)],
      [leaf(0, 10), leaf(10, 10), leaf(10, 44)],
      [leaf(10, 44), leaf(0, 10)],
      [leaf(0, 10), leaf(10, 44, 40)],
      [leaf(0, 50)],
    ].map((leaves) => validateLeaves(text, leaves));
    expect(reasons.every((r) => !r.ok)).toBe(true);
    const expected = [
      'differ from the text at offset 20',
      'differ from the text at offset 30',
      'is empty',
      'before the previous leaf',
      'declares overlap 40',
      'outside the text',
    ];
    reasons.forEach((r, i) => expect(r.ok ? '' : r.reason).toContain(expected[i]));
  });

  it('checks provided leaf text instead of slicing (for LLM splits)', () => {
    const result = validateLeaves(text, [
      { start: 0, end: 10, overlapBefore: 0, text: 'The quick ' },
      { start: 10, end: 44, overlapBefore: 0, text: 'brown fox jumps over the lazy cat.' },
    ]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.diff.offset).toBe(40);
  });
});

describe('validateTree', () => {
  const node = (over: Partial<ChunkNode> & Pick<ChunkNode, 'index' | 'start' | 'end'>): ChunkNode => ({
    parentIndex: 0,
    title: '',
    section: { level: 1, path: ['A'] },
    pageStart: 1,
    pageEnd: 1,
    tokenEstimate: 1,
    origin: 'heading',
    isLeaf: true,
    overlapBefore: 0,
    ...over,
  });
  const root = node({ index: 0, start: 0, end: 100, parentIndex: null, section: { level: 0, path: [] }, origin: 'root', isLeaf: false });

  it('accepts a consistent tree', () => {
    const nodes = [
      root,
      node({ index: 1, start: 0, end: 100, isLeaf: false }),
      node({ index: 2, parentIndex: 1, start: 0, end: 60, section: { level: 2, path: ['A', 'B'] } }),
      node({ index: 3, parentIndex: 1, start: 50, end: 100, overlapBefore: 10, section: { level: 1, path: ['A'] } }),
    ];
    expect(validateTree(nodes)).toEqual({ ok: true });
  });

  it.each([
    ['a gap between children', [root, node({ index: 1, start: 0, end: 40 }), node({ index: 2, start: 50, end: 100 })], 'starts at 50'],
    ['children not covering the parent', [root, node({ index: 1, start: 0, end: 40 })], 'children end at 40'],
    ['a child outside its parent', [root, node({ index: 1, start: 0, end: 120 })], 'is not inside'],
    [
      'a path not extending the parent',
      [
        root,
        node({ index: 1, start: 0, end: 100, isLeaf: false }),
        node({ index: 2, parentIndex: 1, start: 0, end: 100, section: { level: 2, path: ['X', 'B'] } }),
      ],
      'does not extend',
    ],
    [
      'an inner section not deeper than its parent',
      [
        root,
        node({ index: 1, start: 0, end: 100, isLeaf: false }),
        node({ index: 2, parentIndex: 1, start: 0, end: 100, isLeaf: false, section: { level: 1, path: ['A', 'B'] } }),
        node({ index: 3, parentIndex: 2, start: 0, end: 100, section: { level: 2, path: ['A', 'B'] } }),
      ],
      'level 1 is inconsistent',
    ],
    ['two roots', [root, node({ index: 1, start: 0, end: 100, parentIndex: null })], 'a second root'],
  ])('rejects %s', (_name, nodes, reason) => {
    const result = validateTree(nodes as ChunkNode[]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });
});
