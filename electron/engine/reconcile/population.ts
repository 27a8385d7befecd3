/**
 * Reading a population file (a tracker's export: tickets, change requests, a
 * findings tracker) into a header and rows of text cells: CSV through
 * papaparse (comma, tab or semicolon; UTF-8, UTF-16 with its byte-order mark,
 * else Windows-1252), XLSX through exceljs (the first sheet or a named one;
 * numbers, dates, rich text, links and formula results as the text a reader
 * sees). The header is the first row that names columns: a title line, blank
 * lines or a logo row above it are passed over.
 *
 * Every bad file is refused with a code and a sentence saying what to do, and
 * nothing of it is kept: an empty file, no header, more than 200,000 rows, a
 * workbook encrypted with a password, a file that is neither CSV nor XLSX.
 */
import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { AppError, ErrorCode } from '../../../shared/errors';
import { MAX_POPULATION_ROWS, POPULATION_EXTENSIONS, type Population, type PopulationKind, type PopulationRow } from '../../../shared/reconcile';

/** Rows above the header that may be a title, a date line or a logo: the header is looked for among the first ones. */
export const HEADER_SCAN_ROWS = 30;
/** A file larger than this is refused before it is parsed (a population of 200,000 rows is far smaller). */
export const MAX_POPULATION_BYTES = 256 * 1024 * 1024;

export interface PopulationFile {
  /** The file's name (its extension says CSV or XLSX where the bytes leave it open). */
  name: string;
  bytes: Buffer;
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** OLE2 compound file: an encrypted OOXML workbook, or an Excel 97-2003 .xls. */
const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** An encrypted OOXML file is a compound file holding these two streams (MS-OFFCRYPTO); their names are UTF-16LE in its directory. */
const ENCRYPTION_STREAMS = ['EncryptionInfo', 'EncryptedPackage'].map((name) => Buffer.from(name, 'utf16le'));

const accepted = POPULATION_EXTENSIONS.join(', ');

function unsupported(name: string, what: string): AppError {
  return new AppError(
    ErrorCode.POPULATION_UNSUPPORTED,
    `${name} ${what}: a population is a CSV file or an Excel workbook (${accepted}). Export it from your tracker as CSV or .xlsx and import that file.`,
    { file: name },
  );
}

/** CSV or XLSX by the bytes first (a workbook is a zip), else by the name; refuses everything else. */
export function populationKindOf(file: PopulationFile): PopulationKind {
  const { name, bytes } = file;
  const ext = name.toLowerCase().match(/\.[a-z0-9]+$/)?.[0] ?? '';
  if (bytes.subarray(0, 4).equals(ZIP_MAGIC)) return 'xlsx';
  if (bytes.subarray(0, 8).equals(CFB_MAGIC)) {
    if (ENCRYPTION_STREAMS.every((stream) => bytes.includes(stream))) {
      throw new AppError(
        ErrorCode.POPULATION_PASSWORD_PROTECTED,
        `${name} is protected with a password to open. Open it in Excel, save a copy without the password (File › Info › Protect Workbook › Encrypt with Password, then clear it), and import that copy.`,
        { file: name },
      );
    }
    throw unsupported(name, 'is an Excel 97-2003 workbook (.xls) or another Office file');
  }
  if (ext === '.xlsx' || ext === '.xlsm') throw unsupported(name, 'is named like a workbook but is not one (it is no zip archive)');
  if (ext === '.csv' || ext === '.tsv' || ext === '.txt') return 'csv';
  throw unsupported(name, `is not CSV or XLSX${ext ? ` (${ext})` : ''}`);
}

/** Text of a CSV file: UTF-16 by its byte-order mark, else UTF-8, else (a legacy export) Windows-1252. Binary bytes are refused. */
export function decodeCsv(file: PopulationFile): string {
  const { bytes, name } = file;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes.includes(0)) throw unsupported(name, 'holds binary data, not text');
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

function tooLarge(name: string, rows: number | null): AppError {
  const what = rows === null ? 'is larger than a population may be' : `has more than ${MAX_POPULATION_ROWS.toLocaleString('en-US')} rows`;
  return new AppError(
    ErrorCode.POPULATION_TOO_LARGE,
    `${name} ${what} (at most ${MAX_POPULATION_ROWS.toLocaleString('en-US')} rows). Filter the export to the period or release under audit, or split it, and import each part.`,
    { file: name },
  );
}

/** Every row of the file as text cells, the header among them (at most the limit plus the rows the header may sit under). */
function csvGrid(file: PopulationFile): string[][] {
  const text = decodeCsv(file);
  const limit = MAX_POPULATION_ROWS + HEADER_SCAN_ROWS;
  // The separator (comma, tab, semicolon...) guessed from the first rows; blank lines would spoil the guess, so it is made without them.
  const { delimiter } = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy', preview: HEADER_SCAN_ROWS + 20 }).meta;
  // No dynamic typing: a key "00042" or a version "1.10" stays as written. Blank lines are kept: they count in the numbering.
  const parsed = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: false, preview: limit + 1 });
  if (parsed.data.length > limit) throw tooLarge(file.name, parsed.data.length);
  return parsed.data.map((row) => row.map((cell) => String(cell ?? '')));
}

