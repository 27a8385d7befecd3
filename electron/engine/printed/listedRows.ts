/**
 * Rows of the document's own lists of findings (its summary table, the findings part of its contents), read by the
 * rules instead of the model (issue 25: each finding written close to once).
 *
 * A report prints most findings three times: a summary-table row, a contents line and the detailed section. A model
 * asked for every occurrence writes a full reply entry for each (about 100 output tokens at 40 tokens/s), though the
 * rules already parse those rows (printed/listedEntries.ts: number, ID, title, severity, place). So the rows are
 * hidden from the model (one placeholder line stands for a list in the prompt) and each row becomes a finding of its
 * unit here, grounded exactly on the row: the model writes each finding once, from its detailed section, and the
 * merge joins it to its row by the printed ID, number or title. A row's finding carries the row's own printed title
 * and number, never a model's, so siblings with near-identical titles keep their own rows.
 *
 * A finding known only from its row (the model reported nothing for its detailed section) keeps the type
 * LISTED_ENTRY_TYPE; the completeness check names such rows, so a skipped section is never taken as analysed.
 */
import { PAGE_SEPARATOR } from '../../../shared/canonical';
import type { ListedEntry, ListingKind } from '../../../shared/completeness';
import { LISTED_ENTRY_TYPE, REGISTER_ENTRY_TYPE, rankSeverity, type ExtractionProfile, type GroundedFinding } from '../../../shared/findings';
import type { ExtractedDocument } from '../../../shared/types';

/** One list of findings the document prints, as the completeness check's findListings reads it. */
export interface ListedRows {
  kind: ListingKind;
  entries: readonly ListedEntry[];
}

/** Text shown to the model as one placeholder line: [start, end) of the canonical text. */
export interface HiddenSpan {
  start: number;
  end: number;
  label: string;
}

/** Longest row quote kept as evidence (a row that wrapped over several lines keeps its first part). */
const MAX_ROW_EVIDENCE = 300;

/** Lines one entry of a list may take on average: a wrapped title and its cells, never a described finding. */
const MAX_LINES_PER_ENTRY = 3;

/**
 * The lists the rules read in place of the model: those whose entries are rows (a few lines each). Numbered
 * detailed sections with short bodies ("2.1 Title / Severity: High / one sentence", "2.2 ...") also parse as a list
 * for the completeness check, but they are the findings' own text: the model must see them, so they are left out.
 */
export function listsToRead(text: string, listings: readonly ListedRows[]): ListedRows[] {
  return listings.filter((l) => {
    if (l.entries.length < 2) return false;
    // Lines from one entry's start to the next, on average (the last entry's own lines are not known to end it).
    const span = text.slice(l.entries[0]!.start, l.entries.at(-1)!.start);
    const lines = span.split('\n').filter((line) => line.trim() !== '').length;
    return lines <= MAX_LINES_PER_ENTRY * (l.entries.length - 1);
  });
}

/** What a placeholder line calls each kind of list. */
const PLACEHOLDER_NAMES: Record<ListingKind, string> = {
  'summary-table': 'summary table of findings',
  contents: 'contents list of findings',
  register: 'register of issues',
};

/** The spans the model is not shown: each list from its first entry to its last, group lines between included. */
export function hiddenSpansOf(listings: readonly ListedRows[]): HiddenSpan[] {
  return listings
    .filter((l) => l.entries.length > 0)
    .map((l) => {
      const first = l.entries[0]!;
      const last = l.entries.at(-1)!;
      const what = PLACEHOLDER_NAMES[l.kind];
      // A count, not the first and last entries: a register's entries are issue IDs, and a model that reports every
      // ID it sees would report the two printed here as findings, with no text to ground them.
      const count = l.entries.length === 1 ? '1 entry' : `${l.entries.length} entries`;
      return { start: first.start, end: last.end, label: `[${what}, ${count}: read without you, not shown]` };
    })
    .sort((a, b) => a.start - b.start);
}

/**
 * [start, end) of the text with every hidden span inside it replaced by its placeholder line. Page separators inside
 * a span are kept, so the page markers rendered from the result stay right.
 */
export function withHiddenSpans(text: string, start: number, end: number, hidden: readonly HiddenSpan[]): string {
  let out = '';
  let at = start;
  for (const h of hidden) {
    const s = Math.max(h.start, at);
    const e = Math.min(h.end, end);
    if (s >= e) continue;
    out += text.slice(at, s);
    const pageBreaks = text.slice(s, e).split(PAGE_SEPARATOR).length - 1;
    out += h.label + PAGE_SEPARATOR.repeat(pageBreaks);
    at = e;
  }
  return out + text.slice(at, end);
}

