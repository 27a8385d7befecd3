/**
 * Tables read as tables. Where consecutive lines split into cells that sit in
 * stable columns (vertical bands no cell crosses), the lines are rebuilt into
 * rows: a cell's wrapped lines are joined into the cell, and a row is written
 * as one line with its cells in column order. Without this a narrow cell that
 * wraps ("HADOOP-" above "18282") is read with the rest of the row between its
 * two halves, and a title wrapped above and below its ID cell lands on three
 * lines.
 *
 * Conservative by construction: prose (a paragraph's lines overlap each other,
 * leaving no band empty), columns of prose (every column wide, see
 * PROSE_COLUMN_EMS), contents lists (dot leaders, a page number ending every
 * row) and anything under MIN_ROWS_WITH_CELLS rows of at least MIN_COLUMNS
 * cells stay as they were. Lines are only merged into one row when the table
 * shows both a line pitch inside cells and a wider step between rows, and its
 * key (first) column does not wrap more often than it starts rows; otherwise a
 * table is written line by line, and only when every line is a full row.
 * Pages where the column finder found columns of prose are not looked at.
 */
import type { FrameItem, FrameLine } from './frame';

/** A horizontal gap wider than this many ems (content items only) separates two cells of one line. Word spaces are ~0.25-0.35 em, stretched justified ones rarely over 0.5, a monospaced space 0.6. */
const CELL_GAP_EMS = 0.8;
/** A table has at least this many columns, and at least MIN_ROWS_WITH_CELLS lines with that many cells (a header and one row). */
const MIN_COLUMNS = 3;
const MIN_ROWS_WITH_CELLS = 2;
/** Columns of prose are at least this many ems wide (see COLUMN_MIN_EMS in lineBuilder.ts); a table has at least one narrower column (an ID, a severity, a number). */
const PROSE_COLUMN_EMS = 12;
/** A table none of whose cells wraps has at least this many rows: two lines of justified prose in a box can look like cells. */
const MIN_LINE_ROWS = 3;
/** Baselines closer than this fraction of the font size are the same printed line (a cell set a little higher than its neighbours). */
const SAME_LINE = 0.5;
/** A gap between a column's lines counts as "between rows" when it exceeds the line pitch by this factor. */
const ROW_GAP_FACTOR = 1.15;
/** A cell's wrapped lines follow each other at most this many ems apart (line spacing, 1.2 em typical). */
const MAX_WRAP_PITCH_EMS = 1.8;
/** Steps over this many line pitches are no row padding but a gap between the table and something else (a footer). */
const ROW_GAP_MAX_FACTOR = 4;
/** A table's lines are never further apart than this many ems; a footer far below is not its last row. */
const MAX_LINE_STEP_EMS = 6;
/** How far a line's ink reaches above and below its baseline, in ems: used to decide which cells of a row overlap vertically. */
const ASCENT = 0.75;
const DESCENT = 0.2;

/** One cell's text on one printed line. */
interface Fragment {
  items: FrameItem[];
  u0: number;
  u1: number;
  v: number;
  size: number;
}

interface Interval {
  start: number;
  end: number;
}

/** A rebuilt table row: cells in column order, each the fragments of one cell top to bottom (each fragment's items left to right). */
export interface TableRow {
  cells: FrameItem[][][];
}

export type PagePiece = { line: FrameLine } | { row: TableRow };

/** The page's lines with every table region replaced by its rows; lines outside tables come through untouched. */
export function rebuildTables(lines: readonly FrameLine[]): PagePiece[] {
  const fragments = lines.map(fragmentsOf);
  const pieces: PagePiece[] = [];
  let index = 0;
  while (index < lines.length) {
    const block = blockAt(fragments, index);
    const table = block.table ? tableRows(fragments.slice(block.from, block.to), block.columns) : null;
    if (table) {
      for (const row of table.rows) pieces.push({ row });
      index = block.from + table.lines;
    } else {
      // A table may still start on the next line (below a running header of two cells, say).
      pieces.push({ line: lines[index]! });
      index++;
    }
  }
  return pieces;
}

// ---------------------------------------------------------------- cells

