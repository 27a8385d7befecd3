import { describe, expect, it } from 'vitest';
import { expectedFindingsByLeaf, expectedReplyTokens, leafOfFinding, packUnits } from '../../../electron/engine/extract';
import type { IdMention } from '../../../shared/types';
import type { GroundedFinding } from '../../../shared/findings';
import { leavesOfTokens as leaves } from '../../fixtures/chunkLeaves';

const finding = (start: number | null, page: number | null): GroundedFinding =>
  ({
    page,
    grounding: {
      status: start === null ? 'ungrounded' : 'grounded',
      match: null,
      score: null,
      start,
      end: start === null ? null : start + 5,
      page,
      inContextOnly: false,
    },
  }) as GroundedFinding;

describe('packUnits', () => {
  it('packs consecutive leaves up to the budget; a leaf over the budget is a unit of its own', () => {
    const units = packUnits(leaves([300, 300, 300, 1200, 100, 100]), 1000);
    expect(units.map((u) => u.leaves.map((l) => l.index))).toEqual([[1, 2, 3], [4], [5, 6]]);
    expect(units[0]).toMatchObject({ start: 0, end: 300, tokens: 900 });
  });

  it('ends a unit at a new section once it holds half the budget, not before', () => {
    const units = packUnits(leaves([300, 300, 300, 100, 100, 100], [0, 0, 7, 7, 9, 9]), 1000);
    // Leaves 1-2 (600 >= 500) stop at section 7; leaves 3-4 (400 < 500) run on into section 9.
    expect(units.map((u) => u.leaves.map((l) => l.index))).toEqual([
      [1, 2],
      [3, 4, 5, 6],
    ]);
  });

  it('never spans a leaf that is done: a resume packs only the unfinished runs', () => {
    const all = leaves([100, 100, 100, 100, 100]);
    const units = packUnits(all, 1000, (l) => l.index !== 3);
    expect(units.map((u) => u.leaves.map((l) => l.index))).toEqual([
      [1, 2],
      [4, 5],
    ]);
  });

  it('a budget of 1 gives one leaf per unit', () => {
    expect(packUnits(leaves([50, 50, 50]), 1).map((u) => u.leaves.length)).toEqual([1, 1, 1]);
  });
});

describe('leafOfFinding', () => {
  const [unit] = packUnits(leaves([100, 100, 100]), 1000);
  it('files a grounded finding under the leaf its evidence starts in', () => {
    expect(leafOfFinding(unit!, finding(150, 1)).index).toBe(2);
    expect(leafOfFinding(unit!, finding(299, null)).index).toBe(3);
  });
  it('files an ungrounded finding by the page the model stated, else under the first leaf', () => {
    expect(leafOfFinding(unit!, finding(null, 3)).index).toBe(3);
    expect(leafOfFinding(unit!, finding(null, 42)).index).toBe(1);
    expect(leafOfFinding(unit!, finding(null, null)).index).toBe(1);
  });
});

describe('units planned by the reply they need', () => {
  const mention = (normalized: string, start: number): IdMention => ({
    patternName: 'PBI',
    raw: normalized,
    normalized,
    start,
    end: start + normalized.length,
    page: 1,
  });

  it('counts the distinct IDs printed in each leaf', () => {
    const ls = leaves([100, 100, 100]);
    const byLeaf = expectedFindingsByLeaf(ls, [mention('PBI-1', 10), mention('PBI-2', 20), mention('PBI-1', 50), mention('PBI-3', 150), mention('PBI-4', 290)]);
    expect([...byLeaf.entries()]).toEqual([
      [1, 2],
      [2, 1],
      [3, 1],
    ]);
  });

  it('a dense leaf stops the unit where its expected reply would overflow the room; prose leaves pack to the token budget', () => {
    const ls = leaves([300, 300, 300, 300, 300, 300]);
    const expected = new Map([
      [1, 0],
      [2, 10],
      [3, 10],
      [4, 0],
      [5, 0],
      [6, 0],
    ]);
    const room = expectedReplyTokens(12);
    const units = packUnits(ls, 4000, () => true, { room, expected: (leaf) => expected.get(leaf.index)! });
    expect(units.map((u) => u.leaves.map((l) => l.index))).toEqual([
      [1, 2],
      [3, 4, 5, 6],
    ]);
    expect(units.map((u) => u.expectedFindings)).toEqual([10, 10]);
    // Without a reply plan, the same leaves are one unit.
    expect(packUnits(ls, 4000)).toHaveLength(1);
  });
});
