/**
 * Headless entry point: the same engine as the desktop app, from a terminal.
 *   npm run analyze -- <files...> [--db file] [--out report.md] [--rules-only]
 *   npm run analyze -- --resume <run>
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { toErrorInfo } from '../../shared/errors';
import { createEngine, type RunOutcome } from '../engine';
import { openDatabase } from '../engine/store';
import { defaultDatabasePath } from './paths';
import { createProgressPrinter } from './progress';
import { appVersion } from './version';

const USAGE = `Usage: npm run analyze -- <file.pdf|.txt|.md ...> [options]

Options:
  --db <file>        SQLite store (default: ${defaultDatabasePath()})
  --out <file.md>    Markdown report (default: audit-report-<run>.md in the current folder)
  --rules-only       Ingest, chunk tree and ID mentions without a language model
  --resume <run>     Continue an interrupted or cancelled run
  -h, --help         This help`;

export const EXIT = { ok: 0, inputFailed: 1, usage: 2, cancelled: 130 } as const;

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        db: { type: 'string' },
        out: { type: 'string' },
        'rules-only': { type: 'boolean', default: false },
        resume: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const resumeRunId = values.resume === undefined ? undefined : Number(values.resume);
  if (resumeRunId !== undefined && !(Number.isInteger(resumeRunId) && resumeRunId > 0)) {
    process.stderr.write(`--resume needs a run number, got "${values.resume}".\n`);
    return EXIT.usage;
  }
  if (positionals.length === 0 && resumeRunId === undefined) {
    process.stderr.write(`No files given.\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  if (!values['rules-only']) {
    process.stderr.write('The language-model stages are not available yet; running with --rules-only (ingest, chunk tree, ID mentions).\n');
  }

  const dbPath = resolve(values.db ?? defaultDatabasePath());
  mkdirSync(dirname(dbPath), { recursive: true });
  let db;
  try {
    db = openDatabase(dbPath);
  } catch (error) {
    process.stderr.write(`${toErrorInfo(error).message}\n`);
    return EXIT.usage;
  }

  const engine = createEngine({ db, appVersion: appVersion() });
  const abort = new AbortController();
  const onSigint = () => {
    if (abort.signal.aborted) process.exit(EXIT.cancelled);
    process.stderr.write('\nCancelling after the current step (press Ctrl-C again to quit at once)...\n');
    abort.abort();
  };
  process.on('SIGINT', onSigint);
  const progress = createProgressPrinter();
  let outcome: RunOutcome;
  try {
    const control = { signal: abort.signal, onProgress: progress.update };
    outcome =
      resumeRunId !== undefined
        ? await engine.resume(resumeRunId, control)
        : await engine.analyze(positionals.map((file) => resolve(file)), { mode: 'rules-only' }, control);
  } catch (error) {
    progress.done();
    process.stderr.write(`${toErrorInfo(error).message}\n`);
    db.close();
    return EXIT.usage;
  } finally {
    process.off('SIGINT', onSigint);
  }
  progress.done();

  const runId = outcome.run.id;
  const reportPath = resolve(values.out ?? `audit-report-${runId}.md`);
  writeFileSync(reportPath, engine.markdownReport(runId));
  db.close();
  return summarize(outcome, reportPath, dbPath);
}

function summarize(outcome: RunOutcome, reportPath: string, dbPath: string): number {
  const lines: string[] = [`Run ${outcome.run.id}: ${outcome.run.status}. Store: ${dbPath}`, `Report: ${reportPath}`];
  for (const input of outcome.inputs) {
    const state = input.error ? `${input.status}: ${input.error.code}: ${input.error.message}` : input.status;
    lines.push(`  ${input.filePath}: ${state}`);
    for (const warning of input.warnings) if (warning.message !== input.error?.message) lines.push(`    warning: ${warning.message}`);
  }
  if (outcome.run.status === 'cancelled') {
    lines.push(`Cancelled. Resume with: npm run analyze -- --resume ${outcome.run.id}${dbPath === defaultDatabasePath() ? '' : ` --db "${dbPath}"`}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  if (outcome.run.status === 'cancelled') return EXIT.cancelled;
  return outcome.inputs.some((input) => input.status === 'failed') ? EXIT.inputFailed : EXIT.ok;
}

const isEntryPoint = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename);
if (isEntryPoint) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${toErrorInfo(error).message}\n`);
      process.exit(EXIT.usage);
    },
  );
}
