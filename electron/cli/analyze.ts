/**
 * Headless entry point: the same engine as the desktop app, from a terminal.
 *   npm run analyze -- <files...> [--db file] [--out report.md|.html|.pdf|.csv|.json] [--format f] [--rules-only]
 *   npm run analyze -- --resume <run>
 *
 * It starts at once: the arguments are checked and the first progress line
 * is printed with what this file imports statically (Node built-ins and
 * shared lists), and only then is the engine loaded (SQLite, pdf.js's host
 * side, the Ollama client, zod schemas, the logger: most of a second on a
 * busy machine). Keep heavy imports behind `await import(...)` here.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { toErrorInfo } from '../../shared/errors';
import { DEFAULT_PROFILE, type ExtractionProfile } from '../../shared/findings';
import { PIPELINE_STAGES, STRATEGY_CHOICES, TREE_STRATEGIES } from '../../shared/pipeline';
import { outcomeOf, problemsOf } from '../../shared/runOutcome';
import { formatFromPath, isReportFormat, REPORT_FORMATS, type ReportFormat } from '../../shared/reportFormats';
import type { OcrMode } from '../../shared/contract';
import { parseEndpointSpec, plainHttpWarning, endpointLabel, type EndpointSettings } from '../../shared/endpoints';
import type { Engine, FileLogger, RunModels, RunOutcome, RunSettings } from '../engine';
import type { Database } from '../engine/store';
import { modelLabel, simulatorNotice } from '../../shared/simulator';
import { cliPasswordSource, givenPassword, PASSWORD_OPTIONS, terminalPrompt, type Prompt } from './passwordPrompt';
import { createProgressPrinter, type ProgressPrinter } from './progress';
import { writeLines } from './terminalText';
import { modelChoices } from './runOptions';
import { appVersion } from './version';

/** The help text; it names defaults that live with the engine, so it is loaded with it (help is never in a hurry). */
async function usage(): Promise<string> {
  const [{ DEFAULT_RUN_LLM_SETTINGS, LOG_FILE }, { defaultDatabasePath, defaultLogPath }] = await Promise.all([import('../engine'), import('./paths')]);
  return `Usage: npm run analyze -- <file.pdf|.txt|.md ...> [options]

Runs the whole pipeline with a local Ollama: ingest, chunk tree, findings
extraction for every chunk, grounding, merge, summary.

Options:
  --host <url>            Ollama (default: OLLAMA_HOST, else http://127.0.0.1:11434)
  --endpoint <spec>       An inference endpoint instead of --host; repeat it for a pool (files are spread over them):
                            kind=ollama,url=http://gpu1:11434[,concurrency=1]
                            kind=openai,url=http://host:8000/v1,concurrency=4,context=32768,key-env=MY_KEY
                          openai = llama-server, vLLM, LM Studio, LocalAI; context = the server's context size
                          (default: its /v1/models max_model_len, else 8192); key-env = the environment variable
                          holding the API key (the key itself is never on the command line nor logged)
  --model <name>          Model for every stage (default: the first installed of qwen3:8b, llama3.1:8b, gemma3:12b...)
  --model-<stage> <name>  Per stage: ${PIPELINE_STAGES.join(', ')} (review: the split model unless given its own)
  --model-summary-map <name>  A faster model for the map step of long summaries
  --strategy <s>          Chunk tree: auto (default: the judge decides), ${TREE_STRATEGIES.join(', ')}
  --no-judge              With --strategy auto: decide from the document's structure without asking the model
  --num-ctx <n>           A fixed context size for every call (default: planned from the models and chunk size)
  --unit-tokens <n>       Text per extraction call: consecutive chunks up to this many tokens (default ${DEFAULT_RUN_LLM_SETTINGS.unitTokens}; 1 = one chunk per call)
  --no-cache              Do not reuse stored LLM replies
  --profile <file.json>   Extraction profile: what counts as a finding, types, severity scale, ID patterns
  --print-profile         Print the default profile as JSON (a starting point for your own) and exit
  --db <file>             SQLite store (default: ${defaultDatabasePath()})
  --log <file>            Log of runs, stages and errors with their stacks, rotated (default: ${defaultLogPath()},
                          or logs/${LOG_FILE} beside the --db file)
  --out <file>            Report file; its extension gives the format (default: audit-report-<run>.md):
                            .md    Markdown
                            .html  one self-contained page (print it, or mail it)
                            .pdf   printed from the HTML by Chromium or Chrome (CHROMIUM_PATH to choose one)
                            .csv   one row per finding, for a spreadsheet
                            .json  everything, versioned (schema: docs/report.schema.json)
  --format <f>            md, html, pdf, csv or json, whatever --out ends with
  --rules-only            Ingest, chunk tree and ID mentions without a language model
  --password <pw>         User password for encrypted PDFs (tried on every file that needs one; on a terminal the
                          CLI asks instead, with hidden input: safer, as a command line is visible to other users)
  --password-env <VAR>    The password from the environment variable VAR (not on the command line)
  --password-stdin        The password from the first line of standard input (a pipe: pass show x | npm run analyze ...)
  --ocr <mode>            Pages without a usable text layer (scanned, or a garbage text layer): auto (default) reads them
                          with OCR, offline; off leaves them out; force reads every page with OCR
  --ocr-lang <langs>      OCR languages, tesseract codes joined with + (default: eng; e.g. eng+deu): each needs its
                          data package installed (npm install @tesseract.js-data/<code>); nothing is downloaded
  --resume <run>          Continue an interrupted, paused or cancelled run with the settings it was
                          started with, and try again what failed in it (files, chunks); only --host or
                          --endpoint (where the models run now), --db and --out apply
  -h, --help              This help`;
}

