/** Repository for document summaries (migration 0040): level 0 is the document summary, map outputs at their level. */
import type { ReadDb } from '../store';
import type { Database } from 'better-sqlite3';
import type { DocumentSummary } from '../../../shared/findings';

export function saveSummary(
  db: Database,
  input: {
    runId: number;
    documentId: number;
    text: string;
    chunkCount: number;
    levels: number;
    model: string | null;
    /** IDs the summary names that no grounded finding has (summaryIds.ts); only the document summary (level 0) has them. */
    ungroundedIds?: readonly string[];
    mapLevels?: readonly string[][];
    now?: string;
  },
): void {
  const now = input.now ?? new Date().toISOString();
  const insert = db.prepare(
    'INSERT INTO summaries (run_id, document_id, level, ordinal, text, chunk_count, levels, model, created_at, ungrounded_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    db.prepare('DELETE FROM summaries WHERE run_id = ? AND document_id = ?').run(input.runId, input.documentId);
    insert.run(input.runId, input.documentId, 0, 0, input.text, input.chunkCount, input.levels, input.model, now, JSON.stringify(input.ungroundedIds ?? []));
    (input.mapLevels ?? []).forEach((texts, l) =>
      texts.forEach((t, i) => insert.run(input.runId, input.documentId, l + 1, i, t, input.chunkCount, input.levels, input.model, now, null)),
    );
  })();
}

export function getSummary(db: ReadDb, runId: number, documentId: number): (DocumentSummary & { model: string | null }) | undefined {
  const row = db
    .prepare('SELECT text, chunk_count, levels, model, ungrounded_ids FROM summaries WHERE run_id = ? AND document_id = ? AND level = 0 AND ordinal = 0')
    .get(runId, documentId) as { text: string; chunk_count: number; levels: number; model: string | null; ungrounded_ids: string | null } | undefined;
  // A summary written before the check (NULL) names nothing marked: it was never checked, and is shown as it was.
  return row
    ? {
        text: row.text,
        chunkCount: row.chunk_count,
        levels: row.levels,
        model: row.model,
        ungroundedIds: row.ungrounded_ids ? (JSON.parse(row.ungrounded_ids) as string[]) : [],
      }
    : undefined;
}
