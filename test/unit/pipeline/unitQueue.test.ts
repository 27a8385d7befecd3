import { describe, expect, it } from 'vitest';
import { packUnits } from '../../../electron/engine/extract';
import { UnitQueue } from '../../../electron/engine/pipeline/extractionStep';
import type { ChunkNode } from '../../../shared/types';
import { leavesOfTokens as leaves } from '../../fixtures/chunkLeaves';

const indexes = (queue: UnitQueue): number[][] => {
  const out: number[][] = [];
  for (let unit = queue.next(); unit; unit = queue.next()) out.push(unit.leaves.map((l) => l.index));
  return out;
};

describe('UnitQueue (the extraction step’s units, changing while they run)', () => {
  it('hands the units out in order and counts what is left, the current unit included', () => {
    const queue = new UnitQueue(packUnits(leaves([400, 400, 400, 400]), 800));
    expect(queue.leavesLeft()).toBe(4);
    expect(queue.next()!.leaves.map((l) => l.index)).toEqual([1, 2]);
    expect(queue.left()).toBe(2);
    expect(queue.leavesLeft()).toBe(2);
    expect(queue.next()!.leaves.map((l) => l.index)).toEqual([3, 4]);
    expect(queue.left()).toBe(1);
    expect(queue.next()).toBeUndefined();
  });

  it('puts a failed unit’s leaves next in line, each a unit of its own, before the units after it', () => {
    const queue = new UnitQueue(packUnits(leaves([400, 400, 400, 400]), 800));
    const first = queue.next()!;
    queue.retryLeafByLeaf(first);
    expect(queue.left()).toBe(4);
    expect(indexes(queue)).toEqual([[1], [2], [3, 4]]);
  });

  it('repacks only the units after the current one, and only for a cap smaller than any seen', () => {
    const queue = new UnitQueue(packUnits(leaves([300, 300, 300, 300, 300, 300]), 900));
    expect(queue.next()!.leaves.map((l) => l.index)).toEqual([1, 2, 3]);
    const seen: Array<{ leaves: number[]; cap: number }> = [];
    const onePerUnit = (rest: ChunkNode[], cap: number) => {
      seen.push({ leaves: rest.map((l) => l.index), cap });
      return packUnits(rest, 300);
    };
    expect(queue.capLists(12, onePerUnit)).toBe(true);
    expect(seen).toEqual([{ leaves: [4, 5, 6], cap: 12 }]);
    expect(queue.left()).toBe(4);
    // A later reply that listed more before ending says nothing new: no second repack.
    expect(queue.capLists(15, onePerUnit)).toBe(false);
    expect(queue.capLists(12, onePerUnit)).toBe(false);
    expect(seen).toHaveLength(1);
    expect(indexes(queue)).toEqual([[4], [5], [6]]);
  });
});
