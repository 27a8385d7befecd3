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

export interface VectorSpace {
  id: number;
  model: string;
  dimension: number;
  tableName: string;
}

export function findVectorSpace(db: Database, model: string): VectorSpace | undefined {
  const row = db.prepare('SELECT id, model, dimension, table_name FROM retrieval_vector_spaces WHERE model = ?').get(model) as
    | { id: number; model: string; dimension: number; table_name: string }
    | undefined;
  return row && { id: row.id, model: row.model, dimension: row.dimension, tableName: row.table_name };
}

/** The space of a model, created on its first vector; a model whose dimension changed (re-pulled) starts a fresh space. */
export function ensureVectorSpace(db: Database, model: string, dimension: number, now: string): VectorSpace {
  ensureVectorExtension(db);
  const existing = findVectorSpace(db, model);
  if (existing && existing.dimension === dimension) return existing;
  return db.transaction(() => {
    if (existing) dropVectorSpace(db, existing);
    const id = Number(
      db.prepare("INSERT INTO retrieval_vector_spaces (model, dimension, table_name, created_at) VALUES (?, ?, '', ?)").run(model, dimension, now).lastInsertRowid,
    );
    // The name is ours (an integer id), never user text.
    const tableName = `retrieval_vec_${id}`;
    // Partitioned by document: a question scoped to a few documents scans only their vectors.
    db.exec(`CREATE VIRTUAL TABLE ${tableName} USING vec0(document_id integer partition key, embedding float[${dimension}] distance_metric=cosine)`);
    db.prepare('UPDATE retrieval_vector_spaces SET table_name = ? WHERE id = ?').run(tableName, id);
    return { id, model, dimension, tableName };
  })();
}

function dropVectorSpace(db: Database, space: VectorSpace): void {
  db.exec(`DROP TABLE IF EXISTS ${space.tableName}`);
  db.prepare('DELETE FROM retrieval_vector_spaces WHERE id = ?').run(space.id);
}

export function putVector(db: Database, space: VectorSpace, unitId: number, documentId: number, vector: readonly number[]): void {
  if (vector.length !== space.dimension) {
    throw new AppError(ErrorCode.RETRIEVAL_VECTOR_UNAVAILABLE, `The embedding model ${space.model} returned ${vector.length} numbers instead of ${space.dimension}. Rebuild the index.`);
  }
  db.prepare(`DELETE FROM ${space.tableName} WHERE rowid = ?`).run(BigInt(unitId));
  db.prepare(`INSERT INTO ${space.tableName} (rowid, document_id, embedding) VALUES (?, ?, ?)`).run(BigInt(unitId), BigInt(documentId), new Float32Array(vector));
}

export function deleteVectors(db: Database, unitIds: readonly number[]): void {
  if (unitIds.length === 0) return;
  const spaces = db.prepare('SELECT table_name FROM retrieval_vector_spaces').all() as { table_name: string }[];
  if (spaces.length === 0) return;
  ensureVectorExtension(db);
  for (const { table_name } of spaces) {
    const del = db.prepare(`DELETE FROM ${table_name} WHERE rowid = ?`);
    for (const id of unitIds) del.run(BigInt(id));
  }
}

/** Nearest units by cosine distance, best first; similarity = 1 - distance. */
export function nearestUnits(db: Database, space: VectorSpace, query: readonly number[], k: number): { unitId: number; similarity: number }[] {
  ensureVectorExtension(db);
  if (query.length !== space.dimension || k <= 0) return [];
  const rows = db
    .prepare(`SELECT rowid, distance FROM ${space.tableName} WHERE embedding MATCH ? AND k = ? ORDER BY distance`)
    .all(new Float32Array(query), k) as { rowid: number; distance: number }[];
  return rows.map((r) => ({ unitId: Number(r.rowid), similarity: 1 - r.distance }));
}

/** Nearest units among some documents' units: one KNN per document partition, merged, so a small document is never crowded out by a large library. */
export function nearestUnitsIn(db: Database, space: VectorSpace, query: readonly number[], k: number, documentIds: readonly number[]): { unitId: number; similarity: number }[] {
  ensureVectorExtension(db);
  if (query.length !== space.dimension || k <= 0) return [];
  const knn = db.prepare(`SELECT rowid, distance FROM ${space.tableName} WHERE embedding MATCH ? AND k = ? AND document_id = ? ORDER BY distance`);
  const vector = new Float32Array(query);
  const rows = [...new Set(documentIds)].flatMap((id) => knn.all(vector, k, BigInt(id)) as { rowid: number; distance: number }[]);
  rows.sort((a, b) => a.distance - b.distance);
  return rows.slice(0, k).map((r) => ({ unitId: Number(r.rowid), similarity: 1 - r.distance }));
}
