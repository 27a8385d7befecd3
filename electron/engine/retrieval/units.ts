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
import { documentText, getCurrentTree, loadChunks } from '../store';
import { adjacentChunkUnit, latestMergedFindingsWithChunks, selectUnits, type StoredUnit, type UnitSource } from './store';

export function loadUnits(db: Database, ids: readonly number[]): Map<number, StoredUnit> {
  return new Map(selectUnits(db, ids).map((u) => [u.id, u]));
}

/** The leaves before and after a chunk unit in its tree (the hierarchy-aware neighbours). */
export function neighbourUnits(db: Database, unit: StoredUnit): { before: StoredUnit | undefined; after: StoredUnit | undefined } {
  if (unit.kind !== 'chunk' || unit.treeId === null || unit.nodeIndex === null) return { before: undefined, after: undefined };
  return { before: adjacentChunkUnit(db, unit.treeId, unit.nodeIndex, 'before'), after: adjacentChunkUnit(db, unit.treeId, unit.nodeIndex, 'after') };
}

/** A document's canonical text ('' when there is no such document). */
export function canonicalText(db: Database, documentId: number): string {
  return documentText(db, documentId) ?? '';
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
  return latestMergedFindingsWithChunks(db, documentId).map((r) => {
    // The finding's ID and severity belong to what it says: "what severity is LID-01?" is answered from here.
    const body = `${r.findingKey ? `ID: ${r.findingKey}\n` : ''}Severity: ${r.severity}\n${r.description}\nEvidence: ${r.evidence}`;
    return {
      kind: 'finding' as const,
      sourceKey: `merged:${r.id}`,
      documentId,
      treeId: r.treeId,
      nodeIndex: r.nodeIndex,
      mergedFindingId: r.id,
      title: `Finding: ${r.title}`,
      path: r.path,
      start: r.start,
      end: r.end,
      pageStart: r.mainPage ?? r.pageStart,
      pageEnd: r.mainPage ?? r.pageEnd,
      body,
      contentHash: sha256(JSON.stringify([r.title, body])),
    };
  });
}
