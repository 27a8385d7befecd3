/**
 * Stated totals by layout rules: the counts a report prints about its own
 * findings where the layout is plain. Seen in audit reports of many firms:
 *
 *   Total High-Severity Issues 1          (label first, one per line)
 *   Severity Count / High 9 / Medium 3    (a two-column table, maybe beside another table)
 *   Critical: 0  High: 2  Medium: 5       (several on one line)
 *   we identified two high-severity and 5 low-severity issues   (prose, number first)
 *   Total 17 / identified 17 issues       (a total)
 *
 *   Critical Risk 0 / ... / Gas Optimizations 6 / Total Issues 12   (rows, a total row)
 *   Five (5) are classified as medium risk                  (prose, digits in brackets)
 *   Critical High Medium Low Gas Total / 0 1 2 1 1 5         (column form: a header row of
 *                                                            severities, the counts under it)
 *
 * A lone "High 3" line is too weak on its own (a code listing, a risk
 * matrix), so counts come in *blocks*: at least two different severities
 * close together, a severity seen again starting the next block. Of the
 * blocks, the one whose own total matches its sum is read, else the one
 * naming most severities, else the first (executive summaries come first;
 * later blocks of fix reviews and appendices are left alone).
 */
import { rankSeverity, type ExtractionProfile } from '../../../shared/findings';
import type { StatedCount } from '../../../shared/completeness';
import { COUNT_SOURCE, oneLine, parseCount, wordsSource, type TextLine } from './textLines';

/** Lines between two counts of one block (a table beside another, a bar chart, a wrapped sentence). */
const MAX_BLOCK_GAP = 6;
/** Lines around a block where its total may be printed. */
const TOTAL_WINDOW = 3;

/** Alias words too common in ordinary text to be read as a severity label next to a number. */
const AMBIGUOUS_LABELS = new Set(['none', 'note', 'unknown']);

const WHAT_IS_COUNTED = /\b(issues?|findings?|vulnerabilit(y|ies)|weakness(es)?|bugs?|severity|severities|risks?)\b/i;
/** Words after a severity label that belong to it: "High Risk", "Gas Optimizations", "Medium-severity". */
const QUALIFIER = String.raw`(?:[\s-]*(?:severity|risk|priority|impact|optimi[sz]ations?))?`;
const COUNTED = String.raw`(?:\s+(?:issues?|findings?|vulnerabilit(?:y|ies)|risks?|bugs?))?`;
/** Not a count: a decimal, a percentage, a date or a ratio. */
const NOT_A_COUNT_AFTER = String.raw`(?!\d|[.,]\d|\s*%|\s*/|:\d)`;
/** "Five (5)": a number word with its digits in brackets reads as one count. */
const BRACKETED_DIGITS = String.raw`(?:\s*\((\d{1,3})\))?`;
/** A contents line ("7.1 High Risk . . . . 4"): its numbers are section and page numbers, never counts. */
const CONTENTS_LINE = /(?:\.\s?){4,}\s*\d{0,4}\s*$|…\s*\d{1,4}\s*$/;

export interface LabelledCount {
  label: string;
  count: number;
  start: number;
  end: number;
  page: number;
  lineIndex: number;
}

export interface StatedTotalsResult {
  counts: StatedCount[];
}

/** Severity labels the rules look for: the profile's scale and its aliases. */
export function severityLabels(profile: ExtractionProfile): string[] {
  return [...profile.severities, ...Object.keys(profile.severityAliases)].filter((w) => !AMBIGUOUS_LABELS.has(w.toLowerCase()));
}

/**
 * The counts per severity (and the total) a document prints about its own
 * findings, or nothing. Every run of counts close together is a candidate;
 * the one read is the block whose own total matches its sum, else the one
 * with the most severities, else the first (executive summaries come first).
 * A wrong number is worse than none: contents lines, section numbers
 * ("7.1 High Risk") and single counts in passing are never read.
 */
