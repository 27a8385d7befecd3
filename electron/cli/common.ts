/** What every command-line entry point does the same way: argument errors and --help, and running main when started directly. */
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { toErrorInfo } from '../../shared/errors';
import { openDatabase, type Database } from '../engine/store';
import { writeLines } from './terminalText';

export const EXIT_USAGE = 2;
/** A command stopped by Ctrl-C exits as a shell's interrupted command does (128 + SIGINT). */
export const EXIT_CANCELLED = 130;

/**
 * Parses the arguments; on a mistake prints it with the usage and gives the
 * exit code, on --help prints the usage and gives 0. `help` must be among the options.
 */
export function parseCommandLine<O extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: O,
  usage: string,
): ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: O }>> | number {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options });
  } catch (error) {
    writeLines(process.stderr, (error as Error).message);
    process.stderr.write(`\n${usage}\n`);
    return EXIT_USAGE;
  }
  if ((parsed.values as Record<string, unknown>).help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  return parsed;
}

/** Runs `main` and exits with its code when this module is the script node was started with. */
export function runIfEntryPoint(moduleFile: string, main: (argv: string[]) => Promise<number>): void {
  if (process.argv[1] === undefined || resolve(process.argv[1]) !== resolve(moduleFile)) return;
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      writeLines(process.stderr, toErrorInfo(error).message);
      process.exit(EXIT_USAGE);
    },
  );
}

/** Ctrl-C aborts the signal (the work stops after its current step); a second Ctrl-C quits at once. Call `release` when done. */
export function abortOnCtrlC(message: string, quitCode: number): { signal: AbortSignal; release(): void } {
  const abort = new AbortController();
  const onSigint = () => {
    if (abort.signal.aborted) process.exit(quitCode);
    process.stderr.write(`\n${message}\n`);
    abort.abort();
  };
  process.on('SIGINT', onSigint);
  return { signal: abort.signal, release: () => process.off('SIGINT', onSigint) };
}

/**
 * Opens the store, or says why it cannot, with its code (DB_TOO_NEW, DB_CORRUPT, DB_READONLY, DISK_FULL) and
 * returns null: the caller exits with EXIT_USAGE, since the fix is another --db or another version.
 * `beforeMessage` runs before the message is written (the analyze CLI ends its progress line there).
 */
export function openStoreOrSay(dbPath: string, beforeMessage?: () => void): Database | null {
  try {
    return openDatabase(dbPath);
  } catch (error) {
    beforeMessage?.();
    const info = toErrorInfo(error);
    writeLines(process.stderr, `${info.code}: ${info.message}`);
    return null;
  }
}
