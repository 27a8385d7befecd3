/**
 * Scoring of the completeness check (issue 26) against a document's truth: how many of the places it names are
 * false (nothing in the document backs them), whether it read the totals the document prints exactly, not at all,
 * or wrong, and whether every finding the run missed is named (an entry or an ID place that stands behind it).
 *
 * A place is true when:
 * - stated-vs-found: the count the document prints for that severity (truth `pdf_stated_counts ?? stated_counts`)
 *   differs from its truth findings of that severity, or one of them was missed (a found finding rated otherwise
 *   than its document prints makes the place false);
 * - document-disagrees (a severity): the printed count differs from the truth findings of that severity;
 *   (a total against its counts): never, no corpus report contradicts its own total;
 * - severity-differs: the finding was found with another severity than its truth finding's;
 * - entry-without-finding / unreviewed-id / item-without-finding: a finding the run missed stands behind the entry,
 *   the ID or the list item (its title is the item's words);
 * - finding-without-entry: the finding is in no truth file (an invented one: no list can hold it);
 * - failed-chunk, pages-without-text: always (the run or the file says so).
 */
import { comparableId, contentWords } from '../../electron/engine/printed';
import { tallyKeys } from '../../electron/engine/completeness';
import type { CheckPlace, CompletenessVerdict, ListedEntry } from '../../shared/completeness';
import { DEFAULT_PROFILE, LISTED_ENTRY_TYPE, rankSeverity, type ExtractionProfile, type MergedFinding } from '../../shared/findings';
import { carriersOf } from './strictScore';
import { isIdString, type TruthDocument, type TruthFindingSpec } from './truthResponder';

export type TotalsRead = 'exact' | 'none' | 'wrong';

export interface CompletenessScore {
  status: CompletenessVerdict['status'];
  places: number;
  falsePlaces: number;
  /** Totals the document prints (truth): read exactly, not read, or read wrong. A document that prints none: 'none' unless something was read ('wrong'). */
  totals: TotalsRead;
  /** The document prints totals (per the truth file). */
  printsTotals: boolean;
  /** Truth findings the run did not find. */
  missed: number;
  /** Of those, named by a place that stands behind them (an entry or ID without a finding), with its page. */
  missedNamed: number;
  /** Up to a few false places and unnamed missed findings, for the table. */
  problems: string[];
}

/**
 * Counts per tally, as the check counts them (completeness/verdict.ts tallyKeys): a word the document counts on its own
 * ("Undetermined 3" beside "Medium 3", "Gas 6" beside "Informational 0") apart, every other label under its scale word.
 */
function tallyCounts(counts: Record<string, number>, profile: ExtractionProfile): Map<string, number> {
  const keyOf = truthKeys(counts, profile);
  const out = new Map<string, number>();
  for (const [label, n] of Object.entries(counts)) {
    const key = keyOf(label);
    if (key !== null) out.set(key, (out.get(key) ?? 0) + n);
  }
  return out;
}

/** The tally a severity word of this document is counted under, from the labels the document prints counts for. */
function truthKeys(counts: Record<string, number>, profile: ExtractionProfile): (word: string) => string | null {
  const keyOf = tallyKeys(
    profile,
    Object.keys(counts).map((label) => ({ label, severity: rankSeverity(profile, label).canonical })),
  );
  return (word) => keyOf(word, rankSeverity(profile, word).canonical);
}

export function printedCounts(truth: TruthDocument): Record<string, number> {
  return truth.pdfStatedCounts ?? truth.statedCounts ?? {};
}

