import type { ChunkResultView, ChunkStatusView, DocumentAnalysis, FindingView, SplitAttemptView } from '../../shared/contract';
import { idLabel, idOriginOf, type MergeConflict, type MergedFinding } from '../../shared/findings';
import type { SplitAttempt } from '../../shared/treesplit';
import { getCompleteness } from '../engine/completeness';
import { listChunkResults } from '../engine/extract';
import { latestJudgeDecision } from '../engine/judge';
import { latestMergedRuns, listMergeConflicts, listMergedFindings, unreviewedMentions } from '../engine/merge';
import { isReferenceId } from '../engine/rules';
import { getRun, latestRunWithLlmResults, loadChunks, loadMentions, runSettingsOf, type Database } from '../engine/store';
import { getSummary } from '../engine/summary';
import { listSplitAttempts } from '../engine/treesplit';

/**
 * The findings the window shows: a run's merged findings, or for a document
 * the ones from its latest run that produced any (re-runs replace, they do
 * not pile up in the table).
 */
export function findingViews(db: Database, query: { documentId?: number; runId?: number }): FindingView[] {
  if (query.runId !== undefined) return viewsOf(db, query.runId, query.documentId);
  return latestMergedRuns(db, query.documentId).flatMap((r) => viewsOf(db, r.runId, r.documentId));
}

function viewsOf(db: Database, runId: number, documentId?: number): FindingView[] {
  const findings = listMergedFindings(db, runId, documentId);
  const conflicts = listMergeConflicts(db, runId, documentId);
  const titles = new Map(findings.map((f) => [f.id, f.title]));
  return findings.map((f) => toFindingView(f, conflicts, titles));
}

function toFindingView(f: MergedFinding, conflicts: readonly MergeConflict[], titles: ReadonlyMap<number, string>): FindingView {
  const pages = [...new Set(f.sources.map((s) => s.page).filter((p): p is number => p !== null))].sort((a, b) => a - b);
  return {
    id: f.id,
    documentId: f.documentId,
    runId: f.runId,
    findingKey: f.findingKey,
    idLabel: idLabel(f),
    idOrigin: idOriginOf(f),
    conflicts: conflicts.flatMap((c) => {
      const other = c.mergedIds[0] === f.id ? c.mergedIds[1] : c.mergedIds[1] === f.id ? c.mergedIds[0] : null;
      return other === null ? [] : [{ kind: c.kind, key: c.key, otherFindingId: other, otherTitle: titles.get(other) ?? '' }];
    }),
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

/**
 * What the pipeline stored for a document in one run: the judge's latest decision, the summary, each chunk's
 * status with its node's pages and title, and the ID mentions no merged finding covers. `findingsOf` gives the
 * merged findings of that run (the host's provider, so tests with fixed findings stay consistent).
 */
export function analysisView(
  db: Database,
  documentId: number,
  runId: number | undefined,
  findingsOf: (runId: number | null) => FindingView[],
): DocumentAnalysis {
  const run = runId ?? latestRunWithLlmResults(db, documentId);
  const results = run === null ? [] : listChunkResults(db, run, documentId);
  const treeId = results[0]?.treeId ?? null;
  const nodes = new Map((treeId === null ? [] : loadChunks(db, treeId)).map((n) => [n.index, n]));
  const counts: Record<ChunkStatusView, number> = { queued: 0, running: 0, done: 0, failed: 0 };
  const chunks = results.map((r): ChunkResultView => {
    counts[r.status] += 1;
    const node = nodes.get(r.nodeIndex);
    return {
      nodeIndex: r.nodeIndex,
      status: r.status,
      findingCount: r.findingCount,
      attempts: r.attempts,
      error: r.error,
      pageStart: node?.pageStart ?? null,
      pageEnd: node?.pageEnd ?? null,
      title: node ? node.title : null,
    };
  });
  const judge = latestJudgeDecision(db, documentId);
  const summary = run === null ? undefined : getSummary(db, run, documentId);
  const covered = findingsOf(run).map((f) => ({ findingKey: f.findingKey }));
  return {
    documentId,
    runId: run,
    treeId,
    judge: judge
      ? {
          strategy: judge.strategy,
          source: judge.source,
          justification: judge.justification,
          fallbackReason: judge.fallbackReason,
          targetChunkTokens: judge.targetChunkTokens,
          overlapChars: judge.overlapChars,
          cached: judge.cached,
          createdAt: judge.createdAt,
          settingsChunkTokens: run === null ? null : desiredChunkTokens(db, run),
        }
      : null,
    summary: summary
      ? { text: summary.text, chunkCount: summary.chunkCount, levels: summary.levels, model: summary.model, ungroundedIds: summary.ungroundedIds }
      : null,
    chunks,
    counts,
    unreviewedMentions: offeredMentions(db, documentId, run, covered),
  };
}

/** The chunk size a run's settings asked for, in tokens (null for a run whose settings cannot be read). */
function desiredChunkTokens(db: Database, runId: number): number | null {
  const run = getRun(db, runId);
  if (!run) return null;
  try {
    return runSettingsOf(run).llm.desiredChunkTokens ?? null;
  } catch {
    return null;
  }
}

/**
 * The IDs offered as places the model may have missed a finding: the completeness check's own list when the run
 * checked the document (so the Findings view, the library and the check give one count), else every mention no
 * finding covers, without the standards, licences and code line ranges a report cites (ERC-20, AGPL-3, L90-91).
 */
function offeredMentions(
  db: Database,
  documentId: number,
  run: number | null,
  covered: readonly { findingKey: string | null }[],
): DocumentAnalysis['unreviewedMentions'] {
  const verdict = run === null ? null : getCompleteness(db, run, documentId);
  if (verdict) return verdict.unreviewedMentions.map((m) => ({ id: m.id, pages: [...m.pages] }));
  return unreviewedMentions(loadMentions(db, documentId), covered).filter((m) => !isReferenceId(m.id));
}
