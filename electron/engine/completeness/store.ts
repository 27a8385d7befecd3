/** Repository for completeness verdicts (migration 0100): one per run and document, replaced when the check runs again. */
import type { ReadDb } from '../store';
import type { Database } from 'better-sqlite3';
import type { CompletenessVerdict } from '../../../shared/completeness';

export function saveCompleteness(db: Database, input: { runId: number; documentId: number; verdict: CompletenessVerdict; now: string }): void {
  const { verdict } = input;
  db.prepare(
    `INSERT INTO completeness_checks (run_id, document_id, status, headline, place_count, verdict_json, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (run_id, document_id) DO UPDATE SET status = excluded.status, headline = excluded.headline,
       place_count = excluded.place_count, verdict_json = excluded.verdict_json, created_at = excluded.created_at`,
  ).run(input.runId, input.documentId, verdict.status, verdict.headline, verdict.places.length, JSON.stringify(verdict), input.now);
}

/** The verdict of one document in one run; null when the check has not run (rules-only runs, runs made before it existed). */
export function getCompleteness(db: ReadDb, runId: number, documentId: number): CompletenessVerdict | null {
  const row = db.prepare('SELECT verdict_json FROM completeness_checks WHERE run_id = ? AND document_id = ?').get(runId, documentId) as
    | { verdict_json: string }
    | undefined;
  return row ? (JSON.parse(row.verdict_json) as CompletenessVerdict) : null;
}

/** The latest run that checked this document, with its verdict; nulls when none has. */
export function latestCompleteness(db: ReadDb, documentId: number): { runId: number | null; verdict: CompletenessVerdict | null } {
  const row = db.prepare('SELECT run_id, verdict_json FROM completeness_checks WHERE document_id = ? ORDER BY run_id DESC LIMIT 1').get(documentId) as
    | { run_id: number; verdict_json: string }
    | undefined;
  return row ? { runId: row.run_id, verdict: JSON.parse(row.verdict_json) as CompletenessVerdict } : { runId: null, verdict: null };
}