/** The line cut at wide gaps. Blank items belong to the fragment they follow (they may be its word spaces). */
function fragmentsOf(line: FrameLine): Fragment[] {
  const fragments: Fragment[] = [];
  let current: Fragment | null = null;
  for (const item of line.items) {
    if (item.blank) {
      current?.items.push(item);
      continue;
    }
    if (current && item.u - current.u1 <= CELL_GAP_EMS * Math.max(current.size, item.size)) {
      current.items.push(item);
      current.u1 = Math.max(current.u1, item.u + item.width);
      if (item.size > current.size) current.size = item.size;
      continue;
    }
    current = { items: [item], u0: item.u, u1: item.u + item.width, v: item.v, size: item.size };
    fragments.push(current);
  }
  return fragments;
}

// ---------------------------------------------------------------- columns

interface Block {
  from: number;
  to: number;
  table: boolean;
  columns: Interval[];
}

/**
 * The block of lines starting at `from`: a line of at least MIN_COLUMNS cells, then every following line that keeps the
 * columns apart (it does not join two columns of the lines above). A title above the
 * table, a note across it or the next table's different columns end the block (trailing lines that form no row of
 * their own are handed back by tableRows).
 */
function blockAt(fragments: readonly Fragment[][], from: number): Block {
  const first = fragments[from]!;
  // A table starts with a full row (its header or first row), never with a numbered heading ("3  Risk Classification").
  if (first.length < MIN_COLUMNS || hasDotLeader(first)) return { from, to: from + 1, table: false, columns: [] };
  const em = Math.max(...first.map((fragment) => fragment.size));
  let columns = columnsOf(first, em);
  let to = from + 1;
  while (to < fragments.length && fragments[to]!.length > 0) {
    const line = fragments[to]!;
    if (line[0]!.v - fragments[to - 1]![0]!.v > MAX_LINE_STEP_EMS * em) break;
    // A bold one-cell line at the left is a heading between tables ("Category Breakdown"), not a cell's wrapped end.
    if (line.length === 1 && isBold(line[0]!) && line[0]!.u0 < columns[0]!.end) break;
    // Dot leaders make a table of contents, whose indented entries would read like wrapped cells.
    if (hasDotLeader(line)) break;
    const joined = columnsOf([...columns.map((column) => ({ u0: column.start, u1: column.end })), ...line], em);
    // Several cells of the line may fall in one column (a justified title set word by word), but the line must not join two.
    const keepsColumnsApart = joined.every((column) => columns.filter((old) => inside(old, column)).length <= 1);
    if (!keepsColumnsApart) break;
    columns = joined;
    to++;
  }
  return classify(fragments, from, to, columns);
}

const DOT_LEADER = /(?:\.\s*){4,}/;

function hasDotLeader(line: readonly Fragment[]): boolean {
  return line.some((fragment) => DOT_LEADER.test(fragmentText(fragment)));
}

function isBold(fragment: Fragment): boolean {
  let bold = 0;
  let all = 0;
  for (const item of fragment.items) {
    if (item.blank) continue;
    all += item.text.length;
    if (item.bold) bold += item.text.length;
  }
  return bold * 2 > all;
}

function inside(part: Interval, whole: Interval): boolean {
  return part.start >= whole.start && part.end <= whole.end;
}

/** Column bands: the union of the cells' horizontal extents, cells that overlap or nearly touch in one band. */
function columnsOf(extents: readonly { u0: number; u1: number }[], em: number): Interval[] {
  const sorted = [...extents].sort((a, b) => a.u0 - b.u0);
  const columns: Interval[] = [];
  for (const extent of sorted) {
    const last = columns.at(-1);
    // Cells of one column nearly touch at most by a word space; two columns are kept apart by at least half a cell gap.
    if (last && extent.u0 - last.end <= (CELL_GAP_EMS / 2) * em) last.end = Math.max(last.end, extent.u1);
    else columns.push({ start: extent.u0, end: extent.u1 });
  }
  return columns;
}

function classify(fragments: readonly Fragment[][], from: number, to: number, columns: Interval[]): Block {
  const all = fragments.slice(from, to).flat();
  const rowsWithCells = fragments.slice(from, to).filter((line) => line.length >= MIN_COLUMNS).length;
  const sizes = all.map((fragment) => fragment.size).sort((a, b) => a - b);
  const em = sizes[Math.floor(sizes.length / 2)] ?? 0;
  const table =
    columns.length >= MIN_COLUMNS &&
    rowsWithCells >= MIN_ROWS_WITH_CELLS &&
    // Columns of prose (a multi-column page the column finder left alone) are all wide.
    columns.some((column) => column.end - column.start < PROSE_COLUMN_EMS * em);
  return { from, to, table, columns };
}

