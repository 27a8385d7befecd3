/**
 * The one validator every splitter answers to (the deterministic ones and the
 * LLM tree split): leaves joined in order, minus declared overlaps,
 * must reproduce the canonical text exactly. On failure it reports the first
 * difference with context, which the UI shows and the tree split feeds back
 * to the model.
 */
import { pageAt } from '../../../shared/canonical';
import type { ChunkNode, PageSpan, TextDiff } from '../../../shared/types';

export type { TextDiff };

export type LeafValidation = { ok: true } | { ok: false; reason: string; diff: TextDiff };

export interface DiffOptions {
  /**
   * Compare with every whitespace run collapsed to one space (and the ends
   * trimmed), as the LLM tree split does; the offset still points into the
   * original expected string.
   */
  ignoreLineBreaks?: boolean;
}

/** A leaf as the validator sees it; `text` (optional) is checked instead of slicing the canonical text. */
export interface LeafRange {
  start: number;
  end: number;
  overlapBefore: number;
  text?: string;
}

/** Collapsed string plus, for each of its characters, the index in the original. */
function collapseWhitespace(s: string): { text: string; origin: number[] } {
  let text = '';
  const origin: number[] = [];
  let pendingSpace = -1;
  for (let i = 0; i < s.length; i++) {
    if (/\s/.test(s[i]!)) {
      if (pendingSpace < 0) pendingSpace = i;
      continue;
    }
    if (pendingSpace >= 0 && text.length > 0) {
      text += ' ';
      origin.push(pendingSpace);
    }
    pendingSpace = -1;
    text += s[i];
    origin.push(i);
  }
  return { text, origin };
}

function firstMismatch(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return i;
  return a.length === b.length ? -1 : n;
}

function diffAt(expected: string, actual: string, expectedOffset: number, actualOffset: number, context: number): TextDiff {
  const before = expected.slice(Math.max(0, expectedOffset - context), expectedOffset);
  const expectedPart = expected.slice(expectedOffset, expectedOffset + context);
  const actualPart = actual.slice(actualOffset, actualOffset + context);
  return {
    offset: expectedOffset,
    expectedContext: before + expectedPart,
    actualContext: before + actualPart,
    before,
    expected: expectedPart,
    actual: actualPart,
  };
}

/** First difference between two strings with `context` characters each side, or null when they are equal. */
export function firstDifference(expected: string, actual: string, context = 40, options: DiffOptions = {}): TextDiff | null {
  if (!options.ignoreLineBreaks) {
    const at = firstMismatch(expected, actual);
    return at < 0 ? null : diffAt(expected, actual, at, at, context);
  }
  const e = collapseWhitespace(expected);
  const a = collapseWhitespace(actual);
  const at = firstMismatch(e.text, a.text);
  if (at < 0) return null;
  // Map back to the originals so the context shows the real text (line breaks included).
  const expectedOffset = e.origin[at] ?? expected.length;
  const actualOffset = a.origin[at] ?? actual.length;
  return diffAt(expected, actual, expectedOffset, actualOffset, context);
}

function failure(reason: string, diff: TextDiff): LeafValidation {
  return { ok: false, reason, diff };
}

/** Structural problems that make joining meaningless; null when the leaves are well-formed. */
function leafShapeProblem(text: string, leaves: readonly LeafRange[]): { reason: string; offset: number } | null {
  let previousStart = -1;
  for (const [i, leaf] of leaves.entries()) {
    const length = leaf.text?.length ?? leaf.end - leaf.start;
    if (!(leaf.start >= 0 && leaf.end <= text.length))
      return {
        reason: `leaf ${i} [${leaf.start}, ${leaf.end}) lies outside the text (length ${text.length})`,
        offset: Math.min(Math.max(leaf.start, 0), text.length),
      };
    if (length <= 0) return { reason: `leaf ${i} is empty ([${leaf.start}, ${leaf.end}))`, offset: leaf.start };
    if (leaf.start < previousStart) return { reason: `leaf ${i} starts at ${leaf.start}, before the previous leaf (${previousStart})`, offset: leaf.start };
    if (!(leaf.overlapBefore >= 0 && leaf.overlapBefore <= length))
      return { reason: `leaf ${i} declares overlap ${leaf.overlapBefore} but has ${length} characters`, offset: leaf.start };
    previousStart = leaf.start;
  }
  return null;
}

/** Checks that `leaves` partition `text` (minus declared overlaps); reports the first difference when not. */
export function validateLeaves(text: string, leaves: readonly ChunkNode[] | readonly LeafRange[]): LeafValidation {
  const ranges: readonly LeafRange[] = leaves;
  const shape = leafShapeProblem(text, ranges);
  if (shape) return failure(shape.reason, diffAt(text, '', shape.offset, 0, 40));
  const joined = ranges.map((leaf) => (leaf.text ?? text.slice(leaf.start, leaf.end)).slice(leaf.overlapBefore)).join('');
  const diff = firstDifference(text, joined);
  if (!diff) return { ok: true };
  return failure(`joined leaves differ from the text at offset ${diff.offset} (joined length ${joined.length}, text length ${text.length})`, diff);
}

