/**
 * The merge visits only candidate pairs (merge/candidates.ts) instead of every pair: it must decide exactly what
 * comparing every pair decides. Held against the all-pairs merge it replaced (test/helpers/allPairsMerge.ts) on
 * generated finding sets (test/fixtures/findingSets.ts): without IDs, with printed IDs and numbers, dense in siblings,
 * without the document's text, with the similar-text pass off and other overlap ratios. The result (merged findings,
 * decisions, conflicts) must be equal field for field and in order.
 */
import { describe, expect, it } from 'vitest';
import { mergeFindings, mergeFindingsInSlices, compareFindings } from '../../../electron/engine/merge';
import { overlappingPairs, similarTextPairs } from '../../../electron/engine/merge/candidates';
import { textFeatures } from '../../../electron/engine/merge/similarity';
import { generateFindingSet, type FindingSetOptions } from '../../fixtures/findingSets';
import { allPairsMerge } from '../../helpers/allPairsMerge';

const CASES: {
  label: string;
  set: FindingSetOptions;
  merge?: { similarText?: boolean; overlapRatio?: number; withoutText?: boolean; withoutPrintedIds?: boolean };
}[] = [
  { label: 'no IDs (a model that writes bare titles)', set: { findings: 100, seed: 1 } },
  { label: 'no IDs, another document', set: { findings: 100, seed: 2, perChunk: 4 } },
  { label: 'printed IDs on most findings, numbers on some', set: { findings: 100, seed: 3, keyed: 0.7, numbered: 0.3 } },
  { label: 'numbers only', set: { findings: 100, seed: 4, numbered: 0.8 } },
  { label: 'dense in siblings one word apart', set: { findings: 100, seed: 5, siblings: 0.6 } },
  { label: 'IDs on some findings, the document text not given', set: { findings: 90, seed: 6, keyed: 0.4 }, merge: { withoutText: true } },
  { label: 'printed IDs not given (model IDs claim nothing)', set: { findings: 90, seed: 7, keyed: 0.5 }, merge: { withoutPrintedIds: true } },
  { label: 'similar-text pass off, a lower overlap ratio', set: { findings: 90, seed: 8, keyed: 0.2 }, merge: { similarText: false, overlapRatio: 0.2 } },
  { label: 'a stricter overlap ratio', set: { findings: 90, seed: 9, numbered: 0.4, siblings: 0.4 }, merge: { overlapRatio: 0.9 } },
];

describe('the blocked merge decides what the all-pairs merge decides', () => {
  for (const c of CASES) {
    it(c.label, () => {
      const set = generateFindingSet(c.set);
      const options = {
        ...(c.merge?.withoutText ? {} : { documentText: set.documentText }),
        ...(c.merge?.withoutPrintedIds ? {} : { printedIds: set.printedIds }),
        ...(c.merge?.similarText === undefined ? {} : { similarText: c.merge.similarText }),
        ...(c.merge?.overlapRatio === undefined ? {} : { overlapRatio: c.merge.overlapRatio }),
      };
      const expected = allPairsMerge(set.findings, options);
      const actual = mergeFindings(set.findings, options);
      // The sets are built to exercise every rule: joins of each kind and conflicts of each kind happen.
      const reasons = new Set(expected.decisions.map((d) => d.reason));
      expect(reasons.size).toBeGreaterThanOrEqual(c.merge?.similarText === false ? 1 : 2);
      expect(expected.merged.length).toBeLessThan(set.findings.length);
      expect(actual).toEqual(expected);
    });
  }

  it('in slices (the event loop running between them), the same result, and a cancel stops it at a pause', async () => {
    const set = generateFindingSet({ findings: 100, seed: 3, keyed: 0.5, numbered: 0.3 });
    const options = { documentText: set.documentText, printedIds: set.printedIds };
    let turns = 0;
    const counter = setInterval(() => turns++, 0);
    const sliced = await mergeFindingsInSlices(set.findings, { ...options, sliceMs: 0 });
    clearInterval(counter);
    expect(sliced).toEqual(mergeFindings(set.findings, options));
    // Timers ran while it merged: it paused.
    expect(turns).toBeGreaterThan(0);
    const controller = new AbortController();
    controller.abort();
    await expect(mergeFindingsInSlices(set.findings, { ...options, sliceMs: 0, signal: controller.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('covers every kind of join and conflict across the cases', () => {
    const reasons = new Set<string>();
    const conflicts = new Set<string>();
    for (const c of CASES) {
      const set = generateFindingSet(c.set);
      const r = mergeFindings(set.findings, { documentText: set.documentText, printedIds: set.printedIds });
      for (const d of r.decisions) reasons.add(d.reason);
      for (const k of r.conflicts) conflicts.add(k.kind);
    }
    expect([...reasons].sort()).toEqual(['boundary-overlap', 'same-id', 'same-number', 'similar-text']);
    expect([...conflicts].sort()).toEqual(['id', 'number', 'title']);
  });
});

describe('candidate pairs', () => {
  it('hold every pair compareFindings calls the same, and few others', () => {
    const set = generateFindingSet({ findings: 180, seed: 11, siblings: 0.4 });
    const features = set.findings.map((f) => textFeatures(f));
    const candidates = new Set(similarTextPairs(features).map(([i, j]) => `${i},${j}`));
    let same = 0;
    for (let i = 0; i < set.findings.length; i++) {
      for (let j = i + 1; j < set.findings.length; j++) {
        if (!compareFindings(set.findings[i]!, set.findings[j]!).same) continue;
        same++;
        expect(candidates.has(`${i},${j}`)).toBe(true);
      }
    }
    expect(same).toBeGreaterThan(100);
    // Each candidate is a pair the rules accept: the blocking compares no pair it need not.
    expect(candidates.size).toBe(same);
  });

  it('are sorted as the all-pairs loops visit them', () => {
    const set = generateFindingSet({ findings: 90, seed: 12 });
    const pairs = similarTextPairs(set.findings.map((f) => textFeatures(f)));
    const keys = pairs.map(([i, j]) => i * set.findings.length + j);
    expect(pairs.every(([i, j]) => i < j)).toBe(true);
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
  });

  it('of spans are exactly the pairs that overlap, nested and touching spans included', () => {
    const spans = [
      { start: 0, end: 10 },
      null,
      { start: 5, end: 6 },
      { start: 10, end: 20 },
      { start: 2, end: 30 },
      { start: 7, end: 7 },
      { start: 19, end: 25 },
      { start: 5, end: 6 },
    ];
    const expected: [number, number][] = [];
    for (let i = 0; i < spans.length; i++) {
      for (let j = i + 1; j < spans.length; j++) {
        const [a, b] = [spans[i], spans[j]];
        if (a && b && Math.min(a.end, b.end) - Math.max(a.start, b.start) > 0) expected.push([i, j]);
      }
    }
    expect(overlappingPairs(spans)).toEqual(expected);
  });
});
