/**
 * Registers: lists whose rows are the findings themselves, with no detailed section anywhere else. A release note's
 * table of resolved issues, a changelog, an issue list, a list of change requests:
 *
 *   JIRA | Summary | Priority | Component              - CR-2001: Invoice export times out (core)
 *   HADOOP-18282 | Add .asf.yaml to ... | Major | ...   - CR-2002: Login page double counts entries (web)
 *   HADOOP-18721 | Upgrade guava in ... | Major | ...
 *   BUG FIXES:
 *   HADOOP-17707 | Remove jaeger document ... | Major
 *
 * Unlike a summary table (listedEntries.ts) a register has no heading that names findings and its IDs do not count
 * up, so it is found by its rows: consecutive lines that each start with an issue ID of one family (after a bullet,
 * or as a table row's first cell), a few lines at most each, with at most a few short lines between them (a
 * sub-heading "BUG FIXES:", a column header). What makes it a register and not a summary of findings described
 * elsewhere: its IDs are printed nowhere else in the document (an audit report's summary rows name IDs that its
 * detailed sections print again). IDs of standards, licences and advisories (CVE-..., ERC-20) are references, never
 * a register's rows.
 *
 * The rules read a register's rows as findings (printed/listedRows.ts), so the model is not asked to copy hundreds
 * of rows it cannot improve on; each row counts as analysed, since it is all the document says of that issue.
 */
import { rankSeverity, type ExtractionProfile } from '../../../shared/findings';
import type { ListedEntry } from '../../../shared/completeness';
import type { IdPattern } from '../../../shared/idPatterns';
import type { IdMention } from '../../../shared/types';
import { findIdMentions } from '../rules';
import { idFamily, isReferenceId } from './idFamily';
import { countSkipped, placeOf, oneLine, wordsSource, type TextLine } from './textLines';
import { severityLabels } from './statedTotals';

/** Rows a register has at least: fewer are a short list the model reads as well as the rules. */
export const MIN_REGISTER_ROWS = 5;
/** Lines one row may wrap onto (a long summary in a narrow column). */
const MAX_ROW_LINES = 4;
/** Short lines allowed between two rows: a sub-heading ("BUG FIXES:"), a release line, a column header. */
const MAX_GAP_LINES = 4;
/** A line between rows longer than this (in words) is prose: the register has ended. */
const MAX_GAP_WORDS = 12;
/** Share of a register's IDs that may be printed elsewhere too (a release note's highlights naming a few). */
const MAX_ELSEWHERE_SHARE = 0.2;

/**
 * A list bullet: a dash or a bullet sign, or what a symbol-font bullet becomes in a PDF's text layer: the letter "o"
 * standing alone (Word's "Courier New" / Symbol bullets: a changelog's "o REL-1504: Adding labels ...") or a
 * private-use glyph (Wingdings' U+F0B7, U+F0A7, U+F0D8).
 */
