/**
 * Strict scoring of one document's merged findings against its truth, so that a wrong merge cannot pass:
 * - found: exactly one grounded merged finding of the document carries the truth title (or the detailed
 *   heading's title) as its title; two or more such findings are a duplicate;
 * - detail page: the truth `page` (where the detailed section is) is among that finding's pages;
 * - wrong merge: a merged finding whose sources speak of two different truth findings (a source speaks of the
 *   truth finding whose row or heading its quote is, else of the one whose title it carries, else of the one its
 *   quote names by title or printed ID, when only one);
 * - invented: a finding the model made up (its title matches no truth title) must be ungrounded, never a finding;
 * - extra: grounded findings that match no truth title (a negative control must have none).
 */
import { comparableId, normalizeForMatch } from '../../electron/engine/printed';
import type { MergedFinding } from '../../shared/findings';
import { isIdString, type TruthFindingSpec } from './truthResponder';

export interface StrictScore {
  truth: number;
  found: number;
  duplicates: number;
  /** Found findings whose detail page is among their pages. */
  detailPages: number;
  wrongMerges: number;
  /** Grounded findings matching no truth title. */
  extra: number;
  /** Merged findings that are ungrounded (listed apart, never counted as findings). */
  ungrounded: number;
  grounded: number;
  /** Found findings whose truth names a severity: each should carry the word its document prints. */
  severityScored: number;
  /** Of those, the ones whose severity is the printed word (its qualifier aside: "High Risk" is High, "Gas Optimizations" Gas). */
  severityAsPrinted: number;
  /** Found findings whose document prints an ID or number for them (the truth's `id`). */
  idScored: number;
  /** Of those, the ones that carry it: the ID string as their printed ID, a number as their printed number. */
  withPrintedId: number;
  /** Titles of truth findings not found, or found more than once, for the table. */
  problems: string[];
}

/**
 * A severity as a word to compare: lower case, without the qualifier a document prints beside it ("High Risk",
 * "Medium-severity", "Gas Optimizations", "Impact: Low"). The word itself is kept: "Undetermined" is not "Medium".
 */