export function findStatedTotals(lines: readonly TextLine[], profile: ExtractionProfile): StatedCount[] {
  const candidates = countCandidates(lines, profile);
  const blocks = [...candidateBlocks(candidates, lines), ...columnTableBlocks(lines, profile)].sort((a, b) => a.counts[0]!.lineIndex - b.counts[0]!.lineIndex);
  const block = bestBlock(blocks);
  if (block === null) {
    // No counts per severity: a total alone ("our review identified 12 issues"), where summaries are: the first third.
    const lastPage = lines.at(-1)?.page ?? 1;
    const front = lines.filter((l) => l.page <= Math.max(1, Math.ceil(lastPage / 3)));
    const alone = front.length > 0 ? totalNear(front, 0, front.length - 1, true) : null;
    return alone ? [alone.total] : [];
  }
  const counts: StatedCount[] = block.counts.map((c) => ({
    label: titleCase(c.label),
    severity: rankSeverity(profile, c.label).canonical,
    count: c.count,
    start: c.start,
    end: c.end,
    page: c.page,
    text: textAt(lines, c),
    source: 'rules',
  }));
  if (block.total) counts.push(block.total);
  return counts;
}

/** Every severity label beside a count, on lines that may state counts of findings. */
function countCandidates(lines: readonly TextLine[], profile: ExtractionProfile): LabelledCount[] {
  const sev = wordsSource(severityLabels(profile));
  const labelFirst = new RegExp(
    String.raw`(^|[\s|•●▪◼■\-–:;,(])((?:total\s+(?:number\s+of\s+)?)?(${sev})${QUALIFIER}${COUNTED}\s*[:=\-–|]?\s*(\d{1,3}))${NOT_A_COUNT_AFTER}`,
    'gi',
  );
  // The number must not end a section number ("7.1 High Risk") or an ID.
  const numberFirst = new RegExp(
    String.raw`(?<![\d.\-])\b((${COUNT_SOURCE})${BRACKETED_DIGITS}\s+(${sev})${QUALIFIER}(?:\s+(?:issues?|findings?|vulnerabilit(?:y|ies)|risks?|bugs?))?)(?=\s*(?:$|[,;.)]|and\b|or\b|\(|issues?|findings?|vulnerabilit))`,
    'gi',
  );
  // "Five (5) are classified as medium risk", "1 was of high severity".
  const classified = new RegExp(
    String.raw`(?<![\d.\-])\b((${COUNT_SOURCE})${BRACKETED_DIGITS}\s+(?:are|is|were|was)\s+(?:(?:classified|rated|considered|marked|deemed|categori[sz]ed)\s+as\s+|of\s+)(${sev})${QUALIFIER})`,
    'gi',
  );
  // Most lines name no severity at all: one plain test skips them before the heavier patterns.
  const namesSeverity = new RegExp(`\\b${sev}\\b`, 'i');
  const candidates: LabelledCount[] = [];
  for (const line of lines) {
    if (line.running || !namesSeverity.test(line.text) || CONTENTS_LINE.test(line.text)) continue;
    const found: (LabelledCount & { strong: boolean })[] = [];
    const overlaps = (start: number, end: number) => found.some((f) => f.start < end && start < f.end);
    for (const m of line.text.matchAll(labelFirst)) {
      const whole = m[2]!;
      const at = m.index + m[1]!.length;
      const leading = line.text.slice(0, at).replace(/[\s|•●▪◼■\-–]/g, '') === '';
      found.push({
        label: m[3]!,
        count: Number.parseInt(m[4]!, 10),
        start: line.start + at,
        end: line.start + at + whole.length,
        page: line.page,
        lineIndex: line.index,
        strong: leading,
      });
    }
    for (const [pattern, strong] of [
      [classified, true],
      [numberFirst, false],
    ] as const) {
      for (const m of line.text.matchAll(pattern)) {
        const whole = m[1]!;
        const start = line.start + m.index + m[0].indexOf(whole);
        if (overlaps(start, start + whole.length)) continue;
        found.push({
          label: m[4]!,
          count: m[3] ? Number.parseInt(m[3], 10) : parseCount(m[2]!),
          start,
          end: start + whole.length,
          page: line.page,
          lineIndex: line.index,
          strong,
        });
      }
    }
    const countedHere = WHAT_IS_COUNTED.test(line.text);
    for (const f of found) {
      // One pair in the middle of a sentence about something else is not a statement about findings.
      if (f.strong || found.length >= 2 || countedHere)
        candidates.push({ label: f.label, count: f.count, start: f.start, end: f.end, page: f.page, lineIndex: f.lineIndex });
    }
  }
  return candidates;
}

interface CountBlock {
  /** One count per label, in the document's order. */
  counts: LabelledCount[];
  total: StatedCount | null;
  /** Its own total equals the sum of its counts. */
  adds: boolean;
}

