import type { MergedFinding } from '../../../shared/findings';
import type { ReviewedFinding, ReviewView } from '../../../shared/review';
import { listMergedFindings } from '../../../electron/engine/merge';
import type { CarryOverResult } from '../../../electron/engine/review';
import { listRunEvents } from '../../../electron/engine/store';
import { plantedReport, plantedResponder, type PlantedReport } from '../../fixtures/plantedFindings';
import { MODEL, pipelineHarness, writePlantedReport, type PipelineHarness } from '../pipeline/helpers';

export const settings = {
  strategy: 'pages' as const,
  judge: false,
  llm: { models: { default: MODEL }, cache: false, desiredChunkTokens: 1500, replyTokens: 1024, maxInFlight: 1 },
};

export interface ReviewHarness extends PipelineHarness {
  report: PlantedReport;
  file: string;
  /** Runs the pipeline over the planted report; returns the run and document ids. */
  run(): Promise<{ runId: number; documentId: number }>;
}

export async function reviewHarness(report: PlantedReport = plantedReport()): Promise<ReviewHarness> {
  const h = await pipelineHarness({ responder: plantedResponder(report) });
  const file = writePlantedReport(h.dir, report);
  return Object.assign(h, {
    report,
    file,
    async run() {
      const outcome = await h.engine.analyze([file], settings);
      if (outcome.run.status !== 'done') throw new Error(`run ${outcome.run.id} ended ${outcome.run.status}`);
      return { runId: outcome.run.id, documentId: outcome.inputs[0]!.documentId! };
    },
  });
}

export function byKey(view: ReviewView, key: string): ReviewedFinding {
  const f = view.findings.find((x) => x.findingKey === key);
  if (!f) throw new Error(`no reviewed finding ${key} in ${view.findings.map((x) => x.findingKey ?? x.original.title).join(', ')}`);
  return f;
}

export function byTitle(view: ReviewView, title: string): ReviewedFinding {
  const f = view.findings.find((x) => x.original.title === title || x.effective.title === title);
  if (!f) throw new Error(`no reviewed finding "${title}" in ${view.findings.map((x) => x.original.title).join(', ')}`);
  return f;
}

export function merged(h: PipelineHarness, runId: number): MergedFinding[] {
  return listMergedFindings(h.db, runId);
}

/** A copy of the planted report whose simulated model behaves differently (same document text). */
export function variant(report: PlantedReport, change: (r: PlantedReport) => void): PlantedReport {
  const copy = structuredClone(report);
  change(copy);
  return copy;
}

/** What the runner's carry-over did for the document when the run finished it (the run log keeps it as an event). */
export function carriedOver(h: PipelineHarness, runId: number, documentId: number): CarryOverResult {
  const events = listRunEvents(h.db, runId).filter((e) => e.documentId === documentId && e.message.startsWith('Review '));
  if (events.length !== 1) throw new Error(`run ${runId} has ${events.length} carry-over events for document ${documentId}`);
  return events[0]!.data as CarryOverResult;
}