export function severityWord(severity: string | null | undefined): string {
  return (severity ?? '')
    .toLowerCase()
    .replace(/\b(?:risk|severity|impact|level|optimi[sz]ations?|findings?|issues?)\b/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Whether a found finding carries the ID (or number) its document prints for it: the truth's `id`. */
export function carriesPrintedId(t: TruthFindingSpec, f: Pick<MergedFinding, 'findingKey' | 'printedNumber'>): boolean {
  if (t.id === null) return false;
  if (isIdString(t.id)) return f.findingKey !== null && comparableId(f.findingKey) === comparableId(t.id);
  return f.printedNumber === t.id || (f.findingKey !== null && comparableId(f.findingKey) === comparableId(t.id));
}

const norm = (text: string) => (normalizeForMatch(text).text.match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');

/**
 * The title as a model may prefix it with the ID ("TOB-X-3: Title") compares without that prefix. The punctuation
 * after the ID's number is not a decimal point: "Upgrade guava in hadoop-thirdparty to 31.1-jre" has no ID prefix.
 */
const stripId = (title: string) => norm(title.replace(/^\s*[A-Z][A-Z0-9]*(?:[-\s][A-Z0-9]+)*[-\s]\d+\s*[:.)-](?!\d)\s*/i, ''));
/** Whether a title is one of `titles` (normalised), as written or without an ID prefix; a title that merely opens like an ID ("Preparing for 1.3.0 development") keeps its words. */
const hasTitle = (titles: ReadonlySet<string>, title: string) => titles.has(norm(title)) || titles.has(stripId(title));

/** The grounded merged findings that carry a truth finding's title (or detailed heading's title): exactly one when it is found once. */
export function carriersOf(t: TruthFindingSpec, findings: readonly MergedFinding[]): MergedFinding[] {
  const titles = new Set([t.title, ...(t.detailTitle ? [t.detailTitle] : [])].map(norm));
  return findings.filter((f) => f.grounded && hasTitle(titles, f.title));
}

export function scoreStrict(truth: readonly TruthFindingSpec[], findings: readonly MergedFinding[]): StrictScore {
  const grounded = findings.filter((f) => f.grounded);
  const titlesOf = (t: TruthFindingSpec) => new Set([t.title, ...(t.detailTitle ? [t.detailTitle] : [])].map(norm));
  let found = 0;
  let duplicates = 0;
  let detailPages = 0;
  let severityScored = 0;
  let severityAsPrinted = 0;
  let idScored = 0;
  let withPrintedId = 0;
  const problems: string[] = [];
  for (const t of truth) {
    const carriers = carriersOf(t, grounded);
    if (carriers.length === 1) {
      found++;
      const f = carriers[0]!;
      if (f.sources.some((s) => s.page === t.page)) detailPages++;
      else problems.push(`no detail page ${t.page}: ${t.title}`);
      if (severityWord(t.severity) !== '') {
        severityScored++;
        if (severityWord(f.severity) === severityWord(t.severity)) severityAsPrinted++;
        else problems.push(`severity ${f.severity === '' ? '(none)' : `"${f.severity}"`}, printed ${t.severity}: ${t.title}`);
      }
      if (t.id !== null) {
        idScored++;
        if (carriesPrintedId(t, f)) withPrintedId++;
        else problems.push(`no printed ID ${t.id} (has ${f.findingKey ?? f.printedNumber ?? 'none'}): ${t.title}`);
      }
    } else if (carriers.length > 1) {
      duplicates++;
      problems.push(`${carriers.length}x: ${t.title}`);
    } else problems.push(`missing: ${t.title}`);
  }
  const allTitles = new Set(truth.flatMap((t) => [...titlesOf(t)]));
  // A description quoting a cross-reference ("as documented in TOB-X-4: <title>") names another finding: the source's own title says which it is.
  // A quote that is a row or heading line (it opens with a truth title) speaks of that row's finding, whatever title the model gave it.
  const about = (s: { title: string; evidence: string }) =>
    rowTruth(truth, s.evidence) ?? truth.find((t) => hasTitle(titlesOf(t), s.title)) ?? namedTruth(truth, s.evidence);
  const wrongMerges = findings.filter((f) => new Set(f.sources.map(about).filter((t) => t !== null)).size > 1);
  for (const f of wrongMerges)
    problems.push(`wrong merge: "${f.title}" holds sources of ${[...new Set(f.sources.map((s) => about(s)?.title).filter(Boolean))].join(' | ')}`);
  return {
    truth: truth.length,
    found,
    duplicates,
    detailPages,
    wrongMerges: wrongMerges.length,
    extra: grounded.filter((f) => !hasTitle(allTitles, f.title)).length,
    ungrounded: findings.length - grounded.length,
    grounded: grounded.length,
    severityScored,
    severityAsPrinted,
    idScored,
    withPrintedId,
    problems,
  };
}

/**
 * The truth finding whose row or heading line a quote is: the one whose title it opens with (after a number or ID),
 * the longest when several; else the one whose printed ID it opens with (after a section number: "3.24 ACME-24:
 * Payroll batch ... after the", a heading cut where it wraps, shorter than its title and opening a sibling's).
 */
export function rowTruth(truth: readonly TruthFindingSpec[], evidence: string): TruthFindingSpec | null {
  return rowByTitle(truth, evidence) ?? rowById(truth, evidence);
}

function rowById(truth: readonly TruthFindingSpec[], evidence: string): TruthFindingSpec | null {
  const opening = /^\s*(?:\d+(?:\.\d+)*\.?\s+)?([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+)\s*[:|.)\-\u2013\u2014]?\s*\p{L}/u.exec(evidence);
  if (!opening) return null;
  const id = comparableId(opening[1]!);
  return truth.find((t) => isIdString(t.id) && comparableId(t.id) === id) ?? null;
}

function rowByTitle(truth: readonly TruthFindingSpec[], evidence: string): TruthFindingSpec | null {
  // Past a leading number ("7 5 10") or ID ("tob mosq cr 11"): short words then numbers.
  const quote = norm(evidence).replace(/^(?:[a-z]{1,5} )*\d+(?: \d+)* /, '');
  const opening = truth
    .flatMap((t) => [t.title, ...(t.detailTitle ? [t.detailTitle] : [])].map((title) => ({ t, title: norm(title) })))
    .filter((x) => x.title.length > 0 && (quote === x.title || quote.startsWith(`${x.title} `)))
    .sort((a, b) => b.title.length - a.title.length);
  return opening[0]?.t ?? null;
}

/** The one truth finding a quote names (by its title's words in order, or its printed ID), or null when none or several. */
export function namedTruth(truth: readonly TruthFindingSpec[], evidence: string): TruthFindingSpec | null {
  const quote = ` ${norm(evidence)} `;
  const quoteIds = new Set(
    (evidence.replace(/[\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g, '').match(/\b[A-Z][A-Z0-9]+(?:-[A-Z0-9]+)*-\d+\b/g) ?? []).map(comparableId),
  );
  const named = truth.filter((t) => {
    if (isIdString(t.id) && quoteIds.has(comparableId(t.id))) return true;
    return [t.title, ...(t.detailTitle ? [t.detailTitle] : [])].some((title) => inOrder(quote, norm(title)));
  });
  return named.length === 1 ? named[0]! : null;
}

/** The title's words appear in the quote in order, with at most a few other words between them (wrapped table cells). */
function inOrder(quote: string, title: string): boolean {
  const words = title.split(' ');
  const q = quote.trim().split(' ');
  for (let i = 0; i < q.length; i++) {
    if (q[i] !== words[0]) continue;
    let j = i;
    let k = 1;
    while (k < words.length) {
      let next = j + 1;
      while (next < q.length && next - j <= 5 && q[next] !== words[k]) next++;
      if (next >= q.length || q[next] !== words[k]) break;
      j = next;
      k++;
    }
    if (k === words.length) return true;
  }
  return false;
}
