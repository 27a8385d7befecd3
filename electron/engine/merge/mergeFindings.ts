/**
 * Merges the raw findings of one document into one finding per real finding.
 *
 * Identity comes from the document, never from the model's say-so (printed/identity.ts): a finding's
 * `findingKey` is an ID the document prints for it, its `printedNumber` the number printed before its
 * title; the model's own `id` is only a label. Findings are joined (union-find) in four passes, each
 * join recorded as a decision:
 *  1. same-id: equal document-printed ID, unless titles and evidence clearly disagree: then the two stay
 *     apart and the clash is recorded as a conflict for the auditor (a model that put a neighbour's ID on
 *     a finding must not swallow it);
 *  2. same-number: equal printed number and agreeing titles (a summary-table row "7 Title" and its heading
 *     "7. Title", even where the heading words the title differently);
 *  3. boundary-overlap: grounded evidence of two different chunks overlapping by at least `overlapRatio` of
 *     the shorter span (the same text seen in a chunk and in the next chunk's context);
 *  4. similar-text: `compareFindings` says same (similarity.ts).
 * Two groups never join when the document gives them different IDs (or, for a group the document keys nowhere,
 * when its model gave an ID the document prints for another), or different numbers of the same shape ("7" and "9";
 * "7" and "3.2" may be a table row and its section), or when they are a recorded conflict.
 * Text (passes 3 and 4) never joins distinct titles the document prints: when every title of one group that the
 * document prints and every printed title of the other differ in a distinguishing word ("Unused errors can be
 * removed" and "Unused constants can be removed"; each has a word the other lacks), they are different findings
 * however alike the rest is (siblings, or a table of contents whose lines a model describes alike). Checked
 * group against group, so no chain of similar pairs carries one finding into another. Siblings kept apart that
 * text alone would have joined are recorded as a 'title' conflict for the auditor: a duplicate costs a click, a
 * wrong merge costs a finding. A title only the model wrote (reworded) does not keep anything apart.
 * The merged finding is built from its group in result.ts; a finding the text shows lists only the sightings found
 * in it and counts the others (`listedSources`).
 *
 * In steps, each over the merge's state (the findings, their text features, the groups, the conflicts): join by
 * printed ID and number, join by overlapping evidence, join by similar text, build the result. No step compares all
 * pairs: each visits only the pairs its rule could accept (a key's bucket; candidates.ts for overlaps and text), in
 * the order every pair used to be visited, so the result is what comparing all pairs gives (a differential test
 * holds the two side by side), in near-linear time.
 */
import type { StoredFinding, UnreviewedMention, MergedFindingDraft } from '../../../shared/findings';
import type { IdMention } from '../../../shared/types';
import { comparableId, contentTitleOf, distinguishingWords, ownRowTitles, printedTitleTestSteps, sharedShare, SIBLING_SHARE, dice } from '../printed';
import { runInSlices, runToEnd, type Steps } from '../util';
import { overlappingPairSteps, similarTextPairSteps } from './candidates';
import { Groups, type GroupIdentity } from './groups';
import { buildResult, type MergeResult, type PendingConflict } from './result';
import { compareFeatures, textFeatures, type TextFeatures } from './similarity';

export type { MergeResult } from './result';

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

/** What every step of the merge reads and changes. */
interface MergeState {
  /** The raw findings, each sighting under the title of its own row (ownRowTitles). */
  findings: readonly StoredFinding[];
  /** Their text features, by index, computed once. */
  features: readonly TextFeatures[];
  groups: Groups;
  conflicts: PendingConflict[];
}

export function mergeFindings(reported: readonly StoredFinding[], options: MergeOptions = {}): MergeResult {
  return runToEnd(mergeSteps(reported, options));
}

/**
 * The merge in slices of about util SLICE_MS, the event loop answering between them (the app's commands, other
 * documents' model replies): the same result as mergeFindings.
 */
export function mergeFindingsInSlices(
  reported: readonly StoredFinding[],
  options: MergeOptions & { signal?: AbortSignal; sliceMs?: number } = {},
): Promise<MergeResult> {
  const { signal, sliceMs } = options;
  return runInSlices(mergeSteps(reported, options), { ...(signal ? { signal } : {}), ...(sliceMs === undefined ? {} : { sliceMs }) });
}

function* mergeSteps(reported: readonly StoredFinding[], options: MergeOptions): Steps<MergeResult> {
  const isPrinted = yield* printedTitleTestSteps(options.documentText);
  const findings = yield* ownRowTitles(reported, isPrinted);
  const features: TextFeatures[] = [];
  for (const f of findings) {
    features.push(textFeatures(f));
    yield;
  }
  const claimOf = (f: StoredFinding): string | null => {
    if (f.findingKey || !f.id || !options.printedIds) return null;
    const claimed = comparableId(f.id);
    return options.printedIds.has(claimed) ? claimed : null;
  };
  const identity: GroupIdentity[] = findings.map((f) => ({ key: f.findingKey, claim: claimOf(f), numbers: new Set(f.printedNumber ? [f.printedNumber] : []) }));
  const titles = findings.map((f, i) => (isPrinted(f.title) ? [contentTitleOf(features[i]!.titleWords)] : []));
  const state: MergeState = { findings, features, groups: new Groups(identity, titles), conflicts: [] };
  yield* joinByKey(state);
  yield* joinByOverlap(state, options.overlapRatio ?? 0.5);
  if (options.similarText ?? true) yield* joinBySimilarText(state);
  return yield* buildResult(findings, state.groups, state.conflicts, isPrinted);
}