function columnIndex(fragment: Fragment, columns: readonly Interval[]): number {
  const middle = (fragment.u0 + fragment.u1) / 2;
  let best = 0;
  for (let index = 0; index < columns.length; index++) if (middle >= columns[index]!.start) best = index;
  return best;
}

// ---------------------------------------------------------------- rows

interface Placed extends Fragment {
  column: number;
  /** Index of the printed line (FrameLine) it came from. */
  line: number;
}

/**
 * The block's rows, or null when rebuilding would not change how it reads: no cell wraps (every printed line already is a
 * row: a table of contents, a dense table, a risk matrix), or fewer than MIN_ROWS_WITH_CELLS rows of MIN_COLUMNS cells
 * come out (a bulleted list with wide gaps is not a table). Trailing rows of fewer cells (the next heading) are left out.
 */
function tableRows(fragments: readonly Fragment[][], columns: readonly Interval[]): { rows: TableRow[]; lines: number } | null {
  const placed: Placed[] = fragments.flatMap((lineFragments, line) =>
    lineFragments.map((fragment) => ({ ...fragment, column: columnIndex(fragment, columns), line })),
  );
  const threshold = wrapThreshold(placed, columns.length);
  // No gap between rows wider than the line pitch (a cell's second line cannot be told from the next row): only a
  // table whose every printed line is a full row is written as rows.
  if (threshold === null || !keyColumnHasRows(placed, threshold)) return lineRows(placed, fragments.length);
  const groups = rowsByOverlap(placed, columns.length, threshold);
  let lineCount = fragments.length;
  while (groups.length > 0 && cellCount(groups.at(-1)!) < MIN_COLUMNS) {
    const firstLine = Math.min(...groups.at(-1)!.map((fragment) => fragment.line));
    // Only a row of whole lines of its own can be handed back as lines.
    if (groups.slice(0, -1).some((group) => group.some((fragment) => fragment.line >= firstLine))) break;
    groups.pop();
    lineCount = firstLine;
  }
  const wraps = groups.some((group) => new Set(group.map((fragment) => fragment.line)).size > 1);
  const fullRows = groups.filter((group) => cellCount(group) >= MIN_COLUMNS).length;
  // Numbers do not wrap: stacked ones mean the "row gap" was a header's wider spacing, and every line is a row.
  if (!wraps || fullRows < MIN_ROWS_WITH_CELLS || groups.some(stacksNumbers)) return lineRows(placed, fragments.length);
  return { rows: groups.map((group) => ({ cells: cellsOf(group, columns.length) })), lines: lineCount };
}

/**
 * The first column holds each row's key (an ID, a number, a name) and wraps at most once per row: when most of its steps
 * are wrap steps, the "row gaps" are something else (a header set apart from a dense table) and every line is a row.
 */
function keyColumnHasRows(placed: readonly Placed[], threshold: number): boolean {
  const keys = placed.filter((fragment) => fragment.column === 0).sort((a, b) => a.v - b.v);
  let rowSteps = 0;
  let wrapSteps = 0;
  for (let i = 1; i < keys.length; i++) {
    const step = keys[i]!.v - keys[i - 1]!.v;
    if (step <= SAME_LINE * keys[i]!.size) continue;
    if (step <= threshold) wrapSteps++;
    else rowSteps++;
  }
  return rowSteps + 1 >= wrapSteps;
}

/**
 * A cell of several lines that are each a bare number ("4" over "5" over "5") is a column of page numbers: the rows are
 * the indented entries of a table of contents, not wrapped cells (a number does not wrap).
 */
function stacksNumbers(group: readonly Placed[]): boolean {
  const numberLines = new Map<number, Set<number>>();
  for (const fragment of group) {
    if (!BARE_NUMBER.test(fragmentText(fragment))) continue;
    const lines = numberLines.get(fragment.column) ?? new Set<number>();
    lines.add(fragment.line);
    numberLines.set(fragment.column, lines);
  }
  return [...numberLines.values()].some((lines) => lines.size > 1);
}

const BARE_NUMBER = /^\s*\d+\s*$/;

