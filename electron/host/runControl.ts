/**
 * Run control: starts, pauses, cancels and resumes runs, each executed by the
 * engine with its own AbortController, and turns the engine's progress into
 * throttled `run.progress` events. The engine's runner owns the run's and its
 * inputs' status; this module only asks it to stop (a typed StopRequest) and
 * reads what it recorded.
 */
import { type AppSettings, type HostEvent, type InputProgress, type RunMode, type RunRef } from '../../shared/contract';
import { AppError, ErrorCode } from '../../shared/errors';
import { runSettingsFrom, type RunSettings } from '../../shared/runSettings';
import type { ProgressEvent } from '../../shared/types';
import { StopRequest, stopIdleRun, type Engine, type RunControl as EngineRunControl, type Logger, type StopKind } from '../engine';
import { createRun, getRun, runSettingsOf, setRunEndpoints, setRunOllamaHost, type Database } from '../engine/store';
import type { LiveRun, ReadModels } from './readModels';
import { readSettings } from './settings';
import { createThrottle, type Throttle } from './throttle';

export interface RunControl {
  /** Creates a run over `files` with the current settings and starts it; resolves at once with its id. */
  start(files: readonly string[], mode?: RunMode): number;
  /** Asks a run to pause or cancel and waits until the runner has recorded it. */
  stop(runId: number, how: StopKind): Promise<RunRef>;
  /** Resumes a run; `control` carries what the runner may ask for this once (a PDF's password). */
  resume(runId: number, control?: Pick<EngineRunControl, 'password'>): RunRef;
  isActive(runId: number): boolean;
  live(runId: number): LiveRun | undefined;
  /** Resolves when no run is executing. */
  idle(): Promise<void>;
  /** Pauses every run (resumable) and waits for them: the app is closing. */
  pauseAll(): Promise<void>;
  dispose(): void;
}

interface ActiveRun extends LiveRun {
  controller: AbortController;
  done: Promise<void>;
  /**
   * Inputs this execution has had events about. The first event of a new one means an input before it finished
   * (one at a time, the previous; in a pool, the one the endpoint that takes it had). In a pool the events of files
   * in flight interleave, so "another ordinal than the last event's" would say so on nearly every event.
   */
  startedInputs: Set<number>;
  /** Inputs whose document is stored (their first event with a document id changed the library). */
  storedInputs: Set<number>;
}

export interface RunControlDeps {
  db: Database;
  engine: Engine;
  now: () => Date;
  log: Logger;
  views: () => ReadModels;
  emit: (event: HostEvent) => void;
  progressIntervalMs?: number;
  /** Text per extraction call for the runs it starts (default: the engine's); tests whose scripted model answers page by page set 1. */
  unitTokens?: number;
}

/** What the run control's steps share: its dependencies, the runs executing now and what earlier executions did. */
interface RunControlContext {
  deps: RunControlDeps;
  active: Map<number, ActiveRun>;
  /** Per run, what its executions before the current one did (share gained, working seconds): a resume keeps its pace. */
  history: Map<number, { gained: number; seconds: number }>;
  /** Progress events per run, sent at most once per interval (a new phase at once). */
  throttle: Throttle<number, true>;
}

export function createRunControl(deps: RunControlDeps): RunControl {
  const ctx: RunControlContext = {
    deps,
    active: new Map(),
    history: new Map(),
    throttle: createThrottle<number, true>({
      intervalMs: deps.progressIntervalMs ?? 100,
      // The payload is built when it is sent, so dropped intermediate events cost nothing and the inputs are always current.
      emit: (runId) => {
        const payload = deps.views().progressPayload(runId);
        if (payload) deps.emit({ type: 'run.progress', data: payload });
      },
    }),
  };
  const { active } = ctx;
  return {
    start: (files, mode) => start(ctx, files, mode),
    stop: (runId, how) => stop(ctx, runId, how),
    resume: (runId, control) => resume(ctx, runId, control),
    isActive: (runId) => active.has(runId),
    live: (runId) => active.get(runId),
    async idle() {
      while (active.size > 0) await Promise.all([...active.values()].map((a) => a.done));
    },
    async pauseAll() {
      for (const live of active.values()) live.controller.abort(new StopRequest('pause', 'The app is closing.'));
      await Promise.all([...active.values()].map((a) => a.done));
    },
    dispose: () => ctx.throttle.dispose(),
  };
}

