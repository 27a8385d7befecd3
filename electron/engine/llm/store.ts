/**
 * Every SQL statement of the llm module: the call log (llm_calls, one row per
 * attempt), the per-model token calibration and the response cache. Reads take
 * the read handle (ReadDb); the other files of the module call these.
 */
import type { Database } from 'better-sqlite3';
import type { ErrorCode } from '../../../shared/errors';
import type { LlmPurpose } from './types';
import { statement, type ReadDb } from '../store';

// ---- the call log (llm_calls) ----

/** One row of llm_calls: one attempt of one logical call. */
export type LlmCallOutcome = 'ok' | 'retried' | 'failed' | 'cancelled' | 'cached';

export interface LlmCallRecord {
  id?: number;
  callId: string;
  runId: number | null;
  documentId: number | null;
  chunkRef: string | null;
  purpose: LlmPurpose;
  model: string;
  options: Record<string, unknown>;
  promptHash: string;
  estimatedPromptTokens: number | null;
  promptEvalCount: number | null;
  evalCount: number | null;
  totalMs: number | null;
  loadMs: number | null;
  promptEvalMs: number | null;
  evalMs: number | null;
  doneReason: string | null;
  outcome: LlmCallOutcome;
  errorCode: ErrorCode | null;
  errorMessage: string | null;
  attempt: number;
  startedAt: string;
  finishedAt: string;
}

interface Row {
  id: number;
  call_id: string;
  run_id: number | null;
  document_id: number | null;
  chunk_ref: string | null;
  purpose: string;
  model: string;
  options_json: string;
  prompt_hash: string;
  estimated_prompt_tokens: number | null;
  prompt_eval_count: number | null;
  eval_count: number | null;
  total_ms: number | null;
  load_ms: number | null;
  prompt_eval_ms: number | null;
  eval_ms: number | null;
  done_reason: string | null;
  outcome: string;
  error_code: string | null;
  error_message: string | null;
  attempt: number;
  started_at: string;
  finished_at: string;
}

function toRow(r: LlmCallRecord): Omit<Row, 'id'> {
  return {
    call_id: r.callId,
    run_id: r.runId,
    document_id: r.documentId,
    chunk_ref: r.chunkRef,
    purpose: r.purpose,
    model: r.model,
    options_json: JSON.stringify(r.options),
    prompt_hash: r.promptHash,
    estimated_prompt_tokens: r.estimatedPromptTokens,
    prompt_eval_count: r.promptEvalCount,
    eval_count: r.evalCount,
    total_ms: r.totalMs,
    load_ms: r.loadMs,
    prompt_eval_ms: r.promptEvalMs,
    eval_ms: r.evalMs,
    done_reason: r.doneReason,
    outcome: r.outcome,
    error_code: r.errorCode,
    error_message: r.errorMessage,
    attempt: r.attempt,
    started_at: r.startedAt,
    finished_at: r.finishedAt,
  };
}

