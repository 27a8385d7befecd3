/**
 * The engine host: every contract command as one typed handler map over a
 * real engine and store, runs executed here with their own AbortController,
 * and an event stream (progress throttled per run). Plain Node: the Electron
 * utility process, the WebSocket bridge and the tests all host it unchanged.
 */
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  commands,
  isCommandName,
  type AppSettings,
  type ChunkText,
  type CommandName,
  type CommandOutputs,
  type DocumentSummary,
  type FindingView,
  type Highlight,
  type HostEvent,
  type InputProgress,
  type LastRun,
  type MentionView,
  type ParsedInput,
  type RunMode,
  type RunProgressPayload,
  type RunView,
  type SplitAttemptView,
} from '../../shared/contract';
import { AppError, ErrorCode, fail, ok, toErrorInfo, type ErrorInfo, type Result } from '../../shared/errors';
import type { ProgressEvent, RunPhase, RunStatus } from '../../shared/types';
import { createEngine, type Engine, type EngineDeps } from '../engine';
import { DEFAULT_RUN_LLM_SETTINGS, defaultRunSettings, type RunSettings } from '../engine/jobs/settings';
import {
  addRunEvent,
  createRun,
  getCurrentTree,
  getRun,
  listRunEvents,
  listRunInputs,
  loadChunks,
  loadExtractedDocument,
  loadMentions,
  openDatabase,
  setRunOllamaHost,
  setRunStatus,
  type Database,
  type RunInput,
  type StoredRun,
} from '../engine/store';
import { resolveHost } from '../engine/llm';
import { checkImports } from './importFiles';
import { checkOllama } from './ollamaCheck';
import { readSettings, writeSettings } from './settings';
import { createThrottle } from './throttle';
import { analysisView, findingViews, latestAnalysedRun, splitAttemptViews } from './findingViews';
import { exportReport } from './reportExport';
import { reviewHandlers } from './review';
import { createAskHost } from './askHandlers';
import { DEFAULT_PROFILE } from '../../shared/findings';

export type Handlers = { [C in CommandName]: (input: ParsedInput<C>) => Promise<CommandOutputs[C]> };

/** Where data the engine does not store yet comes from; the lead wires these to the findings and tree-split tables. */
export interface HostProviders {
  findings?: (query: { documentId?: number; runId?: number }) => FindingView[];
  splitAttempts?: (documentId: number) => SplitAttemptView[];
}

export interface EngineHostOptions {
  /** App data folder: the database (unless dbPath says otherwise) and imported uploads live here. */
  dataDir: string;
  dbPath?: string;
  appVersion: string;
  /** better-sqlite3 built for the host's ABI (Electron's utility process). */
  nativeBinding?: string;
  ingestFile?: EngineDeps['ingestFile'];
  providers?: HostProviders;
  /** Minimum gap between two progress events of one run; default 100 ms (about 10 per second). */
  progressIntervalMs?: number;
  env?: Record<string, string | undefined>;
  now?: () => Date;
  /** Prints report HTML to PDF: headless Chromium by default; the desktop app asks main to print with Electron. */
  renderPdf?: EngineDeps['renderPdf'];
}

export interface EngineHost {
  readonly handlers: Handlers;
  readonly dataDir: string;
  readonly dbPath: string;
  /** Parses `input` with the contract's schema, runs the handler, and never throws: errors come back as `{ ok: false }`. */
  invoke(command: string, input: unknown): Promise<Result<unknown>>;
  onEvent(listener: (event: HostEvent) => void): () => void;
  /** Resolves when no run is executing (tests). */
  idle(): Promise<void>;
  /** Stops every run (resumable) and closes the database. */
  close(): Promise<void>;
}

interface ActiveRun {
  controller: AbortController;
  stop: 'cancel' | 'pause' | null;
  done: Promise<void>;
  startedAt: number;
  startOverall: number | null;
  mode: string;
  /** Latest progress per input ordinal. */
  progress: Map<number, InputProgress>;
  currentOrdinal: number;
  lastEvent: ProgressEvent | null;
}