/** Runs of counts close together that are a statement: two different severities at least. */
function candidateBlocks(candidates: readonly LabelledCount[], lines: readonly TextLine[]): CountBlock[] {
  // A label seen again starts another statement (the table after the sentence that names two of its rows).
  const runs: LabelledCount[][] = [];
  for (const c of candidates) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    if (run && last && textLinesBetween(lines, last.lineIndex, c.lineIndex) <= MAX_BLOCK_GAP && !run.some((k) => sameLabel(k.label, c.label))) run.push(c);
    else runs.push([c]);
  }
  const blocks: CountBlock[] = [];
  for (const counts of runs) {
    if (counts.length < 2) continue;
    const near = totalNear(lines, counts[0]!.lineIndex - TOTAL_WINDOW, counts.at(-1)!.lineIndex + TOTAL_WINDOW);
    const sum = counts.reduce((n, c) => n + c.count, 0);
    const adds = near !== null && near.total.count === sum;
    // A total row of the table that disagrees with its rows is the document disagreeing with itself; a sentence nearby
    // ("discovered 3 findings") that does not add up may speak of something else: in doubt, not read.
    const total = near && (adds || near.form === 'row') ? near.total : null;
    blocks.push({ counts, total, adds });
  }
  return blocks;
}

/** Lines between a column-form header and its row of counts (a wrapped header cell: "Optimizations"). */
const LINES_BEFORE_COUNT_ROW = 1;
/** A cell of a counts row: a number, or a dash for none. */
const COUNT_CELL = /^(?:\d{1,3}|[-–—])$/;

/**
 * Severity tables in column form: a header row naming three severities or
 * more (and maybe a total), nothing else but a header cell ("Severity",
 * "Impact"), and under it a row of exactly one count per column, after a
 * row label at most ("Count", "Total"). Several rows of counts (fixed / not
 * fixed / total) are read only by their "Total" row; any other doubt (a
 * number too many or too few, a row of words) reads nothing.
 */
function columnTableBlocks(lines: readonly TextLine[], profile: ExtractionProfile): CountBlock[] {
  const sev = wordsSource(severityLabels(profile));
  const column = new RegExp(String.raw`(?:(${sev})${QUALIFIER}|(total(?:\s+(?:issues|findings|vulnerabilities))?))(?=$|[\s|])`, 'gi');
  // Most lines name no severity at all: one plain test skips them before the heavier pattern.
  const namesSeverity = new RegExp(`\\b${sev}\\b`, 'i');
  const blocks: CountBlock[] = [];
  lines.forEach((header, h) => {
    if (header.running || !namesSeverity.test(header.text) || CONTENTS_LINE.test(header.text)) return;
    const columns = [...header.text.matchAll(column)].map((m) => ({ label: m[1] ?? null, at: m.index }));
    const labels = columns.filter((c) => c.label !== null);
    if (labels.length < 3 || new Set(labels.map((c) => c.label!.toLowerCase())).size !== labels.length) return;
    // Nothing but the columns: a row header cell of one word before them at most.
    const rest = header.text.replace(column, ' ').replace(/\|/g, ' ').trim();
    if (rest.split(/\s+/).filter(Boolean).length > 1 || (rest !== '' && !header.text.trim().startsWith(rest))) return;
    const rows = countRowsAfter(lines, h, columns.length);
    const row = rows.length === 1 ? rows[0]! : rows.find((r) => /^total\b/i.test(r.label));
    if (!row) return;
    // Each count is grounded on its cell; a dash is none.
    const cells = columns.map((c, i) => {
      const cell = row.cells[i]!;
      const count = /^\d+$/.test(cell.text) ? Number.parseInt(cell.text, 10) : 0;
      return {
        label: c.label,
        count,
        start: row.line.start + cell.at,
        end: row.line.start + cell.at + cell.text.length,
        page: row.line.page,
        lineIndex: row.line.index,
        text: cell.text,
      };
    });
    const counts: LabelledCount[] = cells.flatMap(({ label, text: _text, ...c }) => (label === null ? [] : [{ ...c, label }]));
    const totalCell = cells.find((c) => c.label === null);
    const total: StatedCount | null = totalCell
      ? {
          label: 'Total',
          severity: null,
          count: totalCell.count,
          start: totalCell.start,
          end: totalCell.end,
          page: totalCell.page,
          text: totalCell.text,
          source: 'rules',
        }
      : null;
    blocks.push({ counts, total, adds: total !== null && total.count === counts.reduce((n, c) => n + c.count, 0) });
  });
  return blocks;
}

