/**
 * Repository for per-chunk results and raw findings (migration 0040).
 *
 * Crash safety: `commitChunkResult` writes a chunk's findings and marks the
 * chunk done in ONE transaction, so after a kill -9 a chunk is either done
 * with all its findings or not done with none. It is idempotent: committing
 * the same chunk again replaces its findings (same run, document, node,
 * ordinal), never duplicates them.
 */
import type { ReadDb } from '../store';
import type { Database } from 'better-sqlite3';
import type { ErrorInfo } from '../../../shared/errors';
import type { GroundedFinding, MatchKind, StoredFinding } from '../../../shared/findings';

export type ChunkStatus = 'queued' | 'running' | 'done' | 'failed';

export interface ChunkRef {
  runId: number;
  documentId: number;
  treeId: number;
  nodeIndex: number;
}

export interface ChunkResult extends ChunkRef {
  status: ChunkStatus;
  attempts: number;
  error: ErrorInfo | null;
  summary: string | null;
  findingCount: number;
  llmCalls: number;
  callIds: string[];
  pieces: number;
  startedAt: string | null;
  finishedAt: string | null;
}

interface ChunkResultRow {
  run_id: number;
  document_id: number;
  tree_id: number;
  node_index: number;
  status: ChunkStatus;
  attempts: number;
  error_code: string | null;
  error_message: string | null;
  summary: string | null;
  finding_count: number;
  llm_calls: number;
  call_ids_json: string;
  pieces: number;
  started_at: string | null;
  finished_at: string | null;
}

const toChunkResult = (r: ChunkResultRow): ChunkResult => ({
  runId: r.run_id,
  documentId: r.document_id,
  treeId: r.tree_id,
  nodeIndex: r.node_index,
  status: r.status,
  attempts: r.attempts,
  error: r.error_code === null ? null : ({ code: r.error_code, message: r.error_message ?? '' } as ErrorInfo),
  summary: r.summary,
  findingCount: r.finding_count,
  llmCalls: r.llm_calls,
  callIds: JSON.parse(r.call_ids_json) as string[],
  pieces: r.pieces,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});

const nowIso = () => new Date().toISOString();

/** Creates `queued` rows for the given leaves; existing rows (done, failed...) are left alone. */
export function queueChunks(db: Database, ref: Omit<ChunkRef, 'nodeIndex'>, nodeIndexes: readonly number[]): void {
  const insert = db.prepare(
    "INSERT INTO chunk_results (run_id, document_id, tree_id, node_index, status) VALUES (?, ?, ?, ?, 'queued') ON CONFLICT DO NOTHING",
  );
  db.transaction(() => {
    for (const i of nodeIndexes) insert.run(ref.runId, ref.documentId, ref.treeId, i);
  })();
}

/** Marks a chunk running and counts the attempt (creating the row if needed). */
export function markChunkRunning(db: Database, ref: ChunkRef, now = nowIso()): void {
  db.prepare(
    `INSERT INTO chunk_results (run_id, document_id, tree_id, node_index, status, attempts, started_at)
     VALUES (?, ?, ?, ?, 'running', 1, ?)
     ON CONFLICT (run_id, document_id, node_index) DO UPDATE SET
       status = 'running', tree_id = excluded.tree_id, attempts = attempts + 1, started_at = excluded.started_at,
       error_code = NULL, error_message = NULL, finished_at = NULL`,
  ).run(ref.runId, ref.documentId, ref.treeId, ref.nodeIndex, now);
}

export function markChunkFailed(db: Database, ref: ChunkRef, error: ErrorInfo, now = nowIso()): void {
  db.prepare(
    `INSERT INTO chunk_results (run_id, document_id, tree_id, node_index, status, attempts, error_code, error_message, finished_at)
     VALUES (?, ?, ?, ?, 'failed', 1, ?, ?, ?)
     ON CONFLICT (run_id, document_id, node_index) DO UPDATE SET
       status = 'failed', tree_id = excluded.tree_id, error_code = excluded.error_code,
       error_message = excluded.error_message, finished_at = excluded.finished_at`,
  ).run(ref.runId, ref.documentId, ref.treeId, ref.nodeIndex, error.code, error.message, now);
}

/** Chunks that were running when the process died go back to queued (call on resume). */
export function requeueRunningChunks(db: Database, runId: number): number {
  return db.prepare("UPDATE chunk_results SET status = 'queued' WHERE run_id = ? AND status = 'running'").run(runId).changes;
}

