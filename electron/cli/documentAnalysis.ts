/**
 * What the commands that work on analysed documents (compare, reconcile)
 * share with `npm run analyze`: its model options, the run settings they
 * give, the store, log and engine they open, and "reuse the stored analysis of these bytes, else analyse the file".
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_PROFILE, type ExtractionProfile } from '../../shared/findings';
import { PIPELINE_STAGES, STRATEGY_CHOICES } from '../../shared/pipeline';
import { runSettingsFrom } from '../../shared/runSettings';
import type { ProgressEvent, RunPhase } from '../../shared/types';
import { createEngine, createFileLogger, DEFAULT_RUN_LLM_SETTINGS, LOG_FILE, type FileLogger, type RunSettings } from '../engine';
import { documentHasMergedFindings } from '../engine/merge';
import { documentHasFinishedInput, findDocumentBySha, type Database } from '../engine/store';
import { abortOnCtrlC, EXIT_CANCELLED, openStoreOrSay } from './common';
import { defaultDatabasePath, defaultLogPath, LOG_FOLDER } from './paths';
import { createProgressPrinter, type ProgressPrinter } from './progress';
import { modelChoices } from './runOptions';
import { appVersion } from './version';
import { cliPasswordSource, givenPassword, PASSWORD_OPTIONS, terminalPrompt, type PasswordOptions } from './passwordPrompt';
import { writeLines } from './terminalText';

/** The store and log options (openAnalysisSession), as node:util parseArgs declares them. */
export const SESSION_OPTIONS = {
  db: { type: 'string' },
  log: { type: 'string' },
} as const;

/** Their help lines. */
export const SESSION_OPTIONS_HELP = `  --db <file>             SQLite store (default: ${defaultDatabasePath()})
  --log <file>            Log file (default: ${defaultLogPath()}, or logs/${LOG_FILE} beside the --db file)`;

/** What a command that analyses documents holds open while it works; `close` releases all of it. */
export interface AnalysisSession {
  db: Database;
  engine: ReturnType<typeof createEngine>;
  /** Where the log is written: error messages name it. */
  logPath: string;
  progress: ProgressPrinter;
  /** Aborted by the first Ctrl-C (the step under way ends; what was analysed is stored). */
  signal: AbortSignal;
  close(): Promise<void>;
}

/**
 * Opens the store (--db, else the app's), the log beside it (--log, else the app's) and an engine on them, and
 * turns Ctrl-C into a stop after the current step. Null when the store cannot be opened: that has been said.
 */
export function openAnalysisSession(values: { db?: string | undefined; log?: string | undefined }): AnalysisSession | null {
  const dbPath = resolve(values.db ?? defaultDatabasePath());
  mkdirSync(dirname(dbPath), { recursive: true });
  const progress = createProgressPrinter();
  const db = openStoreOrSay(dbPath);
  if (!db) return null;
  const logPath = resolve(values.log ?? (values.db === undefined ? defaultLogPath() : join(dirname(dbPath), LOG_FOLDER, LOG_FILE)));
  const log: FileLogger = createFileLogger(logPath);
  const engine = createEngine({ db, appVersion: appVersion(), log });
  const stop = abortOnCtrlC('Stopping after the current step (press Ctrl-C again to quit at once)...', EXIT_CANCELLED);
  return {
    db,
    engine,
    logPath,
    progress,
    signal: stop.signal,
    async close() {
      stop.release();
      db.close();
      await log.close();
    },
  };
}

/** analyze's model options, as node:util parseArgs declares them. */
export const ANALYSIS_OPTIONS = {
  'rules-only': { type: 'boolean', default: false },
  reanalyze: { type: 'boolean', default: false },
  host: { type: 'string' },
  model: { type: 'string' },
  ...Object.fromEntries(PIPELINE_STAGES.map((stage) => [`model-${stage}`, { type: 'string' as const }])),
  strategy: { type: 'string' },
  'no-judge': { type: 'boolean', default: false },
  'num-ctx': { type: 'string' },
  'unit-tokens': { type: 'string' },
  'no-cache': { type: 'boolean', default: false },
  profile: { type: 'string' },
  ...PASSWORD_OPTIONS,
} as const;

/** The help lines of those options (after a command's own). */
export const ANALYSIS_OPTIONS_HELP = `  --reanalyze             Analyse again instead of reusing a stored analysis
  --host <url>            Ollama (default: OLLAMA_HOST, else http://127.0.0.1:11434)
  --model <name>          Model for every stage; --model-<stage> <name> per stage: ${PIPELINE_STAGES.join(', ')}
  --strategy <s>          Chunk tree: ${STRATEGY_CHOICES.join(', ')} (default auto)
  --no-judge              With --strategy auto: decide from the document's structure without asking the model
  --num-ctx <n>           A fixed context size for every call
  --unit-tokens <n>       Text per extraction call (default ${DEFAULT_RUN_LLM_SETTINGS.unitTokens})
  --no-cache              Do not reuse stored LLM replies
  --profile <file.json>   Extraction profile (see npm run analyze -- --print-profile)
  --password <pw>         User password for encrypted PDFs (visible to other users in the process list: prefer
                          --password-env <VAR>, --password-stdin, or no option and the hidden prompt on a terminal)
  --password-env <VAR>    The password from the environment variable VAR
  --password-stdin        The password from the first line of standard input`;

