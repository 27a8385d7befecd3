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
import type { ChunkNode, IdMention } from '../../../shared/types';
import { PRINTED_LINE_TOKENS, REPLY_FRAME_TOKENS } from './replyBudget';

export interface ExtractionUnit {
  /** Consecutive leaves, in document order (at least one). */
  leaves: ChunkNode[];
  start: number;
  end: number;
  tokens: number;
  /** Findings the unit's text is expected to hold (see ReplyPlan); 0 when not planned. */
  expectedFindings?: number;
}

/**
 * The reply a unit will need, planned before it is sent: each leaf's expected findings (expectedFindingsByLeaf), and
 * the reply room they must fit. A unit stops growing when its expected reply would not fit: a dense summary table
 * gets a small unit, prose a large one, so a reply is rarely cut (a cut reply is continued, but every continuation
 * sends the rest of the unit's text again).
 */
export interface ReplyPlan {
  /** num_predict the run's num_ctx was planned with. */
  room: number;
  expected: (leaf: ChunkNode) => number;
}

/**
 * The reply expected for `findings` findings, with its frame. They are counted from the IDs the text prints, and a
 * finding whose ID the text prints is one line of the reply (printedEntries.ts).
 */
export function expectedReplyTokens(findings: number): number {
  return REPLY_FRAME_TOKENS + findings * PRINTED_LINE_TOKENS;
}

/**
 * Expected findings per leaf: the distinct IDs the rules found in it (each summary-table row, contents line, list
 * entry and detailed heading that prints an ID is one entry of the reply).
 */
export function expectedFindingsByLeaf(leaves: readonly ChunkNode[], mentions: readonly IdMention[]): Map<number, number> {
  const out = new Map<number, number>();
  const sorted = [...mentions].sort((a, b) => a.start - b.start);
  let m = 0;
  for (const leaf of [...leaves].sort((a, b) => a.start - b.start)) {
    while (m < sorted.length && sorted[m]!.start < leaf.start) m++;
    const ids = new Set<string>();
    for (let k = m; k < sorted.length && sorted[k]!.start < leaf.end; k++) ids.add(sorted[k]!.normalized);
    out.set(leaf.index, ids.size);
  }
  return out;
}

/**
 * Packs the leaves for which `pending` is true into units of at most `budget`
 * tokens (a leaf over the budget is a unit of its own). A unit never spans a
 * leaf that is not pending, so a resumed run redoes exactly the units that
 * were not committed. A new unit starts at a new parent once the current one
 * holds half the budget: sections stay whole where the budget allows.
 */
export function packUnits(
  leaves: readonly ChunkNode[],
  budget: number,
  pending: (leaf: ChunkNode) => boolean = () => true,
  reply?: ReplyPlan,
): ExtractionUnit[] {
  const units: ExtractionUnit[] = [];
  let current: ExtractionUnit | null = null;
  let previousPending = false;
  for (const leaf of leaves) {
    if (!pending(leaf)) {
      previousPending = false;
      continue;
    }
    const last = current?.leaves.at(-1);
    const expected = reply ? reply.expected(leaf) : 0;
    const replyFits = !reply || current === null || expectedReplyTokens((current.expectedFindings ?? 0) + expected) <= reply.room;
    const fits = current !== null && current.tokens + leaf.tokenEstimate <= budget && replyFits;
    const newSection = last !== undefined && last.parentIndex !== leaf.parentIndex && current!.tokens >= budget / 2;
    if (current && previousPending && fits && !newSection) {
      current.leaves.push(leaf);
      current.end = Math.max(current.end, leaf.end);
      current.tokens += leaf.tokenEstimate;
      if (reply) current.expectedFindings = (current.expectedFindings ?? 0) + expected;
    } else {
      current = { leaves: [leaf], start: leaf.start, end: leaf.end, tokens: leaf.tokenEstimate, ...(reply ? { expectedFindings: expected } : {}) };
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
