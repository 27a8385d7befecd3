/**
 * Writing a file the user chose (a report, a comparison, a conversation, an export): never through a symbolic link,
 * never half-written. The bytes go to a new temporary file in the same folder (created exclusively, so nothing
 * already there is followed or reused), are flushed, and the temporary file is renamed over the target: a rename
 * replaces the folder entry itself, so even a link planted after the check below is replaced, not followed, and a
 * crash leaves the old file or the new one, never a truncated report. A target that is a symbolic link (or not a
 * regular file) is refused with a sentence: in a shared folder someone else can plant `audit-report-3.md -> ~/.bashrc`.
 */
import { closeSync, fchmodSync, fsyncSync, lstatSync, openSync, readlinkSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { AppError, ErrorCode, storageErrorInfo } from '../../../shared/errors';

export function writeOutputFile(path: string, content: string | Uint8Array): void {
  const existing = lstatSync(path, { throwIfNoEntry: false });
  if (existing?.isSymbolicLink()) {
    throw new AppError(
      ErrorCode.OUTPUT_IS_SYMLINK,
      `${path} is a symbolic link (to ${linkTarget(path)}): a report is never written through a link, which could overwrite another file. Choose another file name, or remove the link first.`,
      { path },
    );
  }
  if (existing && !existing.isFile()) {
    throw new AppError(
      ErrorCode.OUTPUT_NOT_A_FILE,
      `${path} is ${existing.isDirectory() ? 'a folder' : 'not a regular file'}: choose a file name to write the report to.`,
      { path },
    );
  }
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = openSync(temporary, 'wx', 0o666);
    try {
      // A file written again keeps the permissions it had (a report shared with a group stays shared).
      if (existing) fchmodSync(fd, existing.mode & 0o7777);
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw fileSystemError(error, path);
  }
}

function linkTarget(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return 'somewhere else';
  }
}

/** A failed write as a coded error: a full disk or quota, a folder that is missing or not writable; others as they are. */
function fileSystemError(error: unknown, path: string): unknown {
  const full = storageErrorInfo(error, { what: path, then: 'then write it again' });
  if (full) return new AppError(full.code, full.message, { path }, { cause: error });
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new AppError(
      ErrorCode.OUTPUT_NOT_WRITABLE,
      `The folder of ${path} does not exist: create it, or choose a file in a folder that exists.`,
      { path },
      { cause: error },
    );
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new AppError(
      ErrorCode.OUTPUT_NOT_WRITABLE,
      `${path} cannot be written (${code}): you may not write in its folder. Choose a file in a folder you may write.`,
      { path },
      { cause: error },
    );
  }
  return error;
}
