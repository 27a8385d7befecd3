/**
 * Passwords for encrypted PDFs during a run. The password is asked for only
 * when a file needs one (PDF_ENCRYPTED) or the last one was wrong
 * (PDF_PASSWORD_WRONG), kept in memory for that file's ingestion and OCR, and
 * never stored: not in the run's settings, not in its events, not in errors.
 */
import { AppError, ErrorCode, toErrorInfo, type ErrorInfo } from '../../../shared/errors';
import { getRun, listRunInputs, type Database } from '../store';
import { reopenRun, requeueInput } from './runStatus';

export interface PasswordRequest {
  filePath: string;
  fileName: string;
  /** 'required': the file needs a password and none was tried yet; 'wrong': the last one did not open it. */
  reason: 'required' | 'wrong';
}

/** Answers a password request; undefined gives up, and the input fails with the error that asked. */
export type PasswordSource = (request: PasswordRequest) => Promise<string | undefined> | string | undefined;

/** After this many wrong passwords for one file the input fails (a terminal prompt must not loop forever). */
export const MAX_PASSWORD_ATTEMPTS = 3;

export function needsPassword(error: unknown): error is AppError {
  const code = toErrorInfo(error).code;
  return code === ErrorCode.PDF_ENCRYPTED || code === ErrorCode.PDF_PASSWORD_WRONG;
}

/**
 * Runs `open` without a password, then with each password the source gives,
 * until one opens the file, the source gives up, or MAX_PASSWORD_ATTEMPTS
 * wrong ones. Resolves with what `open` returned and the password that
 * worked (for later reads of the same file, e.g. rendering pages for OCR).
 */
export async function withPassword<T>(
  request: Omit<PasswordRequest, 'reason'>,
  source: PasswordSource | undefined,
  open: (password: string | undefined) => Promise<T>,
): Promise<{ value: T; password: string | undefined }> {
  let password: string | undefined;
  for (let wrong = 0; ; ) {
    try {
      return { value: await open(password), password };
    } catch (error) {
      if (!source || !needsPassword(error)) throw error;
      if (password !== undefined && ++wrong >= MAX_PASSWORD_ATTEMPTS) throw error;
      const next = await source({ ...request, reason: password === undefined ? 'required' : 'wrong' });
      if (next === undefined) throw error;
      password = next;
    }
  }
}

/** A source that gives one password for one file, once: a retry from the app's password dialog. */
export function oneTimePassword(filePath: string, password: string): PasswordSource {
  let used = false;
  return (request) => {
    if (used || request.filePath !== filePath) return undefined;
    used = true;
    return password;
  };
}

/**
 * Puts back in the queue an input that failed for want of a (right)
 * password, so the run can be executed again with one. Only such inputs:
 * a password cannot fix any other failure.
 */
export function requeueForPassword(db: Database, runId: number, ordinal: number, now: string): { filePath: string } {
  const run = getRun(db, runId);
  if (!run) throw new AppError(ErrorCode.RUN_NOT_FOUND, `There is no run ${runId}. Refresh the run list.`);
  const input = listRunInputs(db, runId).find((candidate) => candidate.ordinal === ordinal);
  if (!input || !isPasswordFailure(input.error)) {
    throw new AppError(ErrorCode.INVALID_INPUT, `File ${ordinal + 1} of run ${runId} is not waiting for a password. Refresh the run list.`);
  }
  requeueInput(db, runId, ordinal, { error: true, phase: true });
  reopenRun(db, runId, now);
  return { filePath: input.filePath };
}

export function isPasswordFailure(error: ErrorInfo | null): boolean {
  return error?.code === ErrorCode.PDF_ENCRYPTED || error?.code === ErrorCode.PDF_PASSWORD_WRONG;
}
