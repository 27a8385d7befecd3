/**
 * Progress arithmetic for the window: where each phase sits inside one
 * input's share of the bar, an input's fraction (live while it runs, from what
 * it committed once paused), the run's overall fraction, and the time left for
 * the whole run. Pure functions: the run control feeds them, tests check them.
 */
import type { InputProgress } from '../../shared/contract';
import type { RunMode, RunPhase, RunStatus } from '../../shared/pipeline';

/** Where each phase sits inside one input's share of the bar, per mode. */
export const PHASE_SPANS: Record<RunMode, Partial<Record<RunPhase, readonly [number, number]>>> = {
  // Reading a text layer is quick and OCR takes seconds a page: the two share the part reading took alone before OCR.
  'rules-only': { ingest: [0, 0.4], ocr: [0.4, 0.8], rules: [0.8, 0.9], tree: [0.9, 1], done: [1, 1] },
  full: {
    ingest: [0, 0.04],
    ocr: [0.04, 0.1],
    rules: [0.1, 0.15],
    tree: [0.15, 0.3],
    extract: [0.3, 0.9],
    merge: [0.9, 0.93],
    completeness: [0.93, 0.95],
    summary: [0.95, 1],
    done: [1, 1],
  },
};

const FINISHED: readonly RunStatus[] = ['done', 'failed'];
/** Stopped part-way: what the input committed is kept, and its bar says so. */
const STOPPED: readonly RunStatus[] = ['paused', 'cancelled'];

export function isFinished(status: RunStatus): boolean {
  return FINISHED.includes(status);
}

/** 0..1 of one input's analysis when it is `current` of `total` units into `phase`. */
export function phaseFraction(mode: string, phase: RunPhase, current: number, total: number): number {
  const spans = PHASE_SPANS[mode as RunMode] ?? PHASE_SPANS['rules-only'];
  const span = spans[phase] ?? [0, 0];
  const within = total > 0 ? Math.min(1, current / total) : 0;
  return span[0] + (span[1] - span[0]) * within;
}

/**
 * 0..1 of one input: 1 when finished; from the live event while it runs; for a paused or cancelled input, from
 * the phase it stopped in and (extraction) the chunks it committed, so a pause keeps its bar.
 */
export function inputFraction(
  mode: string,
  input: { status: RunStatus; phase: RunPhase | null },
  live: InputProgress | undefined,
  committed: { done: number; total: number } | null,
): number {
  if (isFinished(input.status)) return 1;
  if (input.status === 'running') return live ? phaseFraction(mode, live.phase, live.current, live.total) : 0;
  if (STOPPED.includes(input.status) && input.phase) return phaseFraction(mode, input.phase, committed?.done ?? 0, committed?.total ?? 0);
  return 0;
}

export function overallFraction(fractions: readonly number[]): number {
  return fractions.length === 0 ? 1 : fractions.reduce((sum, f) => sum + f, 0) / fractions.length;
}

export interface EtaInput {
  /** 0..1 of the whole run now, and when this execution started (a resumed run starts part-way). */
  overall: number;
  startOverall: number;
  elapsedSeconds: number;
  /** The engine's estimate for the rest of the current input's extraction (measured seconds per chunk), if any. */
  currentInputSeconds?: number;
  /** Share of the whole run (0..1) the current input still has to do. */
  currentInputLeft: number;
  /**
   * The phase the current input is in. Outside extraction (reading pages, OCR, building the tree...) nothing
   * measures a rate for it: the run's past pace says nothing about how long OCR of the next page takes.
   */
  currentPhase?: RunPhase;
  /**
   * Inputs analysed at once (a pool of endpoints): above 1, no one input's estimate or phase describes the run, and
   * the pace of the whole run (which the parallel inputs all advance) is the estimate.
   */
  inputsInFlight?: number;
  /**
   * What the run's earlier executions did before it was paused or stopped: the share they gained and their working
   * seconds. A resumed run's first minutes (the model loading again, a chunk or two) say little of its pace; with
   * this history the estimate keeps the pace the run has shown all along (trial 2026-11-28 row 8: "13 min" after
   * resuming where "2 min 45 s" had been right).
   */
  earlier?: { gained: number; seconds: number };
}

/**
 * Phases whose length the run's past pace does not predict: the estimate waits ("estimating") until the engine
 * measures one (seconds per chunk, once extraction has finished a chunk).
 */
const PHASES_WITHOUT_RATE: readonly RunPhase[] = ['ingest', 'ocr', 'rules', 'tree', 'extract'];

/**
 * Seconds left for the WHOLE run: the engine's chunk-based estimate for the current input plus the inputs after
 * it at the pace this execution has kept so far; with no engine estimate, the remaining share at that pace.
 * Null ("estimating") while there is too little to go on, or while the current input is in a phase with no
 * measured rate (OCR above all: its pace is not the run's). Elapsed time is this execution's working time only,
 * so the time a run sat paused or cancelled never slows the pace.
 */
export function wholeRunEta(e: EtaInput): number | null {
  const earlier = e.earlier && e.earlier.gained > 0.02 ? e.earlier : undefined;
  const unmeasured = e.currentPhase !== undefined && PHASES_WITHOUT_RATE.includes(e.currentPhase) && e.currentInputSeconds === undefined;
  // The run's pace covers extraction; reading pages and OCR still have no rate of their own.
  if (earlier && !(unmeasured && e.currentPhase !== 'extract')) {
    // A resumed run: the pace of all its working time so far, this execution's and the earlier ones'.
    const secondsPerShare = (earlier.seconds + e.elapsedSeconds) / (earlier.gained + Math.max(0, e.overall - e.startOverall));
    return Math.max(0, Math.round((1 - e.overall) * secondsPerShare));
  }
  if ((e.inputsInFlight ?? 1) > 1)
    return wholeRunEta({ overall: e.overall, startOverall: e.startOverall, elapsedSeconds: e.elapsedSeconds, currentInputLeft: 0 });
  if (unmeasured) return null;
  const gained = e.overall - e.startOverall;
  const secondsPerShare = gained > 0.02 && e.elapsedSeconds > 0.5 ? e.elapsedSeconds / gained : null;
  const othersLeft = Math.max(0, 1 - e.overall - e.currentInputLeft);
  if (e.currentInputSeconds !== undefined) {
    if (othersLeft < 1e-9) return Math.round(e.currentInputSeconds);
    return secondsPerShare === null ? null : Math.round(e.currentInputSeconds + othersLeft * secondsPerShare);
  }
  return secondsPerShare === null ? null : Math.max(0, Math.round((1 - e.overall) * secondsPerShare));
}
