import { describe, expect, it } from 'vitest';
import { findCommonPrefix, isParentChild, mergeSections, rootSection } from '../../../electron/engine/chunking';

const s = (level: number, ...path: string[]) => ({ level, path });

describe('hierarchy rules (docs-mcp-server)', () => {
  it('root is level 0 with path []', () => {
    expect(rootSection()).toEqual({ level: 0, path: [] });
  });

  it('identical sections keep theirs', () => {
    expect(mergeSections(s(2, 'A', 'B'), s(2, 'A', 'B'))).toEqual(s(2, 'A', 'B'));
  });

  it('merged level is the lower (more general) one', () => {
    expect(mergeSections(s(3, 'A', 'B', 'C'), s(2, 'A', 'D')).level).toBe(2);
    expect(mergeSections(s(1, 'A'), s(3, 'A', 'B', 'C')).level).toBe(1);
  });

  it('parent and child take the deeper path, in either order', () => {
    expect(mergeSections(s(1, 'A'), s(2, 'A', 'B'))).toEqual(s(1, 'A', 'B'));
    expect(mergeSections(s(2, 'A', 'B'), s(1, 'A'))).toEqual(s(1, 'A', 'B'));
  });

  it('grandparent and grandchild count as parent and child', () => {
    expect(isParentChild(s(1, 'A'), s(3, 'A', 'B', 'C'))).toBe(true);
    expect(mergeSections(s(1, 'A'), s(3, 'A', 'B', 'C'))).toEqual(s(1, 'A', 'B', 'C'));
  });

  it('siblings take the common prefix', () => {
    expect(mergeSections(s(2, 'A', 'B'), s(2, 'A', 'C'))).toEqual(s(2, 'A'));
  });

  it('siblings-of-different-depth (cousins) take the common prefix', () => {
    expect(mergeSections(s(2, 'A', 'B'), s(3, 'A', 'C', 'D'))).toEqual(s(2, 'A'));
  });

  it('unrelated sections get []', () => {
    expect(mergeSections(s(1, 'A'), s(1, 'B'))).toEqual(s(1));
    expect(mergeSections(s(2, 'A', 'B'), s(3, 'X', 'Y', 'Z'))).toEqual(s(2));
  });

  it('root merged with anything takes the other path at level 0', () => {
    expect(mergeSections(rootSection(), s(2, 'A', 'B'))).toEqual(s(0, 'A', 'B'));
    expect(mergeSections(s(1, 'A'), rootSection())).toEqual(s(0, 'A'));
    expect(mergeSections(rootSection(), rootSection())).toEqual(rootSection());
  });

  it('isParentChild is a proper-prefix test', () => {
    expect(isParentChild(s(1, 'A'), s(1, 'A'))).toBe(false);
    expect(isParentChild(s(2, 'A', 'B'), s(1, 'A'))).toBe(false);
    expect(isParentChild(rootSection(), s(1, 'A'))).toBe(true);
    expect(isParentChild(s(1, 'A'), s(2, 'B', 'C'))).toBe(false);
  });

  it('findCommonPrefix', () => {
    expect(findCommonPrefix(['A', 'B', 'C'], ['A', 'B', 'D'])).toEqual(['A', 'B']);
    expect(findCommonPrefix([], ['A'])).toEqual([]);
    expect(findCommonPrefix(['A'], ['B'])).toEqual([]);
  });

  it('merging does not alias the inputs', () => {
    const a = s(1, 'A');
    const merged = mergeSections(a, s(1, 'A'));
    merged.path.push('X');
    expect(a.path).toEqual(['A']);
  });
});
