/**
 * The merge as it was before candidate blocking (main 40db172, electron/engine/merge/mergeFindings.ts): every pair of
 * findings compared, in order. Kept as the oracle the blocked merge is held to (test/unit/merge/mergeBlocking.test.ts:
 * the same result on generated finding sets) and as the bench's baseline (test/bench/mergeBench.ts). Not used by the
 * product.
 *
 * Only the search for pairs is its own: every pair in turn instead of the candidates blocking proposes. Whether two
 * findings agree, which titles the document prints, a row's own title and how a group becomes one merged finding are
 * the product's own functions, so a change of those rules is held to the oracle without being copied here.
 */
import type { MergeConflictDraft, MergeDecision, MergedFindingDraft, MergeReason, StoredFinding } from '../../shared/findings';
import { comparableId, contentWords, textSimilarity } from '../../electron/engine/printed';
import { agree, compareFindings } from '../../electron/engine/merge';
import { numbersClash } from '../../electron/engine/merge/groups';
import {
  contentTitle,
  distinguishingWords,
  ownRowTitles,
  printedTitleTest,
  sharedShare,
  SIBLING_SHARE,
  titlesDistinct,
  uniqueTitles,
  type ContentTitle,
} from '../../electron/engine/printed/titles';
import { buildDraft, position } from '../../electron/engine/merge/result';
import { runToEnd } from '../../electron/engine/util';

export interface MergeOptions {
  /** Share of the shorter evidence span two spans must overlap to be the same text. Default 0.5. */
  overlapRatio?: number;
  /** Turn off the similar-text pass (IDs, numbers and overlaps only). Default true. */
  similarText?: boolean;
  /**
   * The document's canonical text: a finding's title printed in it is the document's own title, and two distinct
   * printed titles keep sightings apart. Without it no title keeps findings apart (text alone decides).
   */
  documentText?: string;
  /**
   * The IDs the document prints (comparableId form). A finding the document gives no key but whose model ID is one
   * of them claims that ID: it never joins a group keyed or claimed by another printed ID (a duplicate costs a
   * click, a wrong merge costs a finding). Without it no claim counts.
   */
  printedIds?: ReadonlySet<string>;
}

export interface MergeResult {
  merged: MergedFindingDraft[];
  decisions: MergeDecision[];
  /** Findings sharing a printed ID or number that were kept apart because they clearly disagree. */
  conflicts: MergeConflictDraft[];
}

interface Edge {
  a: number;
  b: number;
  reason: MergeReason;
  score: number;
}

/** What the document says about a group: its printed ID (at most one), the printed ID its model claims, and its printed numbers. */
interface GroupIdentity {
  key: string | null;
  /** comparableId of a printed ID a member's model gave, where the document keys none of the group's members. */
  claim: string | null;
  numbers: Set<string>;
}

/** The printed ID a group stands for: its key, else what its members' model claims. */
const idOf = (g: GroupIdentity): string | null => (g.key ? comparableId(g.key) : g.claim);

interface PendingConflict {
  kind: MergeConflictDraft['kind'];
  key: string;
  a: number;
  b: number;
  score: number;
}