/** Where each phase sits inside one input's share of the bar, per mode. */
const PHASE_SPANS: Record<string, Partial<Record<RunPhase, [number, number]>>> = {
  'rules-only': { ingest: [0, 0.8], tree: [0.8, 0.9], rules: [0.9, 1], done: [1, 1] },
  full: { ingest: [0, 0.1], judge: [0.1, 0.15], tree: [0.15, 0.25], rules: [0.25, 0.3], extract: [0.3, 0.9], merge: [0.9, 0.95], summary: [0.95, 1], report: [1, 1], done: [1, 1] },
};

const FINISHED: readonly RunStatus[] = ['done', 'failed'];

export function formatZodError(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : 'input'}: ${i.message}`).join('; ');
}

export function createEngineHost(options: EngineHostOptions): EngineHost {
  const dataDir = options.dataDir;
  mkdirSync(dataDir, { recursive: true });
  const dbPath = options.dbPath ?? join(dataDir, 'audit.sqlite');
  const db: Database = openDatabase(dbPath, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  const now = options.now ?? (() => new Date());
  const engine: Engine = createEngine({
    db,
    appVersion: options.appVersion,
    now,
    ...(options.ingestFile ? { ingestFile: options.ingestFile } : {}),
    ...(options.renderPdf ? { renderPdf: options.renderPdf } : {}),
  });
  const review = reviewHandlers(db, now);
  // Tests may substitute fixed data; by default the views read what the pipeline stored.
  const providers: HostProviders = {
    findings: (query) => findingViews(db, query),
    splitAttempts: (documentId) => splitAttemptViews(db, documentId),
    ...options.providers,
  };
  const listeners = new Set<(event: HostEvent) => void>();
  const active = new Map<number, ActiveRun>();
  const textCache = new Map<number, string>();
  let closed = false;

  const emit = (event: HostEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener (closed socket) must not stop the run or the other listeners.
      }
    }
  };

  const askHost = createAskHost({ db, dataDir, emit, now, ...(options.env ? { env: options.env } : {}) });

  const throttle = createThrottle<number, true>({
    intervalMs: options.progressIntervalMs ?? 100,
    // The payload is built when it is sent, so dropped intermediate events cost nothing and the inputs are always current.
    emit: (runId) => {
      const payload = progressPayload(runId);
      if (payload) emit({ type: 'run.progress', data: payload });
    },
  });

  const inputView = (input: RunInput, run?: ActiveRun) => ({
    ordinal: input.ordinal,
    fileName: basename(input.filePath),
    filePath: input.filePath,
    documentId: input.documentId,
    status: input.status,
    phase: input.phase,
    error: input.error,
    warnings: input.warnings,
    progress: run?.progress.has(input.ordinal) ? { ...run.progress.get(input.ordinal)!, fraction: inputFraction(input, run, run.mode) } : null,
  });

  const runView = (run: StoredRun): RunView => {
    const live = active.get(run.id);
    return {
      id: run.id,
      mode: run.mode,
      status: run.status,
      createdAt: run.createdAt,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      error: run.error,
      active: live !== undefined,
      inputs: listRunInputs(db, run.id).map((i) => inputView(i, live)),
    };
  };

  function inputFraction(input: RunInput, live: ActiveRun | undefined, mode: string): number {
    if (FINISHED.includes(input.status)) return 1;
    if (input.status !== 'running') return 0;
    const p = live?.progress.get(input.ordinal);
    if (!p) return 0;
    const span = (PHASE_SPANS[mode] ?? PHASE_SPANS['rules-only']!)[p.phase] ?? [0, 0];
    const within = p.total > 0 ? Math.min(1, p.current / p.total) : 0;
    return span[0] + (span[1] - span[0]) * within;
  }

  function progressPayload(runId: number): RunProgressPayload | null {
    const run = getRun(db, runId);
    const live = active.get(runId);
    if (!run) return null;
    const inputs = listRunInputs(db, runId);
    const overall = inputs.length === 0 ? 1 : inputs.reduce((sum, i) => sum + inputFraction(i, live, run.mode), 0) / inputs.length;
    const event = (live?.lastEvent ?? { runId, phase: 'done', current: 0, total: 0, message: '' }) as RunProgressPayload['event'];
    let etaSeconds: number | null = typeof event.etaSeconds === 'number' ? event.etaSeconds : null;
    if (etaSeconds === null && live) {
      live.startOverall ??= overall;
      const gained = overall - live.startOverall;
      const elapsed = (Date.now() - live.startedAt) / 1000;
      if (gained > 0.02 && elapsed > 0.5) etaSeconds = Math.max(0, Math.round((elapsed * (1 - overall)) / gained));
    }
    return {
      runId,
      event,
      overall,
      etaSeconds,
      tokensPerSecond: typeof event.tokensPerSecond === 'number' ? event.tokensPerSecond : null,
      inputs: inputs.map((i) => inputView(i, live)),
    };
  }

  function execute(runId: number): void {
    const run = getRun(db, runId);
    if (!run) throw new AppError(ErrorCode.RUN_NOT_FOUND, `There is no run ${runId}. Refresh the run list.`);
    const inputs = listRunInputs(db, runId);
    const live: ActiveRun = {
      controller: new AbortController(),
      stop: null,
      done: Promise.resolve(),
      startedAt: Date.now(),
      startOverall: null,
      mode: run.mode,
      progress: new Map(),
      currentOrdinal: inputs.find((i) => !FINISHED.includes(i.status))?.ordinal ?? 0,
      lastEvent: null,
    };
    active.set(runId, live);
    const onProgress = (event: ProgressEvent) => {
      live.lastEvent = event;
      if (event.fileName !== undefined) {
        // Inputs run one at a time in order: the event is about the current input or the next one with that name.
        const current = inputs[live.currentOrdinal];
        if (!current || basename(current.filePath) !== event.fileName) {
          const next = inputs.find((i) => i.ordinal >= live.currentOrdinal && basename(i.filePath) === event.fileName);
          if (next) live.currentOrdinal = next.ordinal;
        }
        live.progress.set(live.currentOrdinal, { phase: event.phase, current: event.current, total: event.total, message: event.message });
        // A stored document (or a failed input) changes the library.
        if (event.phase === 'rules' || event.message.includes('failed')) emit({ type: 'documents.changed', data: {} });
      }
      throttle.push(runId, true);
    };
    live.done = (async () => {
      let failure: ErrorInfo | null = null;
      try {
        if (run.mode === 'full' && run.status !== 'done') await preflightOllama(run, live.controller.signal);
        await engine.resume(runId, { signal: live.controller.signal, onProgress });
      } catch (error) {
        failure = toErrorInfo(error);
      }
      if (!closed) {
        if (failure && failure.code !== ErrorCode.CANCELLED) {
          setRunStatus(db, runId, 'failed', now().toISOString(), failure);
          if (failure.code === ErrorCode.OLLAMA_UNREACHABLE) addRunEvent(db, runId, { at: now().toISOString(), level: 'error', phase: 'ingest', message: failure.message, data: failure });
        }
        else if (live.stop === 'pause') setRunStatus(db, runId, 'paused', now().toISOString());
        else if (live.stop === 'cancel' || failure) setRunStatus(db, runId, 'cancelled', now().toISOString());
      }
      active.delete(runId);
      if (closed) return;
      throttle.flush(runId);
      const final = getRun(db, runId);
      if (final) emit({ type: 'run.finished', data: runView(final) });
      emit({ type: 'documents.changed', data: {} });
    })();
  }

  /** The run's own settings from the app settings (defaults kept for what the app does not set), so a resume and the report use exactly what the run was started with. */
  function runSettingsFrom(settings: AppSettings, mode: RunMode): RunSettings & { app: Record<string, unknown> } {
    const models: RunSettings['llm']['models'] = {};
    for (const stage of ['judge', 'split', 'extract', 'summary', 'embed'] as const) {
      const model = settings.models[stage];
      if (model) models[stage] = model;
    }
    // The reviewer of an LLM tree split works on the same text as the splitter: it uses the split model when one is chosen.
    if (settings.models.split) models.review = settings.models.split;
    const host = settings.ollamaHost.trim();
    return {
      ...defaultRunSettings({
        mode,
        strategy: settings.strategy,
        judge: settings.useJudge,
        ...(settings.profile ? { profile: settings.profile } : {}),
        // ID patterns set on their own win; else the profile's, which are also what extraction is told to look for.
        idPatterns: settings.idPatterns.length > 0 ? settings.idPatterns : [...(settings.profile ?? DEFAULT_PROFILE).idPatterns],
        llm: {
          ...DEFAULT_RUN_LLM_SETTINGS,
          desiredChunkTokens: settings.chunkTokens,
          models,
          ...(host ? { host } : {}),
          ...(settings.contextPolicy.mode === 'fixed' ? { numCtx: settings.contextPolicy.numCtx } : {}),
        },
      }),
      app: { contextPolicy: settings.contextPolicy, reviewerName: settings.reviewerName },
    };
  }

  /**
   * One quick GET /api/version before a full run: an Ollama that is not running fails the run at once with the
   * sentence that says what to do, instead of after the LLM client's retries (several seconds) and under a vaguer
   * code. Anything else (HTTP errors, missing models) is left to the engine's own probe.
   */
  async function preflightOllama(run: StoredRun, signal: AbortSignal): Promise<void> {
    const host = resolveHost((run.settings as { llm?: { host?: string } }).llm?.host ?? '', options.env ?? process.env);
    try {
      const response = await fetch(`${host}/api/version`, { signal: AbortSignal.any([signal, AbortSignal.timeout(5000)]) });
      await response.body?.cancel();
    } catch (error) {
      if (signal.aborted) throw new AppError(ErrorCode.CANCELLED, 'Cancelled.');
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw new AppError(
        ErrorCode.OLLAMA_UNREACHABLE,
        `Ollama is not reachable. Start Ollama: run \`ollama serve\` or open the Ollama app, or correct the Ollama host in Settings. Tried ${host}.`,
        { host, ...(cause ? { cause } : {}) },
      );
    }
  }

  function startRun(files: readonly string[], mode?: RunMode): number {
    const settings = readSettings(db);
    const chosen = mode ?? settings.analysisMode;
    const runId = createRun(db, chosen, runSettingsFrom(settings, chosen) as unknown as Record<string, unknown>, files, now().toISOString());
    execute(runId);
    return runId;
  }

  async function stopRun(runId: number, how: 'cancel' | 'pause'): Promise<{ runId: number; status: RunStatus }> {
    const live = active.get(runId);
    if (live) {
      live.stop = how;
      live.controller.abort(new AppError(ErrorCode.CANCELLED, how === 'pause' ? 'Paused.' : 'Cancelled.'));
      await live.done;
    } else {
      const run = getRun(db, runId);
      if (!run) throw new AppError(ErrorCode.RUN_NOT_FOUND, `There is no run ${runId}. Refresh the run list.`);
      // A run left 'running' by a crash is not executing: mark it so it can be resumed.
      if (run.status === 'running' || run.status === 'queued') setRunStatus(db, runId, how === 'pause' ? 'paused' : 'cancelled', now().toISOString());
    }
    return { runId, status: getRun(db, runId)!.status };
  }

  function documentText(documentId: number): string {
    let text = textCache.get(documentId);
    if (text === undefined) {
      const doc = loadExtractedDocument(db, documentId);
      if (!doc) throw new AppError(ErrorCode.INVALID_INPUT, `There is no document ${documentId}. Refresh the library.`);
      text = doc.text;
      if (textCache.size >= 4) textCache.delete(textCache.keys().next().value!);
      textCache.set(documentId, text);
    }
    return text;
  }

  function uniqueMentions(documentId: number) {
    const seen = new Set<string>();
    return loadMentions(db, documentId).filter((m) => {
      const key = `${m.start}:${m.end}:${m.normalized}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  const handlers: Handlers = {
    'app.info': async () => ({ version: options.appVersion, dataDir, dbPath }),
    'settings.get': async () => readSettings(db),
    'settings.update': async (patch) => writeSettings(db, patch as Partial<AppSettings>, now().toISOString()),
    'ollama.check': async ({ host }) => {
      const settings = readSettings(db);
      return checkOllama(host ?? settings.ollamaHost, settings.models, options.env ? { env: options.env } : {});
    },
    'documents.import': async ({ files, mode }) => {
      const checked = checkImports(files, join(dataDir, 'imports'));
      const runId = checked.accepted.length > 0 ? startRun(checked.accepted.map((a) => a.path), mode) : null;
      return { runId, ...checked };
    },
    'documents.list': async () => {
      const last = new Map<number, { run: LastRun; status: RunStatus; error: ErrorInfo | null }>();
      for (const run of engine.listRuns().reverse()) {
        for (const input of listRunInputs(db, run.id)) {
          if (input.documentId === null || last.has(input.documentId)) continue;
          last.set(input.documentId, {
            run: { runId: run.id, status: run.status, at: run.finishedAt ?? run.startedAt ?? run.createdAt },
            status: input.status,
            error: input.error,
          });
        }
      }
      return engine.listDocuments().map((d): DocumentSummary => {
        const l = last.get(d.id);
        const findings = providers.findings?.({ documentId: d.id });
        return {
          id: d.id,
          fileName: d.fileName,
          pageCount: d.pageCount,
          sha256: d.sha256,
          status: l?.status ?? 'stored',
          // null = never analysed with the LLM (rules-only), as opposed to analysed with no findings.
          findingsCount: findings && (findings.length > 0 || latestAnalysedRun(db, d.id) !== null) ? findings.length : null,
          lastRun: l?.run ?? null,
          error: l?.error ?? null,
        };
      });
    },
    'runs.start': async ({ files, mode }) => ({ runId: startRun(files, mode), status: 'running' }),
    'runs.cancel': ({ runId }) => stopRun(runId, 'cancel'),
    'runs.pause': ({ runId }) => stopRun(runId, 'pause'),
    'runs.resume': async ({ runId }) => {
      if (active.has(runId)) return { runId, status: 'running' };
      if (!getRun(db, runId)) throw new AppError(ErrorCode.RUN_NOT_FOUND, `There is no run ${runId}. Refresh the run list.`);
      // Resumes against the host the settings name now (the user may have just fixed it).
      setRunOllamaHost(db, runId, readSettings(db).ollamaHost.trim());
      execute(runId);
      return { runId, status: 'running' };
    },
    'runs.list': async () => engine.listRuns().reverse().map(runView),
    'runs.events': async ({ runId }) => listRunEvents(db, runId).map(({ id, at, level, phase, documentId, message }) => ({ id, at, level, phase, documentId, message })),
    'tree.get': async ({ documentId }) => {
      const tree = getCurrentTree(db, documentId);
      return tree ? { documentId, treeId: tree.id, strategy: tree.strategy, nodes: loadChunks(db, tree.id) } : null;
    },
    'chunk.text': async ({ documentId, nodeIndex }) => {
      const tree = getCurrentTree(db, documentId);
      const node = tree ? loadChunks(db, tree.id).find((n) => n.index === nodeIndex) : undefined;
      if (!node) throw new AppError(ErrorCode.INVALID_INPUT, `Document ${documentId} has no chunk ${nodeIndex}. Reload the tree.`);
      const text = documentText(documentId).slice(node.start, node.end);
      const inside = (start: number, end: number) => start < node.end && end > node.start;
      const clip = (start: number, end: number) => ({ start: Math.max(0, start - node.start), end: Math.min(node.end, end) - node.start });
      const highlights: Highlight[] = [
        ...uniqueMentions(documentId)
          .filter((m) => inside(m.start, m.end))
          .map((m): Highlight => ({ ...clip(m.start, m.end), kind: 'mention', label: m.normalized })),
        ...(providers.findings?.({ documentId }) ?? []).flatMap((f) =>
          f.sources
            .filter((s) => s.evidenceStart !== null && s.evidenceEnd !== null && inside(s.evidenceStart, s.evidenceEnd))
            .map((s): Highlight => ({ ...clip(s.evidenceStart!, s.evidenceEnd!), kind: 'evidence', label: f.findingKey ?? f.title })),
        ),
      ].sort((a, b) => a.start - b.start);
      const out: ChunkText = {
        documentId,
        nodeIndex,
        title: node.title,
        origin: node.origin,
        start: node.start,
        end: node.end,
        pageStart: node.pageStart,
        pageEnd: node.pageEnd,
        text,
        highlights,
      };
      return out;
    },
    'splitAttempts.list': async ({ documentId }) => providers.splitAttempts?.(documentId) ?? [],
    'findings.list': async (query) => providers.findings?.(query) ?? [],
    'mentions.list': async ({ documentId }) => {
      const groups = new Map<string, MentionView>();
      for (const m of uniqueMentions(documentId)) {
        let group = groups.get(m.normalized);
        if (!group) {
          group = { id: m.normalized, patternName: m.patternName, pages: [], occurrences: [] };
          groups.set(m.normalized, group);
        }
        group.occurrences.push({ raw: m.raw, start: m.start, end: m.end, page: m.page });
        if (!group.pages.includes(m.page)) group.pages.push(m.page);
      }
      return [...groups.values()].map((g) => ({ ...g, pages: g.pages.sort((a, b) => a - b) }));
    },
    'documents.analysis': async ({ documentId, runId }) => {
      if (!engine.listDocuments().some((d) => d.id === documentId)) throw new AppError(ErrorCode.INVALID_INPUT, `There is no document ${documentId}. Refresh the library.`);
      return analysisView(db, documentId, runId, (run) => providers.findings?.({ documentId, ...(run === null ? {} : { runId: run }) }) ?? []);
    },
    'reports.export': async (input) => {
      if (active.has(input.runId)) throw new AppError(ErrorCode.INVALID_INPUT, `Run ${input.runId} is still running: export it when it has finished (or pause it).`);
      return exportReport(engine, join(dataDir, 'exports'), input, now());
    },
    'review.get': async (input) => review['review.get'](input),
    'review.setState': async (input) => review['review.setState'](input),
    'review.edit': async (input) => review['review.edit'](input),
    'review.note': async (input) => review['review.note'](input),
    'review.acknowledge': async (input) => review['review.acknowledge'](input),
    'review.split': async (input) => review['review.split'](input),
    'review.merge': async (input) => review['review.merge'](input),
    'review.addManual': async (input) => review['review.addManual'](input),
    'review.trail': async (input) => review['review.trail'](input),
    ...askHost.handlers,
  };

  return {
    handlers,
    dataDir,
    dbPath,
    async invoke(command, input) {
      if (!isCommandName(command)) return fail(new AppError(ErrorCode.INVALID_INPUT, `Unknown command ${String(command)}.`));
      if (closed) return fail(new AppError(ErrorCode.INTERNAL, 'The engine host is shutting down.'));
      const parsed = commands[command].input.safeParse(input ?? {});
      if (!parsed.success) return fail(new AppError(ErrorCode.INVALID_INPUT, `Invalid input for ${command}: ${formatZodError(parsed.error)}`));
      try {
        const handler = handlers[command] as (input: unknown) => Promise<unknown>;
        return ok(await handler(parsed.data));
      } catch (error) {
        return fail(error);
      }
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async idle() {
      while (active.size > 0) await Promise.all([...active.values()].map((a) => a.done));
      await askHost.idle();
    },
    async close() {
      if (closed) return;
      for (const live of active.values()) {
        live.stop = 'pause';
        live.controller.abort(new AppError(ErrorCode.CANCELLED, 'The app is closing.'));
      }
      await Promise.all([...active.values()].map((a) => a.done));
      await askHost.close();
      closed = true;
      throttle.dispose();
      listeners.clear();
      db.close();
    },
  };
}
