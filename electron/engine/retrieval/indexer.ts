/**
 * Keeps the retrieval index current: the lexical part (FTS5) for every unit
 * and, when an embedding model is given, one vector per unit. Incremental
 * (a unit whose text did not change is skipped), resumable (every document's
 * lexical sync and every embedding batch commits on its own, so a crash
 * loses at most the batch in flight) and sequential (one embedding request
 * at a time, like every other model call).
 */
import type { Database } from 'better-sqlite3';
import type { LlmClient } from '../llm';
import { desiredUnits, type UnitSource } from './units';
import { deleteVectors, ensureVectorSpace, findVectorSpace, putVector } from './vectors';
import { throwIfAborted } from '../util';

/** Units per embedding request: few enough that one slow request stays short, many enough to amortise the HTTP round trip. */
export const EMBED_BATCH = 16;
/**
 * One fixed context for every embedding call of a model: a different num_ctx
 * would make Ollama reload the embedding runner. Capped by the model's own
 * limit (all-minilm has 512).
 */
export const EMBED_NUM_CTX = 2048;

export interface IndexProgress {
  phase: 'index';
  current: number;
  total: number;
  message: string;
}

export interface IndexOptions {
  /** Index only these documents (default: all). */
  documentIds?: readonly number[];
  /** Embedding model; without it only the lexical index is kept. */
  embedModel?: string;
  llm?: LlmClient;
  signal?: AbortSignal;
  onProgress?: (p: IndexProgress) => void;
  now?: () => string;
}

export interface IndexStats {
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  embedded: number;
  embedCalls: number;
}

export async function updateIndex(db: Database, options: IndexOptions = {}): Promise<IndexStats> {
  const now = options.now ?? (() => new Date().toISOString());
  const documentIds = options.documentIds ?? (db.prepare('SELECT id FROM documents ORDER BY id').all() as { id: number }[]).map((r) => r.id);
  const stats: IndexStats = { added: 0, updated: 0, removed: 0, unchanged: 0, embedded: 0, embedCalls: 0 };
  for (const documentId of documentIds) {
    checkAborted(options.signal);
    const s = syncLexical(db, documentId, desiredUnits(db, documentId), now());
    stats.added += s.added;
    stats.updated += s.updated;
    stats.removed += s.removed;
    stats.unchanged += s.unchanged;
  }
  if (options.embedModel && options.llm) {
    const e = await embedMissing(db, options.llm, options.embedModel, documentIds, options, now);
    stats.embedded = e.embedded;
    stats.embedCalls = e.calls;
  }
  return stats;
}

function checkAborted(signal: AbortSignal | undefined): void {
  throwIfAborted(signal);
}

/** One document's units, FTS rows and stale vectors brought in line with what it holds now, in one transaction. */
export function syncLexical(db: Database, documentId: number, desired: readonly UnitSource[], now: string): { added: number; updated: number; removed: number; unchanged: number } {
  return db.transaction(() => {
    const existing = new Map(
      (db.prepare('SELECT id, kind, source_key, content_hash FROM retrieval_units WHERE document_id = ?').all(documentId) as { id: number; kind: string; source_key: string; content_hash: string }[]).map(
        (r) => [`${r.kind}|${r.source_key}`, r],
      ),
    );
    const insert = db.prepare(
      `INSERT INTO retrieval_units (document_id, kind, source_key, tree_id, node_index, merged_finding_id, title, path_json, start_offset, end_offset, page_start, page_end, content_hash, indexed_at)
       VALUES (@documentId, @kind, @sourceKey, @treeId, @nodeIndex, @mergedFindingId, @title, @pathJson, @start, @end, @pageStart, @pageEnd, @contentHash, @now)`,
    );
    const update = db.prepare(
      `UPDATE retrieval_units SET title = @title, path_json = @pathJson, start_offset = @start, end_offset = @end, page_start = @pageStart, page_end = @pageEnd,
              content_hash = @contentHash, indexed_at = @now WHERE id = @id`,
    );
    const putFts = db.prepare('INSERT INTO retrieval_fts (rowid, title, body) VALUES (?, ?, ?)');
    const delFts = db.prepare('DELETE FROM retrieval_fts WHERE rowid = ?');
    const counts = { added: 0, updated: 0, removed: 0, unchanged: 0 };
    const stale: number[] = [];
    for (const u of desired) {
      const key = `${u.kind}|${u.sourceKey}`;
      const row = existing.get(key);
      existing.delete(key);
      const params = { ...u, pathJson: JSON.stringify(u.path), now };
      const ftsTitle = [...u.path, u.title].join(' / ');
      if (!row) {
        const id = Number(insert.run(params).lastInsertRowid);
        putFts.run(BigInt(id), ftsTitle, u.body);
        counts.added++;
      } else if (row.content_hash !== u.contentHash) {
        update.run({ ...params, id: row.id });
        delFts.run(BigInt(row.id));
        putFts.run(BigInt(row.id), ftsTitle, u.body);
        // Its vectors describe the old text; the embedding rows go with the hash check, the vectors here.
        db.prepare('DELETE FROM retrieval_embeddings WHERE unit_id = ?').run(row.id);
        stale.push(row.id);
        counts.updated++;
      } else {
        counts.unchanged++;
      }
    }
    const gone = [...existing.values()].map((r) => r.id);
    for (const id of gone) {
      delFts.run(BigInt(id));
      db.prepare('DELETE FROM retrieval_units WHERE id = ?').run(id);
    }
    counts.removed = gone.length;
    deleteVectors(db, [...stale, ...gone]);
    return counts;
  })();
}

