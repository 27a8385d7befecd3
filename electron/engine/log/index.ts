/**
 * The app's log: JSON lines (pino) in a size-rotated file (rotating-file-stream)
 * in the user-data folder, so an error message that says "report it with the
 * log" can name a file that exists. Each entry carries what locates it (run id,
 * stage, input ordinal, document id, error code) and errors carry their stack.
 * Document text is never logged: messages say what happened, not what a page said.
 */
import { mkdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { pino, stdSerializers } from 'pino';
import { createStream, type RotatingFileStream } from 'rotating-file-stream';

/** What locates an entry; `err` is serialized with its type, message and stack. */
export interface LogFields {
  runId?: number;
  stage?: string;
  ordinal?: number;
  documentId?: number;
  code?: string;
  err?: unknown;
  [key: string]: unknown;
}

export interface Logger {
  /** The log file, or null when nothing is written (tests, silentLogger). */
  readonly path: string | null;
  info(fields: LogFields, message: string): void;
  warn(fields: LogFields, message: string): void;
  error(fields: LogFields, message: string): void;
  /** A logger that adds `bindings` to every entry (e.g. the run id). */
  child(bindings: LogFields): Logger;
}

export interface FileLogger extends Logger {
  readonly path: string;
  /** Flushes and closes the file. */
  close(): Promise<void>;
}

export interface FileLoggerOptions {
  /** Size at which the file is rotated (rotating-file-stream notation); default 5M. */
  size?: string;
  /** Rotated files kept besides the current one; default 5. */
  maxFiles?: number;
  level?: 'debug' | 'info' | 'warn' | 'error';
}

export const LOG_FILE = 'audit.log';

export const silentLogger: Logger = {
  path: null,
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};

/** Opens (creating its folder) the rotated log at `file`. */
export function createFileLogger(file: string, options: FileLoggerOptions = {}): FileLogger {
  mkdirSync(dirname(file), { recursive: true });
  const stream: RotatingFileStream = createStream(basename(file), { path: dirname(file), size: options.size ?? '5M', maxFiles: options.maxFiles ?? 5 });
  // A log that cannot be written must never stop a run: the error is dropped, the run goes on.
  stream.on('error', () => {});
  const root = pino(
    { level: options.level ?? 'info', base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime, serializers: { err: stdSerializers.err } },
    stream,
  );
  const wrap = (logger: pino.Logger): Logger => ({
    path: file,
    info: (fields, message) => logger.info(fields, message),
    warn: (fields, message) => logger.warn(fields, message),
    error: (fields, message) => logger.error(fields, message),
    child: (bindings) => wrap(logger.child(bindings)),
  });
  return {
    ...wrap(root),
    path: file,
    close: () =>
      new Promise<void>((resolve) => {
        if (stream.destroyed || stream.writableEnded) return resolve();
        stream.end(() => resolve());
      }),
  };
}