function fragmentText(fragment: Fragment): string {
  return fragment.items.map((item) => item.text).join('');
}

function cellCount(group: readonly Placed[]): number {
  return new Set(group.map((fragment) => fragment.column)).size;
}

/**
 * One row per printed line, when every line fills at least MIN_COLUMNS columns (lines with fewer are wrapped cells this
 * pass could not place) and the table is not a table of contents (every row ending in a bare page number).
 */
function lineRows(placed: readonly Placed[], lineCount: number): { rows: TableRow[]; lines: number } | null {
  const groups: Placed[][] = Array.from({ length: lineCount }, () => []);
  for (const fragment of placed) groups[fragment.line]!.push(fragment);
  if (groups.length < MIN_LINE_ROWS || groups.some((group) => cellCount(group) < MIN_COLUMNS)) return null;
  const columnCount = Math.max(...placed.map((fragment) => fragment.column)) + 1;
  const endsInPageNumber = (group: readonly Placed[]) => BARE_NUMBER.test(fragmentText(group.reduce((last, f) => (f.u1 > last.u1 ? f : last))));
  if (groups.every(endsInPageNumber)) return null;
  return { rows: groups.map((group) => ({ cells: cellsOf(group, columnCount) })), lines: lineCount };
}

/** Per column, its fragments top to bottom. */
function byColumn(placed: readonly Placed[], columnCount: number): Placed[][] {
  const columns: Placed[][] = Array.from({ length: columnCount }, () => []);
  for (const fragment of placed) columns[fragment.column]!.push(fragment);
  for (const column of columns) column.sort((a, b) => a.v - b.v || a.u0 - b.u0);
  return columns;
}

/**
 * The largest baseline step that still joins two lines into one cell: halfway between the line pitch (the smallest step
 * between two lines of one column) and the smallest step clearly larger than it (between rows). Null when there is no
 * such larger step.
 */
function wrapThreshold(placed: readonly Placed[], columnCount: number): number | null {
  const steps: number[] = [];
  for (const column of byColumn(placed, columnCount)) {
    for (let i = 1; i < column.length; i++) {
      const step = column[i]!.v - column[i - 1]!.v;
      if (step > SAME_LINE * column[i]!.size) steps.push(step);
    }
  }
  if (steps.length === 0) return null;
  const pitch = Math.min(...steps);
  // A cell's lines are set at the text's line spacing; a smallest step wider than that is between rows (nothing wraps).
  if (pitch > MAX_WRAP_PITCH_EMS * Math.max(...placed.map((fragment) => fragment.size))) return null;
  const rowSteps = steps.filter((step) => step > pitch * ROW_GAP_FACTOR && step <= pitch * ROW_GAP_MAX_FACTOR);
  if (rowSteps.length === 0) return null;
  return (pitch + Math.min(...rowSteps)) / 2;
}

/** Cells (a column's fragments chained by wrap steps) that overlap vertically form one row. */
function rowsByOverlap(placed: readonly Placed[], columnCount: number, threshold: number): Placed[][] {
  const cells: { fragments: Placed[]; top: number; bottom: number }[] = [];
  for (const column of byColumn(placed, columnCount)) {
    for (const fragment of column) {
      const last = cells.at(-1);
      const previous = last?.fragments.at(-1);
      if (last && previous && previous.column === fragment.column && fragment.v - previous.v <= threshold) {
        last.fragments.push(fragment);
        last.bottom = fragment.v + DESCENT * fragment.size;
      } else {
        cells.push({ fragments: [fragment], top: fragment.v - ASCENT * fragment.size, bottom: fragment.v + DESCENT * fragment.size });
      }
    }
  }
  cells.sort((a, b) => a.top - b.top);
  const rows: Placed[][] = [];
  let bottom = -Infinity;
  for (const cell of cells) {
    if (rows.length > 0 && cell.top < bottom) {
      rows.at(-1)!.push(...cell.fragments);
      bottom = Math.max(bottom, cell.bottom);
    } else {
      rows.push([...cell.fragments]);
      bottom = cell.bottom;
    }
  }
  return rows;
}

function cellsOf(group: readonly Placed[], columnCount: number): FrameItem[][][] {
  return byColumn(group, columnCount)
    .filter((column) => column.length > 0)
    .map((column) => column.map((fragment) => fragment.items));
}