function fromRow(row: Row): LlmCallRecord {
  return {
    id: row.id,
    callId: row.call_id,
    runId: row.run_id,
    documentId: row.document_id,
    chunkRef: row.chunk_ref,
    purpose: row.purpose as LlmPurpose,
    model: row.model,
    options: JSON.parse(row.options_json) as Record<string, unknown>,
    promptHash: row.prompt_hash,
    estimatedPromptTokens: row.estimated_prompt_tokens,
    promptEvalCount: row.prompt_eval_count,
    evalCount: row.eval_count,
    totalMs: row.total_ms,
    loadMs: row.load_ms,
    promptEvalMs: row.prompt_eval_ms,
    evalMs: row.eval_ms,
    doneReason: row.done_reason,
    outcome: row.outcome as LlmCallOutcome,
    errorCode: row.error_code as ErrorCode | null,
    errorMessage: row.error_message,
    attempt: row.attempt,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/** Column order of INSERT_LLM_CALL; toRow's keys, fixed once so each insert binds positionally (one row per LLM call). */
const INSERT_COLUMNS = Object.keys(toRow({} as LlmCallRecord)) as (keyof Omit<Row, 'id'>)[];
const INSERT_LLM_CALL = `INSERT INTO llm_calls (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map(() => '?').join(', ')})`;

export function insertLlmCall(db: Database, record: LlmCallRecord): number {
  const row = toRow(record);
  const info = statement(db, INSERT_LLM_CALL).run(INSERT_COLUMNS.map((column) => row[column]));
  return Number(info.lastInsertRowid);
}

export function listLlmCalls(db: ReadDb, filter: { runId?: number; documentId?: number; callId?: string; limit?: number } = {}): LlmCallRecord[] {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    where.push(clause);
    params.push(value);
  };
  if (filter.runId !== undefined) add('run_id = ?', filter.runId);
  if (filter.documentId !== undefined) add('document_id = ?', filter.documentId);
  if (filter.callId !== undefined) add('call_id = ?', filter.callId);
  const sql = `SELECT * FROM llm_calls ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id ${filter.limit ? `LIMIT ${Math.floor(filter.limit)}` : ''}`;
  return (db.prepare(sql).all(...params) as Row[]).map(fromRow);
}

export interface LlmCallStats {
  calls: number;
  byOutcome: Record<LlmCallOutcome, number>;
  promptEvalCount: number;
  evalCount: number;
  estimatedPromptTokens: number;
  totalMs: number;
}

/** Totals for the LLM panel and benchmarks. */
export function llmCallStats(db: ReadDb, filter: { runId?: number } = {}): LlmCallStats {
  const where = filter.runId !== undefined ? 'WHERE run_id = ?' : '';
  const params = filter.runId !== undefined ? [filter.runId] : [];
  const rows = db
    .prepare(
      `SELECT outcome, COUNT(*) AS n, COALESCE(SUM(prompt_eval_count), 0) AS pe, COALESCE(SUM(eval_count), 0) AS ev,
              COALESCE(SUM(estimated_prompt_tokens), 0) AS est, COALESCE(SUM(total_ms), 0) AS ms
       FROM llm_calls ${where} GROUP BY outcome`,
    )
    .all(...params) as Array<{ outcome: LlmCallOutcome; n: number; pe: number; ev: number; est: number; ms: number }>;
  const stats: LlmCallStats = {
    calls: 0,
    byOutcome: { ok: 0, retried: 0, failed: 0, cancelled: 0, cached: 0 },
    promptEvalCount: 0,
    evalCount: 0,
    estimatedPromptTokens: 0,
    totalMs: 0,
  };
  for (const r of rows) {
    stats.calls += r.n;
    stats.byOutcome[r.outcome] = r.n;
    stats.promptEvalCount += r.pe;
    stats.evalCount += r.ev;
    stats.estimatedPromptTokens += r.est;
    stats.totalMs += r.ms;
  }
  return stats;
}

/** Call ids of llm_calls rows written after row `afterId` (used when a call threw and returned no record). */
export function llmCallIdsAfter(db: ReadDb, afterId: number, filter: { documentId: number; purposes: readonly string[] }): string[] {
  const rows = db
    .prepare(
      `SELECT DISTINCT call_id FROM llm_calls WHERE id > ? AND document_id = ? AND purpose IN (${filter.purposes.map(() => '?').join(', ')}) ORDER BY id`,
    )
    .all(afterId, filter.documentId, ...filter.purposes) as { call_id: string }[];
  return rows.map((r) => r.call_id);
}

/** What the calls logged after a row spent: model calls (each logical call once, embeddings apart) and their tokens. */
export function llmUsageSince(db: ReadDb, afterRow: number): { calls: number; embedCalls: number; promptTokens: number; evalTokens: number } {
  return db
    .prepare(
      `SELECT COUNT(DISTINCT CASE WHEN purpose <> 'embed' THEN call_id END) AS calls, COUNT(DISTINCT CASE WHEN purpose = 'embed' THEN call_id END) AS embedCalls,
              COALESCE(SUM(prompt_eval_count), 0) AS promptTokens, COALESCE(SUM(eval_count), 0) AS evalTokens
         FROM llm_calls WHERE id > ?`,
    )
    .get(afterRow) as { calls: number; embedCalls: number; promptTokens: number; evalTokens: number };
}

/** The id of the last model call logged, so the calls of what follows are the ones after it. */
export function lastLlmCallRowId(db: ReadDb): number {
  const row = db.prepare('SELECT COALESCE(MAX(id), 0) AS id FROM llm_calls').get() as { id: number };
  return row.id;
}

/** Generation speed of a run's own calls (tokens per second, cached calls excluded), for progress; undefined before the first. */
export function runTokensPerSecond(db: Database, runId: number): number | undefined {
  const row = statement(db, "SELECT SUM(eval_count) AS tokens, SUM(eval_ms) AS ms FROM llm_calls WHERE run_id = ? AND outcome = 'ok' AND eval_ms > 0").get(
    runId,
  ) as {
    tokens: number | null;
    ms: number | null;
  };
  if (!row.tokens || !row.ms) return undefined;
  return Math.round((row.tokens / row.ms) * 1000 * 10) / 10;
}

// ---- token calibration (llm_token_calibration) ----

export interface TokenCalibration {
  factor: number;
  samples: number;
}

export function loadCalibration(db: ReadDb, model: string): TokenCalibration | undefined {
  const row = db.prepare('SELECT factor, samples FROM llm_token_calibration WHERE model = ?').get(model) as TokenCalibration | undefined;
  return row && { factor: row.factor, samples: row.samples };
}

export function saveCalibration(db: Database, model: string, calibration: TokenCalibration, at: string): void {
  statement(
    db,
    `INSERT INTO llm_token_calibration (model, factor, samples, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(model) DO UPDATE SET factor = excluded.factor, samples = excluded.samples, updated_at = excluded.updated_at`,
  ).run(model, calibration.factor, calibration.samples, at);
}

// ---- response cache (llm_cache) ----

/** A cached reply, counting the hit (so it is a write). */
export function getCached(db: Database, key: string, now: number): string | undefined {
  const row = statement(db, 'SELECT content FROM llm_cache WHERE key = ?').get(key) as { content: string } | undefined;
  if (!row) return undefined;
  statement(db, 'UPDATE llm_cache SET hits = hits + 1, last_hit_at = ? WHERE key = ?').run(new Date(now).toISOString(), key);
  return row.content;
}

export function putCached(db: Database, entry: { key: string; model: string; purpose: string; content: string }, now: number): void {
  statement(
    db,
    `INSERT INTO llm_cache (key, model, purpose, content, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET content = excluded.content`,
  ).run(entry.key, entry.model, entry.purpose, entry.content, new Date(now).toISOString());
}
