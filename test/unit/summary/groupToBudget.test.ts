import { describe, expect, it } from 'vitest';
import { groupToBudget } from '../../../electron/engine/summary';

const est = (parts: readonly string[]) => parts.join(' ').length;

describe('groupToBudget', () => {
  it('groups consecutive items that fit, in order', () => {
    expect(groupToBudget(['aaaa', 'bbbb', 'cccc', 'dd'], est, 10)).toEqual([
      ['aaaa', 'bbbb'],
      ['cccc', 'dd'],
    ]);
  });

  it('cuts an item larger than the budget into sentence pieces, never dropping text', () => {
    const big = 'One two. Three four. Five six.';
    const groups = groupToBudget([big], est, 12);
    expect(groups.flat().join(' ')).toBe(big);
    expect(groups.flat().every((p) => p.length <= 12)).toBe(true);
  });
});