/** Whether [start, end) holds text the model is shown (anything but whitespace outside the hidden spans). */
export function hasVisibleText(text: string, start: number, end: number, hidden: readonly HiddenSpan[]): boolean {
  let at = start;
  for (const h of hidden) {
    if (h.end <= at || h.start >= end) continue;
    if (/\S/.test(text.slice(at, Math.max(at, h.start)))) return true;
    at = Math.max(at, h.end);
  }
  return at < end && /\S/.test(text.slice(at, end));
}

/** Whether an offset lies in a hidden span. */
export function isHidden(at: number, hidden: readonly HiddenSpan[]): boolean {
  return hidden.some((h) => at >= h.start && at < h.end);
}

/** The listed rows that start inside [start, end), in document order. */
export function rowsWithin(listings: readonly ListedRows[], start: number, end: number): ListedEntry[] {
  return listings.flatMap((l) => l.entries.filter((e) => e.start >= start && e.start < end)).sort((a, b) => a.start - b.start);
}

/** One listed row as a finding of its unit: the row's own words, grounded exactly where it is printed. */
export function rowFinding(doc: Pick<ExtractedDocument, 'text'>, profile: ExtractionProfile, entry: ListedEntry): GroundedFinding {
  const severity = rankSeverity(profile, entry.severity ?? '');
  const end = Math.min(entry.end, entry.start + MAX_ROW_EVIDENCE);
  return {
    id: entry.id,
    // A register's row is the finding itself; a summary row or contents line stands for a section the model reads.
    type: entry.kind === 'register' ? REGISTER_ENTRY_TYPE : LISTED_ENTRY_TYPE,
    title: entry.title,
    severity: severity.original,
    description: '',
    evidence: doc.text.slice(entry.start, end),
    page: entry.page,
    findingKey: entry.id,
    // A plain or section number ("7", "5.1.6") backs the merge with the detailed heading; an ID-led row's number is its ID.
    printedNumber: /^\d+(?:\.\d+)*$/.test(entry.number) ? entry.number : null,
    severityCanonical: severity.canonical,
    severityRank: severity.rank,
    grounding: { status: 'grounded', match: 'exact', score: 1, start: entry.start, end, page: entry.page, inContextOnly: false },
  };
}

/** Entries named in the recorded list at most (its tokens are taken from the unit budget, see documentPipeline). */
const MAX_RECORDED = 60;
/** Characters of a title the recorded list keeps: enough to tell siblings apart. */
const RECORDED_TITLE_CHARS = 90;

/**
 * The findings the document's own lists name, numbered for the extraction prompt ("[3] LID-05 DKG Susceptible to
 * Rogue Key Attack"). The model refers to one by its number when its detailed section is in the text it reads, and
 * writes no entry for it (recordedDetails.ts reads the section); it never reports one again from a line that only
 * names it (a recommendation, an appendix table, a cross-reference). `entries[n - 1]` is line [n].
 */
export interface RecordedList {
  text: string;
  entries: ListedEntry[];
}

/**
 * The recorded list cut to its first entries whose block fits `maxTokens` (`tokensOf` measures a block): line [n]
 * stays entry n. Empty when not even one entry fits.
 */
export function recordedWithin(list: RecordedList, maxTokens: number, tokensOf: (text: string) => number): RecordedList {
  const lines = list.text === '' ? [] : list.text.split('\n');
  let keep = lines.length;
  while (keep > 0 && tokensOf(lines.slice(0, keep).join('\n')) > maxTokens) keep = Math.floor(keep * 0.8);
  return keep === lines.length ? list : { text: lines.slice(0, keep).join('\n'), entries: list.entries.slice(0, keep) };
}

export function recordedList(listings: readonly ListedRows[]): RecordedList {
  const seen = new Set<string>();
  const lines: string[] = [];
  const entries: ListedEntry[] = [];
  // Summary-table rows first: they carry the ID and the severity's title wording.
  // A register's rows have no detailed section to report them from: they are not named.
  const ordered = listings.filter((l) => l.kind !== 'register').sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'summary-table' ? -1 : 1));
  for (const entry of ordered.flatMap((l) => l.entries)) {
    const title = entry.title.length > RECORDED_TITLE_CHARS ? `${entry.title.slice(0, RECORDED_TITLE_CHARS)}...` : entry.title;
    const key = title
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    entries.push(entry);
    lines.push(`[${entries.length}] ${entry.id ?? entry.number} ${title}`);
    if (lines.length >= MAX_RECORDED) break;
  }
  return { text: lines.join('\n'), entries };
}
