/**
 * Vectors in the same SQLite file as everything else, with sqlite-vec. A vec0
 * table has a fixed dimension, so each embedding model gets its own table
 * (a "space"); switching models keeps the old vectors until they are pruned
 * and never mixes dimensions. The extension is loaded per connection.
 */
import type { Database } from 'better-sqlite3';
import { sep } from 'node:path';
import { getLoadablePath } from 'sqlite-vec';
import { AppError, ErrorCode } from '../../../shared/errors';
import { createVectorSpace, deleteVectorRows, dropVectorSpace, knn, replaceVector, selectVectorSpace, vectorTableNames, type VectorSpace } from './store';

const loaded = new WeakSet<Database>();

/** Loads sqlite-vec into this connection once. */
export function ensureVectorExtension(db: Database): void {
  if (loaded.has(db)) return;
  try {
    // Inside a packaged app the extension is unpacked next to the asar archive (electron-builder.yml asarUnpack): dlopen cannot read an archive.
    db.loadExtension(getLoadablePath().replace(`app.asar${sep}`, `app.asar.unpacked${sep}`));
  } catch (error) {
    throw new AppError(
      ErrorCode.RETRIEVAL_VECTOR_UNAVAILABLE,
      `The vector search extension (sqlite-vec) could not be loaded: ${(error as Error).message}. Reinstall the app; asking still works from the text index.`,
      {},
      { cause: error },
    );
  }
  loaded.add(db);
}

export type { VectorSpace };

export function findVectorSpace(db: Database, model: string): VectorSpace | undefined {
  return selectVectorSpace(db, model);
}

/** The space of a model, created on its first vector; a model whose dimension changed (re-pulled) starts a fresh space. */
export function ensureVectorSpace(db: Database, model: string, dimension: number, now: string): VectorSpace {
  ensureVectorExtension(db);
  const existing = findVectorSpace(db, model);
  if (existing && existing.dimension === dimension) return existing;
  return db.transaction(() => {
    if (existing) dropVectorSpace(db, existing);
    return createVectorSpace(db, model, dimension, now);
  })();
}

export function putVector(db: Database, space: VectorSpace, unitId: number, documentId: number, vector: readonly number[]): void {
  if (vector.length !== space.dimension) {
    throw new AppError(
      ErrorCode.RETRIEVAL_VECTOR_UNAVAILABLE,
      `The embedding model ${space.model} returned ${vector.length} numbers instead of ${space.dimension}. Rebuild the index.`,
    );
  }
  replaceVector(db, space, unitId, documentId, new Float32Array(vector));
}

export function deleteVectors(db: Database, unitIds: readonly number[]): void {
  if (unitIds.length === 0) return;
  const tables = vectorTableNames(db);
  if (tables.length === 0) return;
  ensureVectorExtension(db);
  for (const table of tables) deleteVectorRows(db, table, unitIds);
}

/** Nearest units by cosine distance, best first; similarity = 1 - distance. */
export function nearestUnits(db: Database, space: VectorSpace, query: readonly number[], k: number): { unitId: number; similarity: number }[] {
  ensureVectorExtension(db);
  if (query.length !== space.dimension || k <= 0) return [];
  return knn(db, space, new Float32Array(query), k).map((r) => ({ unitId: r.unitId, similarity: 1 - r.distance }));
}

/** Nearest units among some documents' units: one KNN per document partition, merged, so a small document is never crowded out by a large library. */
export function nearestUnitsIn(
  db: Database,
  space: VectorSpace,
  query: readonly number[],
  k: number,
  documentIds: readonly number[],
): { unitId: number; similarity: number }[] {
  ensureVectorExtension(db);
  if (query.length !== space.dimension || k <= 0) return [];
  const vector = new Float32Array(query);
  const rows = [...new Set(documentIds)].flatMap((id) => knn(db, space, vector, k, id));
  rows.sort((a, b) => a.distance - b.distance);
  return rows.slice(0, k).map((r) => ({ unitId: r.unitId, similarity: 1 - r.distance }));
}
