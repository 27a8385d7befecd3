/**
 * The merge's result from its groups: one merged finding per group, in document order, the decisions (joins) and the
 * conflicts (groups kept apart) by merged finding.
 *
 * The merged finding takes its title, description, type and main page from the main source: grounded in its own
 * chunk first, then the one with the most text (the detailed section rather than a table row); the severity is the
 * highest among the sources (profile rank), as its source wrote it. Every source is kept.
 */
import { CONTENTS_LINE_END } from '../../../shared/canonical';
import {
  LISTED_ENTRY_TYPE,
  type FindingSource,
  type MergeConflictDraft,
  type MergeDecision,
  type MergedFindingDraft,
  type StoredFinding,
} from '../../../shared/findings';
import { comparableId, contentTitle, distinctTitles, words } from '../printed';
import type { Steps } from '../util';
import type { Groups } from './groups';

export interface MergeResult {
  merged: MergedFindingDraft[];
  decisions: MergeDecision[];
  /** Findings sharing a printed ID or number that were kept apart because they clearly disagree. */
  conflicts: MergeConflictDraft[];
}

/** Two groups kept apart, by a member (or root) of each. */
export interface PendingConflict {
  kind: MergeConflictDraft['kind'];
  key: string;
  a: number;
  b: number;
  score: number;
}

export function* buildResult(
  findings: readonly StoredFinding[],
  groups: Groups,
  conflicts: readonly PendingConflict[],
  isPrinted: (title: string) => boolean,
): Steps<MergeResult> {
  const drafts: { root: number; draft: MergedFindingDraft }[] = [];
  for (const [root, members] of groups.members()) {
    drafts.push({
      root,
      draft: buildDraft(
        members.map((i) => findings[i]!),
        groups.keyOf(root),
        isPrinted,
      ),
    });
    yield;
  }
  drafts.sort((x, y) => position(x.draft) - position(y.draft) || x.draft.mainFindingId - y.draft.mainFindingId);
  const indexOfRoot = new Map(drafts.map((d, i) => [d.root, i]));
  const decisions: MergeDecision[] = groups.edges.map((e) => ({
    mergedIndex: indexOfRoot.get(groups.find(e.a))!,
    keptFindingId: findings[e.a]!.findingId,
    absorbedFindingId: findings[e.b]!.findingId,
    reason: e.reason,
    score: e.score,
  }));
  const seen = new Set<string>();
  const mergeConflicts: MergeConflictDraft[] = [];
  for (const c of conflicts) {
    const pair = [indexOfRoot.get(groups.find(c.a))!, indexOfRoot.get(groups.find(c.b))!].sort((x, y) => x - y) as [number, number];
    const id = `${c.kind}:${c.key}:${pair.join(',')}`;
    if (pair[0] === pair[1] || seen.has(id)) continue;
    seen.add(id);
    mergeConflicts.push({ kind: c.kind, key: c.key, mergedIndexes: pair, score: c.score });
  }
  return { merged: drafts.map((d) => d.draft), decisions, conflicts: mergeConflicts };
}

/** Where a merged finding sits in document order: its main page, then its main quote's place. */
export function position(d: MergedFindingDraft): number {
  const main = d.sources.find((s) => s.isMain);
  return (d.mainPage ?? 1e9) * 1e9 + (main?.evidenceStart ?? 0);
}

/**
 * How strongly a source speaks for its finding: grounded in its own chunk, then the detailed section's heading
 * (a line that prints the title and nothing else but its number or ID: not a table row with its cells, not a
 * contents line with its page), then text length; table rows lose.
 */
function mainScore(f: StoredFinding): number {
  const g = f.grounding;
  const grounded = g.status === 'grounded' ? (g.inContextOnly ? 500_000 : 1_000_000) : 0;
  // A table row or a contents line names the finding; its section describes it.
  const tableLike = /\||\t/.test(f.evidence) || f.evidence.split('\n').some((l) => CONTENTS_LINE_END.test(l)) || isBorderlessRow(f) ? -1000 : 0;
  // A row the rules read (printed/listedRows.ts) has no type or description of the model's: any reported sighting leads.
  const listedRow = f.type === LISTED_ENTRY_TYPE ? -2000 : 0;
  const heading = g.status === 'grounded' && isHeadingLine(f.evidence, f.title) ? 200 : 0;
  return grounded + tableLike + listedRow + heading + f.description.length + f.evidence.length;
}