export type TreeValidation = { ok: true } | { ok: false; reason: string; nodeIndex: number | null };

const treeFailure = (reason: string, nodeIndex: number | null): TreeValidation => ({ ok: false, reason, nodeIndex });

const startsWith = (path: readonly string[], prefix: readonly string[]): boolean => prefix.length <= path.length && prefix.every((t, i) => path[i] === t);

/** Checks one node against its parent: containment, hierarchy consistency. */
function nodeProblem(node: ChunkNode, parent: ChunkNode): string | null {
  if (parent.isLeaf) return `its parent ${parent.index} is a leaf`;
  if (node.start < parent.start || node.end > parent.end) return `[${node.start}, ${node.end}) is not inside its parent [${parent.start}, ${parent.end})`;
  if (node.start >= node.end) return 'it is empty';
  if (!startsWith(node.section.path, parent.section.path))
    return `path [${node.section.path.join(' / ')}] does not extend its parent's [${parent.section.path.join(' / ')}]`;
  // Inner sections are strictly deeper than their parent; merged leaves may reach up to the parent's own level.
  if (node.isLeaf ? node.section.level < parent.section.level : node.section.level <= parent.section.level)
    return `level ${node.section.level} is inconsistent with its parent's level ${parent.section.level}`;
  if (!node.isLeaf && node.overlapBefore !== 0) return 'an inner node declares an overlap';
  return null;
}

/** Children of each node must be ordered, contiguous (minus declared overlap) and cover the parent exactly. */
function childrenProblem(parent: ChunkNode, children: readonly ChunkNode[]): { reason: string; index: number } | null {
  if (children.length === 0) return parent.isLeaf || parent.start === parent.end ? null : { reason: 'an inner node has no children', index: parent.index };
  if (parent.isLeaf) return { reason: 'a leaf has children', index: parent.index };
  let expectedStart = parent.start;
  for (const child of children) {
    if (child.start !== expectedStart - child.overlapBefore) {
      return {
        reason: `starts at ${child.start}, expected ${expectedStart - child.overlapBefore} (previous sibling ends at ${expectedStart}, overlap ${child.overlapBefore})`,
        index: child.index,
      };
    }
    expectedStart = child.end;
  }
  return expectedStart === parent.end ? null : { reason: `children end at ${expectedStart} but the node ends at ${parent.end}`, index: parent.index };
}

/**
 * Checks a pre-order node list: one root at index 0, indexes equal positions,
 * parents before children, containment, contiguous children, level/path
 * consistency, and (when `pages` is given) page spans derived from offsets.
 */
export function validateTree(nodes: readonly ChunkNode[], pages?: readonly PageSpan[]): TreeValidation {
  const root = nodes[0];
  if (!root || root.parentIndex !== null || root.origin !== 'root') return treeFailure('node 0 must be the root (no parent, origin root)', root ? 0 : null);
  if (root.section.level !== 0 || root.section.path.length !== 0) return treeFailure('the root must be level 0 with path []', 0);
  const children = new Map<number, ChunkNode[]>();
  for (const [i, node] of nodes.entries()) {
    if (node.index !== i) return treeFailure(`node at position ${i} has index ${node.index}`, i);
    if (pages && (node.pageStart !== pageAt(pages, node.start) || node.pageEnd !== pageAt(pages, Math.max(node.start, node.end - 1)))) {
      return treeFailure(`pages ${node.pageStart}-${node.pageEnd} do not match offsets [${node.start}, ${node.end})`, i);
    }
    if (i === 0) continue;
    if (node.parentIndex === null) return treeFailure('a second root', i);
    const parent = nodes[node.parentIndex];
    if (!parent || node.parentIndex >= i) return treeFailure(`parent ${node.parentIndex} does not precede the node`, i);
    const problem = nodeProblem(node, parent);
    if (problem) return treeFailure(problem, i);
    const siblings = children.get(parent.index);
    if (siblings) siblings.push(node);
    else children.set(parent.index, [node]);
  }
  for (const node of nodes) {
    const problem = childrenProblem(node, children.get(node.index) ?? []);
    if (problem) return treeFailure(problem.reason, problem.index);
  }
  return { ok: true };
}

/** The leaves of a tree in document order. */
export function leavesOf(nodes: readonly ChunkNode[]): ChunkNode[] {
  return nodes.filter((n) => n.isLeaf);
}
