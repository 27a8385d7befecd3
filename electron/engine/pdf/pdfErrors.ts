/** pdf.js failures -> AppErrors with a sentence that tells the user what to do. */
import { AppError, ErrorCode } from '../../../shared/errors';

export function encryptedError(fileName: string, cause?: unknown): AppError {
  return new AppError(
    ErrorCode.PDF_ENCRYPTED,
    `"${fileName}" is protected by a password. Open it with its password (the app asks for it; the CLI takes --password or asks on a terminal).`,
    { fileName },
    { cause },
  );
}

export function wrongPasswordError(fileName: string, cause?: unknown): AppError {
  return new AppError(
    ErrorCode.PDF_PASSWORD_WRONG,
    `The password for "${fileName}" is wrong. Check it (passwords are case-sensitive) and try again.`,
    { fileName },
    { cause },
  );
}

/** pdf.js PasswordException codes (PasswordResponses): no password given, or the given one does not open the file. */
const INCORRECT_PASSWORD = 2;

export function corruptError(fileName: string, detail: string, cause?: unknown): AppError {
  return new AppError(
    ErrorCode.PDF_CORRUPT,
    `"${fileName}" is damaged and cannot be read (${detail}). Get a fresh copy of the file (download or export it again) and add it again.`,
    { fileName },
    { cause },
  );
}

export function notAPdfError(fileName: string): AppError {
  return new AppError(
    ErrorCode.PDF_NOT_A_PDF,
    `"${fileName}" is named .pdf but is not a PDF file. Check that it is the right file, or export the original document to PDF again.`,
    { fileName },
  );
}

export function noPagesError(fileName: string): AppError {
  return new AppError(ErrorCode.PDF_NO_PAGES, `"${fileName}" is a PDF without any pages. Export the document again and add the new file.`, { fileName });
}

/** What a cancelled ingest says (util's throwIfAborted / cancelledError build the error). */
export const READ_CANCELLED = 'Reading the document was cancelled.';

/** Errors thrown while opening a document (getDocument). */
export function openError(error: unknown, fileName: string): AppError {
  if (error instanceof AppError) return error;
  const name = errorName(error);
  if (name === 'PasswordException') {
    const code = (error as { code?: unknown }).code;
    return code === INCORRECT_PASSWORD ? wrongPasswordError(fileName, error) : encryptedError(fileName, error);
  }
  if (name === 'InvalidPDFException') return corruptError(fileName, 'its structure is invalid', error);
  return corruptError(fileName, errorMessage(error), error);
}

export function errorName(error: unknown): string {
  return typeof error === 'object' && error !== null && typeof (error as { name?: unknown }).name === 'string' ? (error as { name: string }).name : '';
}

function errorMessage(error: unknown): string {
  return error instanceof Error
    ? error.message
    : typeof error === 'object' && error !== null && 'message' in error
      ? String((error as { message: unknown }).message)
      : String(error);
}
