/**
 * Every change of a run's status, in one place: the runner's rules (README, Layout: "one owner per state"). The
 * runner marks the run it executes; the host and password handling ask here for the two changes they need on a
 * run no runner is executing. Lint fails a call of the store's setRunStatus anywhere else.
 */
import type { ErrorInfo } from '../../../shared/errors';
import type { RunStatus } from '../../../shared/types';
import { getRun, listRunInputs, setRunStatus, updateRunInput, type Database } from '../store';

/** The runner starts executing the run. */
export function markRunning(db: Database, runId: number, now: string): void {
  setRunStatus(db, runId, 'running', now);
}

/** The runner ended the run: done, or stopped (paused, cancelled, failed with its error). */
export function markEnded(db: Database, runId: number, status: Exclude<RunStatus, 'running' | 'queued'>, now: string, error?: ErrorInfo): void {
  setRunStatus(db, runId, status, now, status === 'failed' ? error : undefined);
}

/**
 * A stop asked for a run no runner is executing: one left 'running' by a crash, or still queued, becomes paused or
 * cancelled (resumable either way); a paused run can be cancelled. Anything else stays as it is. The status after.
 */
export function stopIdleRun(db: Database, runId: number, how: 'pause' | 'cancel', now: string): RunStatus | undefined {
  const run = getRun(db, runId);
  if (!run) return undefined;
  const to: RunStatus = how === 'pause' ? 'paused' : 'cancelled';
  if (run.status === 'running' || run.status === 'queued' || (run.status === 'paused' && how === 'cancel')) {
    setRunStatus(db, runId, to, now);
    // The file the run stopped in says what the run says (a paused run cancelled left its file "Paused" beside a
    // "Cancelled" run): its committed work and phase stay, so a resume continues it either way.
    for (const input of listRunInputs(db, runId))
      if (input.status === 'paused' || input.status === 'running') updateRunInput(db, runId, input.ordinal, { status: to });
  }
  return getRun(db, runId)!.status;
}

/** A finished run one of whose inputs was put back in the queue (a password given): paused, so it can be executed again. */
export function reopenRun(db: Database, runId: number, now: string): void {
  const run = getRun(db, runId);
  if (run && (run.status === 'done' || run.status === 'failed')) setRunStatus(db, runId, 'paused', now);
}

// ------------------------------------------------------------------------------------------------------------------
// An input's status: each change the pipeline makes, named. Lint fails an updateRunInput that sets `status` anywhere
// else, so a file's status is never written past these rules (the phase, document and warnings are written by the
// runner as the input goes).

/** The runner starts reading the input: running, from its first phase, its last error cleared. */
export function startInput(db: Database, runId: number, ordinal: number): void {
  updateRunInput(db, runId, ordinal, { status: 'running', phase: 'ingest', error: null });
}

/** The input is finished: done, or failed with its error (chunks that failed, an unreadable file, a broken reply). */
export function endInput(db: Database, runId: number, ordinal: number, outcome: { error: ErrorInfo | null; phase?: 'done' }): void {
  updateRunInput(db, runId, ordinal, { status: outcome.error ? 'failed' : 'done', error: outcome.error, ...(outcome.phase ? { phase: outcome.phase } : {}) });
}

/**
 * The run stopped while the input was in flight: it takes the run's state (paused, cancelled) and keeps its phase, so
 * its committed work stays and a resume continues it; a run that failed leaves it queued for the resume.
 */
export function stopInput(db: Database, runId: number, ordinal: number, runStatus: 'paused' | 'cancelled' | 'failed'): void {
  updateRunInput(db, runId, ordinal, { status: runStatus === 'failed' ? 'queued' : runStatus });
}

/**
 * The input back in the queue: its endpoint died (it resumes elsewhere from its last committed unit), a retry of what
 * failed (its error cleared), or a password given (read again from the start: phase and error cleared).
 */
export function requeueInput(db: Database, runId: number, ordinal: number, clear: { error?: boolean; phase?: boolean } = {}): void {
  updateRunInput(db, runId, ordinal, { status: 'queued', ...(clear.error ? { error: null } : {}), ...(clear.phase ? { phase: null } : {}) });
}
