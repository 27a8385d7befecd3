/**
 * Reconcile a document against a population (issue 41): a tracker export
 * (CSV or XLSX) read and keyed, its rows tied to the items the document
 * prints (by printed ID, a mention of the key, or the title), the exceptions
 * both ways, the auditor's review of the tie-out, and the workpaper.
 */
import type { Database } from 'better-sqlite3';
import type { Population, Reconciliation } from '../../../shared/reconcile';
import { readPopulation, type PopulationFile } from './population';
import { reconcileDocument, type ReconcileInput } from './reconcileDocument';
import { savePopulation, saveReconciliation } from './store';

export {
  readPopulation,
  findHeaderRow,
  populationKindOf,
  decodeCsv,
  cellText,
  HEADER_SCAN_ROWS,
  MAX_POPULATION_BYTES,
  type PopulationFile,
} from './population';
export { proposeColumns, resolveColumn, tieOutRows, isIdShaped, idFamilyOf, type TieOutRow } from './columns';
export { scoreTitles, assignTitles, titleTerms, TITLE_MATCH_THRESHOLD, type TitlePair } from './titleMatch';
export { reconcileDocument, documentIdsOf, printedIdsOf, rowSubject, itemSubject, type ReconcileInput } from './reconcileDocument';
export { reviewTieOut, type TieOutChange } from './review';
export { getPopulation, getReconciliation, latestReconciliationOf, listTieOutDecisions, listTieOutNotes, savePopulation, saveReconciliation } from './store';
export {
  renderReconciliation,
  reconciliationMarkdown,
  reconciliationHtml,
  reconciliationCsv,
  reconciliationJson,
  reconciliationJsonValue,
  type PdfPrinter,
} from './exportReconciliation';
export { workpaperXlsx, WORKPAPER_SHEETS } from './workpaper';
export { buildReconcileModel, type ReconcileReportModel } from './reportModel';

/** Reads a population file and stores it (once per content and sheet); nothing is stored when the file is refused. */
export async function importPopulation(db: Database, file: PopulationFile, options: { sheet?: string; now?: string } = {}): Promise<Population> {
  const population = await readPopulation(file, options.sheet === undefined ? {} : { sheet: options.sheet });
  return { ...population, id: savePopulation(db, population, options.now ?? new Date().toISOString()) };
}

/** Reconciles and stores the result (answered with its id). */
export function reconcileAndStore(db: Database, input: ReconcileInput): Reconciliation {
  const result = reconcileDocument(db, input);
  return { ...result, id: saveReconciliation(db, result) };
}
