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
import { rankSeverity, type ExtractionProfile } from '../../../shared/findings';
import type { ListedEntry, ListingKind } from '../../../shared/completeness';
import type { IdPattern } from '../../../shared/idPatterns';
import type { IdMention } from '../../../shared/types';
import { findIdMentions } from '../rules';
import { countSkipped, joinWrapped, placeOf, wordsSource, oneLine, type TextLine } from './textLines';
import { severityLabels } from './statedTotals';
import { findRegisters } from './registers';
import { isReferenceId } from './idFamily';

/** A heading that names the findings listed under it; a fix review or retest sums its results up the same way ("Summary of Fix Review Results"). */
const FINDINGS_HEADING =
  /^\s*(?:[A-Z]?\d+(?:\.\d+)*\.?\s+)?(?:summary\s+of\s+(?:the\s+)?(?:(?:fix\s+review|retest|remediation)\s+)?(?:findings|issues|vulnerabilities|results)|(?:findings?|issues?|vulnerabilit(?:y|ies))\s+(?:summary|overview|list|table)|list\s+of\s+(?:findings|issues|vulnerabilities)|detailed\s+(?:findings|issues)|findings(?:\s+and\s+recommendations)?|issues\s+found|vulnerabilities)\s*[.\s]*(\d{1,4})?\s*$/i;
/** Lines between the heading and entry 1 (an intro sentence, a column header). */
const FIRST_ENTRY_WITHIN = 6;
/** Lines one entry may wrap onto (a long title in a narrow column). */
const MAX_ENTRY_LINES = 5;
/**
 * The start of an entry: a number ("7", "7.", "5.1.6", "# 3") or a finding ID
 * ("LID-01", "TOB-X-12"), then the rest of the row; table cells may be
 * separated by " | " (a leading "|" too).
 */