export interface CommitChunkInput extends ChunkRef {
  findings: readonly GroundedFinding[];
  summary: string;
  /** LLM calls made for the chunk and their call ids. */
  calls?: number;
  callIds?: readonly string[];
  pieces?: number;
  now?: string;
}

/** Writes the chunk's findings and marks it done, in one transaction; replaces a previous commit of the same chunk. */
export function commitChunkResult(db: Database, input: CommitChunkInput): { findingIds: number[] } {
  const now = input.now ?? nowIso();
  const del = db.prepare('DELETE FROM findings WHERE run_id = ? AND document_id = ? AND node_index = ?');
  const insert = findingInserter(db);
  const upsert = db.prepare(
    `INSERT INTO chunk_results (run_id, document_id, tree_id, node_index, status, attempts, summary, finding_count, llm_calls,
       call_ids_json, pieces, started_at, finished_at)
     VALUES (?, ?, ?, ?, 'done', 1, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (run_id, document_id, node_index) DO UPDATE SET
       status = 'done', tree_id = excluded.tree_id, summary = excluded.summary, finding_count = excluded.finding_count,
       llm_calls = excluded.llm_calls, call_ids_json = excluded.call_ids_json, pieces = excluded.pieces,
       error_code = NULL, error_message = NULL, finished_at = excluded.finished_at`,
  );
  return db.transaction(() => {
    del.run(input.runId, input.documentId, input.nodeIndex);
    const findingIds = input.findings.map((f, ordinal) => insert(input, ordinal, f, now));
    upsert.run(
      input.runId,
      input.documentId,
      input.treeId,
      input.nodeIndex,
      input.summary,
      input.findings.length,
      input.calls ?? input.callIds?.length ?? 0,
      JSON.stringify(input.callIds ?? []),
      input.pieces ?? 1,
      now,
      now,
    );
    return { findingIds };
  })();
}