/** The rows of counts right under a column-form header: each with its row label and one cell per column. */
function countRowsAfter(
  lines: readonly TextLine[],
  headerIndex: number,
  columns: number,
): { line: TextLine; label: string; cells: { text: string; at: number }[] }[] {
  const rows: { line: TextLine; label: string; cells: { text: string; at: number }[] }[] = [];
  let skipped = 0;
  for (let i = headerIndex + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.running || line.text.trim() === '') continue;
    const tokens = [...line.text.matchAll(/[^\s|]+/g)].map((m) => ({ text: m[0], at: m.index }));
    const firstCell = tokens.findIndex((t) => COUNT_CELL.test(t.text));
    const cells = firstCell < 0 ? [] : tokens.slice(firstCell);
    const label =
      firstCell < 0
        ? ''
        : tokens
            .slice(0, firstCell)
            .map((t) => t.text)
            .join(' ');
    if (cells.length === columns && cells.every((t) => COUNT_CELL.test(t.text)) && !/\d/.test(label) && label.split(' ').length <= 3) {
      rows.push({ line, label, cells });
      continue;
    }
    if (rows.length > 0 || ++skipped > LINES_BEFORE_COUNT_ROW) break;
  }
  return rows;
}

/**
 * The block that states the document's totals: one whose own total matches
 * its sum beats one that does not; then more severities (a full table beats
 * a sentence naming two); then the first (the executive summary).
 */
function bestBlock(blocks: readonly CountBlock[]): CountBlock | null {
  let best: CountBlock | null = null;
  for (const b of blocks) {
    if (best === null || rankOf(b) > rankOf(best)) best = b;
  }
  return best;
}

function rankOf(b: CountBlock): number {
  return (b.adds ? 100 : 0) + b.counts.length;
}

function sameLabel(a: string, b: string): boolean {
  return a.toLowerCase().replace(/\s+/g, ' ') === b.toLowerCase().replace(/\s+/g, ' ');
}

function textLinesBetween(lines: readonly TextLine[], from: number, to: number): number {
  let n = 0;
  for (let i = from + 1; i < to; i++) if (!lines[i]!.running && lines[i]!.text.trim() !== '') n++;
  return n;
}

/** "Total 17", "Total Issues 92", "Total | 7 | 6 | 1" (a table's total row: the first number is the count column). */
const TOTAL_LINE = /^\s*\|?\s*(total(?:\s+(?:number\s+of\s+)?(?:issues|findings|vulnerabilities))?\s*[:=|]?\s*(\d{1,3}))(?:\s*\|?\s*\d{1,3})*\s*\|?\s*$/i;
const TOTAL_PROSE = new RegExp(
  String.raw`\b((?:identified|found|discovered|uncovered|reported|revealed|total\s+of)\s+(?:a\s+total\s+of\s+)?(${COUNT_SOURCE})${BRACKETED_DIGITS}\s+(?:(?:security|distinct|unique|separate|potential|significant|new|total)\s+){0,2}(?:issues|findings|vulnerabilities))\b`,
  'i',
);

/** "Total 17" on its own line, or "identified 17 issues", near a block of counts (or, alone, only the sentence). */
function totalNear(lines: readonly TextLine[], from: number, to: number, proseOnly = false): { total: StatedCount; form: 'row' | 'prose' } | null {
  for (let i = Math.max(0, from); i <= Math.min(lines.length - 1, to); i++) {
    const line = lines[i]!;
    if (line.running) continue;
    const row = proseOnly ? null : TOTAL_LINE.exec(line.text);
    const m = row ?? TOTAL_PROSE.exec(line.text);
    if (!m) continue;
    const start = line.start + m.index + m[0].indexOf(m[1]!);
    const total: StatedCount = {
      label: 'Total',
      severity: null,
      count: m[3] ? Number.parseInt(m[3], 10) : parseCount(m[2]!),
      start,
      end: start + m[1]!.length,
      page: line.page,
      text: oneLine(m[1]!),
      source: 'rules',
    };
    return { total, form: row ? 'row' : 'prose' };
  }
  return null;
}

/** The document's text of one count, as one line. */
function textAt(lines: readonly TextLine[], c: LabelledCount): string {
  const line = lines[c.lineIndex]!;
  return oneLine(line.text.slice(c.start - line.start, c.end - line.start));
}

function titleCase(label: string): string {
  const flat = label.replace(/\s+/g, ' ');
  return flat.charAt(0).toUpperCase() + flat.slice(1);
}
