/**
 * The tie-out as an Excel workpaper: a summary sheet (the files, the columns,
 * the counts that add up, the tick-mark legend, what the import left out),
 * then one sheet per list. The population's sheets keep the population's own
 * columns, in its order, with the match, how it was made, its page and the
 * review state beside them, so the auditor files it where the export was.
 * Every value is written as a text or number cell, never as a formula.
 */
import ExcelJS from 'exceljs';
import type { PopulationOnlyEntry, Reconciliation } from '../../../shared/reconcile';
import { buildReconcileModel, EXCEPTION_MARK, itemText, LIST_HEADINGS, reasonText, reviewText } from './reportModel';
import { MATCH_REASON_TEXT } from '../../../shared/reconcile';

export const WORKPAPER_SHEETS = { summary: 'Summary', matched: 'Matched', onlyInDocument: 'Only in document', onlyInPopulation: 'Only in population' } as const;

/** XML 1.0 has no place for control characters: a cell holding one would make Excel refuse the file. */
export function cellValue(value: string | number | null): string | number {
  if (value === null) return '';
  return typeof value === 'number' ? value : value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, ' ');
}

function addTable(book: ExcelJS.Workbook, name: string, head: readonly string[], rows: readonly (readonly (string | number | null)[])[]): void {
  const sheet = book.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.addRow([...head]).font = { bold: true };
  for (const row of rows) sheet.addRow(row.map(cellValue));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: head.length } };
  head.forEach((h, i) => {
    const longest = Math.max(h.length, ...rows.slice(0, 200).map((r) => String(r[i] ?? '').length));
    sheet.getColumn(i + 1).width = Math.min(60, Math.max(6, longest + 2));
  });
}

const brokenNote = (e: PopulationOnlyEntry) =>
  e.broken.length === 0 ? 'not in the document' : `not in the document (match broken with ${e.broken.join(', ')})`;

export async function workpaperXlsx(r: Reconciliation): Promise<Buffer> {
  const model = buildReconcileModel(r);
  const book = new ExcelJS.Workbook();
  book.creator = 'Offline Audit';
  book.created = new Date(r.createdAt);

  const summary = book.addWorksheet(WORKPAPER_SHEETS.summary);
  summary.addRow([cellValue(model.title)]).font = { bold: true, size: 14 };
  for (const f of model.facts) summary.addRow([f.label, cellValue(f.value)]);
  summary.addRow([]);
  summary.addRow(['Counts', model.counts]);
  for (const [label, n] of [
    ['Rows of the population', r.counts.rows],
    ['Matched', r.counts.matched],
    ['Only in the population', r.counts.onlyInPopulation],
    ['Items in the document', r.counts.documentItems],
    ['Only in the document', r.counts.onlyInDocument],
  ] as const)
    summary.addRow([label, n]);
  summary.addRow([]);
  summary.addRow(['Tick marks']).font = { bold: true };
  for (const l of model.legend) summary.addRow([l.mark, l.text]);
  if (model.warnings.length > 0) {
    summary.addRow([]);
    summary.addRow(['Left out of the tie-out']).font = { bold: true };
    for (const w of model.warnings) summary.addRow(['', cellValue(w)]);
  }
  summary.getColumn(1).width = 28;
  summary.getColumn(2).width = 100;

  const own = r.population.columns;
  const tail = ['Match', 'Reason', 'Page', 'Review state'];
  addTable(
    book,
    WORKPAPER_SHEETS.matched,
    ['Tick', 'Row', ...own, ...tail],
    r.matched.map((m) => [
      MATCH_REASON_TEXT[m.by].mark,
      m.row,
      ...own.map((_, i) => m.cells[i] ?? ''),
      itemText(m.finding),
      reasonText(m),
      m.finding.page,
      reviewText(m.review),
    ]),
  );
  addTable(
    book,
    WORKPAPER_SHEETS.onlyInDocument,
    ['Tick', 'ID', 'Title', 'Page', 'Quote', 'Review state'],
    r.onlyInDocument.map((d) => [EXCEPTION_MARK, d.finding.id ?? '', d.finding.title, d.finding.page, d.finding.quote, reviewText(d.review)]),
  );
  addTable(
    book,
    WORKPAPER_SHEETS.onlyInPopulation,
    ['Tick', 'Row', ...own, ...tail],
    r.onlyInPopulation.map((p) => [EXCEPTION_MARK, p.row, ...own.map((_, i) => p.cells[i] ?? ''), '', brokenNote(p), null, reviewText(p.review)]),
  );
  return Buffer.from(await book.xlsx.writeBuffer());
}

export { LIST_HEADINGS };
