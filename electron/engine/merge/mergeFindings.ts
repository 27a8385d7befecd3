/**
 * Merges the raw findings of one document into one finding per real finding.
 *
 * Findings are joined (union-find) in three passes, each recording a decision:
 *  1. same-id: equal normalised ID (normalizeId: case, whitespace, dashes, invisible characters);
 *  2. boundary-overlap: grounded evidence of two different chunks overlapping by at least
 *     `overlapRatio` of the shorter span: the same text seen in a chunk and in the next
 *     chunk's context or declared overlap;
 *  3. similar-text: no conflicting IDs and `compareFindings` says same (similarity.ts).
 * Two groups with different IDs are never joined. The merged finding takes its title,
 * description, type and main page from the main source: grounded in its own chunk first,
 * then the one with the most text (description + evidence), which is the detailed section
 * rather than a summary-table row; the severity is the highest among the sources (profile
 * rank), as its source wrote it. Every source is kept.
 */
import type { FindingSource, MergeDecision, MergedFindingDraft, MergeReason, StoredFinding, UnreviewedMention } from '../../../shared/findings';
import type { IdMention } from '../../../shared/types';
import { compareFindings } from './similarity';

export interface MergeOptions {
  /** Share of the shorter evidence span two spans must overlap to be the same text. Default 0.5. */
  overlapRatio?: number;
  /** Turn off the similar-text pass (IDs and overlaps only). Default true. */
  similarText?: boolean;
}

export interface MergeResult {
  merged: MergedFindingDraft[];
  decisions: MergeDecision[];
}

interface Edge {
  a: number;
  b: number;
  reason: MergeReason;
  score: number;
}

export function mergeFindings(findings: readonly StoredFinding[], options: MergeOptions = {}): MergeResult {
  const overlapRatio = options.overlapRatio ?? 0.5;
  const n = findings.length;
  const parent = findings.map((_, i) => i);
  const keyOf = findings.map((f) => f.findingKey);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const edges: Edge[] = [];
  const union = (a: number, b: number, reason: MergeReason, score: number): boolean => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb) return false;
    const ka = keyOf[ra];
    const kb = keyOf[rb];
    if (ka && kb && ka !== kb) return false;
    const [root, child] = ra < rb ? [ra, rb] : [rb, ra];
    parent[child] = root;
    keyOf[root] = ka ?? kb ?? null;
    edges.push({ a, b, reason, score });
    return true;
  };

  // 1. same ID
  const byKey = new Map<string, number>();
  findings.forEach((f, i) => {
    if (!f.findingKey) return;
    const first = byKey.get(f.findingKey);
    if (first === undefined) byKey.set(f.findingKey, i);
    else union(first, i, 'same-id', 1);
  });

  // 2. boundary overlap (grounded spans of different chunks)
  for (let i = 0; i < n; i++) {
    const a = findings[i]!.grounding;
    if (a.status !== 'grounded' || a.start === null || a.end === null) continue;
    for (let j = i + 1; j < n; j++) {
      const b = findings[j]!.grounding;
      if (b.status !== 'grounded' || b.start === null || b.end === null) continue;
      if (findings[i]!.nodeIndex === findings[j]!.nodeIndex) continue;
      const overlap = Math.min(a.end, b.end) - Math.max(a.start, b.start);
      if (overlap <= 0) continue;
      const ratio = overlap / Math.max(1, Math.min(a.end - a.start, b.end - b.start));
      if (ratio >= overlapRatio) union(i, j, 'boundary-overlap', Math.round(ratio * 1000) / 1000);
    }
  }

  // 3. similar text
  if (options.similarText ?? true) {
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        if (find(i) === find(j)) continue;
        const ki = keyOf[find(i)];
        const kj = keyOf[find(j)];
        if (ki && kj && ki !== kj) continue;
        const s = compareFindings(findings[i]!, findings[j]!);
        if (s.same) union(i, j, 'similar-text', s.score);
      }
    }
  }

  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const r = find(i);
    const g = groups.get(r);
    if (g) g.push(i);
    else groups.set(r, [i]);
  }

  const drafts = [...groups.entries()].map(([root, members]) => ({ root, draft: buildDraft(members.map((i) => findings[i]!), keyOf[root] ?? null) }));
  drafts.sort((x, y) => position(x.draft) - position(y.draft) || x.draft.mainFindingId - y.draft.mainFindingId);
  const indexOfRoot = new Map(drafts.map((d, i) => [d.root, i]));
  const decisions: MergeDecision[] = edges.map((e) => ({
    mergedIndex: indexOfRoot.get(find(e.a))!,
    keptFindingId: findings[e.a]!.findingId,
    absorbedFindingId: findings[e.b]!.findingId,
    reason: e.reason,
    score: e.score,
  }));
  return { merged: drafts.map((d) => d.draft), decisions };
}

