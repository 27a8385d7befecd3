/** Repository of the chunking judge's decisions (table judge_decisions, migration 0030). */
import type { ReadDb } from '../store';
import type { Database } from 'better-sqlite3';
import type { ChunkStrategyChoice, DocumentFacts, JudgeDecision, JudgeSource } from '../../../shared/treesplit';

interface Row {
  id: number;
  document_sha256: string;
  settings_hash: string;
  document_id: number;
  strategy: string;
  params_json: string;
  justification: string;
  source: string;
  fallback_reason: string | null;
  facts_json: string;
  llm_call_ids_json: string;
  created_at: string;
}

function fromRow(row: Row, cached = false): JudgeDecision {
  const params = JSON.parse(row.params_json) as { targetChunkTokens: number; overlapChars: number };
  return {
    id: row.id,
    documentId: row.document_id,
    documentSha256: row.document_sha256,
    settingsHash: row.settings_hash,
    strategy: row.strategy as ChunkStrategyChoice,
    targetChunkTokens: params.targetChunkTokens,
    overlapChars: params.overlapChars,
    justification: row.justification,
    source: row.source as JudgeSource,
    fallbackReason: row.fallback_reason,
    cached,
    llmCallIds: JSON.parse(row.llm_call_ids_json) as string[],
    facts: JSON.parse(row.facts_json) as DocumentFacts,
    createdAt: row.created_at,
  };
}

export function insertJudgeDecision(db: Database, d: JudgeDecision): number {
  const info = db
    .prepare(
      `INSERT INTO judge_decisions (document_sha256, settings_hash, document_id, strategy, params_json, justification, source, fallback_reason, facts_json, llm_call_ids_json, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      d.documentSha256,
      d.settingsHash,
      d.documentId,
      d.strategy,
      JSON.stringify({ targetChunkTokens: d.targetChunkTokens, overlapChars: d.overlapChars }),
      d.justification,
      d.source,
      d.fallbackReason,
      JSON.stringify(d.facts),
      JSON.stringify(d.llmCallIds),
      d.createdAt,
    );
  return Number(info.lastInsertRowid);
}

/** The latest decision the LLM made for this content and these settings (the cache); fallbacks are not reused. */
export function findCachedJudgeDecision(db: ReadDb, documentSha256: string, settingsHash: string): JudgeDecision | undefined {
  const row = db
    .prepare(`SELECT * FROM judge_decisions WHERE document_sha256 = ? AND settings_hash = ? AND source = 'llm' ORDER BY id DESC LIMIT 1`)
    .get(documentSha256, settingsHash) as Row | undefined;
  return row ? fromRow(row, true) : undefined;
}

/** The current decision of a document (the latest stored, whatever its source). */
export function latestJudgeDecision(db: ReadDb, documentId: number): JudgeDecision | undefined {
  const row = db.prepare('SELECT * FROM judge_decisions WHERE document_id = ? ORDER BY id DESC LIMIT 1').get(documentId) as Row | undefined;
  return row ? fromRow(row) : undefined;
}

export function listJudgeDecisions(db: ReadDb, documentId: number): JudgeDecision[] {
  return (db.prepare('SELECT * FROM judge_decisions WHERE document_id = ? ORDER BY id').all(documentId) as Row[]).map((r) => fromRow(r));
}
