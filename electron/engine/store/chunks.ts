import type { Database } from 'better-sqlite3';
import type { ReadDb } from './db';
import type { ChunkNode, ChunkOrigin } from '../../../shared/types';

export interface StoredTree {
  id: number;
  documentId: number;
  strategy: string;
  params: Record<string, unknown>;
  createdAt: string;
}

interface ChunkRow {
  node_index: number;
  parent_index: number | null;
  title: string;
  level: number;
  path_json: string;
  start_offset: number;
  end_offset: number;
  page_start: number;
  page_end: number;
  token_estimate: number;
  origin: ChunkOrigin;
  is_leaf: number;
  overlap_before: number;
}

const toNode = (row: ChunkRow): ChunkNode => ({
  index: row.node_index,
  parentIndex: row.parent_index,
  title: row.title,
  section: { level: row.level, path: JSON.parse(row.path_json) as string[] },
  start: row.start_offset,
  end: row.end_offset,
  pageStart: row.page_start,
  pageEnd: row.page_end,
  tokenEstimate: row.token_estimate,
  origin: row.origin,
  isLeaf: row.is_leaf === 1,
  overlapBefore: row.overlap_before,
});

/**
 * Stores a chunk tree and makes it the document's current one. A tree built
 * with the same parameters before (same `paramsHash`) is reused, so re-running
 * a document does not pile up identical trees.
 */
export function saveChunkTree(
  db: Database,
  input: { documentId: number; strategy: string; params: Record<string, unknown>; paramsHash: string; nodes: readonly ChunkNode[] },
  now: string,
): { treeId: number; reused: boolean } {
  return db.transaction(() => {
    const existing = db.prepare('SELECT id FROM chunk_trees WHERE document_id = ? AND params_hash = ?').get(input.documentId, input.paramsHash) as
      | { id: number }
      | undefined;
    const treeId =
      existing?.id ??
      Number(
        db
          .prepare('INSERT INTO chunk_trees (document_id, strategy, params_json, params_hash, created_at) VALUES (?, ?, ?, ?, ?)')
          .run(input.documentId, input.strategy, JSON.stringify(input.params), input.paramsHash, now).lastInsertRowid,
      );
    if (!existing) {
      const insert = db.prepare(
        `INSERT INTO chunks (tree_id, node_index, parent_index, title, level, path_json, start_offset, end_offset,
                             page_start, page_end, token_estimate, origin, is_leaf, overlap_before)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const node of input.nodes) {
        insert.run(
          treeId,
          node.index,
          node.parentIndex,
          node.title,
          node.section.level,
          JSON.stringify(node.section.path),
          node.start,
          node.end,
          node.pageStart,
          node.pageEnd,
          node.tokenEstimate,
          node.origin,
          node.isLeaf ? 1 : 0,
          node.overlapBefore,
        );
      }
    }
    db.prepare('UPDATE chunk_trees SET is_current = 0 WHERE document_id = ? AND id != ?').run(input.documentId, treeId);
    db.prepare('UPDATE chunk_trees SET is_current = 1 WHERE id = ?').run(treeId);
    return { treeId, reused: existing !== undefined };
  })();
}

/** The strategy a stored tree was built with. */
export function treeStrategy(db: ReadDb, treeId: number): string | undefined {
  return (db.prepare('SELECT strategy FROM chunk_trees WHERE id = ?').get(treeId) as { strategy: string } | undefined)?.strategy;
}

export function getCurrentTree(db: ReadDb, documentId: number): StoredTree | undefined {
  const row = db
    .prepare('SELECT id, document_id, strategy, params_json, created_at FROM chunk_trees WHERE document_id = ? AND is_current = 1')
    .get(documentId) as { id: number; document_id: number; strategy: string; params_json: string; created_at: string } | undefined;
  return (
    row && {
      id: row.id,
      documentId: row.document_id,
      strategy: row.strategy,
      params: JSON.parse(row.params_json) as Record<string, unknown>,
      createdAt: row.created_at,
    }
  );
}

export function loadChunks(db: ReadDb, treeId: number): ChunkNode[] {
  return (db.prepare('SELECT * FROM chunks WHERE tree_id = ? ORDER BY node_index').all(treeId) as ChunkRow[]).map(toNode);
}
