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
import { embeddingMarker, indexedUnitKeys, listDocumentIds, unitIndexedText, unitsWithoutEmbedding, unitWriter, type UnitSource } from './store';
import { desiredUnits } from './units';
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
  const documentIds = options.documentIds ?? listDocumentIds(db);
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
export function syncLexical(
  db: Database,
  documentId: number,
  desired: readonly UnitSource[],
  now: string,
): { added: number; updated: number; removed: number; unchanged: number } {
  return db.transaction(() => {
    const existing = new Map(indexedUnitKeys(db, documentId).map((r) => [`${r.kind}|${r.sourceKey}`, r]));
    const units = unitWriter(db, now);
    const counts = { added: 0, updated: 0, removed: 0, unchanged: 0 };
    const stale: number[] = [];
    for (const u of desired) {
      const key = `${u.kind}|${u.sourceKey}`;
      const row = existing.get(key);
      existing.delete(key);
      const write = { ...u, ftsTitle: [...u.path, u.title].join(' / ') };
      if (!row) {
        units.insert(write);
        counts.added++;
      } else if (row.contentHash !== u.contentHash) {
        // Its vectors describe the old text; the embedding rows go with the update, the vectors here.
        units.update(row.id, write);
        stale.push(row.id);
        counts.updated++;
      } else {
        counts.unchanged++;
      }
    }
    const gone = [...existing.values()].map((r) => r.id);
    for (const id of gone) units.remove(id);
    counts.removed = gone.length;
    deleteVectors(db, [...stale, ...gone]);
    return counts;
  })();
}

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
  const todo = unitsWithoutEmbedding(db, documentIds, space?.id);
  const fits = (text: string) => llm.estimator.estimateText(text, model) <= Math.floor(numCtx * 0.9);
  const indexedText = unitIndexedText(db);
  let embedded = 0;
  let calls = 0;
  for (let i = 0; i < todo.length; i += EMBED_BATCH) {
    checkAborted(options.signal);
    const batch = todo.slice(i, i + EMBED_BATCH);
    const inputs = batch.map((u) => embeddingInput(u.title, u.path, indexedText(u.id)!.body, fits));
    options.onProgress?.({ phase: 'index', current: i, total: todo.length, message: `Embedding passages ${i + 1}-${i + batch.length} of ${todo.length}` });
    const r = await llm.embed({ model, input: inputs, numCtx, chunkRef: 'retrieval-index', ...(options.signal ? { signal: options.signal } : {}) });
    calls++;
    const dimension = r.embeddings[0]?.length ?? 0;
    if (dimension === 0) continue;
    db.transaction(() => {
      const target = ensureVectorSpace(db, model, dimension, now());
      const mark = embeddingMarker(db);
      batch.forEach((u, j) => {
        putVector(db, target, u.id, u.documentId, r.embeddings[j]!);
        mark(u.id, target.id, u.contentHash, r.call.callId, now());
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