function position(d: MergedFindingDraft): number {
  const main = d.sources.find((s) => s.isMain);
  return (d.mainPage ?? 1e9) * 1e9 + (main?.evidenceStart ?? 0);
}

/** How strongly a source speaks for its finding: grounded in its own chunk, then text length; table rows lose. */
function mainScore(f: StoredFinding): number {
  const g = f.grounding;
  const grounded = g.status === 'grounded' ? (g.inContextOnly ? 500_000 : 1_000_000) : 0;
  const tableLike = /\||\t/.test(f.evidence) ? -1000 : 0;
  return grounded + tableLike + f.description.length + f.evidence.length;
}

function buildDraft(members: StoredFinding[], key: string | null): MergedFindingDraft {
  const main = [...members].sort((a, b) => mainScore(b) - mainScore(a) || a.findingId - b.findingId)[0]!;
  const top = [...members].sort((a, b) => a.severityRank - b.severityRank || (a === main ? -1 : b === main ? 1 : 0))[0]!;
  const sources = sortSources(members.map((f) => toFindingSource(f, f === main)));
  return {
    findingKey: key,
    title: main.title,
    type: main.type,
    severity: top.severity,
    severityCanonical: top.severityCanonical,
    severityRank: top.severityRank,
    description: main.description,
    mainPage: main.grounding.page ?? main.page,
    mainFindingId: main.findingId,
    grounded: members.some((f) => f.grounding.status === 'grounded'),
    sources,
    absorbedFindingIds: members.filter((f) => f !== main).map((f) => f.findingId),
  };
}

/**
 * IDs the rules found in the document that no merged finding covers (by
 * normalised ID), with their pages, in order of first mention: what the model
 * may have missed.
 */
export function unreviewedMentions(mentions: readonly IdMention[], merged: readonly Pick<MergedFindingDraft, 'findingKey'>[]): UnreviewedMention[] {
  const covered = new Set(merged.map((m) => m.findingKey).filter((k): k is string => Boolean(k)));
  const out = new Map<string, Set<number>>();
  for (const m of [...mentions].sort((a, b) => a.start - b.start)) {
    if (covered.has(m.normalized)) continue;
    const pages = out.get(m.normalized) ?? new Set<number>();
    pages.add(m.page);
    out.set(m.normalized, pages);
  }
  return [...out.entries()].map(([id, pages]) => ({ id, pages: [...pages].sort((a, b) => a - b) }));
}

/** One raw finding as a source of a merged finding: where it was stated and whether its quote was found. */
export function toFindingSource(f: StoredFinding, isMain: boolean): FindingSource {
  return {
    findingId: f.findingId,
    nodeIndex: f.nodeIndex,
    page: f.grounding.page ?? f.page,
    title: f.title,
    evidence: f.evidence,
    evidenceStart: f.grounding.start,
    evidenceEnd: f.grounding.end,
    grounded: f.grounding.status === 'grounded',
    match: f.grounding.match,
    inContextOnly: f.grounding.inContextOnly,
    isMain,
  };
}

/** Sources in document order. */
export function sortSources(sources: FindingSource[]): FindingSource[] {
  return sources.sort((a, b) => (a.evidenceStart ?? Infinity) - (b.evidenceStart ?? Infinity) || a.findingId - b.findingId);
}
