/**
 * Error codes every layer shares. Each code a user can meet has a sentence
 * that tells them what to do; engine code throws `AppError` with one of these
 * codes, hosts turn it into `{ ok: false, error }` at the process boundary.
 */
export const ErrorCode = {
  // Input files
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
  FILE_EMPTY: 'FILE_EMPTY',
  FILE_UNSUPPORTED: 'FILE_UNSUPPORTED',
  PDF_NOT_A_PDF: 'PDF_NOT_A_PDF',
  PDF_ENCRYPTED: 'PDF_ENCRYPTED',
  PDF_CORRUPT: 'PDF_CORRUPT',
  PDF_NO_PAGES: 'PDF_NO_PAGES',
  PDF_NO_TEXT_LAYER: 'PDF_NO_TEXT_LAYER',
  PDF_PAGE_UNREADABLE: 'PDF_PAGE_UNREADABLE',
  /** An image too large to decode for OCR (shared/ocr.ts MAX_DECODED_IMAGE_PIXELS) was left out of its page. */
  PDF_IMAGE_TOO_LARGE: 'PDF_IMAGE_TOO_LARGE',
  TEXT_NOT_UTF8: 'TEXT_NOT_UTF8',
  // Store
  DB_TOO_NEW: 'DB_TOO_NEW',
  DB_OPEN_FAILED: 'DB_OPEN_FAILED',
  /** The database file is damaged (not a database, malformed): it is left unchanged; restore a copy or choose another file. */
  DB_CORRUPT: 'DB_CORRUPT',
  /** The database (or its folder) cannot be written by this user. */
  DB_READONLY: 'DB_READONLY',
  /** No space left (or a file-size limit reached) while writing the store, a report or a temporary file: free space, then resume. */
  DISK_FULL: 'DISK_FULL',
  // Files the user chose to write (reports, exports)
  /** The output path is a symbolic link: a report is never written through one. */
  OUTPUT_IS_SYMLINK: 'OUTPUT_IS_SYMLINK',
  /** The output path is a folder or another kind of non-regular file. */
  OUTPUT_NOT_A_FILE: 'OUTPUT_NOT_A_FILE',
  /** The output's folder is missing or not writable for this user. */
  OUTPUT_NOT_WRITABLE: 'OUTPUT_NOT_WRITABLE',
  // Chunking
  SPLIT_VALIDATION_FAILED: 'SPLIT_VALIDATION_FAILED',
  // LLM
  OLLAMA_UNREACHABLE: 'OLLAMA_UNREACHABLE',
  MODEL_NOT_FOUND: 'MODEL_NOT_FOUND',
  NO_MODEL_INSTALLED: 'NO_MODEL_INSTALLED',
  LLM_OUT_OF_MEMORY: 'LLM_OUT_OF_MEMORY',
  LLM_CONTEXT_OVERFLOW: 'LLM_CONTEXT_OVERFLOW',
  LLM_TRUNCATED_PROMPT: 'LLM_TRUNCATED_PROMPT',
  LLM_REPLY_CUT: 'LLM_REPLY_CUT',
  LLM_INVALID_REPLY: 'LLM_INVALID_REPLY',
  LLM_TIMEOUT: 'LLM_TIMEOUT',
  LLM_TRANSIENT: 'LLM_TRANSIENT',
  LLM_BAD_REQUEST: 'LLM_BAD_REQUEST',
  // Inference endpoints (issue 29): an OpenAI-compatible server, or one endpoint of a pool
  /** The server refused the API key (HTTP 401/403): the sentence names the endpoint and where its key comes from. */
  LLM_UNAUTHORIZED: 'LLM_UNAUTHORIZED',
  /** An OpenAI-compatible endpoint does not answer at its URL. */
  ENDPOINT_UNREACHABLE: 'ENDPOINT_UNREACHABLE',
  /** An endpoint setting is malformed (`--endpoint` value, a URL, a concurrency, a missing key variable). */
  ENDPOINT_INVALID: 'ENDPOINT_INVALID',
  /** No keychain keeps an API key safely here (none at all, or Electron's basic_text on Linux): it is not stored; use an environment variable. */
  KEY_STORAGE_UNSAFE: 'KEY_STORAGE_UNSAFE',
  // Reports
  PDF_RENDERER_MISSING: 'PDF_RENDERER_MISSING',
  // Review
  REVIEWER_NAME_MISSING: 'REVIEWER_NAME_MISSING',
  // Runs
  CANCELLED: 'CANCELLED',
  RUN_NOT_FOUND: 'RUN_NOT_FOUND',
  INVALID_INPUT: 'INVALID_INPUT',
  INTERNAL: 'INTERNAL',
  // Ask the documents (retrieval/, issue 17)
  RETRIEVAL_VECTOR_UNAVAILABLE: 'RETRIEVAL_VECTOR_UNAVAILABLE',
  ASK_NO_DOCUMENTS: 'ASK_NO_DOCUMENTS',
  ASK_DOCUMENT_NOT_FOUND: 'ASK_DOCUMENT_NOT_FOUND',
  ASK_EMPTY_QUESTION: 'ASK_EMPTY_QUESTION',
  CONVERSATION_NOT_FOUND: 'CONVERSATION_NOT_FOUND',
  // Issue 14: run settings read from the store
  RUN_SETTINGS_INVALID: 'RUN_SETTINGS_INVALID',
  // Passwords and OCR (issue 18). PDF_ENCRYPTED above is "needs a password and none was given".
  PDF_PASSWORD_WRONG: 'PDF_PASSWORD_WRONG',
  /** Pages read by OCR whose mean confidence is low: their text (and findings quoting it) may contain misread words. */
  OCR_LOW_CONFIDENCE: 'OCR_LOW_CONFIDENCE',
  /** OCR could not run (language data missing, page could not be rendered): the page keeps whatever text it had. */
  OCR_FAILED: 'OCR_FAILED',
  /** An OCR language was chosen whose data package (`@tesseract.js-data/<code>`) is not installed: the sentence says how to install it. */
  OCR_LANGUAGE_MISSING: 'OCR_LANGUAGE_MISSING',
  // Workspace (issue 16): the source page beside a finding
  SOURCE_FILE_CHANGED: 'SOURCE_FILE_CHANGED',
  // Re-audit comparison (issue 30)
  /** The earlier and the later document of a comparison are the same content. */
  COMPARE_SAME_DOCUMENT: 'COMPARE_SAME_DOCUMENT',
  /** A document to compare has no finished analysis (it failed, or was never analysed). */
  COMPARE_NOT_ANALYSED: 'COMPARE_NOT_ANALYSED',
  COMPARISON_NOT_FOUND: 'COMPARISON_NOT_FOUND',
  // Reconcile a document against a population (issue 41): the population file, each with a sentence saying what to do
  /** The population file holds no rows (0 bytes, only blank lines, or a header and nothing under it). */
  POPULATION_EMPTY: 'POPULATION_EMPTY',
  /** No row reads as a header naming the columns (the first rows hold data, or numbers). */
  POPULATION_NO_HEADER: 'POPULATION_NO_HEADER',
  /** A column chosen for the key or the title (--key-column, --title-column, the picker) is not in the header. */
  POPULATION_COLUMN_NOT_FOUND: 'POPULATION_COLUMN_NOT_FOUND',
  /** Two or more rows share a key: the first row of each key is used, the others are listed (a warning, not a failure). */
  POPULATION_DUPLICATE_KEYS: 'POPULATION_DUPLICATE_KEYS',
  /** More rows than a population may hold (200,000), or a file too large to read. */
  POPULATION_TOO_LARGE: 'POPULATION_TOO_LARGE',
  /** An Excel workbook encrypted with a password to open. */
  POPULATION_PASSWORD_PROTECTED: 'POPULATION_PASSWORD_PROTECTED',
  /** Neither CSV nor an .xlsx workbook (a PDF, an old .xls, a zip that is no workbook, binary data named .csv). */
  POPULATION_UNSUPPORTED: 'POPULATION_UNSUPPORTED',
  /** The workbook has no sheet of the name asked for (--sheet). */
  POPULATION_SHEET_NOT_FOUND: 'POPULATION_SHEET_NOT_FOUND',
  POPULATION_NOT_FOUND: 'POPULATION_NOT_FOUND',
  /** The document to reconcile has no finished analysis (it failed, or was never analysed). */
  RECONCILE_NOT_ANALYSED: 'RECONCILE_NOT_ANALYSED',
  RECONCILIATION_NOT_FOUND: 'RECONCILIATION_NOT_FOUND',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface ErrorInfo {
  code: ErrorCode;
  /** A sentence for the user: what happened and what to do. */
  message: string;
  details?: Record<string, unknown>;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  toInfo(): ErrorInfo {
    return this.details === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, details: this.details };
  }
}

