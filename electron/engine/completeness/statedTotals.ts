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
 * A lone "High 3" line is too weak on its own (a code listing, a risk
 * matrix), so counts are taken from the first *block* of them: at least two
 * different severities close together, or one on a line that says what is
 * counted ("issues", "findings", "severity"). Executive summaries come first,
 * so the first block is the document's own statement; later blocks (fix
 * reviews, appendices) are left alone.
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
const QUALIFIER = String.raw`(?:[\s-]*(?:severity|risk|priority|impact))?`;
const COUNTED = String.raw`(?:\s+(?:issues?|findings?|vulnerabilit(?:y|ies)|risks?|bugs?))?`;
/** Not a count: a decimal, a percentage, a date or a ratio. */
const NOT_A_COUNT_AFTER = String.raw`(?!\d|[.,]\d|\s*%|\s*/|:\d)`;

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

export function findStatedTotals(lines: readonly TextLine[], profile: ExtractionProfile): StatedCount[] {
  const sev = wordsSource(severityLabels(profile));
  const labelFirst = new RegExp(String.raw`(^|[\s|•●▪◼■\-–:;,(])((?:total\s+(?:number\s+of\s+)?)?(${sev})${QUALIFIER}${COUNTED}\s*[:=\-–]?\s*(\d{1,4}))${NOT_A_COUNT_AFTER}`, 'gi');
  const numberFirst = new RegExp(String.raw`\b((${COUNT_SOURCE})\s+(${sev})${QUALIFIER}(?:\s+(?:issues?|findings?|vulnerabilit(?:y|ies)|risks?|bugs?))?)(?=\s*(?:$|[,;.)]|and\b|or\b|\(|issues?|findings?|vulnerabilit))`, 'gi');
  // Most lines name no severity at all: one plain test skips them before the two heavier patterns.
  const namesSeverity = new RegExp(`\\b${sev}\\b`, 'i');
  const candidates: LabelledCount[] = [];
  for (const line of lines) {
    if (line.running || !namesSeverity.test(line.text)) continue;
    const found: (LabelledCount & { leading: boolean })[] = [];
    for (const m of line.text.matchAll(labelFirst)) {
      const whole = m[2]!;
      const at = m.index + m[1]!.length;
      found.push({ label: m[3]!, count: Number.parseInt(m[4]!, 10), start: line.start + at, end: line.start + at + whole.length, page: line.page, lineIndex: line.index, leading: line.text.slice(0, at).replace(/[\s|•●▪◼■\-–]/g, '') === '' });
    }
    for (const m of line.text.matchAll(numberFirst)) {
      const whole = m[1]!;
      if (found.some((f) => f.start < line.start + m.index + whole.length && line.start + m.index < f.end)) continue;
      found.push({ label: m[3]!, count: parseCount(m[2]!), start: line.start + m.index, end: line.start + m.index + whole.length, page: line.page, lineIndex: line.index, leading: false });
    }
    const countedHere = WHAT_IS_COUNTED.test(line.text);
    for (const f of found) {
      // One pair in the middle of a sentence about something else is not a statement about findings.
      if (f.leading || found.length >= 2 || countedHere) candidates.push(f);
    }
  }
  const block = firstBlock(candidates, lines);
  if (block.length === 0) {
    // No counts per severity: a total alone ("our review identified 12 issues"), where summaries are: the first third.
    const lastPage = lines.at(-1)?.page ?? 1;
    const front = lines.filter((l) => l.page <= Math.max(1, Math.ceil(lastPage / 3)));
    const total = front.length > 0 ? totalNear(front, 0, front.length - 1, true) : null;
    return total ? [total] : [];
  }
  const counts: StatedCount[] = [];
  const seen = new Set<string>();
  for (const c of block) {
    const key = c.label.toLowerCase().replace(/\s+/g, ' ');
    if (seen.has(key)) continue;
    seen.add(key);
    counts.push({ label: titleCase(c.label), severity: rankSeverity(profile, c.label).canonical, count: c.count, start: c.start, end: c.end, page: c.page, text: textAt(lines, c), source: 'rules' });
  }
  const total = totalNear(lines, block[0]!.lineIndex - TOTAL_WINDOW, block.at(-1)!.lineIndex + TOTAL_WINDOW);
  if (total) counts.push(total);
  return counts;
}

/** The first run of counts close together that is a statement about findings. */
function firstBlock(candidates: readonly LabelledCount[], lines: readonly TextLine[]): LabelledCount[] {
  let block: LabelledCount[] = [];
  const isStatement = (b: readonly LabelledCount[]): boolean =>
    new Set(b.map((c) => c.label.toLowerCase())).size >= 2 || b.some((c) => WHAT_IS_COUNTED.test(lines[c.lineIndex]!.text));
  for (const c of candidates) {
    const last = block.at(-1);
    if (last && textLinesBetween(lines, last.lineIndex, c.lineIndex) > MAX_BLOCK_GAP) {
      if (isStatement(block)) return block;
      block = [];
    }
    block.push(c);
  }
  return isStatement(block) ? block : [];
}

function textLinesBetween(lines: readonly TextLine[], from: number, to: number): number {
  let n = 0;
  for (let i = from + 1; i < to; i++) if (!lines[i]!.running && lines[i]!.text.trim() !== '') n++;
  return n;
}

const TOTAL_LINE = /^\s*(total(?:\s+(?:number\s+of\s+)?(?:issues|findings|vulnerabilities))?\s*[:=]?\s*(\d{1,4}))\s*$/i;
const TOTAL_PROSE = new RegExp(String.raw`\b((?:identified|found|discovered|uncovered|reported|revealed|total\s+of)\s+(?:a\s+total\s+of\s+)?(${COUNT_SOURCE})\s+(?:(?:security|distinct|unique|separate|potential|significant|new|total)\s+){0,2}(?:issues|findings|vulnerabilities))\b`, 'i');

/** "Total 17" on its own line, or "identified 17 issues", near a block of counts (or, alone, only the sentence). */
function totalNear(lines: readonly TextLine[], from: number, to: number, proseOnly = false): StatedCount | null {
  for (let i = Math.max(0, from); i <= Math.min(lines.length - 1, to); i++) {
    const line = lines[i]!;
    if (line.running) continue;
    const m = (proseOnly ? null : TOTAL_LINE.exec(line.text)) ?? TOTAL_PROSE.exec(line.text);
    if (!m) continue;
    const start = line.start + m.index + m[0].indexOf(m[1]!);
    return { label: 'Total', severity: null, count: parseCount(m[2]!), start, end: start + m[1]!.length, page: line.page, text: oneLine(m[1]!), source: 'rules' };
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
