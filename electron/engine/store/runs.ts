import type { Database } from 'better-sqlite3';
import type { ReadDb } from './db';
import { AppError, ErrorCode, type ErrorInfo } from '../../../shared/errors';
import { storedRunSettingsSchema, type StoredRunSettings } from '../../../shared/runSettings';
import type { RunPhase, RunStatus } from '../../../shared/types';
import type { EndpointSettings } from '../../../shared/endpoints';

export interface StoredRun {
  id: number;
  mode: string;
  status: RunStatus;
  /** Parsed with storedRunSettingsSchema when the row was read; null when the row is from an older version or damaged. */
  settings: StoredRunSettings | null;
  /** Why `settings` is null: RUN_SETTINGS_INVALID with what is wrong. Read settings through runSettingsOf. */
  settingsError: ErrorInfo | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  error: ErrorInfo | null;
}

export interface RunInput {
  runId: number;
  ordinal: number;
  filePath: string;
  documentId: number | null;
  status: RunStatus;
  phase: RunPhase | null;
  error: ErrorInfo | null;
  warnings: ErrorInfo[];
}

interface RunRow {
  id: number;
  mode: string;
  status: RunStatus;
  settings_json: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error_code: string | null;
  error_message: string | null;
}

interface RunInputRow {
  run_id: number;
  ordinal: number;
  file_path: string;
  document_id: number | null;
  status: RunStatus;
  phase: RunPhase | null;
  error_code: string | null;
  error_message: string | null;
  warnings_json: string;
}

const toError = (code: string | null, message: string | null): ErrorInfo | null => (code === null ? null : ({ code, message: message ?? '' } as ErrorInfo));

/**
 * The one place stored run settings are read: parsed, never cast. A row that does not parse keeps the run
 * listable (its status and inputs still show) and says what is wrong to whoever needs its settings.
 */