const STAGES = PIPELINE_STAGES;
const STRATEGIES = STRATEGY_CHOICES;

export const EXIT = { ok: 0, inputFailed: 1, usage: 2, cancelled: 130 } as const;

/** Every option the command takes (the usage text above says what each does). */
const CLI_OPTIONS = {
  db: { type: 'string' },
  log: { type: 'string' },
  out: { type: 'string' },
  format: { type: 'string' },
  host: { type: 'string' },
  endpoint: { type: 'string', multiple: true },
  model: { type: 'string' },
  ...Object.fromEntries(STAGES.map((stage) => [`model-${stage}`, { type: 'string' as const }])),
  'model-summary-map': { type: 'string' },
  strategy: { type: 'string' },
  'no-judge': { type: 'boolean', default: false },
  'no-cache': { type: 'boolean', default: false },
  'num-ctx': { type: 'string' },
  'unit-tokens': { type: 'string' },
  profile: { type: 'string' },
  'print-profile': { type: 'boolean', default: false },
  'rules-only': { type: 'boolean', default: false },
  ...PASSWORD_OPTIONS,
  ocr: { type: 'string' },
  'ocr-lang': { type: 'string' },
  resume: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function parseCommandLine(argv: string[]) {
  return parseArgs({ args: argv, allowPositionals: true, options: CLI_OPTIONS });
}

type CliValues = ReturnType<typeof parseCommandLine>['values'];

/** What the command line asks for, checked: everything known before the engine is loaded. */
interface CliOptions {
  values: CliValues;
  files: string[];
  profile: ExtractionProfile;
  resumeRunId: number | undefined;
  strategy: string;
  numCtx: number | undefined;
  unitTokens: number | undefined;
  /** The report file as given (resolved), or undefined for the default name. */
  out: string | undefined;
  format: ReportFormat;
  endpoints: EndpointSettings[];
  password: string | undefined;
}

/** The engine's modules, loaded once the arguments are right (see the top of this file). */
type EngineModules = Awaited<ReturnType<typeof loadEngine>>;

/** The store, the log and the engine a run is executed with. */
interface Session {
  modules: EngineModules;
  engine: Engine;
  db: Database;
  log: FileLogger;
  dbPath: string;
  /** How later commands name this store: nothing for the default one. */
  dbOption: string;
  logPath: string;
}

/** The command: read the options, load the engine, open the store, run (or resume), write the report and say how it went. */
export async function main(argv: string[]): Promise<number> {
  const options = await readOptions(argv);
  if (typeof options === 'number') return options;
  // The arguments are right: say so at once, then load the engine (see the top of this file).
  const progress = createProgressPrinter();
  const { files, resumeRunId } = options;
  progress.note('ingest', resumeRunId !== undefined ? `resuming run ${resumeRunId}` : `starting: ${files.length} ${files.length === 1 ? 'file' : 'files'}`);
  const modules = await loadEngine();
  const ocr = checkOcrOptions(options.values, modules);
  if (typeof ocr === 'number') return ocr;
  const settings = runSettingsOf(options, ocr, modules);
  const session = openSession(options, modules, progress);
  if (!session) return EXIT.usage;
  const outcome = await runOrResume(session, options, settings, progress);
  if (typeof outcome === 'number') return outcome;
  progress.done();
  return writeReportAndSay(session, options, outcome);
}

/** Says what is wrong with the command line on stderr (each line made safe by writeLines) and gives the usage exit code. */
function usageError(...lines: string[]): number {
  writeLines(process.stderr, ...lines);
  return EXIT.usage;
}

/** The command line's options, checked, or the exit code when they are wrong or asked only for help or the profile. */
async function readOptions(argv: string[]): Promise<CliOptions | number> {
  let parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    writeLines(process.stderr, (error as Error).message);
    process.stderr.write(`\n${await usage()}\n`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${await usage()}\n`);
    return EXIT.ok;
  }
  if (values['print-profile']) {
    process.stdout.write(`${JSON.stringify(DEFAULT_PROFILE, null, 2)}\n`);
    return EXIT.ok;
  }
  let profile: ExtractionProfile = DEFAULT_PROFILE;
  if (typeof values.profile === 'string') {
    const loaded = await readProfile(values.profile);
    if (typeof loaded === 'string') return usageError(loaded);
    profile = loaded;
  }
  const resumeRunId = values.resume === undefined ? undefined : Number(values.resume);
  if (resumeRunId !== undefined && !(Number.isInteger(resumeRunId) && resumeRunId > 0))
    return usageError(`--resume needs a run number, got "${values.resume}".`);
  if (positionals.length === 0 && resumeRunId === undefined) {
    process.stderr.write(`No files given.\n\n${await usage()}\n`);
    return EXIT.usage;
  }
  const run = checkRunOptions(values);
  if (typeof run === 'number') return run;
  const output = checkOutputOptions(values);
  if (typeof output === 'number') return output;
  const endpoints = checkEndpoints(values.endpoint ?? [], values.host as string | undefined);
  if (typeof endpoints === 'string') return usageError(endpoints);
  const password = await givenPassword(values);
  if ('problem' in password) return usageError(password.problem);
  // Where the documents go is always said: plain http to another machine is readable on the way.
  for (const endpoint of endpoints) {
    const unencrypted = plainHttpWarning(endpoint.url);
    if (unencrypted) writeLines(process.stderr, `Warning (${endpointLabel(endpoint)}): ${unencrypted}`);
  }
  return { values, files: positionals, profile, resumeRunId, ...run, ...output, endpoints, password: password.password };
}

/** The chunk-tree strategy and the token sizes, checked. */
function checkRunOptions(values: CliValues): Pick<CliOptions, 'strategy' | 'numCtx' | 'unitTokens'> | number {
  const strategy = values.strategy ?? 'auto';
  if (!(STRATEGIES as readonly string[]).includes(strategy)) return usageError(`--strategy must be one of ${STRATEGIES.join(', ')}; got "${strategy}".`);
  const numCtx = values['num-ctx'] === undefined ? undefined : Number(values['num-ctx']);
  if (numCtx !== undefined && !(Number.isInteger(numCtx) && numCtx >= 512)) {
    return usageError(`--num-ctx needs a whole number of tokens of at least 512; got "${values['num-ctx']}".`);
  }
  const unitTokens = values['unit-tokens'] === undefined ? undefined : Number(values['unit-tokens']);
  if (unitTokens !== undefined && !(Number.isInteger(unitTokens) && unitTokens >= 1)) {
    return usageError(`--unit-tokens needs a whole number of tokens of at least 1; got "${values['unit-tokens']}".`);
  }
  return { strategy, numCtx, unitTokens };
}

/** The report file and its format: --format, else --out's extension, else Markdown. */
function checkOutputOptions(values: CliValues): Pick<CliOptions, 'out' | 'format'> | number {
  const out = values.out === undefined ? undefined : resolve(values.out);
  if (values.format !== undefined && !isReportFormat(values.format))
    return usageError(`--format must be one of ${REPORT_FORMATS.join(', ')}; got "${values.format}".`);
  const format: ReportFormat | undefined = (values.format as ReportFormat | undefined) ?? (out ? formatFromPath(out) : 'md');
  if (!format) return usageError(`--out must end in ${REPORT_FORMATS.map((f) => `.${f}`).join(', ')}, or give --format; got "${values.out}".`);
  return { out, format };
}

/** The engine and what the run needs of it, loaded together. */
async function loadEngine() {
  const [
    { assertOcrLanguagesInstalled, createEngine, createFileLogger, LOG_FILE, writeOutputFile },
    { setRunOllamaHost, setRunEndpoints },
    { openStoreOrSay },
    { defaultDatabasePath, defaultLogPath, LOG_FOLDER },
    { DEFAULT_OCR_LANGUAGES, OCR_MODES, parseOcrLanguages },
    { runSettingsFrom },
  ] = await Promise.all([
    import('../engine'),
    import('../engine/store'),
    import('./common'),
    import('./paths'),
    import('../../shared/ocr'),
    import('../../shared/runSettings'),
  ]);
  return {
    assertOcrLanguagesInstalled,
    createEngine,
    createFileLogger,
    LOG_FILE,
    writeOutputFile,
    setRunOllamaHost,
    setRunEndpoints,
    openStoreOrSay,
    defaultDatabasePath,
    defaultLogPath,
    LOG_FOLDER,
    DEFAULT_OCR_LANGUAGES,
    OCR_MODES,
    parseOcrLanguages,
    runSettingsFrom,
  };
}

/** The OCR options, checked with the engine loaded (their language list is a zod schema, and installed ones are looked up). */
function checkOcrOptions(values: CliValues, modules: EngineModules): { ocr: OcrMode; ocrLanguages: string[] } | number {
  const { assertOcrLanguagesInstalled, DEFAULT_OCR_LANGUAGES, OCR_MODES, parseOcrLanguages } = modules;
  const ocr = values.ocr ?? 'auto';
  if (!(OCR_MODES as readonly string[]).includes(ocr)) return usageError(`--ocr must be one of ${OCR_MODES.join(', ')}; got "${ocr}".`);
  const ocrLanguages = parseOcrLanguages(values['ocr-lang'] ?? DEFAULT_OCR_LANGUAGES.join('+'));
  if (!ocrLanguages) {
    return usageError(`--ocr-lang takes tesseract language codes joined with +, such as eng or eng+deu; got "${values['ocr-lang']}".`);
  }
  if (ocr !== 'off') {
    try {
      // Checked before any file is read: a missing language would otherwise fail every scanned file one by one.
      assertOcrLanguagesInstalled(ocrLanguages);
    } catch (error) {
      const info = toErrorInfo(error);
      return usageError(`${info.code}: ${info.message}`);
    }
  }
  return { ocr: ocr as OcrMode, ocrLanguages };
}

/**
 * The same function as the app's (shared/runSettings.ts): the options under the Settings' names. The profile's ID
 * patterns are also the rules' completeness cross-check.
 */
function runSettingsOf(options: CliOptions, { ocr, ocrLanguages }: { ocr: OcrMode; ocrLanguages: string[] }, { runSettingsFrom }: EngineModules): RunSettings {
  const { values, strategy, profile, endpoints, numCtx, unitTokens } = options;
  return runSettingsFrom(
    {
      models: modelChoices(values),
      ...(values.host ? { ollamaHost: values.host as string } : {}),
      strategy: strategy as RunSettings['strategy'],
      useJudge: !values['no-judge'],
      profile,
      ocrMode: ocr,
      ocrLanguages,
      endpoints,
      ...(numCtx !== undefined ? { contextPolicy: { mode: 'fixed' as const, numCtx } } : {}),
    },
    {
      mode: values['rules-only'] ? 'rules-only' : 'full',
      cache: !values['no-cache'],
      ...(unitTokens !== undefined ? { unitTokens } : {}),
      ...(typeof values['model-summary-map'] === 'string' ? { summaryMapModel: values['model-summary-map'] } : {}),
    },
  );
}

/** Opens the store (null when it cannot be: what is wrong was said), the log and the engine. */
function openSession({ values }: CliOptions, modules: EngineModules, progress: ProgressPrinter): Session | null {
  const { createEngine, createFileLogger, defaultDatabasePath, defaultLogPath, LOG_FILE, LOG_FOLDER, openStoreOrSay } = modules;
  const dbPath = resolve(values.db ?? defaultDatabasePath());
  const dbOption = dbPath === defaultDatabasePath() ? '' : ` --db "${dbPath}"`;
  mkdirSync(dirname(dbPath), { recursive: true });
  const db = openStoreOrSay(dbPath, () => progress.done());
  if (!db) return null;
  // A store of its own (--db) keeps its log beside it; the default store's log is in the user-data folder.
  const logPath = resolve(values.log ?? (values.db === undefined ? defaultLogPath() : join(dirname(dbPath), LOG_FOLDER, LOG_FILE)));
  const log = createFileLogger(logPath);
  // Endpoint keys are read from the environment variables their key-env names, when a client is made; never stored.
  const engine = createEngine({ db, appVersion: appVersion(), log, keys: (name) => process.env[name] });
  return { modules, engine, db, log, dbPath, dbOption, logPath };
}

async function closeSession({ db, log }: Session): Promise<void> {
  db.close();
  await log.close();
}

/**
 * Runs the files (or resumes the run) until it ends or Ctrl-C stops it; the outcome, or the exit code when the run
 * could not go on (what to do was said, the session is closed).
 */
async function runOrResume(session: Session, options: CliOptions, settings: RunSettings, progress: ProgressPrinter): Promise<RunOutcome | number> {
  const { engine, db, logPath, dbOption, modules } = session;
  const { values, resumeRunId, endpoints, files } = options;
  const abort = new AbortController();
  const onSigint = () => {
    if (abort.signal.aborted) process.exit(EXIT.cancelled);
    process.stderr.write('\nCancelling after the current step (press Ctrl-C again to quit at once)...\n');
    abort.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const prompt = terminalPrompt();
    const askBelowProgress: Prompt | undefined =
      prompt &&
      ((request) => {
        progress.done();
        return prompt(request);
      });
    const control = { signal: abort.signal, onProgress: progress.update, password: cliPasswordSource(options.password, askBelowProgress) };
    if (resumeRunId !== undefined && values.host) modules.setRunOllamaHost(db, resumeRunId, values.host as string);
    if (resumeRunId !== undefined && endpoints.length > 0) modules.setRunEndpoints(db, resumeRunId, endpoints);
    return resumeRunId !== undefined
      ? await engine.resume(resumeRunId, control)
      : await engine.analyze(
          files.map((file) => resolve(file)),
          settings,
          control,
        );
  } catch (error) {
    progress.done();
    const info = toErrorInfo(error, logPath);
    writeLines(process.stderr, `${info.code}: ${info.message}`);
    // A run the store could not even mark as stopped (a full disk) is resumed like an interrupted one.
    if (typeof info.details?.runId === 'number')
      writeLines(process.stderr, `Once that is fixed, resume with: npm run analyze -- --resume ${info.details.runId}${dbOption}`);
    await closeSession(session);
    return EXIT.usage;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** Writes the report, closes the session and prints what the run did; the exit code. */
async function writeReportAndSay(session: Session, { out, format }: CliOptions, outcome: RunOutcome): Promise<number> {
  const { engine, modules, dbPath, dbOption, logPath } = session;
  const runId = outcome.run.id;
  const reportPath = out ?? resolve(`audit-report-${runId}.${format}`);
  try {
    modules.writeOutputFile(reportPath, await engine.exportReport(runId, format));
  } catch (error) {
    await closeSession(session);
    const again = `npm run analyze -- --resume ${runId}${dbOption} --out <file>`;
    const info = toErrorInfo(error, logPath);
    writeLines(
      process.stderr,
      `Run ${runId}: ${outcome.run.status}, but the ${format} report could not be written: ${info.code}: ${info.message}`,
      `The results are stored; write the report again with: ${again}`,
    );
    return EXIT.inputFailed;
  }
  const models = engine.runModels(runId);
  await closeSession(session);
  // A report written by default lands in the folder the command ran in (the project folder, from npm): say so, so it
  // is found, and not committed by mistake (.gitignore holds the default name too).
  const where = out === undefined ? `${reportPath} (in the current folder; --out <file> writes it elsewhere)` : reportPath;
  return summarize(outcome, where, dbPath, dbOption, logPath, models);
}

/**
 * The `--endpoint` values as endpoints, or a sentence saying what is wrong: a malformed value, --host beside
 * --endpoint, or a key-env variable that is not set (checked now, not after the first file was read).
 */
function checkEndpoints(specs: readonly string[], host: string | undefined): EndpointSettings[] | string {
  if (specs.length > 0 && host) return '--host is the shorthand for one Ollama; with --endpoint, write that Ollama as --endpoint kind=ollama,url=<its URL>.';
  const endpoints: EndpointSettings[] = [];
  for (const spec of specs) {
    const endpoint = parseEndpointSpec(spec);
    if (typeof endpoint === 'string') return endpoint;
    if (endpoint.keyRef && !process.env[endpoint.keyRef]) {
      return `The environment variable ${endpoint.keyRef} (key-env of ${endpointLabel(endpoint)}) is not set: export it with the API key, e.g. export ${endpoint.keyRef}=…`;
    }
    endpoints.push(endpoint);
  }
  return endpoints;
}

/** A profile from a JSON file, or a sentence saying what is wrong with it. */
async function readProfile(file: string): Promise<ExtractionProfile | string> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return `Cannot read the profile ${file}: ${(error as Error).message}. Start from \`npm run analyze -- --print-profile\`.`;
  }
  const { extractionProfileSchema } = await import('../../shared/profileSchema');
  const parsed = extractionProfileSchema.safeParse(raw);
  if (!parsed.success) {
    return `The profile ${file} is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(profile)'}: ${i.message}`).join('; ')}.`;
  }
  return parsed.data;
}

function summarize(outcome: RunOutcome, reportPath: string, dbPath: string, dbOption: string, logPath: string, models: RunModels): number {
  // A finished run that left files or pages out says so, in the words the app uses ("done with problems: 1 file failed").
  const { problems } = outcomeOf(outcome.run.status, problemsOf(outcome.inputs));
  const runState = outcome.run.status === 'done' && problems ? `done with problems: ${problems}` : outcome.run.status;
  const lines: string[] = [`Run ${outcome.run.id}: ${runState}. Store: ${dbPath}`, `Report: ${reportPath}`, `Log: ${logPath}`];
  // A run against the simulator says so wherever a model is named (shared/simulator.ts): its findings are scripted.
  if (models.simulator)
    lines.push(
      `Models: ${[...new Set(models.models.map((m) => m.name))].map((name) => modelLabel(name, models.simulator)).join(', ')}. ${simulatorNotice(models.simulator)}`,
    );
  // The progress line is redrawn (or, on a pipe, shown once per phase): what a resume retried is said here too.
  if (outcome.retried) lines.push(`  ${outcome.retried}`);
  if (outcome.run.error) lines.push(`  ${outcome.run.error.code}: ${outcome.run.error.message}`);
  for (const input of outcome.inputs) {
    const state = input.error ? `${input.status}: ${input.error.code}: ${input.error.message}` : input.status;
    lines.push(`  ${input.filePath}: ${state}`);
    for (const warning of input.warnings) if (warning.message !== input.error?.message) lines.push(`    warning: ${warning.message}`);
  }
  const resumeHint = `npm run analyze -- --resume ${outcome.run.id}${dbOption}`;
  if (outcome.run.status === 'cancelled' || outcome.run.status === 'paused') lines.push(`Stopped. Resume with: ${resumeHint}`);
  if (outcome.run.status === 'failed') lines.push(`Fix the problem above, then resume with: ${resumeHint}`);
  if (outcome.run.status === 'done' && problems) lines.push(`Once the problem is fixed, try what failed again with: ${resumeHint}`);
  // File names and messages come from outside (a file may be named with a line break and escape sequences): one line each.
  writeLines(process.stdout, ...lines);
  if (outcome.run.status === 'cancelled' || outcome.run.status === 'paused') return EXIT.cancelled;
  if (outcome.run.status === 'failed') return EXIT.inputFailed;
  return outcome.inputs.some((input) => input.status === 'failed') ? EXIT.inputFailed : EXIT.ok;
}

/** Runs the CLI on these arguments and exits with its code (scripts/analyze.mjs calls this on the built CLI). */
export function runCli(argv: string[]): void {
  main(argv).then(
    (code) => process.exit(code),
    (error: unknown) => {
      writeLines(process.stderr, toErrorInfo(error).message);
      process.exit(EXIT.usage);
    },
  );
}

const isEntryPoint = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename);
if (isEntryPoint) runCli(process.argv.slice(2));