export function totalsRead(truth: TruthDocument, verdict: CompletenessVerdict, profile: ExtractionProfile = DEFAULT_PROFILE): TotalsRead {
  const expected = tallyCounts(printedCounts(truth), profile);
  const perSeverity = verdict.stated.filter((c) => c.severity !== null);
  const total = verdict.stated.find((c) => c.severity === null) ?? null;
  if (perSeverity.length === 0 && total === null) return 'none';
  if (expected.size === 0) return 'wrong';
  const readKey = tallyKeys(profile, verdict.stated);
  const read = new Map<string, number>();
  for (const c of perSeverity) {
    const key = readKey(c.label, c.severity)!;
    read.set(key, (read.get(key) ?? 0) + c.count);
  }
  for (const severity of new Set([...expected.keys(), ...read.keys()])) {
    // A severity printed as 0 and not read is no wrong number; any other difference is.
    if ((read.get(severity) ?? 0) !== (expected.get(severity) ?? 0) && perSeverity.length > 0) return 'wrong';
  }
  const sum = [...expected.values()].reduce((a, b) => a + b, 0);
  if (total !== null && total.count !== sum) return 'wrong';
  return 'exact';
}

const squash = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
const words = (text: string) => contentWords(text.replace(/(\p{Ll})-\s+(\p{Ll})/gu, '$1$2'));

/** A listed entry stands for a truth finding: the same ID, the same printed number, or most of its title's words. */
export function entryIsOf(entry: Pick<ListedEntry, 'id' | 'number' | 'text'>, t: TruthFindingSpec): boolean {
  if (entry.id && isIdString(t.id) && comparableId(entry.id) === comparableId(t.id)) return true;
  if (t.id !== null && !isIdString(t.id) && entry.number === t.id) return true;
  const text = words(entry.text);
  const squashed = squash(entry.text);
  return [t.title, ...(t.detailTitle ? [t.detailTitle] : [])].some((title) => {
    const w = [...words(title)];
    return squashed.includes(squash(title)) || (w.length > 0 && w.filter((x) => text.has(x)).length / w.length >= 0.7);
  });
}

