/**
 * Rebuilds reading-order text lines from pdf.js text items of one page.
 *
 * Items arrive in viewport space (see rawExtractor.mjs). Each orientation
 * (upright, rotated 90/180/270) is projected into its own reading frame where
 * `u` runs along the baseline and `v` grows towards the next line, so rotated
 * text goes through exactly the same code as upright text.
 */
import type { RawItem, RawPage } from './rawExtractor.mjs';
import type { FrameItem, FrameLine } from './frame';
import { rebuildTables, type TableRow } from './tableRows';
import { cleanText, isHyphenatedBreak } from './textCleanup';

/** A rebuilt line, before it gets offsets in the canonical text. */
export interface BuiltLine {
  text: string;
  /** Dominant font size (by character count), viewport units. */
  fontSize: number;
  /** True when most of the line's characters are in a bold face. */
  bold: boolean;
}

/** Two items share a line when their baselines differ by at most this fraction of the larger font size (tolerates super/subscripts). */
const BASELINE_TOLERANCE = 0.5;
/** A horizontal gap wider than this fraction of the font size is a word space (a space glyph is ~0.25-0.3 em, kerning < 0.1 em). */
const SPACE_GAP = 0.2;
/** Items wider than this fraction of the text width (titles, running headers) do not take part in gutter search. */
const WIDE_ITEM = 0.5;
/**
 * A gutter may be crossed by at most this fraction of lines: a title and
 * author block, captions and running headers span the columns (a paper's
 * first page: ~24%). Prose never leaves a half-em band empty on 75% of its lines.
 */
const GUTTER_CROSSING = 0.25;
/** Each column must cover this fraction of the text height, and its lines must fill this fraction of its width (prose, not a table). */
const COLUMN_MIN_HEIGHT = 0.4;
const COLUMN_MIN_FILL = 0.5;
const COLUMN_MIN_LINES = 5;
/** A column of prose is at least this many ems wide (newspaper columns ~18 em); table cells are much narrower. */
const COLUMN_MIN_EMS = 12;

/** Reading-order lines of one page; hyphenated line breaks already joined. */
export function buildPageLines(page: RawPage): BuiltLine[] {
  const groups = groupByOrientation(page.items);
  const lines: WeightedLine[] = [];
  for (const items of groups) {
    const { lines: frameLines, columns } = readingOrder(items);
    // Columns of prose were found: their lines are not table rows.
    const pieces = columns ? frameLines.map((line) => ({ line })) : rebuildTables(frameLines);
    for (const piece of pieces) {
      const line = 'line' in piece ? joinLineItems(piece.line.items) : joinRow(piece.row);
      if (line.text.length > 0) lines.push(line);
    }
  }
  return joinHyphenatedLines(lines).map(({ text, fontSize, bold }) => ({ text, fontSize, bold }));
}

// ---------------------------------------------------------------- orientation

/**
 * Groups items by baseline direction quantised to 90 degrees and projects each
 * group into its reading frame. The group with the most characters comes
 * first: it is the page's body text; rotated labels follow it.
 */
function groupByOrientation(items: readonly RawItem[]): FrameItem[][] {
  const groups = new Map<number, FrameItem[]>();
  for (const item of items) {
    const quarter = ((Math.round(Math.atan2(item.dy, item.dx) / (Math.PI / 2)) % 4) + 4) % 4;
    const [cx, cy] = QUARTER_DIRECTIONS[quarter]!;
    const text = cleanText(item.str);
    if (text.length === 0) continue;
    const frameItem: FrameItem = {
      text,
      blank: text.trim().length === 0,
      u: item.x * cx + item.y * cy,
      v: -item.x * cy + item.y * cx,
      width: Math.abs(item.width),
      size: item.fontSize,
      bold: item.bold,
      hasEOL: item.hasEOL,
    };
    const group = groups.get(quarter);
    if (group) group.push(frameItem);
    else groups.set(quarter, [frameItem]);
  }
  return [...groups.values()].sort((a, b) => charCount(b) - charCount(a));
}

/** Baseline direction per quarter turn, in viewport space (y down). */
const QUARTER_DIRECTIONS: readonly (readonly [number, number])[] = [
  [1, 0],
  [0, 1],
  [-1, 0],
  [0, -1],
];