function parseSettings(runId: number, json: string): { settings: StoredRunSettings | null; settingsError: ErrorInfo | null } {
  let raw: unknown;
  let problem: string;
  try {
    raw = JSON.parse(json);
    const parsed = storedRunSettingsSchema.safeParse(raw);
    if (parsed.success) return { settings: parsed.data, settingsError: null };
    problem = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : 'settings'}: ${i.message}`)
      .join('; ');
  } catch (error) {
    problem = `not JSON (${(error as Error).message})`;
  }
  return {
    settings: null,
    settingsError: {
      code: ErrorCode.RUN_SETTINGS_INVALID,
      message: `The settings stored with run ${runId} cannot be read (${problem}): the run was written by an older version of the app, or the database is damaged. Start a new run with the same files.`,
      details: { runId },
    },
  };
}

/** A run's settings, or the clear RUN_SETTINGS_INVALID error when its row could not be parsed. */
export function runSettingsOf(run: StoredRun): StoredRunSettings {
  if (run.settings) return run.settings;
  const error = run.settingsError!;
  throw new AppError(error.code, error.message, error.details);
}

const toRun = (row: RunRow): StoredRun => ({
  id: row.id,
  mode: row.mode,
  status: row.status,
  ...parseSettings(row.id, row.settings_json),
  createdAt: row.created_at,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
  error: toError(row.error_code, row.error_message),
});

const toRunInput = (row: RunInputRow): RunInput => ({
  runId: row.run_id,
  ordinal: row.ordinal,
  filePath: row.file_path,
  documentId: row.document_id,
  status: row.status,
  phase: row.phase,
  error: toError(row.error_code, row.error_message),
  warnings: JSON.parse(row.warnings_json) as ErrorInfo[],
});

/** Creates a queued run with its inputs in one transaction, so a run never exists without its file list. */
export function createRun(db: Database, mode: string, settings: object, filePaths: readonly string[], now: string): number {
  return db.transaction(() => {
    const runId = Number(
      db.prepare("INSERT INTO runs (mode, status, settings_json, created_at) VALUES (?, 'queued', ?, ?)").run(mode, JSON.stringify(settings), now)
        .lastInsertRowid,
    );
    const insert = db.prepare("INSERT INTO run_inputs (run_id, ordinal, file_path, status) VALUES (?, ?, ?, 'queued')");
    filePaths.forEach((filePath, ordinal) => insert.run(runId, ordinal, filePath));
    return runId;
  })();
}

export function getRun(db: ReadDb, runId: number): StoredRun | undefined {
  const row = db.prepare('SELECT * FROM runs WHERE id = ?').get(runId) as RunRow | undefined;
  return row && toRun(row);
}

export function listRuns(db: ReadDb): StoredRun[] {
  return (db.prepare('SELECT * FROM runs ORDER BY id').all() as RunRow[]).map(toRun);
}

/**
 * Points a run at the Ollama server where it now runs ('' = the default:
 * OLLAMA_HOST, else 127.0.0.1:11434). Where Ollama listens is where the
 * machine runs it, not an analysis setting: a run that stopped because Ollama
 * was unreachable resumes against the fixed host. Models, strategy and chunk
 * sizes stay as the run was started, so its results do not change meaning
 * half-way. Returns whether anything changed (rules-only runs have no host).
 */
export function setRunOllamaHost(db: Database, runId: number, host: string): boolean {
  const run = getRun(db, runId);
  if (!run || run.mode !== 'full') return false;
  const stored = runSettingsOf(run);
  if ((stored.llm.host ?? '') === host) return false;
  const llm = { ...stored.llm };
  if (host) llm.host = host;
  else delete llm.host;
  db.prepare('UPDATE runs SET settings_json = ? WHERE id = ?').run(JSON.stringify({ ...stored, llm }), runId);
  return true;
}

/**
 * Where a resumed run's model calls go now (`--endpoint` on resume): the run keeps its models and plan, only the
 * servers change. Keys stay references. Returns false for a rules-only or unknown run.
 */
export function setRunEndpoints(db: Database, runId: number, endpoints: readonly EndpointSettings[]): boolean {
  const run = getRun(db, runId);
  if (!run || run.mode !== 'full') return false;
  const stored = runSettingsOf(run);
  db.prepare('UPDATE runs SET settings_json = ? WHERE id = ?').run(JSON.stringify({ ...stored, llm: { ...stored.llm, endpoints } }), runId);
  return true;
}

export function setRunStatus(db: Database, runId: number, status: RunStatus, now: string, error?: ErrorInfo): void {
  const finished = status === 'done' || status === 'failed' || status === 'cancelled';
  db.prepare(
    `UPDATE runs SET status = ?,
       started_at = CASE WHEN ? = 'running' AND started_at IS NULL THEN ? ELSE started_at END,
       finished_at = CASE WHEN ? THEN ? ELSE NULL END,
       error_code = ?, error_message = ?
     WHERE id = ?`,
  ).run(status, status, now, finished ? 1 : 0, now, error?.code ?? null, error?.message ?? null, runId);
}

export function listRunInputs(db: ReadDb, runId: number): RunInput[] {
  return (db.prepare('SELECT * FROM run_inputs WHERE run_id = ? ORDER BY ordinal').all(runId) as RunInputRow[]).map(toRunInput);
}

export function updateRunInput(
  db: Database,
  runId: number,
  ordinal: number,
  patch: { status?: RunStatus; phase?: RunPhase | null; documentId?: number; error?: ErrorInfo | null; warnings?: ErrorInfo[] },
): void {
  const current = db.prepare('SELECT * FROM run_inputs WHERE run_id = ? AND ordinal = ?').get(runId, ordinal) as RunInputRow | undefined;
  if (!current) throw new Error(`run ${runId} has no input ${ordinal}`);
  const error = patch.error === undefined ? toError(current.error_code, current.error_message) : patch.error;
  db.prepare(
    `UPDATE run_inputs SET status = ?, phase = ?, document_id = ?, error_code = ?, error_message = ?, warnings_json = ?
     WHERE run_id = ? AND ordinal = ?`,
  ).run(
    patch.status ?? current.status,
    patch.phase === undefined ? current.phase : patch.phase,
    patch.documentId ?? current.document_id,
    error?.code ?? null,
    error?.message ?? null,
    patch.warnings === undefined ? current.warnings_json : JSON.stringify(patch.warnings),
    runId,
    ordinal,
  );
}

export interface RunEvent {
  id: number;
  at: string;
  level: 'info' | 'warn' | 'error';
  phase: RunPhase;
  documentId: number | null;
  message: string;
  data: unknown;
}

export function addRunEvent(
  db: Database,
  runId: number,
  event: { at: string; level: RunEvent['level']; phase: RunPhase; documentId?: number | null; message: string; data?: unknown },
): void {
  db.prepare('INSERT INTO run_events (run_id, at, level, phase, document_id, message, data_json) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    runId,
    event.at,
    event.level,
    event.phase,
    event.documentId ?? null,
    event.message,
    event.data === undefined ? null : JSON.stringify(event.data),
  );
}

export function listRunEvents(db: ReadDb, runId: number): RunEvent[] {
  return (
    db.prepare('SELECT * FROM run_events WHERE run_id = ? ORDER BY id').all(runId) as {
      id: number;
      at: string;
      level: RunEvent['level'];
      phase: RunPhase;
      document_id: number | null;
      message: string;
      data_json: string | null;
    }[]
  ).map((row) => ({
    id: row.id,
    at: row.at,
    level: row.level,
    phase: row.phase,
    documentId: row.document_id,
    message: row.message,
    data: row.data_json === null ? null : JSON.parse(row.data_json),
  }));
}

/** The latest run that analyzed this document with the LLM (chunk results, merged findings or a summary), if any. */
export function latestRunWithLlmResults(db: ReadDb, documentId: number): number | null {
  const row = db
    .prepare(
      `SELECT MAX(run_id) AS run_id FROM (
         SELECT run_id FROM chunk_results WHERE document_id = ?
         UNION ALL SELECT run_id FROM merged_findings WHERE document_id = ?
         UNION ALL SELECT run_id FROM summaries WHERE document_id = ?)`,
    )
    .get(documentId, documentId, documentId) as { run_id: number | null } | undefined;
  return row?.run_id ?? null;
}

/** True when some run finished this document (its input done). */
export function documentHasFinishedInput(db: ReadDb, documentId: number): boolean {
  return db.prepare("SELECT 1 FROM run_inputs WHERE document_id = ? AND status = 'done' LIMIT 1").get(documentId) !== undefined;
}