/**
 * The quote is a summary-table row whose cells pdf text joins with spaces ("Deposits can be spammed  High  Open"):
 * on one line, the title, then the finding's own severity word and at most a few short cells (a status). A heading
 * prints no severity after its title; a sentence does not end its line with the title, the severity and a word.
 */
function isBorderlessRow(f: StoredFinding): boolean {
  const severity = words(f.severity ?? '');
  const own = words(f.title);
  if (severity.length === 0 || own.length === 0) return false;
  return f.evidence.split('\n').some((line) => {
    const quote = words(line);
    const after = quote.length - severity.length - own.length;
    for (let cells = 0; cells <= MAX_TRAILING_CELLS && after - cells >= 0; cells++) {
      const at = after - cells;
      if (own.every((w, i) => quote[at + i] === w) && severity.every((w, i) => quote[at + own.length + i] === w)) return true;
    }
    return false;
  });
}

/** Short cells a summary row prints after its severity (status, likelihood): "High Open", "High Resolved Fixed". */
const MAX_TRAILING_CELLS = 3;

/** The quote is the title's heading line: the title's words, after a number or an ID at most. */
function isHeadingLine(evidence: string, title: string): boolean {
  const quote = words(evidence);
  const own = words(title);
  if (own.length === 0 || quote.length < own.length || quote.length > own.length + 4) return false;
  const at = quote.length - own.length;
  return quote.slice(0, at).every((w) => /\d/.test(w) || /^[a-z]{1,5}$/.test(w)) && own.every((w, i) => quote[at + i] === w);
}

/** One merged finding from the members of its group (the main source chosen by mainScore). */
export function buildDraft(members: StoredFinding[], key: string | null, isPrinted: (title: string) => boolean): MergedFindingDraft {
  // Scored once per member, not in every comparison of the sort.
  const score = new Map(members.map((f) => [f, mainScore(f)]));
  const ranked = [...members].sort((a, b) => score.get(b)! - score.get(a)! || a.findingId - b.findingId);
  const main = ranked[0]!;
  // A main source whose model wrote a title the document prints nowhere, about something else than the title the
  // document prints for its group (a row's ID keyed a sighting the model titled otherwise), keeps its description and
  // page but takes the group's best printed title. A mere rewording ("Audit log entries deletable by support
  // operators" for "Audit log deletable by operators") stays the model's title, as before.
  const printedTitle = isPrinted(main.title) ? undefined : ranked.find((f) => isPrinted(f.title))?.title;
  const title = printedTitle && distinctTitles(contentTitle(main.title), contentTitle(printedTitle)) ? printedTitle : main.title;
  const top = [...members].sort((a, b) => a.severityRank - b.severityRank || (a === main ? -1 : b === main ? 1 : 0))[0]!;
  const { sources, unfoundSightings } = listedSources(members.map((f) => toFindingSource(f, f === main)));
  const keyForm = key ? comparableId(key) : null;
  const labels = members.map((f) => f.id).filter((id): id is string => id !== null && (keyForm === null || comparableId(id) !== keyForm));
  return {
    findingKey: key,
    printedNumber: main.printedNumber ?? mostCommon(members.map((f) => f.printedNumber)),
    // The model's labels matter only where the document prints no ID of its own.
    modelLabels: key ? [] : [...new Set(labels)],
    title,
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
    ...(unfoundSightings > 0 ? { unfoundSightings } : {}),
  };
}

function mostCommon(values: readonly (string | null)[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
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
    modelId: f.id,
  };
}

/**
 * The sources a merged finding lists, in document order: of a finding the text shows, only the sightings found in
 * it (a model that repeats a title it was given but not shown adds nothing an auditor can open); the others are
 * counted. A finding the text shows nowhere lists every sighting, so there is something to check.
 */
export function listedSources(all: FindingSource[]): { sources: FindingSource[]; unfoundSightings: number } {
  const listed = all.some((s) => s.grounded) ? all.filter((s) => s.grounded) : all;
  return { sources: sortSources(listed), unfoundSightings: all.length - listed.length };
}

/** Sources in document order. */
export function sortSources(sources: FindingSource[]): FindingSource[] {
  return sources.sort((a, b) => (a.evidenceStart ?? Infinity) - (b.evidenceStart ?? Infinity) || a.findingId - b.findingId);
}
