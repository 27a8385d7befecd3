/**
 * Matching a new run's merged findings to reviewed findings (pure; the
 * carry-over in carryOver.ts feeds it from the store).
 *
 * Each merged finding gets a primary reviewed finding by, in this order:
 *  1. id: its normalised ID is one of the reviewed finding's IDs (its own and
 *     those of the raw findings it stands for); several candidates (a split
 *     family shares an ID): the best evidence overlap, then the lowest id;
 *  2. position: one of its sources' grounded evidence overlaps one of the
 *     reviewed finding's evidence spans by at least `overlapRatio` of the
 *     shorter span (offsets point into the same canonical text in every run);
 *  3. similarity: merge/similarity.ts `compareFindings` on title and
 *     description, one-to-one, best score first, among what is still unmatched.
 * Two different IDs are never matched (as in merge). Several merged findings
 * may match one reviewed finding by ID or position (the auditor merged two
 * findings the model keeps apart). A merged finding whose sources overlap
 * different members of a split family (reviewed findings split from one
 * another) has its sources distributed to them, each source to the member
 * whose spans it overlaps most; sources overlapping none stay with the primary.
 */
import { compareFindings } from '../merge';

export interface Span {
  start: number;
  end: number;
}

export interface ReviewedCandidate {
  id: number;
  /** Normalised IDs it answers to. */
  keys: readonly string[];
  title: string;
  description: string;
  /** Evidence spans of the sources it stands for (its last linked run) or of its manual evidence. */
  spans: readonly Span[];
  /** The reviewed finding it was split from (defines split families). */
  splitFrom?: number | null;
}

export interface CandidateSource {
  findingId: number;
  start: number | null;
  end: number | null;
}

export interface CandidateMerged {
  id: number;
  findingKey: string | null;
  title: string;
  description: string;
  sources: readonly CandidateSource[];
}

export type MatchRule = 'id' | 'position' | 'similarity';

export interface Assignment {
  reviewedId: number;
  mergedId: number;
  /** The merged finding's sources that go to this reviewed finding. */
  sourceIds: number[];
  /** All sources of the merged finding go to this reviewed finding. */
  whole: boolean;
  rule: MatchRule;
  score: number;
}

export interface MatchResult {
  assignments: Assignment[];
  /** Merged findings matched to nothing: new findings. */
  unmatchedMerged: number[];
  /** Reviewed findings no merged finding matched: vanished (unless manual). */
  unmatchedReviewed: number[];
}

export interface MatchOptions {
  /** Share of the shorter span two spans must overlap. Default 0.5 (as merge's boundary overlap). */
  overlapRatio?: number;
}

export function spanOverlap(a: Span, b: Span): number {
  const overlap = Math.min(a.end, b.end) - Math.max(a.start, b.start);
  if (overlap <= 0) return 0;
  return overlap / Math.max(1, Math.min(a.end - a.start, b.end - b.start));
}

function sourceSpan(s: CandidateSource): Span | null {
  return s.start === null || s.end === null ? null : { start: s.start, end: s.end };
}

/** Best overlap ratio between any span of `spans` and `span`. */
function bestOverlap(spans: readonly Span[], span: Span): number {
  let best = 0;
  for (const s of spans) best = Math.max(best, spanOverlap(s, span));
  return best;
}

function positionScore(m: CandidateMerged, r: ReviewedCandidate): number {
  let best = 0;
  for (const s of m.sources) {
    const span = sourceSpan(s);
    if (span) best = Math.max(best, bestOverlap(r.spans, span));
  }
  return best;
}

