/**
 * Lists of findings a document prints about itself: a summary table (one row
 * per finding, usually with its severity) or the findings part of a table of
 * contents. Both look alike in extracted text:
 *
 *   Summary of Findings                      Detailed Findings 17
 *   ID Title Type Severity                   1. Insufficient default number of PBKDF2 iterations 17
 *   1 Insufficient default number ... High   2. Improper implementation of ... 19
 *   2 Improper implementation of ... Medium
 *   comparison                               (a wrapped row continues on the next line)
 *
 * So a listing is found from a heading that names findings (optionally with
 * a contents page number), followed within a few lines by entry 1, then
 * entries numbered 2, 3, ... each no more than a few lines after the last.
 * The numbering is the strong signal: detailed sections "1. Title" are
 * pages apart and never form a listing. Numbers may be section numbers
 * ("4.1", "4.2"): the last part counts up.
 */
import { rankSeverity, type ExtractionProfile, type MergedFinding } from '../../../shared/findings';
import type { ListedEntry, ListingKind } from '../../../shared/completeness';
import type { IdPattern } from '../../../shared/idPatterns';
import type { IdMention } from '../../../shared/types';
import { contentWords } from '../merge';
import { findIdMentions } from '../rules';
import { placeOf, wordsSource, oneLine, type TextLine } from './textLines';
import { severityLabels } from './statedTotals';

const FINDINGS_HEADING =
  /^\s*(?:[A-Z]?\d+(?:\.\d+)*\.?\s+)?(?:summary\s+of\s+(?:the\s+)?(?:findings|issues|vulnerabilities|results)|(?:findings?|issues?|vulnerabilit(?:y|ies))\s+(?:summary|overview|list|table)|list\s+of\s+(?:findings|issues|vulnerabilities)|detailed\s+(?:findings|issues)|findings(?:\s+and\s+recommendations)?|issues\s+found|vulnerabilities)\s*[.\s]*(\d{1,4})?\s*$/i;