export function allPairsMerge(reported: readonly StoredFinding[], options: MergeOptions = {}): MergeResult {
  let findings = reported;
  const overlapRatio = options.overlapRatio ?? 0.5;
  const n = findings.length;
  const parent = findings.map((_, i) => i);
  const isPrinted = printedTitleTest(options.documentText);
  findings = runToEnd(ownRowTitles(findings, isPrinted));
  const claimOf = (f: StoredFinding): string | null => {
    if (f.findingKey || !f.id || !options.printedIds) return null;
    const claimed = comparableId(f.id);
    return options.printedIds.has(claimed) ? claimed : null;
  };
  const identity: GroupIdentity[] = findings.map((f) => ({ key: f.findingKey, claim: claimOf(f), numbers: new Set(f.printedNumber ? [f.printedNumber] : []) }));
  /** Per group root: the content words of each distinct title the document prints for its members. */
  const titles: ContentTitle[][] = findings.map((f) => (isPrinted(f.title) ? [contentTitle(f.title)] : []));
  /** Pairs of group roots that must stay apart (recorded conflicts). */
  const apart: [number, number][] = [];
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const kept = (a: number, b: number) => apart.some(([x, y]) => (find(x) === a && find(y) === b) || (find(x) === b && find(y) === a));
  const canJoin = (ra: number, rb: number): boolean => {
    const ia = identity[ra]!;
    const ib = identity[rb]!;
    if (ia.key && ib.key && ia.key !== ib.key) return false;
    const [idA, idB] = [idOf(ia), idOf(ib)];
    if (idA && idB && idA !== idB) return false;
    if (numbersClash(ia.numbers, ib.numbers)) return false;
    return !kept(ra, rb);
  };
  const edges: Edge[] = [];
  /** Text may join two groups only when the titles the document prints for them are not all distinct. */
  const textMayJoin = (ra: number, rb: number) => canJoin(ra, rb) && !titlesDistinct(titles[ra]!, titles[rb]!);
  const union = (a: number, b: number, reason: MergeReason, score: number): boolean => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb || !canJoin(ra, rb)) return false;
    if ((reason === 'similar-text' || reason === 'boundary-overlap') && titlesDistinct(titles[ra]!, titles[rb]!)) return false;
    const [root, child] = ra < rb ? [ra, rb] : [rb, ra];
    parent[child] = root;
    identity[root] = {
      key: identity[ra]!.key ?? identity[rb]!.key,
      claim: identity[ra]!.claim ?? identity[rb]!.claim,
      numbers: new Set([...identity[ra]!.numbers, ...identity[rb]!.numbers]),
    };
    titles[root] = uniqueTitles([...titles[ra]!, ...titles[rb]!]);
    edges.push({ a, b, reason, score });
    return true;
  };
  const conflicts: PendingConflict[] = [];

  // 1. same document-printed ID, 2. same printed number: join members that agree, keep and record the ones that clash.
  for (const [kind, keyOf, reason] of [
    ['id', (f: StoredFinding) => f.findingKey, 'same-id'],
    ['number', (f: StoredFinding) => f.printedNumber, 'same-number'],
  ] as const) {
    for (const [key, members] of bucket(findings, keyOf)) {
      for (let x = 0; x < members.length; x++) {
        for (let y = 0; y < x; y++) {
          const a = members[y]!;
          const b = members[x]!;
          if (find(a) === find(b)) continue;
          if (agree(findings[a]!, findings[b]!)) union(a, b, reason, 1);
        }
      }
      // Members of this bucket that ended in different groups although they share the key: a conflict when their
      // groups could otherwise have been joined (the ID or number is the document's, the titles say otherwise).
      const roots = [...new Set(members.map(find))];
      for (let x = 0; x < roots.length; x++) {
        for (let y = 0; y < x; y++) {
          const [a, b] = [roots[y]!, roots[x]!];
          if (!canJoin(a, b)) continue;
          apart.push([a, b]);
          conflicts.push({ kind, key, a, b, score: round(textSimilarity(findings[a]!.title, findings[b]!.title)) });
        }
      }
    }
  }

  // 3. boundary overlap (grounded spans of different chunks)
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
      if (ratio < overlapRatio) continue;
      if (!union(i, j, 'boundary-overlap', round(ratio))) keptApartByTitle(i, j);
    }
  }

  // 4. similar text
  if (options.similarText ?? true) {
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        if (find(i) === find(j) || !canJoin(find(i), find(j))) continue;
        const s = compareFindings(findings[i]!, findings[j]!);
        if (s.same && !union(i, j, 'similar-text', s.score)) keptApartByTitle(i, j);
      }
    }
  }

  /** Siblings text alone would have joined, kept apart by their printed titles: a conflict when the titles are near (not merely described alike). */
  function keptApartByTitle(i: number, j: number): void {
    const [ra, rb] = [find(i), find(j)];
    if (ra === rb || !canJoin(ra, rb) || textMayJoin(ra, rb)) return;
    const [ta, tb] = [contentTitle(findings[i]!.title), contentTitle(findings[j]!.title)];
    if (sharedShare(ta.words, tb.words) < SIBLING_SHARE) return;
    apart.push([ra, rb]);
    conflicts.push({
      kind: 'title',
      key: distinguishingWords(contentWords(findings[i]!.title), contentWords(findings[j]!.title)),
      a: ra,
      b: rb,
      score: round(textSimilarity(findings[i]!.title, findings[j]!.title)),
    });
  }

  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const r = find(i);
    const g = groups.get(r);
    if (g) g.push(i);
    else groups.set(r, [i]);
  }

  const drafts = [...groups.entries()].map(([root, members]) => ({
    root,
    draft: buildDraft(
      members.map((i) => findings[i]!),
      identity[root]!.key,
      isPrinted,
    ),
  }));
  drafts.sort((x, y) => position(x.draft) - position(y.draft) || x.draft.mainFindingId - y.draft.mainFindingId);
  const indexOfRoot = new Map(drafts.map((d, i) => [d.root, i]));
  const decisions: MergeDecision[] = edges.map((e) => ({
    mergedIndex: indexOfRoot.get(find(e.a))!,
    keptFindingId: findings[e.a]!.findingId,
    absorbedFindingId: findings[e.b]!.findingId,
    reason: e.reason,
    score: e.score,
  }));
  const seen = new Set<string>();
  const mergeConflicts: MergeConflictDraft[] = [];
  for (const c of conflicts) {
    const pair = [indexOfRoot.get(find(c.a))!, indexOfRoot.get(find(c.b))!].sort((x, y) => x - y) as [number, number];
    const id = `${c.kind}:${c.key}:${pair.join(',')}`;
    if (pair[0] === pair[1] || seen.has(id)) continue;
    seen.add(id);
    mergeConflicts.push({ kind: c.kind, key: c.key, mergedIndexes: pair, score: c.score });
  }
  return { merged: drafts.map((d) => d.draft), decisions, conflicts: mergeConflicts };
}

/** Indexes of the findings that carry each non-null key, in document order of first appearance. */
function bucket(findings: readonly StoredFinding[], keyOf: (f: StoredFinding) => string | null): Map<string, number[]> {
  const out = new Map<string, number[]>();
  findings.forEach((f, i) => {
    const key = keyOf(f);
    if (!key) return;
    const list = out.get(key);
    if (list) list.push(i);
    else out.set(key, [i]);
  });
  return out;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