/** The text an embedding describes: where it sits and what it says, cut to fit the embedding model's context. */
export function embeddingInput(title: string, path: readonly string[], body: string, fits: (text: string) => boolean): string {
  const head = [...path, title].filter((s) => s.trim() !== '').join(' > ');
  let text = head ? `${head}\n${body}` : body;
  while (text.length > 200 && !fits(text)) text = text.slice(0, Math.floor(text.length * 0.8));
  return text;
}

async function embedMissing(
  db: Database,
  llm: LlmClient,
  model: string,
  documentIds: readonly number[],
  options: IndexOptions,
  now: () => string,
): Promise<{ embedded: number; calls: number }> {
  const numCtx = await embedContext(llm, model, options.signal);
  const space = findVectorSpace(db, model);
  const todo = db
    .prepare(
      `SELECT u.id, u.title, u.path_json, u.content_hash, u.document_id, u.kind, u.start_offset, u.end_offset
         FROM retrieval_units u
        WHERE u.document_id IN (SELECT value FROM json_each(?))
          AND NOT EXISTS (SELECT 1 FROM retrieval_embeddings e WHERE e.unit_id = u.id AND e.space_id = ? AND e.content_hash = u.content_hash)
        ORDER BY u.document_id, u.id`,
    )
    .all(JSON.stringify(documentIds), space?.id ?? -1) as { id: number; title: string; path_json: string; content_hash: string; document_id: number }[];
  const fits = (text: string) => llm.estimator.estimateText(text, model) <= Math.floor(numCtx * 0.9);
  const body = db.prepare('SELECT body FROM retrieval_fts WHERE rowid = ?');
  let embedded = 0;
  let calls = 0;
  for (let i = 0; i < todo.length; i += EMBED_BATCH) {
    checkAborted(options.signal);
    const batch = todo.slice(i, i + EMBED_BATCH);
    const inputs = batch.map((u) => embeddingInput(u.title, JSON.parse(u.path_json) as string[], (body.get(BigInt(u.id)) as { body: string }).body, fits));
    options.onProgress?.({ phase: 'index', current: i, total: todo.length, message: `Embedding passages ${i + 1}-${i + batch.length} of ${todo.length}` });
    const r = await llm.embed({ model, input: inputs, numCtx, chunkRef: 'retrieval-index', ...(options.signal ? { signal: options.signal } : {}) });
    calls++;
    const dimension = r.embeddings[0]?.length ?? 0;
    if (dimension === 0) continue;
    db.transaction(() => {
      const target = ensureVectorSpace(db, model, dimension, now());
      const mark = db.prepare('INSERT OR REPLACE INTO retrieval_embeddings (unit_id, space_id, content_hash, call_id, embedded_at) VALUES (?, ?, ?, ?, ?)');
      batch.forEach((u, j) => {
        putVector(db, target, u.id, u.document_id, r.embeddings[j]!);
        mark.run(u.id, target.id, u.content_hash, r.call.callId, now());
      });
    })();
    embedded += batch.length;
  }
  options.onProgress?.({ phase: 'index', current: todo.length, total: todo.length, message: `Index up to date (${embedded} passages embedded)` });
  return { embedded, calls };
}

/** The embedding context for a model: EMBED_NUM_CTX, or less when the model was trained on less. */
export async function embedContext(llm: LlmClient, model: string, signal?: AbortSignal): Promise<number> {
  const info = await llm.modelInfo(model, signal);
  return Math.min(EMBED_NUM_CTX, info.contextLength ?? EMBED_NUM_CTX);
}