function charCount(items: readonly FrameItem[]): number {
  return items.reduce((sum, item) => sum + (item.blank ? 0 : item.text.length), 0);
}

// ---------------------------------------------------------------- lines

/** Clusters items into lines by baseline, top to bottom, items left to right. */
function groupIntoLines(items: readonly FrameItem[]): FrameLine[] {
  const sorted = [...items].sort((a, b) => a.v - b.v || a.u - b.u);
  const lines: FrameLine[] = [];
  for (const item of sorted) {
    const last = lines.at(-1);
    if (last && Math.abs(item.v - last.v) <= BASELINE_TOLERANCE * Math.max(last.size, item.size)) {
      last.items.push(item);
      if (!item.blank && item.size > last.size) {
        last.size = item.size;
        last.v = item.v;
      }
    } else {
      lines.push({ v: item.v, size: item.size, items: [item] });
    }
  }
  for (const line of lines) line.items.sort((a, b) => a.u - b.u);
  return lines.filter((line) => line.items.some((item) => !item.blank));
}

// ---------------------------------------------------------------- columns

interface Gutter {
  start: number;
  end: number;
}

/**
 * Lines in reading order. On a multi-column page each column is read top to
 * bottom before the next; lines that cross a gutter (titles, running headers,
 * full-width figures) cut the page into bands that are read in turn.
 */
function readingOrder(items: readonly FrameItem[]): { lines: FrameLine[]; columns: boolean } {
  const lines = groupIntoLines(items);
  const gutters = findGutters(lines);
  if (gutters.length === 0) return { lines, columns: false };

  const ordered: FrameLine[] = [];
  let columns: FrameLine[][] = gutters.map(() => []).concat([[]]);
  const flushBand = (): void => {
    for (const column of columns) ordered.push(...column);
    columns = columns.map(() => []);
  };
  for (const line of lines) {
    if (line.items.some((item) => !item.blank && crossesAnyGutter(item, gutters))) {
      flushBand();
      ordered.push(line);
      continue;
    }
    for (const [index, pieceItems] of splitByColumn(line.items, gutters)) {
      if (pieceItems.some((item) => !item.blank)) columns[index]!.push({ ...line, items: pieceItems });
    }
  }
  flushBand();
  return { lines: ordered, columns: true };
}

function crossesAnyGutter(item: FrameItem, gutters: readonly Gutter[]): boolean {
  return gutters.some((gutter) => crosses(item, gutter));
}

function crosses(item: FrameItem, gutter: Gutter): boolean {
  const middle = (gutter.start + gutter.end) / 2;
  return item.u < middle && item.u + item.width > middle;
}

function columnIndex(item: FrameItem, gutters: readonly Gutter[]): number {
  const center = item.u + item.width / 2;
  const index = gutters.findIndex((gutter) => center < (gutter.start + gutter.end) / 2);
  return index === -1 ? gutters.length : index;
}

function splitByColumn(items: readonly FrameItem[], gutters: readonly Gutter[]): Map<number, FrameItem[]> {
  const pieces = new Map<number, FrameItem[]>();
  for (const item of items) {
    const index = columnIndex(item, gutters);
    const piece = pieces.get(index);
    if (piece) piece.push(item);
    else pieces.set(index, [item]);
  }
  return pieces;
}

/**
 * Vertical gutters: bands of the x axis (1-unit bins) that almost no line
 * crosses, at least about one em wide, such that the text between them looks
 * like columns of prose (each column tall and its lines filling its width).
 * The prose test is what keeps tables, whose cells also leave empty vertical
 * bands, in row order.
 */
