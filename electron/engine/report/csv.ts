/**
 * CSV: one row per merged finding (grounded or not, said in a column), its
 * sources joined in one cell. RFC 4180: CRLF line ends, fields with a comma,
 * quote or line break quoted, quotes doubled. Spreadsheet formula injection is
 * neutralised: a cell starting with = + - @ (or tab / carriage return, which
 * some spreadsheets skip before reading a formula) gets a leading single quote,
 * so a document or a model cannot make Excel or LibreOffice run a formula.
 * Sources inside their cell are separated by a line of three dashes.
 */
import { baseName, findingPages, severityLabel } from './format';
import type { ReportData, ReportFinding, ReportSource } from './reportData';

export const CSV_COLUMNS = [
  'run',
  'document',
  'document_sha256',
  'finding',
  'id',
  'title',
  'severity',
  'severity_scale',
  'type',
  'grounded',
  'pages',
  'main_page',
  'description',
  'source_count',
  'sources',
] as const;

/** Separates sources inside the `sources` cell. */
export const SOURCE_SEPARATOR = '\n---\n';

const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell's text with formula triggers disarmed; numbers we write ourselves are never passed here as text. */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** RFC 4180 field: quoted when it holds a comma, quote, CR or LF. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return csvField(String(value));
  return csvField(neutralizeFormula(value));
}

export function describeSource(s: ReportSource): string {
  const where = s.page === null ? 'page unknown' : `page ${s.page}`;
  const state = s.grounded ? `found (${s.match ?? 'exact'})` : 'NOT found in the text';
  return `${where}${s.isMain ? ' (main)' : ''}, ${state}: "${s.evidence}"`;
}

export function csvRow(data: ReportData, fileName: string, sha256: string, f: ReportFinding): (string | number | boolean | null)[] {
  return [
    data.run.id,
    fileName,
    sha256,
    f.id,
    f.findingKey,
    f.title,
    severityLabel(f),
    f.severityCanonical,
    f.type,
    f.grounded ? 'yes' : 'no',
    findingPages(f),
    f.mainPage,
    f.description,
    f.sources.length,
    f.sources.map(describeSource).join(SOURCE_SEPARATOR),
  ];
}

export function renderCsv(data: ReportData): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const input of data.inputs) {
    const doc = input.document;
    if (!doc) continue;
    for (const f of doc.findings) lines.push(csvRow(data, doc.document.fileName || baseName(input.filePath), doc.document.sha256, f).map(csvCell).join(','));
  }
  // The byte-order mark makes Excel read UTF-8 (quotes, accents) instead of guessing a code page.
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