/**
 * Any thrown value as an ErrorInfo; unknown errors become INTERNAL with their message kept. `logPath` is the
 * host's log file (where the stack was written): the sentence names it, so "report it with the log" is doable.
 * A damaged, read-only or full store (or disk) is the user's machine, not a bug: it gets its code (storageErrorInfo).
 */
export function toErrorInfo(error: unknown, logPath?: string | null): ErrorInfo {
  if (error instanceof AppError) return error.toInfo();
  if (isErrorInfo(error)) return error;
  const stored = storageErrorInfo(error);
  if (stored) return stored;
  const message = error instanceof Error ? error.message : String(error);
  const log = logPath ? `the log (${logPath})` : 'the log';
  return { code: ErrorCode.INTERNAL, message: `Unexpected error: ${message}. Please report it with ${log}.` };
}

/** The codes an error of SQLite (better-sqlite3's SqliteError) or of Node's file system carries. */
const DAMAGED_DATABASE = /^SQLITE_(NOTADB|CORRUPT)/;
const READONLY_DATABASE = /^SQLITE_(READONLY|CANTOPEN_ISDIR)/;
/** SQLITE_IOERR_WRITE is how SQLite reports a write refused for a file-size limit (EFBIG); a full disk is SQLITE_FULL. */
const NO_SPACE = /^(SQLITE_FULL|SQLITE_IOERR_WRITE|SQLITE_IOERR_FSYNC|SQLITE_IOERR_SHMSIZE|ENOSPC|EDQUOT|EFBIG)$/;