function findGutters(lines: readonly FrameLine[]): Gutter[] {
  const content = lines.flatMap((line) => line.items.filter((item) => !item.blank));
  if (content.length === 0 || lines.length < COLUMN_MIN_LINES * 2) return [];
  const minU = Math.min(...content.map((item) => item.u));
  const maxU = Math.max(...content.map((item) => item.u + item.width));
  const span = maxU - minU;
  if (span <= 0) return [];

  const coverage = lineCoverage(lines, minU, span);
  const allowed = Math.max(0, Math.floor(lines.length * GUTTER_CROSSING));
  // Real gutters can be under one em (Federal Register: ~8pt at 9pt type); prose never keeps a half-em river over 95% of its lines.
  const minWidth = Math.max(4, 0.5 * median(content.map((item) => item.size)));
  const candidates = lowCoverageRuns(coverage, allowed, minWidth).map((run) => ({ start: minU + run.start, end: minU + run.end }));
  if (candidates.length === 0) return [];

  // All empty bands or none: picking a subset would turn a grid (table) into "columns" of several cells.
  return columnsLookLikeProse(lines, candidates) ? candidates : [];
}

/** How many lines have a (non-wide) item over each 1-unit bin of the text width. */
function lineCoverage(lines: readonly FrameLine[], minU: number, span: number): Int32Array {
  const bins = Math.ceil(span) + 1;
  const coverage = new Int32Array(bins);
  const marks = new Uint8Array(bins);
  for (const line of lines) {
    marks.fill(0);
    for (const item of line.items) {
      if (item.blank || item.width > WIDE_ITEM * span) continue;
      const from = Math.max(0, Math.floor(item.u - minU));
      const to = Math.min(bins - 1, Math.ceil(item.u + item.width - minU));
      for (let bin = from; bin <= to; bin++) marks[bin] = 1;
    }
    for (let bin = 0; bin < bins; bin++) coverage[bin]! += marks[bin]!;
  }
  return coverage;
}

/** Interior runs of bins with coverage <= allowed, at least minWidth wide. */
function lowCoverageRuns(coverage: Int32Array, allowed: number, minWidth: number): { start: number; end: number }[] {
  const runs: { start: number; end: number }[] = [];
  let start = -1;
  for (let bin = 0; bin <= coverage.length; bin++) {
    const low = bin < coverage.length && coverage[bin]! <= allowed;
    if (low && start === -1) start = bin;
    if (!low && start !== -1) {
      const touchesEdge = start === 0 || bin === coverage.length;
      if (!touchesEdge && bin - start >= minWidth) runs.push({ start, end: bin });
      start = -1;
    }
  }
  return runs;
}

