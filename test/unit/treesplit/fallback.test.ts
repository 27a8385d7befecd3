import { describe, expect, it } from 'vitest';
import { deterministicLeaves } from '../../../electron/engine/treesplit/fallback';
import { sectionedDoc } from './splitContextFixture';

const estimate = (t: string) => Math.ceil(t.length / 4);

describe('deterministicLeaves', () => {
  it('cuts a range spanning pages by pages, the pieces partitioning the range exactly', () => {
    const doc = sectionedDoc(6, 10);
    const start = doc.pages[1]!.start;
    const end = doc.pages[4]!.end;
    const leaves = deterministicLeaves(doc, start, end, 400, estimate);
    expect(leaves.strategy).toBe('pages');
    expect(leaves.pieces[0]!.start).toBe(start);
    expect(leaves.pieces.at(-1)!.end).toBe(end);
    for (let i = 1; i < leaves.pieces.length; i++) expect(leaves.pieces[i]!.start).toBe(leaves.pieces[i - 1]!.end);
  });
  it('cuts a range inside one page by sentences, within the leaf budget', () => {
    const doc = sectionedDoc(1, 40);
    const leaves = deterministicLeaves(doc, 0, doc.text.length, 120, estimate);
    expect(leaves.strategy).toBe('sentences');
    expect(leaves.pieces.length).toBeGreaterThan(1);
    expect(leaves.pieces.map((p) => doc.text.slice(p.start, p.end)).join('')).toBe(doc.text);
    for (const p of leaves.pieces) expect(estimate(doc.text.slice(p.start, p.end))).toBeLessThanOrEqual(120);
  });
});
