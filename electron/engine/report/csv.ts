/**
 * CSV: one row per merged finding (grounded or not, said in a column), its
 * sources joined in one cell, its review in the last columns (the title,
 * severity, type and description columns hold the auditor's edits when there
 * are any; the `edits` column says what the model wrote); then one row per
 * finding the auditor added by hand (origin `manual`, no merged finding). RFC 4180: CRLF line ends, fields with a comma,
 * quote or line break quoted, quotes doubled. Spreadsheet formula injection is
 * neutralised: a cell starting with = + - @ (or tab / carriage return, which
 * some spreadsheets skip before reading a formula) gets a leading single quote,
 * so a document or a model cannot make Excel or LibreOffice run a formula.
 * Sources inside their cell are separated by a line of three dashes.
 * The last two columns carry the completeness check: where the document lists
 * the finding itself (its summary-table row, its contents entry), and the
 * document's verdict, so a filter on either finds what to look at.
 */
import { baseName, editText, findingPages, mainPagePrinted, ocrNote, profileOf, severityLabel, shownValues, sourcePage } from './format';
import type { ExtractionProfile } from '../../../shared/findings';
import { idOriginOf } from '../../../shared/findings';
import type { ReviewExportFinding } from '../../../shared/review';
import { LISTING_NAMES } from '../../../shared/completeness';
import type { ReportData, ReportDocument, ReportFinding, ReportReviewFinding, ReportSource } from './reportData';

export const CSV_COLUMNS = [
  'run',
  'document',
  'document_sha256',
  'finding',
  'id',
  'id_origin',
  'model_labels',
  'title',
  'severity',
  'severity_scale',
  'type',
  'grounded',
  'pages',
  'main_page',
  'main_page_printed',
  'description',
  'source_count',
  'sources',
  'review',
  'review_state',
  'reject_reason',
  'edits',
  'notes',
  'reviewer',
  'reviewed_at',
  'origin',
  'listed_as',
  'document_completeness',
] as const;

/** Separates the entries of a review cell when several reviewed findings stand for one merged finding (after a split). */
export const REVIEW_SEPARATOR = '\n';

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
  const where = sourcePage(s);
  const state = s.grounded ? `found (${s.match ?? 'exact'})` : 'NOT found in the text';
  // A quote from a page read by OCR says so here too: a spreadsheet reader must know its words may be misread.
  return `${where}${s.isMain ? ' (main)' : ''}${s.ocr ? ` (${ocrNote(s.ocr)})` : ''}, ${state}: "${s.evidence}"`;
}

type Cell = string | number | boolean | null;

/** The review columns: state, reason, edits (model value -> auditor value), notes, last reviewer and time. */
function reviewCells(reviews: readonly ReviewExportFinding[], origin: string): Cell[] {
  if (reviews.length === 0) return ['', 'not reviewed', '', '', '', '', '', origin];
  const join = (cells: string[]) => cells.join(REVIEW_SEPARATOR);
  return [
    join(reviews.map((r) => r.label)),
    join(reviews.map((r) => r.state)),
    join(reviews.map((r) => r.rejectReason ?? '')),
    join(reviews.flatMap((r) => r.edits.map(editText))),
    join(reviews.flatMap((r) => r.notes.map((n) => `${n.reviewer} (${n.at}): ${n.text}`))),
    join(reviews.map((r) => r.lastReviewer ?? '')),
    join(reviews.map((r) => r.lastChangedAt ?? '')),
    origin,
  ];
}

export function csvRow(data: ReportData, fileName: string, sha256: string, f: ReportFinding, profile: ExtractionProfile = profileOf(data)): Cell[] {
  const v = shownValues(f, profile);
  return [
    data.run.id,
    fileName,
    sha256,
    f.id,
    f.findingKey ?? f.printedNumber,
    idOriginOf(f),
    f.modelLabels.join(', '),
    v.title,
    severityLabel(v),
    v.severityCanonical,
    v.type,
    f.grounded ? 'yes' : 'no',
    findingPages(f),
    f.mainPage,
    mainPagePrinted(f),
    v.description,
    f.sources.length,
    f.sources.map(describeSource).join(SOURCE_SEPARATOR),
    ...reviewCells(f.review, 'model'),
  ];
}

/** "summary table row 7 (p. 16); contents entry 7 (p. 4)": the document's own entries for a finding. */
function listedAs(doc: ReportDocument, findingId: number | null): string {
  if (!doc.completeness || findingId === null) return '';
  return doc.completeness.listed
    .filter((e) => e.findingIds.includes(findingId))
    .map((e) => `${LISTING_NAMES[e.kind].entry} ${e.number} (p. ${e.page})`)
    .join('; ');
}

function completenessCells(doc: ReportDocument, findingId: number | null): Cell[] {
  return [listedAs(doc, findingId), doc.completeness?.headline ?? ''];
}

/** A finding the auditor added by hand: no merged finding, its evidence is the selected text. */
export function manualCsvRow(data: ReportData, fileName: string, sha256: string, r: ReportReviewFinding): Cell[] {
  const e = r.manualEvidence!;
  return [
    data.run.id,
    fileName,
    sha256,
    null,
    r.findingKey,
    r.findingKey ? 'document' : 'none',
    '',
    r.effective.title,
    r.effective.severity,
    null,
    r.effective.type,
    'yes',
    String(e.page),
    e.page,
    null,
    r.effective.description,
    1,
    `page ${e.page} (main), selected by the auditor: "${e.text}"`,
    ...reviewCells([r], 'manual'),
  ];
}

export function renderCsv(data: ReportData): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const input of data.inputs) {
    const doc = input.document;
    if (!doc) continue;
    const name = doc.document.fileName || baseName(input.filePath);
    for (const f of doc.findings) lines.push([...csvRow(data, name, doc.document.sha256, f), ...completenessCells(doc, f.id)].map(csvCell).join(','));
    for (const r of doc.review?.findings ?? []) {
      if (r.origin === 'manual' && r.manualEvidence)
        lines.push([...manualCsvRow(data, name, doc.document.sha256, r), ...completenessCells(doc, null)].map(csvCell).join(','));
    }
  }
  // The byte-order mark makes Excel read UTF-8 (quotes, accents) instead of guessing a code page.
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