/**
 * Same document-printed ID, then same printed number: members of a key's bucket that agree are joined; those that
 * ended in different groups although they share the key are kept apart and recorded as a conflict, when their
 * groups could otherwise have been joined (the ID or number is the document's, the titles say otherwise).
 */
function* joinByKey(state: MergeState): Steps<void> {
  const { findings, features, groups } = state;
  for (const [kind, keyOf, reason] of [
    ['id', (f: StoredFinding) => f.findingKey, 'same-id'],
    ['number', (f: StoredFinding) => f.printedNumber, 'same-number'],
  ] as const) {
    for (const [key, members] of bucket(findings, keyOf)) {
      for (let x = 0; x < members.length; x++) {
        for (let y = 0; y < x; y++) {
          const a = members[y]!;
          const b = members[x]!;
          if (groups.find(a) === groups.find(b)) continue;
          if (agreeOn(findings[a]!, features[a]!, findings[b]!, features[b]!)) groups.join(a, b, reason, 1);
        }
        yield;
      }
      const roots = [...new Set(members.map((i) => groups.find(i)))];
      for (let x = 0; x < roots.length; x++) {
        for (let y = 0; y < x; y++) {
          const [a, b] = [roots[y]!, roots[x]!];
          if (!groups.canJoin(a, b)) continue;
          groups.keepApart(a, b);
          state.conflicts.push({ kind, key, a, b, score: round(dice(features[a]!.titleBigrams, features[b]!.titleBigrams)) });
        }
        yield;
      }
    }
  }
}

/** Grounded evidence of two different chunks overlapping by at least `overlapRatio` of the shorter span: the same text seen in a chunk and in the next chunk's context. */
function* joinByOverlap(state: MergeState, overlapRatio: number): Steps<void> {
  const { findings, groups } = state;
  const spans = findings.map(({ grounding: g }) => (g.status === 'grounded' && g.start !== null && g.end !== null ? { start: g.start, end: g.end } : null));
  for (const [i, j] of yield* overlappingPairSteps(spans)) {
    yield;
    if (findings[i]!.nodeIndex === findings[j]!.nodeIndex) continue;
    const [a, b] = [spans[i]!, spans[j]!];
    const overlap = Math.min(a.end, b.end) - Math.max(a.start, b.start);
    const ratio = overlap / Math.max(1, Math.min(a.end - a.start, b.end - b.start));
    if (ratio < overlapRatio) continue;
    if (!groups.join(i, j, 'boundary-overlap', round(ratio))) keptApartByTitle(state, i, j);
  }
}

/** Findings `compareFeatures` calls the same (similarity.ts), among the candidate pairs that could be. */
function* joinBySimilarText(state: MergeState): Steps<void> {
  const { features, groups } = state;
  for (const [i, j] of yield* similarTextPairSteps(features)) {
    yield;
    const [ri, rj] = [groups.find(i), groups.find(j)];
    if (ri === rj || !groups.canJoin(ri, rj)) continue;
    const s = compareFeatures(features[i]!, features[j]!);
    if (s.same && !groups.join(i, j, 'similar-text', s.score)) keptApartByTitle(state, i, j);
  }
}

/** Siblings text alone would have joined, kept apart by their printed titles: a conflict when the titles are near (not merely described alike). */
function keptApartByTitle(state: MergeState, i: number, j: number): void {
  const { features, groups } = state;
  const [ra, rb] = [groups.find(i), groups.find(j)];
  if (ra === rb || !groups.canJoin(ra, rb) || groups.textMayJoin(ra, rb)) return;
  const [wa, wb] = [features[i]!.titleWords, features[j]!.titleWords];
  if (sharedShare(wa, wb) < SIBLING_SHARE) return;
  groups.keepApart(ra, rb);
  state.conflicts.push({
    kind: 'title',
    key: distinguishingWords(wa, wb),
    a: ra,
    b: rb,
    score: round(dice(features[i]!.titleBigrams, features[j]!.titleBigrams)),
  });
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

/**
 * Whether two sightings that share a printed ID or number speak of the same finding: their titles are alike
 * (the similar-text rules, or half their words or bigrams shared, which covers a heading that words the table's
 * title differently), or their evidence overlaps. A clear disagreement keeps them apart.
 */
export function agree(a: StoredFinding, b: StoredFinding): boolean {
  return agreeOn(a, textFeatures(a), b, textFeatures(b));
}

function agreeOn(a: StoredFinding, fa: TextFeatures, b: StoredFinding, fb: TextFeatures): boolean {
  if (compareFeatures(fa, fb).same) return true;
  if (dice(fa.titleBigrams, fb.titleBigrams) >= 0.5) return true;
  const wa = fa.titleWords;
  const wb = fb.titleWords;
  const shared = [...wa].filter((w) => wb.has(w)).length;
  if (Math.min(wa.size, wb.size) > 0 && shared / Math.min(wa.size, wb.size) >= 0.6) return true;
  const ga = a.grounding;
  const gb = b.grounding;
  return ga.start !== null && ga.end !== null && gb.start !== null && gb.end !== null && Math.min(ga.end, gb.end) > Math.max(ga.start, gb.start);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
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
