/**
 * The engine host: every contract command answered by one typed handler map
 * over a real engine and store, and an event stream (progress throttled per
 * run). Plain Node: the Electron utility process, the WebSocket bridge and
 * the tests all host it unchanged.
 *
 * This file only wires the parts together: run control (runControl.ts),
 * progress arithmetic (progress.ts), read models for the views
 * (readModels.ts, findingViews.ts) and one handler module per domain, joined
 * by combineHandlers (handlerMap.ts). A feature adds its handler module to
 * `handlerModules` below.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { commands, COMMAND_NAMES, isCommandName, type HostEvent } from '../../shared/contract';
import { AppError, ErrorCode, fail, ok, toErrorInfo, type Result } from '../../shared/errors';
import { SESSION_KEY_STORAGE, type KeyStorageStatus } from '../../shared/keyStorage';
import { createMemoryKeyStore, type HostKeyStore } from './endpointKeys';
import { endpointHandlers } from './endpointHandlers';
import { createEngine, createFileLogger, LOG_FILE, silentLogger, type EngineDeps, type FileLogger, type Logger } from '../engine';
import { openDatabase, type Database } from '../engine/store';
import { appHandlers } from './appHandlers';
import { askExtractionHandlers } from './askExtractionHandlers';
import { createAskHost } from './askHandlers';
import type { HostContext } from './context';
import { documentHandlers } from './documentHandlers';
import { findingViews, splitAttemptViews } from './findingViews';
import { combineHandlers, type HandlerModule, type Handlers } from './handlerMap';
import { createReadModels, type HostProviders, type ReadModels } from './readModels';
import { reportHandlers } from './reportExport';
import { ocrHandlers } from './ocrHandlers';
import { passwordHandlers } from './passwordHandlers';
import { reviewHandlers } from './review';
import { carryOverEveryDocument } from '../engine/review';
import { completenessHandlers } from './completenessHandlers';
import { compareHandlers } from './compareHandlers';
import { reconcileHandlers } from './reconcileHandlers';
import { createRunControl } from './runControl';
import { runHandlers } from './runHandlers';
import { workspaceHandlers } from './workspaceHandlers';

export type { Handlers } from './handlerMap';
export type { HostProviders } from './readModels';

/** The domains' handler modules; each answers its own commands, and no command twice. */
const handlerModules: readonly ((ctx: HostContext) => HandlerModule)[] = [
  appHandlers,
  documentHandlers,
  runHandlers,
  reportHandlers,
  (ctx) => reviewHandlers(ctx.db, ctx.now),
  passwordHandlers,
  (ctx) => ocrHandlers(ctx.db),
  (ctx) => completenessHandlers(ctx.db),
  (ctx) => workspaceHandlers(ctx.db),
  askExtractionHandlers,
  endpointHandlers,
  compareHandlers,
  reconcileHandlers,
];

export interface EngineHostOptions {
  /** Text per extraction call for the runs this host starts (default: the engine's); tests whose scripted model answers page by page set 1. */
  unitTokens?: number;
  /** App data folder: the database (unless dbPath says otherwise), imported uploads, exports and the log live here. */
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
  /** The log file; default `<dataDir>/logs/audit.log`; null logs nothing. */
  logFile?: string | null;
  /** API keys of inference endpoints (the desktop app fills it from safeStorage through main); default: memory only. */
  keys?: HostKeyStore;
  /** Whether keys typed in Settings may be stored (tests stand in for a computer without a keyring); default: for the session. */
  keyStorage?: KeyStorageStatus;
}

export interface EngineHost {
  readonly handlers: Handlers;
  readonly dataDir: string;
  readonly dbPath: string;
  /** The log file (null when logging is off). */
  readonly logPath: string | null;
  /** Parses `input` with the contract's schema, runs the handler, and never throws: errors come back as `{ ok: false }`. */
  invoke(command: string, input: unknown): Promise<Result<unknown>>;
  onEvent(listener: (event: HostEvent) => void): () => void;
  /** Resolves when no run is executing (tests). */
  idle(): Promise<void>;
  /** Pauses every run (resumable) and closes the database and the log. */
  close(): Promise<void>;
}