const BULLET_SIGN = String.raw`(?:[-–•*▪◦●‣·]|o(?=\s)|[\uF0B7\uF0A7\uF0D8])`;
/** A bullet or a table's leading rule before a row's ID. */
const ROW_LEAD = new RegExp(String.raw`^\s*(?:${BULLET_SIGN}\s+|\|\s*)?`, 'u');
/** A bullet before a changelog row whose ID comes last. */
const BULLET = new RegExp(String.raw`^\s*${BULLET_SIGN}\s+`, 'u');
/** After a closing ID: its bracket and the line's end punctuation, nothing else. */
const TRAILING_ID_END = /^[\s)\]}.,;]*$/;
/** Before a closing ID: the bracket, dash or colon that sets it off from the row's text. */
const BEFORE_TRAILING_ID = /[\s([{:–—-]+$/u;
/** Between a row's ID and its text: a cell separator, a colon, a dash, a full stop, or plain space. */
const AFTER_ID = /^\s*(?:\|\s*|[:.–-]\s+|\s+)(?=\S)/u;
const CELL_SEPARATOR = /\s+\|(?:\s+|$)/;
/** A list row's closing note in parentheses, a few words: its component or contributor ("(core)", "(Contributed by Jane Doe)"). */
const TRAILING_NOTE = /\s*\((?:[^()\s]+\s*){1,4}\)[.\s]*$/u;

interface RowLines {
  mention: IdMention;
  from: number;
  to: number;
  /** The ID closes the row ("- Fix login timeout (PBI-1234)"): the title is the text before it. */
  trailing?: boolean;
}

/** A row start: its ID, and whether the ID closes the row ("- Fix login timeout (PBI-1234)") instead of leading it. */
interface RowStart {
  mention: IdMention;
  trailing: boolean;
}

/**
 * The registers among the lines, in document order, outside the spans already taken by other listings. `text` is the
 * canonical text the lines come from.
 */
export function findRegisters(
  lines: readonly TextLine[],
  text: string,
  profile: ExtractionProfile,
  idPatterns: readonly IdPattern[],
  taken: readonly { start: number; end: number }[] = [],
): ListedEntry[][] {
  const mentions = findIdMentions(text, [{ pageNumber: 1, start: 0, end: text.length, hasTextLayer: true }], idPatterns);
  const byLine = rowStarts(lines, mentions, taken);
  const registers: ListedEntry[][] = [];
  for (const group of groupRows(lines, byLine)) {
    if (group.length < MIN_REGISTER_ROWS) continue;
    const span = { start: lines[group[0]!.from]!.start, end: lines[group.at(-1)!.to]!.end };
    const ids = new Set(group.map((r) => r.mention.normalized));
    // Printed elsewhere: a summary of findings whose detailed sections print the IDs again, not a register.
    const elsewhere = new Set(mentions.filter((m) => (m.start < span.start || m.start >= span.end) && ids.has(m.normalized)).map((m) => m.normalized));
    if (elsewhere.size > MAX_ELSEWHERE_SHARE * ids.size) continue;
    const severityWord = new RegExp(`^(?:${wordsSource(severityLabels(profile))})$`, 'i');
    registers.push(group.map((row) => toEntry(lines, row, profile, severityWord)));
  }
  return registers;
}

/**
 * Lines that start a row: an ID of the document's own kind first on the line (after a bullet), then the row's text;
 * or a bulleted line that ends with its one ID, as changelogs print them ("- Fix login timeout (PBI-1234)",
 * "• Invoice export drops rows [CR-2001]"). A sentence that merely ends with an ID is no row: the bullet is required.
 */
function rowStarts(lines: readonly TextLine[], mentions: readonly IdMention[], taken: readonly { start: number; end: number }[]): Map<number, RowStart> {
  const starts = new Map<number, RowStart>();
  let m = 0;
  for (const line of lines) {
    while (m < mentions.length && mentions[m]!.start < line.start) m++;
    const mention = mentions[m];
    if (!mention || mention.start >= line.end || line.running) continue;
    if (taken.some((t) => line.start < t.end && line.end > t.start)) continue;
    const lead = ROW_LEAD.exec(line.text)![0].length;
    if (!isReferenceId(mention.normalized) && mention.start - line.start === lead && AFTER_ID.test(lineFrom(line, mention.end))) {
      starts.set(line.index, { mention, trailing: false });
      continue;
    }
    // The line's only ID, at its end after the row's text.
    const onLine = mentions.slice(m).filter((x) => x.start < line.end);
    const last = onLine.at(-1)!;
    if (onLine.length !== 1 || isReferenceId(last.normalized) || !BULLET.test(line.text)) continue;
    if (TRAILING_ID_END.test(lineFrom(line, last.end)) && /\p{L}{2}/u.test(line.text.slice(lead, last.start - line.start)))
      starts.set(line.index, { mention: last, trailing: true });
  }
  return starts;
}

/** The line from an offset of the canonical text on. */
function lineFrom(line: TextLine, from: number): string {
  return line.text.slice(from - line.start);
}

/**
 * Rows grouped into runs of one ID family: each row's own lines run to the next row (at most MAX_ROW_LINES); a run
 * goes on over a few short lines (sub-headings, column headers) and ends at prose, a long gap or another family.
 */
function groupRows(lines: readonly TextLine[], starts: ReadonlyMap<number, RowStart>): RowLines[][] {
  const groups: RowLines[][] = [];
  let current: RowLines[] = [];
  let gap: number[] = [];
  const close = () => {
    if (current.length > 0) groups.push(current);
    current = [];
    gap = [];
  };
  for (const line of lines) {
    const start = starts.get(line.index);
    if (start) {
      const { mention, trailing } = start;
      const last = current.at(-1);
      if (last && (idFamily(last.mention.normalized) !== idFamily(mention.normalized) || Boolean(last.trailing) !== trailing)) close();
      // Lines after the last row: wrapped cells of it when they follow it directly, else sub-headings between rows.
      // A row whose ID closes it ends on its own line.
      if (current.length > 0 && !current.at(-1)!.trailing) attachWrapped(lines, current.at(-1)!, gap);
      gap = [];
      current.push({ mention, from: line.index, to: line.index, ...(trailing ? { trailing } : {}) });
      continue;
    }
    if (current.length === 0 || line.running || line.text.trim() === '') continue;
    gap.push(line.index);
    const words = line.text.trim().split(/\s+/).length;
    if (gap.length > MAX_GAP_LINES + MAX_ROW_LINES || (words > MAX_GAP_WORDS && !continuesRow(line))) {
      if (!current.at(-1)!.trailing) attachWrapped(lines, current.at(-1)!, gap);
      close();
    }
  }
  if (current.length > 0 && !current.at(-1)!.trailing) attachWrapped(lines, current.at(-1)!, gap);
  close();
  return groups;
}

/** A wrapped cell's continuation: starts in lower case or inside a table row's cells ("to 1.11.3 | thirdparty"). */
function continuesRow(line: TextLine): boolean {
  return /^\s*[\p{Ll}\d(\[]/u.test(line.text) || CELL_SEPARATOR.test(line.text);
}

/** The lines right after a row that continue it (wrapped cells), at most MAX_ROW_LINES in all. */
function attachWrapped(lines: readonly TextLine[], row: RowLines, after: readonly number[]): void {
  for (const i of after) {
    if (i !== row.to + 1 + countSkipped(lines, row.to, i) || i - row.from >= MAX_ROW_LINES || !continuesRow(lines[i]!)) break;
    row.to = i;
  }
}

/**
 * One row as a listed entry: the ID as its number; the title is the first cell after the ID (a table row), else the
 * row's text up to its severity word, else without its closing note; the severity is a severity word after the title
 * (a JIRA priority "Major", "High").
 */
function toEntry(lines: readonly TextLine[], row: RowLines, profile: ExtractionProfile, severityWord: RegExp): ListedEntry {
  const place = placeOf(lines, row.from, row.to);
  const first = lines[row.from]!;
  const body = row.trailing
    ? oneLine(first.text.slice(ROW_LEAD.exec(first.text)![0].length, row.mention.start - first.start).replace(BEFORE_TRAILING_ID, ''))
    : oneLine(
        lines
          .slice(row.from, row.to + 1)
          .map((l, i) => (i === 0 ? lineFrom(l, row.mention.end) : l.text))
          .join(' '),
      ).replace(AFTER_ID, '');
  const cells = body
    .split(CELL_SEPARATOR)
    .map((c) => c.trim())
    .filter(Boolean);
  const tabular = cells.length > 1;
  const isSeverity = (w: string) => /^\p{Lu}/u.test(w) && severityWord.test(w);
  // A capitalised severity word among the cells after the title ("Major", "High"; cells set close together may
  // share one: "core High"); in the title a word like "high" is the title's.
  // A row whose cells were not told apart ("ID Title Major . Reporter"): the title ends at its severity word.
  const words = body.split(/\s+/);
  const at = tabular ? -1 : words.findIndex((w, i) => i >= 2 && isSeverity(w));
  const severityCell = tabular
    ? (cells
        .slice(1)
        .flatMap((c) => c.split(/\s+/))
        .find(isSeverity) ?? null)
    : at > 0
      ? words[at]!
      : null;
  const title = tabular ? cells[0]! : at > 0 ? words.slice(0, at).join(' ') : body.replace(TRAILING_NOTE, '');
  return {
    kind: 'register',
    start: place.start,
    end: place.end,
    page: first.page,
    text: place.text,
    number: row.mention.raw,
    id: row.mention.normalized,
    title,
    severity: severityCell,
    severityCanonical: severityCell ? rankSeverity(profile, severityCell).canonical : null,
    findingIds: [],
  };
}