function columnsLookLikeProse(lines: readonly FrameLine[], gutters: readonly Gutter[]): boolean {
  const pieces: { v: number; u0: number; u1: number; size: number }[][] = gutters.map(() => []).concat([[]]);
  let crossing = 0;
  for (const line of lines) {
    const content = line.items.filter((item) => !item.blank);
    if (content.some((item) => crossesAnyGutter(item, gutters))) {
      crossing++;
      continue;
    }
    for (const [index, items] of splitByColumn(content, gutters)) {
      pieces[index]!.push({ v: line.v, size: line.size, u0: Math.min(...items.map((i) => i.u)), u1: Math.max(...items.map((i) => i.u + i.width)) });
    }
  }
  // "Most of the page height" is free of crossing text.
  if (crossing > lines.length * GUTTER_CROSSING) return false;
  const top = Math.min(...lines.map((line) => line.v));
  const height = Math.max(...lines.map((line) => line.v)) - top;
  return pieces.every((column) => {
    if (column.length < COLUMN_MIN_LINES) return false;
    const vs = column.map((piece) => piece.v);
    if (Math.max(...vs) - Math.min(...vs) < COLUMN_MIN_HEIGHT * height) return false;
    const left = Math.min(...column.map((piece) => piece.u0));
    const right = Math.max(...column.map((piece) => piece.u1));
    const fill = median(column.map((piece) => piece.u1 - piece.u0));
    return right - left >= COLUMN_MIN_EMS * median(column.map((piece) => piece.size)) && fill >= COLUMN_MIN_FILL * (right - left);
  });
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

// ---------------------------------------------------------------- text

/** A line plus per-line character weights, so joined lines keep a fair dominant size. */
interface WeightedLine extends BuiltLine {
  sizeWeights: Map<number, number>;
  boldChars: number;
  chars: number;
  /** A rebuilt table row: its end is a cell's end, never half of a hyphenated word. */
  tableRow?: boolean;
}

/** Written between the cells of a rebuilt table row, so the row reads as cells (for the model as for the auditor). */
export const CELL_SEPARATOR = ' | ';
/** A cell line ending in a hyphen after a letter or digit ("HADOOP-", "hadoop-", "CVE-") continues on the next line without a space. */
const CELL_HYPHEN_END = /[\p{L}\p{N}]-$/u;

/**
 * A table row as one line: each cell's lines joined (a hyphen at a cell line's end is kept and joined without a space:
 * in a narrow cell the break falls at the hyphen of an ID or a compound, not inside a word), cells in column order.
 */
function joinRow(row: TableRow): WeightedLine {
  const sizeWeights = new Map<number, number>();
  let boldChars = 0;
  let chars = 0;
  const cells = row.cells.map((fragments) => {
    let cell = '';
    for (const fragment of fragments) {
      const line = joinLineItems(fragment);
      for (const [size, weight] of line.sizeWeights) sizeWeights.set(size, (sizeWeights.get(size) ?? 0) + weight);
      boldChars += line.boldChars;
      chars += line.chars;
      if (line.text.length === 0) continue;
      cell = cell === '' ? line.text : CELL_HYPHEN_END.test(cell) ? cell + line.text : `${cell} ${line.text}`;
    }
    return cell;
  });
  return { ...finishLine(cells.filter((cell) => cell.length > 0).join(CELL_SEPARATOR), sizeWeights, boldChars, chars), tableRow: true };
}

/** Concatenates a line's items left to right, adding a space where the gap (or a content-stream line end) calls for one. */
function joinLineItems(items: readonly FrameItem[]): WeightedLine {
  let text = '';
  let previousEnd: number | null = null;
  let previousEOL = false;
  const sizeWeights = new Map<number, number>();
  let boldChars = 0;
  let chars = 0;
  for (const item of items) {
    if (previousEnd !== null) {
      const gap = item.u - previousEnd;
      const wantsSpace = gap > SPACE_GAP * item.size || (previousEOL && gap > 0);
      if (wantsSpace && !/\s$/.test(text) && !/^\s/.test(item.text)) text += ' ';
    }
    text += item.text;
    previousEnd = item.u + item.width;
    previousEOL = item.hasEOL;
    if (!item.blank) {
      const weight = item.text.replace(/\s+/g, '').length;
      const size = Math.round(item.size * 100) / 100;
      sizeWeights.set(size, (sizeWeights.get(size) ?? 0) + weight);
      chars += weight;
      if (item.bold) boldChars += weight;
    }
  }
  return finishLine(text.replace(/\s+/g, ' ').trim(), sizeWeights, boldChars, chars);
}

function finishLine(text: string, sizeWeights: Map<number, number>, boldChars: number, chars: number): WeightedLine {
  return { text, fontSize: dominantSize(sizeWeights), bold: chars > 0 && boldChars * 2 > chars, sizeWeights, boldChars, chars };
}

function dominantSize(weights: ReadonlyMap<number, number>): number {
  let best = 0;
  let bestWeight = -1;
  for (const [size, weight] of weights) {
    if (weight > bestWeight || (weight === bestWeight && size > best)) {
      best = size;
      bestWeight = weight;
    }
  }
  return best;
}

/** "docu-" + "ment is" -> "document is"; other hyphens ("TOB-ETCD-", "Re-Entrancy") stay. */
function joinHyphenatedLines(lines: readonly WeightedLine[]): WeightedLine[] {
  const joined: WeightedLine[] = [];
  for (const line of lines) {
    const previous = joined.at(-1);
    if (previous && !previous.tableRow && !line.tableRow && isHyphenatedBreak(previous.text, line.text)) {
      joined[joined.length - 1] = mergeLines(previous, line);
    } else {
      joined.push(line);
    }
  }
  return joined;
}

function mergeLines(first: WeightedLine, second: WeightedLine): WeightedLine {
  const weights = new Map(first.sizeWeights);
  for (const [size, weight] of second.sizeWeights) weights.set(size, (weights.get(size) ?? 0) + weight);
  return finishLine(first.text.slice(0, -1) + second.text, weights, first.boldChars + second.boldChars, first.chars + second.chars);
}