export function formatZodError(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : 'input'}: ${i.message}`).join('; ');
}

/** Parses the input with the contract's schema and runs the command's handler; never throws (errors come back coded). */
async function dispatch(handlers: Handlers, command: string, input: unknown, log: Logger): Promise<Result<unknown>> {
  if (!isCommandName(command)) return fail(new AppError(ErrorCode.INVALID_INPUT, `Unknown command ${String(command)}.`));
  const parsed = commands[command].input.safeParse(input ?? {});
  if (!parsed.success) return fail(new AppError(ErrorCode.INVALID_INPUT, `Invalid input for ${command}: ${formatZodError(parsed.error)}`));
  try {
    const handler = handlers[command] as (input: unknown) => Promise<unknown>;
    return ok(await handler(parsed.data));
  } catch (error) {
    if (!(error instanceof AppError)) log.error({ command, code: toErrorInfo(error).code, err: error }, 'command failed');
    return fail(error, log.path);
  }
}

export function createEngineHost(options: EngineHostOptions): EngineHost {
  const dataDir = options.dataDir;
  mkdirSync(dataDir, { recursive: true });
  const dbPath = options.dbPath ?? join(dataDir, 'audit.sqlite');
  const logFile = options.logFile === undefined ? join(dataDir, 'logs', LOG_FILE) : options.logFile;
  const fileLog: FileLogger | null = logFile === null ? null : createFileLogger(logFile);
  const log: Logger = fileLog ?? silentLogger;
  let db: Database;
  try {
    db = openDatabase(dbPath, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  } catch (error) {
    log.error({ code: toErrorInfo(error).code, err: error, dbPath }, 'the store could not be opened');
    return storeUnavailableHost({ dataDir, dbPath, appVersion: options.appVersion, log, fileLog, error });
  }
  const now = options.now ?? (() => new Date());
  catchUpReviews(db, now, log);
  const keys = options.keys ?? createMemoryKeyStore({}, options.env ?? process.env);
  const engine = createEngine({
    db,
    appVersion: options.appVersion,
    now,
    log,
    keys: (keyRef) => keys.get(keyRef),
    ...(options.ingestFile ? { ingestFile: options.ingestFile } : {}),
    ...(options.renderPdf ? { renderPdf: options.renderPdf } : {}),
  });
  // Tests may substitute fixed data; by default the views read what the pipeline stored.
  const providers: HostProviders = {
    findings: (query) => findingViews(db, query),
    splitAttempts: (documentId) => splitAttemptViews(db, documentId),
    ...options.providers,
  };
  const events = createEventHub();
  const emit = events.emit;
  let closed = false;

  // The views show live progress from run control, and run control sends views: each reaches the other lazily.
  const views: ReadModels = createReadModels({ db, engine, providers, live: (runId) => runs.live(runId) });
  const runs = createRunControl({
    db,
    engine,
    now,
    log,
    views: () => views,
    emit,
    ...(options.progressIntervalMs === undefined ? {} : { progressIntervalMs: options.progressIntervalMs }),
    ...(options.unitTokens === undefined ? {} : { unitTokens: options.unitTokens }),
  });

  // Asking the documents keeps its own question in flight (idle and close wait for it).
  const askHost = createAskHost({ db, dataDir, emit, now, keys: (keyRef) => keys.get(keyRef), ...(options.env ? { env: options.env } : {}) });

  const ctx: HostContext = {
    db,
    engine,
    now,
    appVersion: options.appVersion,
    dataDir,
    dbPath,
    logPath: log.path,
    log,
    env: options.env ?? process.env,
    keys,
    keyStorage: options.keyStorage ?? SESSION_KEY_STORAGE,
    runs,
    views,
    providers,
    emit,
    ...(options.renderPdf ? { renderPdf: options.renderPdf } : {}),
  };
  const handlers = combineHandlers(...handlerModules.map((module) => module(ctx)), askHost.handlers);

  return {
    handlers,
    dataDir,
    dbPath,
    logPath: log.path,
    async invoke(command, input) {
      if (closed && isCommandName(command)) return fail(new AppError(ErrorCode.INTERNAL, 'The engine host is shutting down.'));
      return dispatch(handlers, command, input, log);
    },
    onEvent: events.onEvent,
    async idle() {
      await runs.idle();
      await askHost.idle();
    },
    async close() {
      if (closed) return;
      await runs.pauseAll();
      await askHost.close();
      closed = true;
      runs.dispose();
      events.clear();
      db.close();
      await fileLog?.close();
    },
  };
}

/**
 * The host when its store cannot be opened (damaged, read-only, a full disk, a newer version): the window still
 * starts, `app.info` says where the data lives, and every other command answers with the store's coded error and
 * what to do, instead of the engine process dying at start ("The engine stopped unexpectedly"). The damaged file is
 * left as it is.
 */
function storeUnavailableHost(input: {
  dataDir: string;
  dbPath: string;
  appVersion: string;
  log: Logger;
  fileLog: FileLogger | null;
  error: unknown;
}): EngineHost {
  const { dataDir, dbPath, log, error } = input;
  const refuse = async (): Promise<never> => {
    throw error;
  };
  const handlers = {
    ...Object.fromEntries(COMMAND_NAMES.map((name) => [name, refuse])),
    'app.info': async () => ({ version: input.appVersion, dataDir, dbPath }),
  } as unknown as Handlers;
  return {
    handlers,
    dataDir,
    dbPath,
    logPath: log.path,
    invoke: (command, commandInput) => dispatch(handlers, command, commandInput, log),
    onEvent: () => () => false,
    idle: async () => {},
    close: async () => {
      await input.fileLog?.close();
    },
  };
}

/**
 * A store whose runs finished before the runner carried reviews over itself gets its reviews carried over once, here,
 * so that showing a review only ever reads. A failure is logged and leaves the reviews where they were: the host
 * still opens (the review shows its older run, as it did before the catch-up existed).
 */
function catchUpReviews(db: Database, now: () => Date, log: Logger): void {
  try {
    const carried = carryOverEveryDocument(db, now().toISOString());
    if (carried.length > 0) log.info({ documents: carried.map((c) => c.documentId) }, 'reviews carried over to their newest runs');
  } catch (error) {
    log.warn({ code: toErrorInfo(error).code, err: error }, 'reviews could not be carried over to their newest runs');
  }
}

/** The host's events to every listener (the window's IPC, the test bridge's sockets). */
function createEventHub() {
  const listeners = new Set<(event: HostEvent) => void>();
  return {
    emit(event: HostEvent): void {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // A broken listener (closed socket) must not stop the run or the other listeners.
        }
      }
    },
    onEvent(listener: (event: HostEvent) => void): () => boolean {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear(): void {
      listeners.clear();
    },
  };
}