/** Lines between the heading and entry 1 (an intro sentence, a column header). */
const FIRST_ENTRY_WITHIN = 6;
/** Lines one entry may wrap onto (a long title in a narrow column). */
const MAX_ENTRY_LINES = 5;
/** The number may sit in a cell of its own: a table row read as a table ("7 | Title | High", see pdf/lineBuilder.ts). */
const ENTRY_START = /^\s*(?:#\s*)?((?:\d{1,3}\.)*)(\d{1,3})(?:[.)](?!\d))?\s+(?:\|\s+)?(\S.*)$/;
/** Between the cells of such a row. */
const CELL_SEPARATOR = /\s+\|(?:\s+|$)/g;
/** A contents entry's page reference: "... 17", ". . . 17", "key48". */
const TRAILING_PAGE = /[\s.·…]*\d{1,4}\s*$/;

export interface Listing {
  kind: ListingKind;
  entries: ListedEntry[];
}

interface EntryLines {
  prefix: string;
  number: number;
  from: number;
  to: number;
}

/** Every listing of findings in the document, in order. `text` is the canonical text the lines come from. */
export function findListings(lines: readonly TextLine[], text: string, profile: ExtractionProfile, idPatterns: readonly IdPattern[]): Listing[] {
  const listings: Listing[] = [];
  const usedStarts = new Set<number>();
  const severityWord = new RegExp(`\\b${wordsSource(severityLabels(profile))}\\b`, 'gi');
  for (const heading of lines) {
    if (heading.running || !FINDINGS_HEADING.test(heading.text)) continue;
    const rows = entriesAfter(lines, heading.index);
    if (rows.length < 2 || usedStarts.has(rows[0]!.from)) continue;
    usedStarts.add(rows[0]!.from);
    // IDs printed in the listing, found in one pass over its span.
    const from = lines[rows[0]!.from]!.start;
    const span = text.slice(from, lines[rows.at(-1)!.to]!.end);
    const mentions = findIdMentions(span, [{ pageNumber: 1, start: 0, end: span.length, hasTextLayer: true }], idPatterns).map((m) => ({ ...m, start: m.start + from }));
    const entries = rows.map((row) => toEntry(lines, row, severityWord, profile, mentions));
    // Rows that carry a severity are a summary table; a plain list of titles is a contents list.
    const withSeverity = entries.filter((e) => e.severity !== null).length;
    const kind: ListingKind = withSeverity * 2 >= entries.length ? 'summary-table' : 'contents';
    // A contents line has no severity column: a severity word in it is part of its title ("High gas usage in loop").
    const asContents = (e: (typeof entries)[number]) => ({ ...e, title: e.text.replace(ENTRY_START, '$3').replace(TRAILING_PAGE, ''), severity: null, severityCanonical: null });
    listings.push({ kind, entries: entries.map((e) => ({ ...(kind === 'contents' ? asContents(e) : e), kind })) });
  }
  return listings;
}

function entriesAfter(lines: readonly TextLine[], headingIndex: number): EntryLines[] {
  const rows: EntryLines[] = [];
  let seen = 0;
  let i = headingIndex + 1;
  let columnHeader: string | null = null;
  // Entry 1 within a few lines of the heading.
  for (; i < lines.length && seen < FIRST_ENTRY_WITHIN; i++) {
    const line = lines[i]!;
    if (line.running || line.text.trim() === '') continue;
    const start = entryStart(line.text);
    if (start && start.number === 1) {
      rows.push({ prefix: start.prefix, number: 1, from: i, to: i });
      break;
    }
    columnHeader = line.text.trim();
    seen++;
  }
  if (rows.length === 0) return [];
  let pending: number[] = [];
  for (i = i + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.running || line.text.trim() === '' || line.text.trim() === columnHeader) continue;
    const last = rows.at(-1)!;
    const start = entryStart(line.text);
    if (start && start.prefix === last.prefix && start.number === last.number + 1) {
      if (pending.length > 0) last.to = pending.at(-1)!;
      pending = [];
      rows.push({ prefix: start.prefix, number: start.number, from: i, to: i });
      continue;
    }
    pending.push(i);
    if (pending.length >= MAX_ENTRY_LINES) break;
  }
  // After the last entry only a wrapped title continues (it starts in lower case); headings that follow do not.
  const last = rows.at(-1)!;
  for (const p of pending) {
    if (!/^\s*[a-z_(]/.test(lines[p]!.text) || p !== last.to + 1 + countSkipped(lines, last.to, p)) break;
    last.to = p;
  }
  return rows;
}

/** Skipped (running or blank) lines between two line indexes. */
function countSkipped(lines: readonly TextLine[], from: number, to: number): number {
  let n = 0;
  for (let i = from + 1; i < to; i++) if (lines[i]!.running || lines[i]!.text.trim() === '') n++;
  return n;
}

function entryStart(text: string): { prefix: string; number: number } | null {
  const m = ENTRY_START.exec(text);
  if (!m) return null;
  return { prefix: m[1]!, number: Number.parseInt(m[2]!, 10) };
}

function toEntry(lines: readonly TextLine[], row: EntryLines, severityWord: RegExp, profile: ExtractionProfile, mentions: readonly IdMention[]): Omit<ListedEntry, 'kind'> {
  const ownLines = lines.slice(row.from, row.to + 1).filter((l) => !l.running);
  const place = placeOf(lines, row.from, row.to);
  const text = oneLine(ownLines.map((l) => l.text).join(' '));
  const body = text.replace(ENTRY_START, '$3');
  const severities = [...body.matchAll(severityWord)];
  // The severity column comes after the title: the last severity word of the row.
  const severity = severities.at(-1)?.[0] ?? null;
  const firstLine = oneLine(ownLines[0]!.text).replace(ENTRY_START, '$3');
  const onFirstLine = [...firstLine.matchAll(severityWord)].at(-1);
  // Columns right of the severity on the row's first line (status, likelihood) are not the title; wrapped title lines are.
  const title = withoutCellSeparators(
    onFirstLine
      ? oneLine(`${firstLine.slice(0, onFirstLine.index)} ${ownLines.slice(1).map((l) => l.text).join(' ')}`)
      : severity
        ? oneLine(body.slice(0, severities.at(-1)!.index) + ' ' + body.slice(severities.at(-1)!.index + severity.length))
        : body,
  );
  const mention = mentions.find((m) => m.start >= place.start && m.start < place.end);
  return {
    start: place.start,
    end: place.end,
    page: place.page,
    text,
    number: `${row.prefix}${row.number}`,
    id: mention?.normalized ?? null,
    title,
    severity,
    severityCanonical: severity ? rankSeverity(profile, severity).canonical : null,
    findingIds: [],
  };
}

/** "Title | " -> "Title": the separators of a table row are not part of its title. */
function withoutCellSeparators(title: string): string {
  return oneLine(title.replace(CELL_SEPARATOR, ' '));
}

/** Share of a finding title's content words an entry must contain (or of the entry's in the title). */
export const ENTRY_MATCH_THRESHOLD = 0.7;
const NUMBER_BONUS = 0.25;

/**
 * Each merged finding goes to the entry of each listing that matches it best:
 * same ID, else the most title words in common (an entry's text also holds
 * the type, severity and status columns, so the finding's title words are
 * looked up in it, and the other way round for shortened titles).
 */
export function matchEntries(listings: readonly Listing[], findings: readonly MergedFinding[]): Listing[] {
  return listings.map((listing) => {
    const entries = listing.entries.map((e) => ({ ...e, findingIds: [] as number[] }));
    const entryWords = entries.map((e) => contentWords(e.title));
    for (const finding of findings) {
      const titles = [finding.title, ...finding.sources.map((s) => s.title)].map((t) => contentWords(t));
      let best = -1;
      let bestScore = 0;
      entries.forEach((entry, i) => {
        const byTitle = Math.max(...titles.map((t) => overlap(t, entryWords[i]!)));
        // The number the document prints before the finding's title backs a title match; alone it proves nothing
        // (a contents list and the detailed sections may number differently).
        const sameNumber = finding.printedNumber !== null && finding.printedNumber === entry.number && byTitle > 0 ? NUMBER_BONUS : 0;
        const score = entry.id !== null && entry.id === finding.findingKey ? 1 : Math.min(1, byTitle + sameNumber);
        if (score > bestScore) {
          best = i;
          bestScore = score;
        }
      });
      if (best >= 0 && bestScore >= ENTRY_MATCH_THRESHOLD) entries[best]!.findingIds.push(finding.id);
    }
    return { ...listing, entries };
  });
}

function overlap(title: ReadonlySet<string>, entry: ReadonlySet<string>): number {
  if (title.size === 0 || entry.size === 0) return 0;
  let shared = 0;
  for (const w of title) if (entry.has(w)) shared++;
  // One shared word is chance, unless the title is one word.
  if (shared < Math.min(2, title.size)) return 0;
  return Math.max(shared / title.size, shared / entry.size);
}
