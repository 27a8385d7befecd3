import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync, readSync, closeSync, statSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { ImportFile } from '../../shared/contract';
import { AppError, ErrorCode, toErrorInfo, type ErrorInfo } from '../../shared/errors';
import { documentKindOf, SUPPORTED_FILES } from '../../shared/fileKinds';

const PDF_MAGIC = '%PDF-';

/** A file name that is safe to write inside our import folder. */
export function safeFileName(name: string): string {
  const base = basename(name.replace(/\\/g, '/'))
    .replace(/[\u0000-\u001f<>:"|?*]/g, '_')
    .trim();
  return base === '' || base === '.' || base === '..' ? 'document.pdf' : base.slice(0, 200);
}

/** PDF readers accept the header anywhere in the first kilobyte; so do we. */
function hasPdfHeader(head: Buffer): boolean {
  return head.subarray(0, 1024).includes(PDF_MAGIC, 0, 'latin1');
}

/** Why a file cannot be analysed, or null: a PDF by its header, plain text and Markdown by their extension. */
function checkFile(name: string, size: number, head: Buffer): ErrorInfo | null {
  if (size === 0) return { code: ErrorCode.FILE_EMPTY, message: `${name} is empty (0 bytes). Choose the complete file.` };
  const kind = documentKindOf(name);
  if (kind === 'txt' || kind === 'md') {
    // A NUL byte never occurs in text: this is a binary file given a text name (its encoding is checked when it is read).
    return head.includes(0)
      ? { code: ErrorCode.FILE_UNSUPPORTED, message: `${name} is named ${extname(name)} but is not a text file. Save it as plain text or export it as PDF.` }
      : null;
  }
  if (hasPdfHeader(head)) return null;
  if (extname(name).toLowerCase() === '.pdf') {
    return { code: ErrorCode.PDF_NOT_A_PDF, message: `${name} is named .pdf but is not a PDF (no %PDF header). Export it again as PDF.` };
  }
  return { code: ErrorCode.FILE_UNSUPPORTED, message: `${name} is not a type the app reads: it reads ${SUPPORTED_FILES}. Print or export it as PDF first.` };
}

function readHead(path: string): { size: number; head: Buffer } {
  const stat = statSync(path);
  if (!stat.isFile()) throw new AppError(ErrorCode.FILE_NOT_FOUND, `${path} is not a file. Choose a PDF file.`);
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(Math.min(1024, stat.size));
    readSync(fd, head, 0, head.length, 0);
    return { size: stat.size, head };
  } finally {
    closeSync(fd);
  }
}

export interface CheckedImports {
  accepted: { name: string; path: string }[];
  rejected: { name: string; error: ErrorInfo }[];
}

/**
 * Checks every file on its own: a bad one is rejected with the reason and the
 * others go on. Uploaded bytes are written under `importDir` (one folder per
 * import, the original name kept) so the run reads them like any other path.
 */
export function checkImports(files: readonly ImportFile[], importDir: string): CheckedImports {
  const out: CheckedImports = { accepted: [], rejected: [] };
  let uploadDir: string | null = null;
  for (const file of files) {
    const name = 'path' in file ? basename(file.path) : safeFileName(file.name);
    try {
      if ('path' in file) {
        let head: { size: number; head: Buffer };
        try {
          head = readHead(file.path);
        } catch (error) {
          if (error instanceof AppError) throw error;
          throw new AppError(
            ErrorCode.FILE_NOT_FOUND,
            `${file.path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}). Check that it exists and that you may read it.`,
          );
        }
        const problem = checkFile(name, head.size, head.head);
        if (problem) out.rejected.push({ name, error: problem });
        else out.accepted.push({ name, path: file.path });
        continue;
      }
      const bytes = Buffer.from(file.bytes, 'base64');
      const problem = checkFile(name, bytes.length, bytes.subarray(0, 1024));
      if (problem) {
        out.rejected.push({ name, error: problem });
        continue;
      }
      uploadDir ??= join(importDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`);
      mkdirSync(uploadDir, { recursive: true });
      let path = join(uploadDir, name);
      // Two uploads with the same name in one import: keep both.
      if (out.accepted.some((a) => a.path === path)) path = join(uploadDir, `${out.accepted.length}-${name}`);
      writeFileSync(path, bytes);
      out.accepted.push({ name, path });
    } catch (error) {
      out.rejected.push({ name, error: toErrorInfo(error) });
    }
  }
  return out;
}
