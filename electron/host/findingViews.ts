import type { FindingView, SplitAttemptView } from '../../shared/contract';
import type { MergedFinding } from '../../shared/findings';
import type { SplitAttempt } from '../../shared/treesplit';
import { listMergedFindings } from '../engine/merge';
import type { Database } from '../engine/store';
import { listSplitAttempts } from '../engine/treesplit';

/**
 * The findings the window shows: a run's merged findings, or for a document
 * the ones from its latest run that produced any (re-runs replace, they do
 * not pile up in the table).
 */
export function findingViews(db: Database, query: { documentId?: number; runId?: number }): FindingView[] {
  if (query.runId !== undefined) return listMergedFindings(db, query.runId, query.documentId).map(toFindingView);
  const runs = (
    query.documentId === undefined
      ? db.prepare('SELECT document_id, MAX(run_id) AS run_id FROM merged_findings GROUP BY document_id').all()
      : db.prepare('SELECT document_id, MAX(run_id) AS run_id FROM merged_findings WHERE document_id = ? GROUP BY document_id').all(query.documentId)
  ) as { document_id: number; run_id: number }[];
  return runs.flatMap((r) => listMergedFindings(db, r.run_id, r.document_id).map(toFindingView));
}

function toFindingView(f: MergedFinding): FindingView {
  const pages = [...new Set(f.sources.map((s) => s.page).filter((p): p is number => p !== null))].sort((a, b) => a - b);
  return {
    id: f.id,
    documentId: f.documentId,
    runId: f.runId,
    findingKey: f.findingKey,
    title: f.title,
    severity: f.severity,
    severityRank: f.severityRank,
    type: f.type,
    description: f.description,
    pages,
    grounded: f.grounded,
    sources: f.sources.map((s) => ({
      findingId: s.findingId,
      documentId: f.documentId,
      nodeIndex: s.nodeIndex,
      page: s.page,
      evidence: s.evidence,
      evidenceStart: s.evidenceStart,
      evidenceEnd: s.evidenceEnd,
      grounded: s.grounded,
      isMain: s.isMain,
    })),
  };
}

export function splitAttemptViews(db: Database, documentId: number): SplitAttemptView[] {
  return listSplitAttempts(db, { documentId }).map((a: SplitAttempt) => ({
    id: a.id ?? 0,
    documentId: a.documentId,
    runId: a.runId,
    nodeKey: a.nodeKey,
    nodePath: a.nodePath,
    attempt: a.attempt,
    outcome: a.outcome,
    chapters: a.chapters.map((c) => ({ chapterIndex: c.chapterIndex, chapterTitle: c.chapterTitle, chapterStartLineNumber: c.chapterStartLineNumber })),
    review: a.review ? { passes: a.review.passes, comments: a.review.comments } : null,
    validationErrors: a.validationErrors,
    diff: a.diff ? { offset: a.diff.offset, expectedContext: a.diff.expectedContext, actualContext: a.diff.actualContext } : null,
    createdAt: a.createdAt,
  }));
}
