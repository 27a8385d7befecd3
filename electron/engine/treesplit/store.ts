/** Repository of the tree split's attempts (table split_attempts, migration 0030). Each insert commits on its own. */
import type { ReadDb } from '../store';
import type { Database } from 'better-sqlite3';
import type { ProposedChapter, SplitAttempt, SplitOutcome, SplitReview } from '../../../shared/treesplit';
import type { TextDiff } from '../../../shared/types';

interface Row {
  id: number;
  run_id: number | null;
  document_id: number;
  node_key: string;
  node_path_json: string;
  attempt: number;
  chapters_json: string;
  review_json: string | null;
  validation_errors_json: string;
  diff_json: string | null;
  outcome: string;
  llm_call_ids_json: string;
  created_at: string;
}

function fromRow(row: Row): SplitAttempt {
  return {
    id: row.id,
    runId: row.run_id,
    documentId: row.document_id,
    nodeKey: row.node_key,
    nodePath: JSON.parse(row.node_path_json) as string[],
    attempt: row.attempt,
    chapters: JSON.parse(row.chapters_json) as ProposedChapter[],
    review: row.review_json === null ? null : (JSON.parse(row.review_json) as SplitReview),
    validationErrors: JSON.parse(row.validation_errors_json) as string[],
    diff: row.diff_json === null ? null : (JSON.parse(row.diff_json) as TextDiff),
    outcome: row.outcome as SplitOutcome,
    llmCallIds: JSON.parse(row.llm_call_ids_json) as string[],
    createdAt: row.created_at,
  };
}

export function insertSplitAttempt(db: Database, a: SplitAttempt): number {
  const info = db
    .prepare(
      `INSERT INTO split_attempts (run_id, document_id, node_key, node_path_json, attempt, chapters_json, review_json, validation_errors_json, diff_json, outcome, llm_call_ids_json, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      a.runId,
      a.documentId,
      a.nodeKey,
      JSON.stringify(a.nodePath),
      a.attempt,
      JSON.stringify(a.chapters),
      a.review === null ? null : JSON.stringify(a.review),
      JSON.stringify(a.validationErrors),
      a.diff === null ? null : JSON.stringify(a.diff),
      a.outcome,
      JSON.stringify(a.llmCallIds),
      a.createdAt,
    );
  return Number(info.lastInsertRowid);
}

export function listSplitAttempts(db: ReadDb, filter: { documentId?: number; runId?: number; nodeKey?: string } = {}): SplitAttempt[] {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    where.push(clause);
    params.push(value);
  };
  if (filter.documentId !== undefined) add('document_id = ?', filter.documentId);
  if (filter.runId !== undefined) add('run_id = ?', filter.runId);
  if (filter.nodeKey !== undefined) add('node_key = ?', filter.nodeKey);
  const sql = `SELECT * FROM split_attempts ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id`;
  return (db.prepare(sql).all(...params) as Row[]).map(fromRow);
}