const ENTRY_NUMBER = /^(?:Summary table row|Contents entry) (\S+) on page (\d+)/;
const MENTIONED_ID = /^ID (\S+) is mentioned/;
const QUOTED_TITLE = /^Finding "(.*?)" (?:\(|was found)/;
const LIST_ITEM = /^List item on page \d+, "(.*)", matches no finding/;

export function scoreCompleteness(
  truth: TruthDocument,
  findings: readonly MergedFinding[],
  verdict: CompletenessVerdict,
  profile: ExtractionProfile = DEFAULT_PROFILE,
): CompletenessScore {
  const printed = tallyCounts(printedCounts(truth), profile);
  const keyOf = truthKeys(printedCounts(truth), profile);
  const truthBySeverity = new Map<string, number>();
  for (const t of truth.findings) {
    const c = keyOf(t.severity);
    if (c !== null) truthBySeverity.set(c, (truthBySeverity.get(c) ?? 0) + 1);
  }
  // Missed: no finding the analysis reported carries it (one known from its listed row alone is still missed: the
  // model reported nothing for its detailed section, printed/listedRows.ts).
  const analysed = findings.filter((f) => f.type !== LISTED_ENTRY_TYPE);
  const missed = truth.findings.filter((t) => carriersOf(t, analysed).length === 0);
  const entryOf = (place: CheckPlace) => {
    const m = ENTRY_NUMBER.exec(place.message);
    return m ? (verdict.listed.find((e) => e.number === m[1] && e.page === Number(m[2]) && e.findingIds.length === 0) ?? null) : null;
  };
  const missedBehind = (place: CheckPlace): TruthFindingSpec[] => {
    if (place.kind === 'entry-without-finding') {
      const entry = entryOf(place);
      return entry ? missed.filter((t) => entryIsOf(entry, t)) : [];
    }
    if (place.kind === 'item-without-finding') {
      const item = LIST_ITEM.exec(place.message)?.[1];
      return item ? missed.filter((t) => [...words(t.title)].every((w) => words(item).has(w))) : [];
    }
    if (place.kind === 'unreviewed-id') {
      const id = MENTIONED_ID.exec(place.message)?.[1];
      return id ? missed.filter((t) => isIdString(t.id) && comparableId(t.id) === comparableId(id)) : [];
    }
    return [];
  };
  const isTrue = (place: CheckPlace): boolean => {
    switch (place.kind) {
      case 'stated-vs-found': {
        // True when the run really lacks a finding of that severity (one was missed), or the document states a count
        // its own findings do not have. Found findings given another severity than the one printed make it false:
        // the place is then the run's mistake, not the document's gap.
        if (printed.size === 0) return false;
        if (!place.severity) return [...printed.values()].reduce((a, b) => a + b, 0) !== truth.findings.length || missed.length > 0;
        const missedOfSeverity = missed.some((t) => keyOf(t.severity) === place.severity);
        return missedOfSeverity || (printed.get(place.severity) ?? 0) !== (truthBySeverity.get(place.severity) ?? 0);
      }
      case 'document-disagrees':
        return place.severity ? (printed.get(place.severity) ?? 0) !== (truthBySeverity.get(place.severity) ?? 0) : false;
      case 'severity-differs': {
        const title = QUOTED_TITLE.exec(place.message)?.[1];
        const f = findings.find((x) => x.title === title);
        const t = truth.findings.find((x) => f && carriersOf(x, [f]).length > 0);
        return !!f && !!t && rankSeverity(profile, t.severity).canonical !== f.severityCanonical;
      }
      case 'entry-without-finding':
      case 'item-without-finding':
      case 'unreviewed-id':
        return missedBehind(place).length > 0;
      case 'finding-without-entry': {
        const title = QUOTED_TITLE.exec(place.message)?.[1];
        const f = findings.find((x) => x.title === title);
        return !f || !truth.findings.some((t) => carriersOf(t, [f]).length > 0);
      }
      default:
        return true;
    }
  };
  const problems: string[] = [];
  let falsePlaces = 0;
  for (const p of verdict.places) {
    if (isTrue(p)) continue;
    falsePlaces++;
    problems.push(`false place: ${p.message}`);
  }
  const named = new Set(verdict.places.flatMap((p) => (p.page === null ? [] : missedBehind(p))));
  for (const t of missed) if (!named.has(t)) problems.push(`missed, not named: ${t.title}`);
  return {
    status: verdict.status,
    places: verdict.places.length,
    falsePlaces,
    totals: totalsRead(truth, verdict, profile),
    printsTotals: printed.size > 0,
    missed: missed.length,
    missedNamed: missed.filter((t) => named.has(t)).length,
    problems,
  };
}

/** Share of reports with 0 false places a faithful run must reach. */
export const CLEAN_REPORT_SHARE = 0.9;

/**
 * The completeness gate over the corpus rows that have a score. On a faithful run: 0 false places on at least 90% of
 * the reports and never a wrong total. With a model that skips findings: every missed finding named, never a wrong total.
 */
export function completenessGate(rows: readonly { name: string; completeness: CompletenessScore | null }[], skipping: boolean): string[] {
  const scored = rows.filter((r): r is { name: string; completeness: CompletenessScore } => r.completeness !== null);
  const failures: string[] = [];
  for (const r of scored) if (r.completeness.totals === 'wrong') failures.push(`${r.name}: stated totals read wrong`);
  if (skipping) {
    for (const r of scored) {
      const c = r.completeness;
      if (c.missedNamed < c.missed) failures.push(`${r.name}: ${c.missed - c.missedNamed} of ${c.missed} missed findings not named`);
    }
  } else {
    const clean = scored.filter((r) => r.completeness.falsePlaces === 0).length;
    if (scored.length > 0 && clean < CLEAN_REPORT_SHARE * scored.length) {
      failures.push(
        `0 false places on ${clean} of ${scored.length} reports (at least ${Math.ceil(CLEAN_REPORT_SHARE * scored.length)} needed): ${scored
          .filter((r) => r.completeness.falsePlaces > 0)
          .map((r) => `${r.name} ${r.completeness.falsePlaces}`)
          .join(', ')}`,
      );
    }
  }
  return failures;
}