/** Executes the run in the background: `live.done` settles when the engine has recorded how it ended. */
function execute(ctx: RunControlContext, runId: number, control: Pick<EngineRunControl, 'password'> = {}): void {
  const { deps, active, history, throttle } = ctx;
  const live: ActiveRun = {
    controller: new AbortController(),
    done: Promise.resolve(),
    startedAt: Date.now(),
    startOverall: null,
    progress: new Map<number, InputProgress>(),
    lastEvent: null,
    earlier: history.get(runId) ?? null,
    reached: null,
    startedInputs: new Set(),
    storedInputs: new Set(),
  };
  active.set(runId, live);
  const onProgress = (event: ProgressEvent) => {
    // A new phase reaches the window at once, not after the throttle's wait: the step it starts may hold the
    // engine for minutes (merging a thousand findings), and the window must say so before it does.
    const newPhase = event.phase !== (event.ordinal === undefined ? live.lastEvent?.phase : live.progress.get(event.ordinal)?.phase);
    live.lastEvent = event;
    // A stored document, or an input that finished (done or failed), changes the library.
    if (event.ordinal !== undefined && noteInputProgress(live, event, event.ordinal)) deps.emit({ type: 'documents.changed', data: {} });
    throttle.push(runId, true);
    if (newPhase) throttle.flush(runId);
  };
  live.done = (async () => {
    try {
      await deps.engine.resume(runId, { ...control, signal: live.controller.signal, onProgress });
    } catch (error) {
      // The runner records every failure of a run it executes; what reaches here is a bug: keep its stack.
      deps.log.error({ runId, code: ErrorCode.INTERNAL, err: error }, 'run execution threw');
    }
    active.delete(runId);
    keepHistory(ctx, runId, live);
    throttle.flush(runId);
    announceStopped(ctx, runId);
  })();
}

/**
 * Keeps an input's event as its progress; true when the library changed: the input's document was stored, or the
 * input before it finished.
 */
function noteInputProgress(live: ActiveRun, event: ProgressEvent, ordinal: number): boolean {
  const inputFinished = live.startedInputs.size > 0 && !live.startedInputs.has(ordinal);
  live.startedInputs.add(ordinal);
  // Each input keeps its own findings so far (in a pool the events of several files interleave): a count never falls.
  const findings = event.findings ?? live.progress.get(ordinal)?.findings;
  live.progress.set(ordinal, {
    phase: event.phase,
    current: event.current,
    total: event.total,
    message: event.message,
    ...(event.endpoint ? { endpoint: event.endpoint } : {}),
    ...(findings === undefined ? {} : { findings }),
  });
  const documentStored = event.documentId !== undefined && !live.storedInputs.has(ordinal);
  if (documentStored) live.storedInputs.add(ordinal);
  return documentStored || inputFinished;
}

/** Adds what this execution did (share gained, working seconds) to the run's history, for the next one's estimate. */
function keepHistory({ history }: RunControlContext, runId: number, live: ActiveRun): void {
  if (!live.reached || live.startOverall === null) return;
  const before = history.get(runId) ?? { gained: 0, seconds: 0 };
  history.set(runId, { gained: before.gained + Math.max(0, live.reached.overall - live.startOverall), seconds: before.seconds + live.reached.seconds });
}

/** The run's recorded state to every window, and the library's too (a document's status is its last run's). */
function announceStopped({ deps }: RunControlContext, runId: number): void {
  const final = getRun(deps.db, runId);
  if (final) deps.emit({ type: 'run.finished', data: deps.views().runView(final) });
  deps.emit({ type: 'documents.changed', data: {} });
}

function start(ctx: RunControlContext, files: readonly string[], mode?: RunMode): number {
  const { db, now, unitTokens } = ctx.deps;
  const settings = readSettings(db);
  const chosen = mode ?? settings.analysisMode;
  const runId = createRun(db, chosen, appRunSettings(settings, chosen, unitTokens), files, now().toISOString());
  execute(ctx, runId);
  return runId;
}

async function stop(ctx: RunControlContext, runId: number, how: StopKind): Promise<RunRef> {
  const { db, now } = ctx.deps;
  const live = ctx.active.get(runId);
  if (live) {
    live.controller.abort(new StopRequest(how));
    await live.done;
  } else {
    // A run left 'running' by a crash, paused, or queued, is not executing: the runner's rule marks it resumable.
    if (!stopIdleRun(db, runId, how, now().toISOString())) throw new AppError(ErrorCode.RUN_NOT_FOUND, `There is no run ${runId}. Refresh the run list.`);
    // Said as for a run that was executing: a paused run cancelled here left the library saying 'Paused' (nothing told it).
    announceStopped(ctx, runId);
  }
  return { runId, status: getRun(db, runId)!.status };
}

function resume(ctx: RunControlContext, runId: number, control: Pick<EngineRunControl, 'password'> = {}): RunRef {
  const { db } = ctx.deps;
  if (ctx.active.has(runId)) return { runId, status: 'running' };
  const run = getRun(db, runId);
  if (!run) throw new AppError(ErrorCode.RUN_NOT_FOUND, `There is no run ${runId}. Refresh the run list.`);
  // Refused here, with the store's sentence, rather than failing silently in the background.
  runSettingsOf(run);
  // Resumes against the host (or the endpoints) the settings name now (the user may have just fixed them).
  const current = readSettings(db);
  setRunOllamaHost(db, runId, current.ollamaHost.trim());
  if (current.endpoints.length > 0) setRunEndpoints(db, runId, current.endpoints);
  execute(ctx, runId, control);
  return { runId, status: 'running' };
}

/**
 * The run's own settings from the app settings, by the one function the CLI uses too (shared/runSettings.ts), with
 * the app's context kept beside them for the report; a resume and the report use exactly what the run started with.
 */
export function appRunSettings(settings: AppSettings, mode: RunMode, unitTokens?: number): RunSettings & { app: Record<string, unknown> } {
  return {
    ...runSettingsFrom(settings, { mode, ...(unitTokens === undefined ? {} : { unitTokens }) }),
    app: { contextPolicy: settings.contextPolicy, reviewerName: settings.reviewerName },
  };
}
