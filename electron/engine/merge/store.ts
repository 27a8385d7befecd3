/**
 * Repository for merged findings, their sources and the merge decisions.
 * Saving a document's merge replaces the previous merge of that run and
 * document in one transaction (merge is re-run after a resume).
 */
import type { ReadDb } from '../store';
import type { Database } from 'better-sqlite3';
import type { FindingSource, MergeConflict, MergeDecision, MergedFinding, MergeReason } from '../../../shared/findings';
import { listFindings } from '../extract';
import type { MergeResult } from './mergeFindings';
import { listedSources, toFindingSource } from './result';

export function saveMergeResult(db: Database, input: { runId: number; documentId: number; result: MergeResult; now?: string }): { mergedIds: number[] } {
  const now = input.now ?? new Date().toISOString();
  const insertMerged = db.prepare(
    `INSERT INTO merged_findings (run_id, document_id, ordinal, finding_key, title, type, severity, severity_canonical, severity_rank,
       description, main_page, main_finding_id, grounded, source_count, created_at, printed_number)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertSource = db.prepare('INSERT INTO merged_finding_sources (merged_id, finding_id, is_main) VALUES (?, ?, ?)');
  const insertDecision = db.prepare('INSERT INTO merge_decisions (merged_id, kept_finding_id, absorbed_finding_id, reason, score) VALUES (?, ?, ?, ?, ?)');
  const insertConflict = db.prepare('INSERT INTO merge_conflicts (run_id, document_id, kind, key, merged_a, merged_b, score) VALUES (?, ?, ?, ?, ?, ?, ?)');
  return db.transaction(() => {
    db.prepare('DELETE FROM merged_findings WHERE run_id = ? AND document_id = ?').run(input.runId, input.documentId);
    const mergedIds = input.result.merged.map((m, ordinal) => {
      const id = Number(
        insertMerged.run(
          input.runId,
          input.documentId,
          ordinal,
          m.findingKey,
          m.title,
          m.type,
          m.severity,
          m.severityCanonical,
          m.severityRank,
          m.description,
          m.mainPage,
          m.mainFindingId,
          m.grounded ? 1 : 0,
          // Every sighting joined, the ones not found in the text (not listed as sources) included.
          m.absorbedFindingIds.length + 1,
          now,
          m.printedNumber,
        ).lastInsertRowid,
      );
      // Every sighting is stored, listed or not, so the merge keeps the record of all it joined (listedSources picks).
      insertSource.run(id, m.mainFindingId, 1);
      for (const absorbed of m.absorbedFindingIds) insertSource.run(id, absorbed, 0);
      return id;
    });
    for (const d of input.result.decisions) {
      insertDecision.run(mergedIds[d.mergedIndex]!, d.keptFindingId, d.absorbedFindingId, d.reason, d.score);
    }
    for (const c of input.result.conflicts) {
      insertConflict.run(input.runId, input.documentId, c.kind, c.key, mergedIds[c.mergedIndexes[0]]!, mergedIds[c.mergedIndexes[1]]!, c.score);
    }
    return { mergedIds };
  })();
}

interface MergedRow {
  id: number;
  run_id: number;
  document_id: number;
  finding_key: string | null;
  title: string;
  type: string;
  severity: string;
  severity_canonical: string | null;
  severity_rank: number;
  description: string;
  main_page: number | null;
  main_finding_id: number;
  grounded: number;
  printed_number: string | null;
}

/** Merged findings with their sources, in stored order (main page, then position). */
export function listMergedFindings(db: ReadDb, runId: number, documentId?: number): MergedFinding[] {
  const rows = (
    documentId === undefined
      ? db.prepare('SELECT * FROM merged_findings WHERE run_id = ? ORDER BY document_id, ordinal').all(runId)
      : db.prepare('SELECT * FROM merged_findings WHERE run_id = ? AND document_id = ? ORDER BY ordinal').all(runId, documentId)
  ) as MergedRow[];
  const findings = new Map(listFindings(db, runId, documentId).map((f) => [f.findingId, f]));
  const sourcesOf = db.prepare('SELECT finding_id, is_main FROM merged_finding_sources WHERE merged_id = ?');
  return rows.map((r) => {
    const all: FindingSource[] = (sourcesOf.all(r.id) as { finding_id: number; is_main: number }[])
      .map((s) => ({ s, f: findings.get(s.finding_id) }))
      .filter((x): x is { s: { finding_id: number; is_main: number }; f: NonNullable<typeof x.f> } => x.f !== undefined)
      .map(({ s, f }) => toFindingSource(f, s.is_main === 1));
    const { sources, unfoundSightings } = listedSources(all);
    return {
      id: r.id,
      runId: r.run_id,
      documentId: r.document_id,
      findingKey: r.finding_key,
      printedNumber: r.printed_number,
      modelLabels: r.finding_key ? [] : [...new Set(all.map((s) => s.modelId).filter((id): id is string => id !== null))],
      title: r.title,
      type: r.type,
      severity: r.severity,
      severityCanonical: r.severity_canonical,
      severityRank: r.severity_rank,
      description: r.description,
      mainPage: r.main_page,
      mainFindingId: r.main_finding_id,
      grounded: r.grounded === 1,
      sources,
      absorbedFindingIds: all.filter((s) => !s.isMain).map((s) => s.findingId),
      ...(unfoundSightings > 0 ? { unfoundSightings } : {}),
    };
  });
}

export interface StoredMergeDecision extends Omit<MergeDecision, 'mergedIndex'> {
  id: number;
  mergedId: number;
  undoneAt: string | null;
}

export function listMergeDecisions(db: ReadDb, runId: number, documentId?: number): StoredMergeDecision[] {
  const rows = db
    .prepare(
      `SELECT d.* FROM merge_decisions d JOIN merged_findings m ON m.id = d.merged_id
       WHERE m.run_id = ? ${documentId === undefined ? '' : 'AND m.document_id = ?'} ORDER BY d.id`,
    )
    .all(...(documentId === undefined ? [runId] : [runId, documentId])) as {
    id: number;
    merged_id: number;
    kept_finding_id: number;
    absorbed_finding_id: number;
    reason: MergeReason;
    score: number;
    undone_at: string | null;
  }[];
  return rows.map((r) => ({
    id: r.id,
    mergedId: r.merged_id,
    keptFindingId: r.kept_finding_id,
    absorbedFindingId: r.absorbed_finding_id,
    reason: r.reason,
    score: r.score,
    undoneAt: r.undone_at,
  }));
}

/** Findings kept apart although they share a printed ID or number, or have sibling titles (see mergeFindings), for the auditor to resolve. */
export function listMergeConflicts(db: ReadDb, runId: number, documentId?: number): MergeConflict[] {
  const rows = db
    .prepare(`SELECT * FROM merge_conflicts WHERE run_id = ? ${documentId === undefined ? '' : 'AND document_id = ?'} ORDER BY id`)
    .all(...(documentId === undefined ? [runId] : [runId, documentId])) as {
    id: number;
    run_id: number;
    document_id: number;
    kind: MergeConflict['kind'];
    key: string;
    merged_a: number;
    merged_b: number;
    score: number;
  }[];
  return rows.map((r) => ({
    id: r.id,
    runId: r.run_id,
    documentId: r.document_id,
    kind: r.kind,
    key: r.key,
    mergedIds: [r.merged_a, r.merged_b],
    score: r.score,
  }));
}

/** For each document (or just `documentId`), the latest run that stored merged findings for it. */
export function latestMergedRuns(db: ReadDb, documentId?: number): { documentId: number; runId: number }[] {
  const rows = (
    documentId === undefined
      ? db.prepare('SELECT document_id, MAX(run_id) AS run_id FROM merged_findings GROUP BY document_id').all()
      : db.prepare('SELECT document_id, MAX(run_id) AS run_id FROM merged_findings WHERE document_id = ? GROUP BY document_id').all(documentId)
  ) as { document_id: number; run_id: number }[];
  return rows.map((r) => ({ documentId: r.document_id, runId: r.run_id }));
}

/** True when some run merged findings for this document. */
export function documentHasMergedFindings(db: ReadDb, documentId: number): boolean {
  return db.prepare('SELECT 1 FROM merged_findings WHERE document_id = ? LIMIT 1').get(documentId) !== undefined;
}