export interface AnalysisOptionValues {
  'rules-only': boolean;
  'no-judge': boolean;
  'no-cache': boolean;
  host?: string | undefined;
  model?: string | undefined;
  strategy?: string | undefined;
  'num-ctx'?: string | undefined;
  'unit-tokens'?: string | undefined;
  profile?: string | undefined;
  /** --model-<stage> and the command's own options. */
  [option: string]: unknown;
}

function positiveInteger(value: string | undefined, min: number): number | undefined | null {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= min ? n : null;
}

/**
 * The run settings the options give (the same function as the app's and analyze's) and the PDF password they give
 * (--password, --password-env or --password-stdin), or a usage error in one sentence.
 */
export async function analysisSettings(
  values: AnalysisOptionValues,
): Promise<{ settings: RunSettings; numCtx: number | undefined; password: string | undefined } | { usage: string }> {
  const strategy = values.strategy ?? 'auto';
  if (!(STRATEGY_CHOICES as readonly string[]).includes(strategy))
    return { usage: `--strategy must be one of ${STRATEGY_CHOICES.join(', ')}; got "${strategy}".` };
  const numCtx = positiveInteger(values['num-ctx'], 512);
  if (numCtx === null) return { usage: `--num-ctx needs a whole number of tokens of at least 512; got "${values['num-ctx']}".` };
  const unitTokens = positiveInteger(values['unit-tokens'], 1);
  if (unitTokens === null) return { usage: `--unit-tokens needs a whole number of tokens of at least 1; got "${values['unit-tokens']}".` };
  const given = await givenPassword(values as PasswordOptions);
  if ('problem' in given) return { usage: given.problem };
  let profile: ExtractionProfile = DEFAULT_PROFILE;
  if (values.profile !== undefined) {
    const { extractionProfileSchema } = await import('../../shared/profileSchema');
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(values.profile, 'utf8'));
    } catch (error) {
      return { usage: `Cannot read the profile ${values.profile}: ${(error as Error).message}.` };
    }
    const checked = extractionProfileSchema.safeParse(raw);
    if (!checked.success)
      return {
        usage: `The profile ${values.profile} is not valid: ${checked.error.issues.map((i) => `${i.path.join('.') || '(profile)'}: ${i.message}`).join('; ')}.`,
      };
    profile = checked.data;
  }
  // The same function as the app's and analyze's (shared/runSettings.ts), from the options under the Settings' names.
  const settings = runSettingsFrom(
    {
      models: modelChoices(values),
      ...(values.host ? { ollamaHost: values.host } : {}),
      strategy: strategy as RunSettings['strategy'],
      useJudge: !values['no-judge'],
      profile,
      ...(numCtx !== undefined ? { contextPolicy: { mode: 'fixed' as const, numCtx } } : {}),
    },
    { mode: values['rules-only'] ? 'rules-only' : 'full', cache: !values['no-cache'], ...(unitTokens !== undefined ? { unitTokens } : {}) },
  );
  return { settings, numCtx, password: given.password };
}

/** The document stored for this file's bytes with an analysis fit for the mode, or undefined. */
export function storedAnalysis(db: Database, file: string, rulesOnly: boolean): number | undefined {
  const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
  const doc = findDocumentBySha(db, sha);
  if (!doc) return undefined;
  const analysed = rulesOnly ? documentHasFinishedInput(db, doc.id) : documentHasMergedFindings(db, doc.id);
  return analysed ? doc.id : undefined;
}

export type AnalysisOutcome = { documentId: number } | { stopped: true } | { failed: string };

/**
 * The stored analysis of the file (same bytes, fit for the mode) unless `reanalyze`, else an analysis now.
 * Says on stderr which it is; a file that cannot be analysed is answered with the reason.
 */
export async function analyseOrReuse(
  engine: ReturnType<typeof createEngine>,
  db: Database,
  file: string,
  options: {
    role: string;
    settings: RunSettings;
    reanalyze: boolean;
    password: string | undefined;
    signal: AbortSignal;
    progress: { note(phase: RunPhase, message: string): void; update(event: ProgressEvent): void; done(): void };
  },
): Promise<AnalysisOutcome> {
  const rulesOnly = options.settings.mode === 'rules-only';
  const reused = options.reanalyze ? undefined : storedAnalysis(db, file, rulesOnly);
  if (reused !== undefined) {
    writeLines(process.stderr, `${options.role}: reusing the stored analysis of ${file}`);
    return { documentId: reused };
  }
  options.progress.note('ingest', `${options.role}: analysing ${file}`);
  const outcome = await engine.analyze([file], options.settings, {
    signal: options.signal,
    onProgress: options.progress.update,
    password: cliPasswordSource(options.password, terminalPrompt()),
  });
  options.progress.done();
  if (outcome.run.status === 'cancelled' || outcome.run.status === 'paused') return { stopped: true };
  const input = outcome.inputs[0];
  if (!input || input.status !== 'done' || input.documentId === null || outcome.run.status === 'failed') {
    const error = input?.error ?? outcome.run.error;
    return { failed: `The ${options.role} file ${file} could not be analysed${error ? `: ${error.code}: ${error.message}` : '.'}` };
  }
  return { documentId: input.documentId };
}
