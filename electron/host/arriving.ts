/**
 * The findings a document's latest run has reported before its merge: while the run works on it, and after it was
 * paused or cancelled part-way (they are kept, and join the review when the run is resumed and finishes). The
 * library's "N so far", the status bar and the Findings view's list all count them with this one function.
 */
import type { ArrivingFindings } from '../../shared/contract';
import type { RunStatus } from '../../shared/types';
import { listRunInputs, listRuns, type Database } from '../engine/store';
import { listFindings } from '../engine/extract';
import { arrivingFindings } from '../engine/pipeline';

/** An input in these states has not merged its findings yet, and may still (resumed) or will never (cancelled). */
const UNMERGED: ReadonlySet<RunStatus> = new Set(['running', 'paused', 'cancelled']);

/** The document's latest run and its input's status, when that input has not merged its findings. */
function unmergedRun(db: Database, documentId: number): { runId: number; status: RunStatus } | null {
  for (const run of [...listRuns(db)].reverse()) {
    const input = listRunInputs(db, run.id).find((i) => i.documentId === documentId);
    if (!input) continue;
    return UNMERGED.has(input.status) ? { runId: run.id, status: input.status } : null;
  }
  return null;
}

export function documentArriving(db: Database, documentId: number): ArrivingFindings {
  const run = unmergedRun(db, documentId);
  if (!run) return { runId: null, findings: [] };
  const findings = arrivingFindings(listFindings(db, run.runId, documentId)).map((f) => ({
    findingId: f.findingId,
    findingKey: f.findingKey,
    title: f.title,
    severity: f.severity,
    severityRank: f.severityRank,
    page: f.grounding.page ?? f.page,
    grounded: f.grounding.status === 'grounded',
  }));
  return { runId: run.runId, inputStatus: run.status, findings };
}