/** Inserts one finding row of a chunk at a position of its reply; returns its row id. */
function findingInserter(db: Database): (ref: ChunkRef, ordinal: number, f: GroundedFinding, now: string) => number {
  const insert = db.prepare(
    `INSERT INTO findings (run_id, document_id, tree_id, node_index, ordinal, reported_id, finding_key, printed_number, type, title,
       severity, severity_canonical, severity_rank, description, evidence, reported_page, grounding, match, score, evidence_start,
       evidence_end, page, in_context_only, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return (ref, ordinal, f, now) => {
    const g = f.grounding;
    return Number(
      insert.run(
        ref.runId,
        ref.documentId,
        ref.treeId,
        ref.nodeIndex,
        ordinal,
        f.id,
        f.findingKey,
        f.printedNumber,
        f.type,
        f.title,
        f.severity,
        f.severityCanonical,
        f.severityRank,
        f.description,
        f.evidence,
        f.page,
        g.status,
        g.match,
        g.score,
        g.start,
        g.end,
        g.page ?? f.page,
        g.inContextOnly ? 1 : 0,
        now,
      ).lastInsertRowid,
    );
  };
}

/**
 * Adds findings to chunks already done, after their own reply's (the document's follow-up calls for IDs no finding
 * covered), with the call that found them, in one transaction: a kill keeps a batch whole or not at all.
 */
export function appendChunkFindings(
  db: Database,
  input: { chunks: readonly (ChunkRef & { findings: readonly GroundedFinding[] })[]; callIds: readonly string[]; now?: string },
): void {
  const now = input.now ?? nowIso();
  const insert = findingInserter(db);
  const next = db.prepare('SELECT COALESCE(MAX(ordinal) + 1, 0) AS n FROM findings WHERE run_id = ? AND document_id = ? AND node_index = ?');
  const chunk = db.prepare('SELECT call_ids_json AS ids FROM chunk_results WHERE run_id = ? AND document_id = ? AND node_index = ?');
  const update = db.prepare(
    'UPDATE chunk_results SET finding_count = finding_count + ?, llm_calls = llm_calls + ?, call_ids_json = ? WHERE run_id = ? AND document_id = ? AND node_index = ?',
  );
  db.transaction(() => {
    input.chunks.forEach((c, i) => {
      const first = (next.get(c.runId, c.documentId, c.nodeIndex) as { n: number }).n;
      c.findings.forEach((f, k) => insert(c, first + k, f, now));
      // The calls are recorded once, on the first chunk that got findings from them.
      const calls = i === 0 ? input.callIds : [];
      const ids = JSON.parse((chunk.get(c.runId, c.documentId, c.nodeIndex) as { ids: string | null } | undefined)?.ids ?? '[]') as string[];
      update.run(c.findings.length, calls.length, JSON.stringify([...ids, ...calls]), c.runId, c.documentId, c.nodeIndex);
    });
  })();
}

/**
 * Commits an extraction unit: every leaf's findings and done mark in ONE
 * transaction, so after a kill a unit is either done with all its leaves or
 * not at all, and a resume redoes it whole. The unit's summary and calls are
 * recorded on its first leaf.
 */
export function commitUnitResult(db: Database, leaves: readonly CommitChunkInput[]): void {
  db.transaction(() => {
    for (const leaf of leaves) commitChunkResult(db, leaf);
  })();
}

export function getChunkResult(db: ReadDb, runId: number, documentId: number, nodeIndex: number): ChunkResult | undefined {
  const row = db.prepare('SELECT * FROM chunk_results WHERE run_id = ? AND document_id = ? AND node_index = ?').get(runId, documentId, nodeIndex) as
    | ChunkResultRow
    | undefined;
  return row ? toChunkResult(row) : undefined;
}

export function listChunkResults(db: ReadDb, runId: number, documentId?: number): ChunkResult[] {
  const rows = (
    documentId === undefined
      ? db.prepare('SELECT * FROM chunk_results WHERE run_id = ? ORDER BY document_id, node_index').all(runId)
      : db.prepare('SELECT * FROM chunk_results WHERE run_id = ? AND document_id = ? ORDER BY node_index').all(runId, documentId)
  ) as ChunkResultRow[];
  return rows.map(toChunkResult);
}

/** The chunk summaries of a document in node order (done chunks only), for the summary stage. */
export function listChunkSummaries(db: ReadDb, runId: number, documentId: number): string[] {
  return (
    db.prepare("SELECT summary FROM chunk_results WHERE run_id = ? AND document_id = ? AND status = 'done' ORDER BY node_index").all(runId, documentId) as {
      summary: string | null;
    }[]
  )
    .map((r) => r.summary ?? '')
    .filter((s) => s.trim().length > 0);
}

interface FindingRow {
  id: number;
  run_id: number;
  document_id: number;
  tree_id: number;
  node_index: number;
  ordinal: number;
  reported_id: string | null;
  finding_key: string | null;
  printed_number: string | null;
  type: string;
  title: string;
  severity: string;
  severity_canonical: string | null;
  severity_rank: number;
  description: string;
  evidence: string;
  reported_page: number | null;
  grounding: 'grounded' | 'ungrounded';
  match: MatchKind | null;
  score: number | null;
  evidence_start: number | null;
  evidence_end: number | null;
  page: number | null;
  in_context_only: number;
}

export const toStoredFinding = (r: FindingRow): StoredFinding => ({
  findingId: r.id,
  runId: r.run_id,
  documentId: r.document_id,
  treeId: r.tree_id,
  nodeIndex: r.node_index,
  ordinal: r.ordinal,
  id: r.reported_id,
  findingKey: r.finding_key,
  printedNumber: r.printed_number,
  type: r.type,
  title: r.title,
  severity: r.severity,
  severityCanonical: r.severity_canonical,
  severityRank: r.severity_rank,
  description: r.description,
  evidence: r.evidence,
  page: r.reported_page,
  grounding: {
    status: r.grounding,
    match: r.match,
    score: r.score,
    start: r.evidence_start,
    end: r.evidence_end,
    page: r.grounding === 'grounded' ? r.page : null,
    inContextOnly: r.in_context_only === 1,
  },
});

/** Raw findings of a run (optionally one document), in document then chunk then reply order. */
export function listFindings(db: ReadDb, runId: number, documentId?: number): StoredFinding[] {
  const rows = (
    documentId === undefined
      ? db.prepare('SELECT * FROM findings WHERE run_id = ? ORDER BY document_id, node_index, ordinal').all(runId)
      : db.prepare('SELECT * FROM findings WHERE run_id = ? AND document_id = ? ORDER BY node_index, ordinal').all(runId, documentId)
  ) as FindingRow[];
  return rows.map(toStoredFinding);
}
