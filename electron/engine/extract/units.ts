/**
 * Extraction units: consecutive leaves of the chunk tree analysed in one LLM
 * call. The tree's leaves are retrieval-sized (a few hundred tokens); one
 * call per leaf repeats the instructions, the context tail and a summary
 * for every few hundred tokens of text, and output is the slow part of a
 * local model. A unit packs leaves in document order up to a token budget,
 * and prefers to end where a parent (a section) ends. Each finding of a
 * unit is filed under the leaf its grounded evidence lies in, so the tree,
 * the highlighting and the per-leaf results stay as they were.
 */
import type { GroundedFinding } from '../../../shared/findings';
import type { ChunkNode } from '../../../shared/types';

export interface ExtractionUnit {
  /** Consecutive leaves, in document order (at least one). */
  leaves: ChunkNode[];
  start: number;
  end: number;
  tokens: number;
}

/**
 * Packs the leaves for which `pending` is true into units of at most `budget`
 * tokens (a leaf over the budget is a unit of its own). A unit never spans a
 * leaf that is not pending, so a resumed run redoes exactly the units that
 * were not committed. A new unit starts at a new parent once the current one
 * holds half the budget: sections stay whole where the budget allows.
 */
export function packUnits(leaves: readonly ChunkNode[], budget: number, pending: (leaf: ChunkNode) => boolean = () => true): ExtractionUnit[] {
  const units: ExtractionUnit[] = [];
  let current: ExtractionUnit | null = null;
  let previousPending = false;
  for (const leaf of leaves) {
    if (!pending(leaf)) {
      previousPending = false;
      continue;
    }
    const last = current?.leaves.at(-1);
    const fits = current !== null && current.tokens + leaf.tokenEstimate <= budget;
    const newSection = last !== undefined && last.parentIndex !== leaf.parentIndex && current!.tokens >= budget / 2;
    if (current && previousPending && fits && !newSection) {
      current.leaves.push(leaf);
      current.end = Math.max(current.end, leaf.end);
      current.tokens += leaf.tokenEstimate;
    } else {
      current = { leaves: [leaf], start: leaf.start, end: leaf.end, tokens: leaf.tokenEstimate };
      units.push(current);
    }
    previousPending = true;
  }
  return units;
}

/**
 * The leaf of the unit a finding belongs to: the one its grounded evidence
 * starts in; ungrounded, the first leaf covering the page the model stated;
 * else the unit's first leaf.
 */
export function leafOfFinding(unit: ExtractionUnit, finding: GroundedFinding): ChunkNode {
  const at = finding.grounding.start;
  if (at !== null && at !== undefined) {
    let owner = unit.leaves[0]!;
    for (const leaf of unit.leaves) if (leaf.start <= at) owner = leaf;
    return owner;
  }
  const page = finding.page;
  return (page !== null && unit.leaves.find((l) => l.pageStart <= page && page <= l.pageEnd)) || unit.leaves[0]!;
}
