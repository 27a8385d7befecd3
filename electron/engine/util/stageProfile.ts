/**
 * Time spent per ingestion stage, summed over the life of the process, so the
 * ingest benchmark (`BENCH_ONLY=ingest npm run bench`) can say where a run's
 * time goes. Recording costs a couple of performance.now() calls per page or
 * document, so it is always on; nothing in the app reads it.
 *
 * Stages measured inside PDF worker threads (open, text, fonts) are summed
 * over the workers: with two workers they can add up to more than the wall
 * time of the run.
 */
import { performance } from 'node:perf_hooks';

export const STAGES = ['open', 'text', 'fonts', 'lines', 'headings', 'tree', 'mentions', 'store'] as const;
export type Stage = (typeof STAGES)[number];

const totals = new Map<Stage, number>();

export function addStageTime(stage: Stage, ms: number): void {
  totals.set(stage, (totals.get(stage) ?? 0) + ms);
}

/** Runs `work` and adds its duration to `stage` (also when it throws). */
export function timeStage<T>(stage: Stage, work: () => T): T {
  const started = performance.now();
  try {
    return work();
  } finally {
    addStageTime(stage, performance.now() - started);
  }
}

/** Milliseconds per stage since the process started (0 for stages never run). */
export function stageTimes(): Record<Stage, number> {
  return Object.fromEntries(STAGES.map((stage) => [stage, totals.get(stage) ?? 0])) as Record<Stage, number>;
}