function conflictingKeys(m: CandidateMerged, r: ReviewedCandidate): boolean {
  return m.findingKey !== null && r.keys.length > 0 && !r.keys.includes(m.findingKey);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** Split families: reviewed findings connected by splitFrom. */
function families(reviewed: readonly ReviewedCandidate[]): Map<number, number[]> {
  const ids = new Set(reviewed.map((r) => r.id));
  const parent = new Map<number, number>(reviewed.map((r) => [r.id, r.id]));
  const find = (x: number): number => {
    let p = parent.get(x)!;
    while (p !== x) {
      x = p;
      p = parent.get(x)!;
    }
    return x;
  };
  for (const r of reviewed) {
    if (r.splitFrom !== null && r.splitFrom !== undefined && ids.has(r.splitFrom)) {
      const a = find(r.id);
      const b = find(r.splitFrom);
      if (a !== b) parent.set(Math.max(a, b), Math.min(a, b));
    }
  }
  const out = new Map<number, number[]>();
  for (const r of reviewed) {
    const root = find(r.id);
    const members = out.get(root) ?? [];
    members.push(r.id);
    out.set(root, members);
  }
  const byMember = new Map<number, number[]>();
  for (const members of out.values()) for (const m of members) byMember.set(m, members);
  return byMember;
}

export function matchFindings(reviewed: readonly ReviewedCandidate[], merged: readonly CandidateMerged[], options: MatchOptions = {}): MatchResult {
  const ratio = options.overlapRatio ?? 0.5;
  const byId = new Map(reviewed.map((r) => [r.id, r]));
  const primary = new Map<number, { reviewedId: number; rule: MatchRule; score: number }>();

  // 1. ID
  for (const m of merged) {
    if (m.findingKey === null) continue;
    const candidates = reviewed.filter((r) => r.keys.includes(m.findingKey!));
    if (candidates.length === 0) continue;
    const best = [...candidates].sort((a, b) => positionScore(m, b) - positionScore(m, a) || a.id - b.id)[0]!;
    primary.set(m.id, { reviewedId: best.id, rule: 'id', score: 1 });
  }

  // 2. position
  for (const m of merged) {
    if (primary.has(m.id)) continue;
    let best: { r: ReviewedCandidate; score: number } | undefined;
    for (const r of reviewed) {
      if (conflictingKeys(m, r)) continue;
      const score = positionScore(m, r);
      if (score >= ratio && (!best || score > best.score || (score === best.score && r.id < best.r.id))) best = { r, score };
    }
    if (best) primary.set(m.id, { reviewedId: best.r.id, rule: 'position', score: round(best.score) });
  }

  // 3. similarity, one-to-one among what is left
  const taken = new Set([...primary.values()].map((p) => p.reviewedId));
  const pairs: { m: CandidateMerged; r: ReviewedCandidate; score: number }[] = [];
  for (const m of merged) {
    if (primary.has(m.id)) continue;
    for (const r of reviewed) {
      if (taken.has(r.id) || conflictingKeys(m, r)) continue;
      const s = compareFindings(m, r);
      if (s.same) pairs.push({ m, r, score: s.score });
    }
  }
  pairs.sort((a, b) => b.score - a.score || a.r.id - b.r.id || a.m.id - b.m.id);
  for (const p of pairs) {
    if (primary.has(p.m.id) || taken.has(p.r.id)) continue;
    primary.set(p.m.id, { reviewedId: p.r.id, rule: 'similarity', score: p.score });
    taken.add(p.r.id);
  }

  // Distribute the sources of each matched merged finding within the primary's split family.
  const family = families(reviewed);
  const assignments: Assignment[] = [];
  for (const m of merged) {
    const p = primary.get(m.id);
    if (!p) continue;
    const members = (family.get(p.reviewedId) ?? [p.reviewedId]).map((id) => byId.get(id)!);
    const to = new Map<number, number[]>();
    for (const s of m.sources) {
      let target = p.reviewedId;
      const span = sourceSpan(s);
      if (span && members.length > 1) {
        let best = bestOverlap(byId.get(p.reviewedId)!.spans, span);
        for (const r of members) {
          const score = bestOverlap(r.spans, span);
          if (score >= ratio && score > best) {
            best = score;
            target = r.id;
          }
        }
      }
      const list = to.get(target) ?? [];
      list.push(s.findingId);
      to.set(target, list);
    }
    if (m.sources.length === 0) to.set(p.reviewedId, []);
    for (const [reviewedId, sourceIds] of to) {
      assignments.push({
        reviewedId,
        mergedId: m.id,
        sourceIds,
        whole: to.size === 1,
        rule: reviewedId === p.reviewedId ? p.rule : 'position',
        score: p.score,
      });
    }
  }
  const matchedReviewed = new Set(assignments.map((a) => a.reviewedId));
  return {
    assignments,
    unmatchedMerged: merged.filter((m) => !primary.has(m.id)).map((m) => m.id),
    unmatchedReviewed: reviewed.filter((r) => !matchedReviewed.has(r.id)).map((r) => r.id),
  };
}