/** The text a reader sees in a cell: a formula's result, a link's text, rich text joined, a date as a date. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
  }
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('formula' in value || 'sharedFormula' in value) return cellText((value as { result?: ExcelJS.CellValue }).result ?? null);
    if ('text' in value) return cellText((value as { text: ExcelJS.CellValue }).text);
    if ('error' in value) return String(value.error);
    return '';
  }
  return String(value);
}

async function xlsxGrid(file: PopulationFile, sheetName: string | undefined): Promise<{ grid: string[][]; sheet: string }> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(file.bytes as unknown as ExcelJS.Buffer);
  } catch (error) {
    throw new AppError(
      ErrorCode.POPULATION_UNSUPPORTED,
      `${file.name} could not be read as an Excel workbook (${(error as Error).message.split('\n')[0]}). Open it in Excel and save it again as .xlsx, or export it as CSV, and import that file.`,
      { file: file.name },
    );
  }
  const sheets = workbook.worksheets;
  if (sheets.length === 0) throw new AppError(ErrorCode.POPULATION_EMPTY, `${file.name} has no sheet. Export the population again.`, { file: file.name });
  const sheet =
    sheetName === undefined
      ? sheets[0]!
      : (sheets.find((s) => s.name === sheetName) ?? sheets.find((s) => s.name.trim().toLowerCase() === sheetName.trim().toLowerCase()));
  if (!sheet) {
    throw new AppError(
      ErrorCode.POPULATION_SHEET_NOT_FOUND,
      `${file.name} has no sheet "${sheetName}": its sheets are ${sheets.map((s) => `"${s.name}"`).join(', ')}. Name one of them.`,
      { file: file.name, sheets: sheets.map((s) => s.name) },
    );
  }
  // The sheet's own extent, read before any cell is turned into text: a sheet too large is refused at once.
  if (sheet.rowCount > MAX_POPULATION_ROWS + HEADER_SCAN_ROWS) throw tooLarge(file.name, sheet.rowCount);
  const width = sheet.columnCount;
  const grid: string[][] = [];
  for (let r = 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const cells: string[] = [];
    for (let c = 1; c <= width; c++) cells.push(cellText(row.getCell(c).value));
    grid.push(cells);
  }
  return { grid, sheet: sheet.name };
}

const isBlank = (row: readonly string[]) => row.every((cell) => cell.trim() === '');
const filled = (row: readonly string[]) => row.filter((cell) => cell.trim() !== '').length;

/** A value that is data, not a column's name: a number, an amount, a date, or an ID. */
export function looksLikeData(cell: string): boolean {
  const v = cell.trim();
  return (
    /^[-+]?[\d\s.,]+%?$/.test(v) ||
    /^\d{4}-\d{2}-\d{2}/.test(v) ||
    /^\d{1,2}[/.]\d{1,2}[/.]\d{2,4}$/.test(v) ||
    /^[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*[-_#]\d+$/.test(v)
  );
}

/**
 * The header row (0-based): the first row about as wide as the data under it (three quarters of the width most
 * of the first rows have, at least), so a title line or a blank row above it is passed over. It must name columns: text, no two alike,
 * none a number, a date or an ID. Null when the first wide row holds data: the file has no header.
 */
export function findHeaderRow(grid: readonly (readonly string[])[]): number | null {
  const scan = grid.slice(0, HEADER_SCAN_ROWS + 20).filter((row) => !isBlank(row));
  if (scan.length === 0) return null;
  const widths = scan.map(filled).sort((a, b) => a - b);
  // The width most rows have (the upper median, so a few short title lines do not pull it down).
  const typical = widths[Math.floor(widths.length / 2)]!;
  for (let i = 0; i < Math.min(grid.length, HEADER_SCAN_ROWS); i++) {
    const row = grid[i]!;
    const n = filled(row);
    // A title line or a logo row is narrower than the data; a header names (nearly) every column.
    if (n === 0 || n < Math.ceil(typical * 0.75)) continue;
    const names = row.map((cell) => cell.trim()).filter(Boolean);
    const distinct = new Set(names.map((name) => name.toLowerCase())).size === names.length;
    return distinct && names.every((name) => !looksLikeData(name) && name.length <= 120) ? i : null;
  }
  return null;
}

/** Column names for the header's cells: an unnamed column is "Column C", a repeated name gets its letter too. */
function columnNames(header: readonly string[], width: number): string[] {
  const letter = (i: number): string => (i < 26 ? String.fromCharCode(65 + i) : letter(Math.floor(i / 26) - 1) + String.fromCharCode(65 + (i % 26)));
  const names: string[] = [];
  for (let i = 0; i < width; i++) {
    const name = (header[i] ?? '').trim().replace(/\s+/g, ' ');
    names.push(name === '' || names.includes(name) ? `${name || 'Column'} ${letter(i)}`.trim() : name);
  }
  return names;
}

/**
 * Reads a population file: its header and its data rows (numbered from 1 under the header; blank rows are
 * counted but not kept). Throws a coded AppError for every file that cannot be a population.
 */
export async function readPopulation(file: PopulationFile, options: { sheet?: string } = {}): Promise<Population> {
  if (
    file.bytes.length === 0 ||
    (file.bytes.length < 4096 &&
      file.bytes
        .toString('latin1')
        .replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '')
        .trim() === '')
  ) {
    throw new AppError(
      ErrorCode.POPULATION_EMPTY,
      `${file.name} is empty (${file.bytes.length} bytes). Export the population again and import the complete file.`,
      { file: file.name },
    );
  }
  if (file.bytes.length > MAX_POPULATION_BYTES) throw tooLarge(file.name, null);
  const kind = populationKindOf(file);
  const { grid, sheet } = kind === 'csv' ? { grid: csvGrid(file), sheet: null } : await xlsxGrid(file, options.sheet);
  if (grid.every(isBlank)) {
    throw new AppError(
      ErrorCode.POPULATION_EMPTY,
      `${file.name} holds no rows${sheet ? ` on sheet "${sheet}"` : ''}. Export the population again and import the complete file.`,
      { file: file.name },
    );
  }
  const headerIndex = findHeaderRow(grid);
  if (headerIndex === null) {
    const first = grid
      .find((row) => !isBlank(row))!
      .map((c) => c.trim())
      .filter(Boolean)
      .slice(0, 3);
    throw new AppError(
      ErrorCode.POPULATION_NO_HEADER,
      `${file.name} has no header row naming its columns: its first row holds data (${first.map((c) => `"${c.slice(0, 40)}"`).join(', ')}). Add a first row with the column names (for example Key, Title) and import it again.`,
      { file: file.name },
    );
  }
  const width = grid.slice(headerIndex).reduce((widest, row) => Math.max(widest, row.length), 0);
  const columns = columnNames(grid[headerIndex]!, width);
  const rows: PopulationRow[] = [];
  let blankRows = 0;
  grid.slice(headerIndex + 1).forEach((cells, i) => {
    if (isBlank(cells)) {
      blankRows++;
      return;
    }
    rows.push({ row: i + 1, cells: columns.map((_, c) => (cells[c] ?? '').trim()) });
  });
  // Blank lines at the end of a file (a trailing newline, Excel's used range) are no rows at all.
  const lastRow = rows.at(-1)?.row ?? 0;
  blankRows = Math.min(blankRows, Math.max(0, lastRow - rows.length));
  if (rows.length === 0) {
    throw new AppError(
      ErrorCode.POPULATION_EMPTY,
      `${file.name} has a header (${columns.slice(0, 4).join(', ')}) but no rows under it. Export the population again with its rows.`,
      { file: file.name },
    );
  }
  if (rows.length > MAX_POPULATION_ROWS) throw tooLarge(file.name, rows.length);
  return {
    id: null,
    file: file.name,
    sha256: createHash('sha256').update(file.bytes).digest('hex'),
    kind,
    sheet,
    headerRow: headerIndex + 1,
    columns,
    rows,
    blankRows,
  };
}