const NUMBERED_START = /^\s*\|?\s*(?:#\s*)?((?:\d{1,3}\.)*)(\d{1,3})(?:[.)](?!\d))?\s*\|?\s+(\S.*)$/;
const ID_START = /^\s*\|?\s*([A-Z][A-Z0-9]{0,9}(?:-[A-Z][A-Z0-9]{0,9})*-)(\d{1,4})\b[:.]?\s*\|?\s+(\S.*)$/;
/** Between the cells of a row read as a table ("7 | Title | High", see pdf/lineBuilder.ts). */
const CELL_SEPARATOR = /\s+\|(?:\s+|$)/g;
/** A contents entry's page reference: "... 17", ". . . 17", "key48". */
const TRAILING_PAGE = /[\s.·…]*\d{1,4}\s*$/;
/** Dot leaders inside a wrapped contents entry, with the page number after them. */
const LEADERS = /(?:\s*[.·…]){3,}\s*\d{0,4}/g;

export interface Listing {
  kind: ListingKind;
  entries: ListedEntry[];
}

interface EntryLines {
  /** What comes before the counting number: "" , "5.1." or "LID-". */
  prefix: string;
  number: number;
  /** The number or ID as printed ("5.1.6", "LID-01"). */
  printed: string;
  from: number;
  to: number;
}

/** Every listing of findings in the document (registers included, registers.ts), in order. `text` is the canonical text the lines come from. */
export function findListings(lines: readonly TextLine[], text: string, profile: ExtractionProfile, idPatterns: readonly IdPattern[]): Listing[] {
  const listings: Listing[] = [];
  const usedStarts = new Set<number>();
  const labels = wordsSource(severityLabels(profile));
  const severityWord = new RegExp(`\\b${labels}\\b`, 'gi');
  // A grouping line of a contents list ("7.2 Medium Risk", "5.3 Informational") that no finding stands under.
  const categoryOnly = new RegExp(`^(?:${labels})(?:[\\s-]*(?:severity|risk|optimi[sz]ations?|findings?|issues?))*$`, 'i');
  for (const heading of lines) {
    if (heading.running || !FINDINGS_HEADING.test(heading.text)) continue;
    const rows = entriesAfter(lines, heading.index, (text) => categoryOnly.test(contentsTitle(text)));
    if (rows.length < 2 || usedStarts.has(rows[0]!.from)) continue;
    usedStarts.add(rows[0]!.from);
    // IDs printed in the listing, found in one pass over its span.
    const from = lines[rows[0]!.from]!.start;
    const span = text.slice(from, lines[rows.at(-1)!.to]!.end);
    const mentions = findIdMentions(span, [{ pageNumber: 1, start: 0, end: span.length, hasTextLayer: true }], idPatterns).map((m) => ({
      ...m,
      start: m.start + from,
    }));
    const entries = rows.map((row) => toEntry(lines, row, severityWord, profile, mentions)).filter((e) => !categoryOnly.test(contentsTitle(e.text)));
    if (entries.length < 2) continue;
    // Rows that carry a severity are a summary table; a plain list of titles is a contents list.
    const withSeverity = entries.filter((e) => e.severity !== null).length;
    const kind: ListingKind = withSeverity * 2 >= entries.length ? 'summary-table' : 'contents';
    // A contents line has no severity column: a severity word in it is part of its title ("High gas usage in loop").
    const asContents = (e: (typeof entries)[number]) => ({ ...e, title: contentsTitle(e.text), severity: null, severityCanonical: null });
    listings.push({ kind, entries: entries.map((e) => ({ ...(kind === 'contents' ? asContents(e) : e), kind })) });
  }
  // Registers (a release note's issue table, a list of change requests) where no listing of findings already is.
  const taken = listings.map((l) => ({ start: l.entries[0]!.start, end: l.entries.at(-1)!.end }));
  for (const entries of findRegisters(lines, text, profile, idPatterns, taken)) listings.push({ kind: 'register', entries });
  return listings.sort((a, b) => a.entries[0]!.start - b.entries[0]!.start);
}

/** A contents line's title: without its number, leaders and page number. */
function contentsTitle(text: string): string {
  return oneLine(
    entryBody(text)
      .replace(LEADERS, ' ')
      .replace(TRAILING_PAGE, '')
      .replace(/\s\|\s/g, ' '),
  );
}

/**
 * The entries after a heading: entry 1 within a few lines, then each next
 * entry within a few lines of the last. Numbers may nest (5.1, 5.1.1, 5.1.2,
 * 5.2, 5.2.1): an entry with entries under it is a group ("High Risk"), and
 * only the innermost entries are kept.
 */
function entriesAfter(lines: readonly TextLine[], headingIndex: number, isGroupLine: (text: string) => boolean): EntryLines[] {
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
      rows.push({ ...start, from: i, to: i });
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
    if (start && followsOn(rows, start) && !childOfLeafLevel(rows, start, (row) => isGroupLine(lines[row.from]!.text))) {
      if (pending.length > 0) last.to = pending.at(-1)!;
      pending = [];
      rows.push({ ...start, from: i, to: i });
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
  return rows.filter((r) => !rows.some((c) => c.prefix.startsWith(`${r.prefix}${r.number}.`)));
}

/**
 * The next entry of a list: the last one's next sibling (5.1.1 then 5.1.2), its first child (5.1 then 5.1.1), or
 * the first entry of the next group at any level below the chapter's (5.1.2 then 5.2, or 5.2.1 when the group's own
 * line "5.2 Medium Risk" is missing or unreadable, as in a scan). ID-led rows (LID-01, LID-02) count up under one prefix.
 */
function followsOn(rows: readonly EntryLines[], next: Omit<EntryLines, 'from' | 'to'>): boolean {
  const last = rows.at(-1)!;
  if (next.prefix === last.prefix) return next.number === last.number + 1;
  const numbered = /^(?:\d+\.)*$/;
  if (!numbered.test(last.prefix) || !numbered.test(next.prefix)) return false;
  const path = (e: Pick<EntryLines, 'prefix' | 'number'>) => [...e.prefix.split('.').filter(Boolean).map(Number), e.number];
  const from = path(last);
  const to = path(next);
  // The first part where the two differ: the next entry's part is one more (a next group), or it is one part deeper (a child).
  let i = 0;
  while (i < from.length && i < to.length && from[i] === to[i]) i++;
  if (i === from.length) return to.slice(i).every((n) => n === 1);
  // The top-level number is the findings chapter's ("5 Findings"): "6 Appendix" after 5.2.2 ends the list.
  if (i === to.length || i === 0) return false;
  return to[i] === from[i]! + 1 && to.slice(i + 1).every((n) => n === 1);
}

/**
 * Whether `next` would be the first child of the last entry although an earlier sibling of it is a finding with no
 * children: a summary table's rows 1, 2, 3 followed by the detailed section "3.1 ..." on the next page. In a grouped
 * contents list every group opens children ("5.1 High Risk" / "5.1.1 ..."), or is a group line with none ("5.1
 * Critical Risk" when there is no critical finding); a leaf finding before it says this level holds findings, not groups.
 */
function childOfLeafLevel(rows: readonly EntryLines[], next: Omit<EntryLines, 'from' | 'to'>, isGroupLine: (row: EntryLines) => boolean): boolean {
  const last = rows.at(-1)!;
  if (next.prefix !== `${last.prefix}${last.number}.`) return false;
  const hasChildren = (r: EntryLines) => rows.some((c) => c.prefix.startsWith(`${r.prefix}${r.number}.`));
  return rows.some((r) => r !== last && r.prefix === last.prefix && !hasChildren(r) && !isGroupLine(r));
}

/** The number or ID an entry starts with, or null when the line starts no entry. */
function entryStart(text: string): { prefix: string; number: number; printed: string } | null {
  const m = NUMBERED_START.exec(text) ?? ID_START.exec(text);
  if (!m) return null;
  return { prefix: m[1]!, number: Number.parseInt(m[2]!, 10), printed: `${m[1]!}${m[2]!}` };
}

/** The row's text after its number or ID. */
function entryBody(text: string): string {
  const m = NUMBERED_START.exec(text) ?? ID_START.exec(text);
  return m ? m[3]! : text;
}

function toEntry(
  lines: readonly TextLine[],
  row: EntryLines,
  severityWord: RegExp,
  profile: ExtractionProfile,
  mentions: readonly IdMention[],
): Omit<ListedEntry, 'kind'> {
  const ownLines = lines.slice(row.from, row.to + 1).filter((l) => !l.running);
  const place = placeOf(lines, row.from, row.to);
  const text = joinWrapped(ownLines.map((l) => l.text));
  const body = entryBody(text);
  // A severity cell is capitalised ("Minor", "HIGH"); "gas" in "add externally used gas" is part of a title.
  const severityCells = (t: string) => [...t.matchAll(severityWord)].filter((m) => /^\p{Lu}/u.test(m[0]));
  const severities = severityCells(body);
  const firstLine = entryBody(oneLine(ownLines[0]!.text));
  const onFirstLine = severityCells(firstLine).at(-1);
  // The severity column comes after the title: the last severity word of the row's first line (a wrapped title continues
  // below it), else of the row.
  const severity = onFirstLine?.[0] ?? severities.at(-1)?.[0] ?? null;
  // Columns right of the severity on the row's first line (status, likelihood) are not the title; wrapped title lines are.
  const title = withoutCellSeparators(
    onFirstLine
      ? joinWrapped([firstLine.slice(0, onFirstLine.index), ...ownLines.slice(1).map((l) => l.text)])
      : severity
        ? oneLine(body.slice(0, severities.at(-1)!.index) + ' ' + body.slice(severities.at(-1)!.index + severity.length))
        : body,
  );
  // A standard or advisory a title names ("Unsafe ERC-20 approve") is no ID of the row's finding.
  const mention = mentions.find((m) => m.start >= place.start && m.start < place.end && !isReferenceId(m.normalized));
  return {
    start: place.start,
    end: place.end,
    page: place.page,
    text,
    number: row.printed,
    id: mention?.normalized ?? null,
    title: oneLine(title.replace(/(?:^|\s)\|(?=\s|$)/g, ' ')),
    severity,
    severityCanonical: severity ? rankSeverity(profile, severity).canonical : null,
    findingIds: [],
  };
}

/** "Title | " -> "Title": the separators of a table row are not part of its title. */
function withoutCellSeparators(title: string): string {
  return oneLine(title.replace(CELL_SEPARATOR, ' '));
}
