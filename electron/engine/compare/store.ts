/**
 * The comparison module's SQL, all of it: stored comparisons, the auditor's
 * answers to candidate pairs (migration 0220), and the reads it needs from
 * other modules' tables (ID mentions per finding ID, the latest run that read
 * a document, the review notes on a run's findings). The review tables are
 * only read here.
 */
import type { ReadDb } from '../store';
import type { Database } from 'better-sqlite3';
import type { AuditorNote, Comparison } from '../../../shared/compare';

export interface StoredDecision {
  earlierKey: string;
  laterKey: string;
  decision: 'confirmed' | 'rejected';
  reviewer: string;
  at: string;
}

export function saveComparison(db: Database, comparison: Comparison): number {
  const id = Number(
    db
      .prepare(
        `INSERT INTO comparisons (earlier_document_id, later_document_id, earlier_run_id, later_run_id, result_json, created_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(comparison.earlier.documentId, comparison.later.documentId, comparison.earlier.runId, comparison.later.runId, '{}', comparison.createdAt)
      .lastInsertRowid,
  );
  db.prepare('UPDATE comparisons SET result_json = ? WHERE id = ?').run(JSON.stringify({ ...comparison, id }), id);
  return id;
}

export function getComparison(db: ReadDb, id: number): Comparison | undefined {
  const row = db.prepare('SELECT result_json FROM comparisons WHERE id = ?').get(id) as { result_json: string } | undefined;
  return row && (JSON.parse(row.result_json) as Comparison);
}

export interface ComparisonListing {
  id: number;
  earlierDocumentId: number;
  laterDocumentId: number;
  createdAt: string;
}

export function listComparisons(db: ReadDb): ComparisonListing[] {
  return (
    db.prepare('SELECT id, earlier_document_id, later_document_id, created_at FROM comparisons ORDER BY id DESC').all() as {
      id: number;
      earlier_document_id: number;
      later_document_id: number;
      created_at: string;
    }[]
  ).map((r) => ({ id: r.id, earlierDocumentId: r.earlier_document_id, laterDocumentId: r.later_document_id, createdAt: r.created_at }));
}

export function saveDecision(
  db: Database,
  input: {
    earlierDocumentId: number;
    laterDocumentId: number;
    earlierKey: string;
    laterKey: string;
    decision: 'confirmed' | 'rejected' | null;
    reviewer: string;
    at: string;
  },
): void {
  if (input.decision === null) {
    db.prepare('DELETE FROM comparison_decisions WHERE earlier_document_id = ? AND later_document_id = ? AND earlier_key = ? AND later_key = ?').run(
      input.earlierDocumentId,
      input.laterDocumentId,
      input.earlierKey,
      input.laterKey,
    );
    return;
  }
  db.prepare(
    `INSERT INTO comparison_decisions (earlier_document_id, later_document_id, earlier_key, later_key, decision, reviewer, at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (earlier_document_id, later_document_id, earlier_key, later_key) DO UPDATE SET decision = excluded.decision, reviewer = excluded.reviewer, at = excluded.at`,
  ).run(input.earlierDocumentId, input.laterDocumentId, input.earlierKey, input.laterKey, input.decision, input.reviewer, input.at);
}

export function listDecisions(db: ReadDb, earlierDocumentId: number, laterDocumentId: number): StoredDecision[] {
  return (
    db
      .prepare('SELECT earlier_key, later_key, decision, reviewer, at FROM comparison_decisions WHERE earlier_document_id = ? AND later_document_id = ?')
      .all(earlierDocumentId, laterDocumentId) as { earlier_key: string; later_key: string; decision: 'confirmed' | 'rejected'; reviewer: string; at: string }[]
  ).map((r) => ({ earlierKey: r.earlier_key, laterKey: r.later_key, decision: r.decision, reviewer: r.reviewer, at: r.at }));
}

/** The newest run in which the document was read to the end (rules-only runs included). */
export function latestFinishedRun(db: ReadDb, documentId: number): number | undefined {
  const row = db.prepare("SELECT MAX(run_id) AS run_id FROM run_inputs WHERE document_id = ? AND status = 'done'").get(documentId) as { run_id: number | null };
  return row.run_id ?? undefined;
}

/** The newest run with merged findings for the document. */
export function latestMergedRun(db: ReadDb, documentId: number): number | undefined {
  const row = db.prepare('SELECT MAX(run_id) AS run_id FROM merged_findings WHERE document_id = ?').get(documentId) as { run_id: number | null };
  return row.run_id ?? undefined;
}

/**
 * The auditor's notes on the reviewed findings that hold these findings of the run (a merged finding's
 * sources), oldest first, each once.
 */
export function notesOnFindings(db: Database, runId: number, findingIds: readonly number[]): AuditorNote[] {
  if (findingIds.length === 0) return [];
  const rows = db
    .prepare(
      `SELECT DISTINCT n.id, n.reviewer, n.at, n.text FROM review_notes n
       JOIN review_sources rs ON rs.reviewed_id = n.reviewed_id
       WHERE rs.run_id = ? AND rs.finding_id IN (SELECT value FROM json_each(?))
       ORDER BY n.at, n.id`,
    )
    .all(runId, JSON.stringify(findingIds)) as { id: number; reviewer: string; at: string; text: string }[];
  return rows.map((r) => ({ reviewer: r.reviewer, at: r.at, text: r.text }));
}
