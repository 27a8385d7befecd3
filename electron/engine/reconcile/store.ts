/**
 * The reconcile module's SQL, all of it (tables of migration 0250): stored
 * populations, stored reconciliations, the auditor's decisions on the tie-out
 * and their notes. Reads take the read handle; writers never open their own
 * transaction: review.ts wraps a decision and its trail entry in one.
 */
import type { Database } from 'better-sqlite3';
import type { Population, PopulationKind, PopulationRow, Reconciliation } from '../../../shared/reconcile';
import type { ReadDb } from '../store';

export type TieOutDecision = 'confirmed' | 'broken' | 'matched';

export interface StoredTieOutDecision {
  rowKey: string;
  itemKey: string;
  decision: TieOutDecision;
  reviewer: string;
  at: string;
}

export interface StoredTieOutNote {
  id: number;
  subject: string;
  reviewer: string;
  at: string;
  text: string;
}

/** Stores a population once per content and sheet; the same file imported again answers with the stored one. */
export function savePopulation(db: Database, population: Population, at: string): number {
  const sheet = population.sheet ?? '';
  const existing = db.prepare('SELECT id FROM populations WHERE sha256 = ? AND sheet = ?').get(population.sha256, sheet) as { id: number } | undefined;
  if (existing) return existing.id;
  return Number(
    db
      .prepare(
        'INSERT INTO populations (file_name, sha256, kind, sheet, header_row, columns_json, rows_json, blank_rows, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        population.file,
        population.sha256,
        population.kind,
        sheet,
        population.headerRow,
        JSON.stringify(population.columns),
        JSON.stringify(population.rows),
        population.blankRows,
        at,
      ).lastInsertRowid,
  );
}

interface PopulationRowRecord {
  id: number;
  file_name: string;
  sha256: string;
  kind: PopulationKind;
  sheet: string;
  header_row: number;
  columns_json: string;
  rows_json: string;
  blank_rows: number;
}

export function getPopulation(db: ReadDb, id: number): Population | undefined {
  const r = db.prepare('SELECT * FROM populations WHERE id = ?').get(id) as PopulationRowRecord | undefined;
  return (
    r && {
      id: r.id,
      file: r.file_name,
      sha256: r.sha256,
      kind: r.kind,
      sheet: r.sheet === '' ? null : r.sheet,
      headerRow: r.header_row,
      columns: JSON.parse(r.columns_json) as string[],
      rows: JSON.parse(r.rows_json) as PopulationRow[],
      blankRows: r.blank_rows,
    }
  );
}

export function saveReconciliation(db: Database, r: Reconciliation): number {
  const id = Number(
    db
      .prepare('INSERT INTO reconciliations (document_id, run_id, population_id, result_json, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(r.document.documentId, r.document.runId, r.population.populationId, '{}', r.createdAt).lastInsertRowid,
  );
  db.prepare('UPDATE reconciliations SET result_json = ? WHERE id = ?').run(JSON.stringify({ ...r, id }), id);
  return id;
}

export function getReconciliation(db: ReadDb, id: number): Reconciliation | undefined {
  const row = db.prepare('SELECT result_json FROM reconciliations WHERE id = ?').get(id) as { result_json: string } | undefined;
  return row && (JSON.parse(row.result_json) as Reconciliation);
}

/** The newest stored reconciliation of a document (with any population), or undefined. */
export function latestReconciliationOf(db: ReadDb, documentId: number): Reconciliation | undefined {
  const row = db.prepare('SELECT result_json FROM reconciliations WHERE document_id = ? ORDER BY id DESC LIMIT 1').get(documentId) as
    | { result_json: string }
    | undefined;
  return row && (JSON.parse(row.result_json) as Reconciliation);
}

export function listTieOutDecisions(db: ReadDb, documentId: number): StoredTieOutDecision[] {
  return (
    db
      .prepare('SELECT row_key, item_key, decision, reviewer, at FROM tie_out_decisions WHERE document_id = ? ORDER BY at, row_key, item_key')
      .all(documentId) as {
      row_key: string;
      item_key: string;
      decision: TieOutDecision;
      reviewer: string;
      at: string;
    }[]
  ).map((r) => ({ rowKey: r.row_key, itemKey: r.item_key, decision: r.decision, reviewer: r.reviewer, at: r.at }));
}

export function findTieOutDecision(db: ReadDb, documentId: number, rowKey: string, itemKey: string): TieOutDecision | undefined {
  const row = db.prepare('SELECT decision FROM tie_out_decisions WHERE document_id = ? AND row_key = ? AND item_key = ?').get(documentId, rowKey, itemKey) as
    | { decision: TieOutDecision }
    | undefined;
  return row?.decision;
}

export function upsertTieOutDecision(db: Database, documentId: number, d: StoredTieOutDecision): void {
  db.prepare(
    `INSERT INTO tie_out_decisions (document_id, row_key, item_key, decision, reviewer, at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (document_id, row_key, item_key) DO UPDATE SET decision = excluded.decision, reviewer = excluded.reviewer, at = excluded.at`,
  ).run(documentId, d.rowKey, d.itemKey, d.decision, d.reviewer, d.at);
}

export function deleteTieOutDecision(db: Database, documentId: number, rowKey: string, itemKey: string): void {
  db.prepare('DELETE FROM tie_out_decisions WHERE document_id = ? AND row_key = ? AND item_key = ?').run(documentId, rowKey, itemKey);
}

/** Removes the row's and the item's other pairings (a confirmation or a match by hand): one row ties to one item. */
export function deletePairingsOf(db: Database, documentId: number, rowKey: string, itemKey: string): void {
  db.prepare("DELETE FROM tie_out_decisions WHERE document_id = ? AND decision IN ('confirmed', 'matched') AND (row_key = ? OR item_key = ?)").run(
    documentId,
    rowKey,
    itemKey,
  );
}

export function insertTieOutNote(db: Database, documentId: number, note: Omit<StoredTieOutNote, 'id'>): number {
  return Number(
    db
      .prepare('INSERT INTO tie_out_notes (document_id, subject, reviewer, at, text) VALUES (?, ?, ?, ?, ?)')
      .run(documentId, note.subject, note.reviewer, note.at, note.text).lastInsertRowid,
  );
}

export function listTieOutNotes(db: ReadDb, documentId: number): StoredTieOutNote[] {
  return db.prepare('SELECT id, subject, reviewer, at, text FROM tie_out_notes WHERE document_id = ? ORDER BY id').all(documentId) as StoredTieOutNote[];
}
