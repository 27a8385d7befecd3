import BetterSqlite3, { type Database } from 'better-sqlite3';
import { AppError, ErrorCode, storageErrorInfo } from '../../../shared/errors';
import { migrate } from './migrate';
import { migrations } from './migrations';

export type { Database };

/**
 * The read handle: what a read needs of a connection, and nothing more. A
 * function that takes a ReadDb can prepare a statement and read its rows, but
 * cannot run one, exec SQL or open a transaction, so "reads only read" is
 * checked by the compiler (Signal Desktop's ts/sql keeps readable and writable
 * handles apart the same way). A writable `Database` is a ReadDb, so callers
 * pass whatever connection they hold; better-sqlite3 itself refuses `get`/`all`
 * on a statement that returns no rows.
 */
export interface ReadDb {
  prepare(source: string): ReadStatement;
}

export interface ReadStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
}

export interface OpenDatabaseOptions {
  /**
   * Path to a better_sqlite3.node built for the host's ABI. Electron passes the
   * copy rebuilt for Electron; Node (CLI, tests) uses the package's own build,
   * so `npm test` keeps working after the app was started.
   */
  nativeBinding?: string;
  readonly?: boolean;
}

/**
 * Opens (creating if needed) the store: WAL, foreign keys, migrated to the latest schema. A file that is not a
 * database or is damaged is DB_CORRUPT, one this user may not write DB_READONLY, a full disk DISK_FULL: each with
 * the file's path and what to do. A damaged file is only read, never changed: its schema is read before anything
 * is written (switching to WAL writes its header).
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Database {
  let db: Database;
  try {
    db = new BetterSqlite3(file, {
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      ...(options.readonly ? { readonly: true } : {}),
    });
  } catch (error) {
    throw (
      storageError(error, file) ??
      new AppError(
        ErrorCode.DB_OPEN_FAILED,
        `Could not open the database ${file}: ${(error as Error).message}. Check that the folder exists and is writable.`,
        { file },
        { cause: error },
      )
    );
  }
  try {
    // Reads the header and the schema: a file that is not a database, or whose schema is damaged, stops here unchanged.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    // NORMAL is durable in WAL mode except for the last transactions on power loss; a kill -9 loses nothing committed.
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    if (!options.readonly) migrate(db, migrations);
    return db;
  } catch (error) {
    db.close();
    throw storageError(error, file) ?? error;
  }
}

/** A damaged, read-only or full store as a coded AppError naming the file; null for any other error. */
function storageError(error: unknown, file: string): AppError | null {
  const info = storageErrorInfo(error, { what: `the database ${file}`, then: 'then start again' });
  return info ? new AppError(info.code, info.message, { ...info.details, file }, { cause: error }) : null;
}
