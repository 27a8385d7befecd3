/**
 * The reconcile commands of the host (issue 41): read a population file for a
 * document (its columns and the ones proposed), tie it out, record the
 * auditor's review of the tie-out (with the reviewer name of the settings)
 * and tie out again, and export a stored tie-out to the exports folder (PDF
 * through the host's `renderPdf`, as the audit report is).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ParsedInput } from '../../shared/contract';
import { AppError, ErrorCode } from '../../shared/errors';
import type { PopulationPreview, Reconciliation, ReconcileExportResult } from '../../shared/reconcile';
import {
  getPopulation,
  getReconciliation,
  importPopulation,
  printedIdsOf,
  proposeColumns,
  reconcileAndStore,
  renderReconciliation,
  reviewTieOut,
} from '../engine/reconcile';
import type { HostContext } from './context';
import { safeFileName } from './importFiles';
import { reviewerFrom } from './review';

/** Rows shown beside the column pickers. */
const SAMPLE_ROWS = 5;

function readImport(file: ParsedInput<'reconcile.import'>['file']): { name: string; bytes: Buffer } {
  if ('bytes' in file) return { name: safeFileName(file.name), bytes: Buffer.from(file.bytes, 'base64') };
  try {
    return { name: basename(file.path), bytes: readFileSync(file.path) };
  } catch (error) {
    throw new AppError(
      ErrorCode.FILE_NOT_FOUND,
      `${file.path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}). Check that it exists and that you may read it.`,
    );
  }
}

export function reconcileHandlers(ctx: HostContext) {
  const { db, now } = ctx;
  const stored = (reconciliationId: number): Reconciliation => {
    const r = getReconciliation(db, reconciliationId);
    if (!r)
      throw new AppError(ErrorCode.RECONCILIATION_NOT_FOUND, `Tie-out ${reconciliationId} is not stored: reconcile the document with the population again.`);
    return r;
  };
  return {
    'reconcile.import': async ({ documentId, file, sheet }: ParsedInput<'reconcile.import'>): Promise<PopulationPreview> => {
      // The document first: a population is read for a document whose IDs say which column holds keys.
      const documentIds = printedIdsOf(db, documentId);
      const population = await importPopulation(db, readImport(file), { ...(sheet ? { sheet } : {}), now: now().toISOString() });
      return {
        populationId: population.id!,
        file: population.file,
        kind: population.kind,
        sheet: population.sheet,
        headerRow: population.headerRow,
        columns: population.columns,
        rows: population.rows.length,
        sample: population.rows.slice(0, SAMPLE_ROWS),
        proposal: proposeColumns(population, documentIds),
      };
    },
    'reconcile.run': ({ documentId, populationId, keyColumn, titleColumn, mode }: ParsedInput<'reconcile.run'>): Reconciliation => {
      const population = getPopulation(db, populationId);
      if (!population) throw new AppError(ErrorCode.POPULATION_NOT_FOUND, `Population ${populationId} is not stored: drop its file again.`);
      return reconcileAndStore(db, {
        documentId,
        population,
        ...(keyColumn !== undefined ? { keyColumn } : {}),
        ...(titleColumn !== undefined ? { titleColumn } : {}),
        ...(mode ? { mode } : {}),
        now: now().toISOString(),
      });
    },
    'reconcile.review': ({ reconciliationId, action, rowKey, itemKey, text }: ParsedInput<'reconcile.review'>): Reconciliation => {
      const before = stored(reconciliationId);
      const population = before.population.populationId === null ? undefined : getPopulation(db, before.population.populationId);
      if (!population)
        throw new AppError(ErrorCode.POPULATION_NOT_FOUND, `The population of tie-out ${reconciliationId} is no longer stored: drop its file again.`);
      reviewTieOut(db, {
        documentId: before.document.documentId,
        action,
        ...(rowKey !== undefined ? { rowKey } : {}),
        ...(itemKey !== undefined ? { itemKey } : {}),
        ...(text !== undefined ? { text } : {}),
        reviewer: reviewerFrom(db),
        at: now().toISOString(),
        label: population.file,
      });
      return reconcileAndStore(db, {
        documentId: before.document.documentId,
        population,
        keyColumn: before.population.keyColumn,
        titleColumn: before.population.titleColumn,
        mode: before.document.mode === 'rules-only' ? 'rules-only' : 'auto',
        now: now().toISOString(),
      });
    },
    'reconcile.export': async ({ reconciliationId, format }: ParsedInput<'reconcile.export'>): Promise<ReconcileExportResult> => {
      const r = stored(reconciliationId);
      const print = ctx.renderPdf;
      const content = print ? await renderReconciliation(r, format, (html) => print(html, { footerLabel: 'Tie-out' })) : await renderReconciliation(r, format);
      const dir = join(ctx.dataDir, 'exports');
      mkdirSync(dir, { recursive: true });
      const fileName = `tie-out-${reconciliationId}-${now().toISOString().replace(/[:.]/g, '-')}.${format}`;
      const path = join(dir, fileName);
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      writeFileSync(path, bytes);
      return { reconciliationId, format, path, fileName, bytes: bytes.length };
    },
  };
}
