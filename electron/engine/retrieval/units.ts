/**
 * Search units: what the index holds and what a citation can point to. A
 * unit is a leaf chunk of a document's current tree, or a merged finding of
 * the document's latest run (title, description and evidence, so "which
 * findings mention X" works). Every unit keeps the canonical-text region its
 * citations must be grounded in: the chunk itself, or the chunk the finding's
 * evidence came from (never the model's own description).
 */
import type { Database } from 'better-sqlite3';
import { sha256 } from '../util';
import { getCurrentTree, loadChunks } from '../store';

export interface UnitSource {
  kind: 'chunk' | 'finding';
  sourceKey: string;
  documentId: number;
  treeId: number | null;
  nodeIndex: number | null;
  mergedFindingId: number | null;
  title: string;
  path: string[];
  start: number;
  end: number;
  pageStart: number;
  pageEnd: number;
  /** The words indexed (FTS body, embedding input). */
  body: string;
  contentHash: string;
}

/** A unit as the index stores it: its source without the indexed words (those live in the FTS table). */
export type StoredUnit = Omit<UnitSource, 'sourceKey' | 'body'> & { id: number };

interface UnitRow {
  id: number;
  document_id: number;
  kind: 'chunk' | 'finding';
  tree_id: number | null;
  node_index: number | null;
  merged_finding_id: number | null;
  title: string;
  path_json: string;
  start_offset: number;
  end_offset: number;
  page_start: number;
  page_end: number;
  content_hash: string;
}

export const UNIT_COLUMNS = 'id, document_id, kind, tree_id, node_index, merged_finding_id, title, path_json, start_offset, end_offset, page_start, page_end, content_hash';

export const toUnit = (r: UnitRow): StoredUnit => ({
  id: r.id,
  documentId: r.document_id,
  kind: r.kind,
  treeId: r.tree_id,
  nodeIndex: r.node_index,
  mergedFindingId: r.merged_finding_id,
  title: r.title,
  path: JSON.parse(r.path_json) as string[],
  start: r.start_offset,
  end: r.end_offset,
  pageStart: r.page_start,
  pageEnd: r.page_end,
  contentHash: r.content_hash,
});

export function loadUnits(db: Database, ids: readonly number[]): Map<number, StoredUnit> {
  const out = new Map<number, StoredUnit>();
  if (ids.length === 0) return out;
  const rows = db.prepare(`SELECT ${UNIT_COLUMNS} FROM retrieval_units WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as UnitRow[];
  for (const r of rows) out.set(r.id, toUnit(r));
  return out;
}

/** The leaves before and after a chunk unit in its tree (the hierarchy-aware neighbours). */
export function neighbourUnits(db: Database, unit: StoredUnit): { before: StoredUnit | undefined; after: StoredUnit | undefined } {
  if (unit.kind !== 'chunk' || unit.treeId === null || unit.nodeIndex === null) return { before: undefined, after: undefined };
  const before = db
    .prepare(`SELECT ${UNIT_COLUMNS} FROM retrieval_units WHERE tree_id = ? AND kind = 'chunk' AND node_index < ? ORDER BY node_index DESC LIMIT 1`)
    .get(unit.treeId, unit.nodeIndex) as UnitRow | undefined;
  const after = db
    .prepare(`SELECT ${UNIT_COLUMNS} FROM retrieval_units WHERE tree_id = ? AND kind = 'chunk' AND node_index > ? ORDER BY node_index ASC LIMIT 1`)
    .get(unit.treeId, unit.nodeIndex) as UnitRow | undefined;
  return { before: before && toUnit(before), after: after && toUnit(after) };
}

export function canonicalText(db: Database, documentId: number): string {
  return (db.prepare('SELECT canonical_text FROM documents WHERE id = ?').get(documentId) as { canonical_text: string } | undefined)?.canonical_text ?? '';
}

/** What the index should hold for one document now. */
export function desiredUnits(db: Database, documentId: number): UnitSource[] {
  const text = canonicalText(db, documentId);
  const units: UnitSource[] = [];
  const tree = getCurrentTree(db, documentId);
  if (tree) {
    for (const node of loadChunks(db, tree.id)) {
      if (!node.isLeaf) continue;
      const body = text.slice(node.start, node.end);
      units.push({
        kind: 'chunk',
        sourceKey: `${tree.id}:${node.index}`,
        documentId,
        treeId: tree.id,
        nodeIndex: node.index,
        mergedFindingId: null,
        title: node.title,
        path: node.section.path,
        start: node.start,
        end: node.end,
        pageStart: node.pageStart,
        pageEnd: node.pageEnd,
        body,
        contentHash: sha256(JSON.stringify([node.title, node.section.path, body])),
      });
    }
  }
  units.push(...findingUnits(db, documentId));
  return units;
}

/** Merged findings of the document's latest run that has any, each with its main finding's evidence and chunk. */
function findingUnits(db: Database, documentId: number): UnitSource[] {
  const rows = db
    .prepare(
      `SELECT m.id, m.title, m.finding_key, m.severity, m.description, m.main_page, f.evidence, f.tree_id, f.node_index, c.start_offset, c.end_offset, c.page_start, c.page_end, c.path_json
         FROM merged_findings m
         JOIN findings f ON f.id = m.main_finding_id
         JOIN chunks c ON c.tree_id = f.tree_id AND c.node_index = f.node_index
        WHERE m.document_id = ? AND m.run_id = (SELECT MAX(run_id) FROM merged_findings WHERE document_id = ?)
        ORDER BY m.ordinal`,
    )
    .all(documentId, documentId) as {
    id: number;
    title: string;
    finding_key: string | null;
    severity: string;
    description: string;
    main_page: number | null;
    evidence: string;
    tree_id: number;
    node_index: number;
    start_offset: number;
    end_offset: number;
    page_start: number;
    page_end: number;
    path_json: string;
  }[];
  return rows.map((r) => {
    // The finding's ID and severity belong to what it says: "what severity is LID-01?" is answered from here.
    const body = `${r.finding_key ? `ID: ${r.finding_key}\n` : ''}Severity: ${r.severity}\n${r.description}\nEvidence: ${r.evidence}`;
    return {
      kind: 'finding' as const,
      sourceKey: `merged:${r.id}`,
      documentId,
      treeId: r.tree_id,
      nodeIndex: r.node_index,
      mergedFindingId: r.id,
      title: `Finding: ${r.title}`,
      path: JSON.parse(r.path_json) as string[],
      start: r.start_offset,
      end: r.end_offset,
      pageStart: r.main_page ?? r.page_start,
      pageEnd: r.main_page ?? r.page_end,
      body,
      contentHash: sha256(JSON.stringify([r.title, body])),
    };
  });
}