/** Which store or file was written, and what to do once it is fixed, for the sentences of storageErrorInfo. */
export interface StorageSubject {
  /** "the database /home/me/audit.sqlite", "/home/me/report.md"; default "the database". */
  what?: string;
  /** What to do after the fix; default: resume the run. */
  then?: string;
}

/**
 * A store that is damaged, read-only or on a full disk, as a coded sentence saying what to do; null for any other
 * error. The damaged file itself is never changed by the app: the sentence says to restore a copy or use another file.
 */
export function storageErrorInfo(error: unknown, subject: StorageSubject = {}): ErrorInfo | null {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code !== 'string') return null;
  const what = subject.what ?? 'the database';
  const then = subject.then ?? 'then resume the run (it continues where it stopped; nothing committed is lost)';
  const cause = error instanceof Error ? error.message : code;
  if (DAMAGED_DATABASE.test(code)) {
    return {
      code: ErrorCode.DB_CORRUPT,
      message: `${capitalized(what)} is damaged (${cause}) and was left unchanged. Restore a copy of it from a backup, or choose another database file (--db on the command line); the app keeps its store in its data folder.`,
      details: { sqliteCode: code },
    };
  }
  if (READONLY_DATABASE.test(code)) {
    return {
      code: ErrorCode.DB_READONLY,
      message: `${capitalized(what)} cannot be written (${cause}): the file or its folder is read-only for you. Make both writable, or copy the file to a folder you may write and choose the copy (--db on the command line), ${then}.`,
      details: { sqliteCode: code },
    };
  }
  if (NO_SPACE.test(code)) {
    return {
      code: ErrorCode.DISK_FULL,
      message: `There is no room to write ${what} (${cause}): the disk is full, or a quota or file-size limit was reached. Free space on that disk, ${then}.`,
      details: { errorCode: code },
    };
  }
  return null;
}

/**
 * Whether the code is a store or disk problem (storageErrorInfo): it concerns the whole run, not the file being
 * read, so a run stops on it (resumable once fixed) instead of marking file after file failed.
 */
export function isStorageErrorCode(code: ErrorCode): boolean {
  return code === ErrorCode.DISK_FULL || code === ErrorCode.DB_READONLY || code === ErrorCode.DB_CORRUPT;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function isErrorInfo(value: unknown): value is ErrorInfo {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ErrorInfo).code === 'string' &&
    typeof (value as ErrorInfo).message === 'string' &&
    Object.values(ErrorCode).includes((value as ErrorInfo).code)
  );
}

/** What crosses a process boundary. */
export type Result<T> = { ok: true; data: T } | { ok: false; error: ErrorInfo };

export const ok = <T>(data: T): Result<T> => ({ ok: true, data });
export const fail = (error: unknown, logPath?: string | null): Result<never> => ({ ok: false, error: toErrorInfo(error, logPath) });
