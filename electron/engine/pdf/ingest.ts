/** ingestFile: any supported file -> ExtractedDocument + warnings, or an AppError the user can act on. */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError, ErrorCode } from '../../../shared/errors';
import { documentKindOf, SUPPORTED_FILES } from '../../../shared/fileKinds';
import type { ExtractedDocument } from '../../../shared/types';
import type { AssembledText } from './assemble';
import { throwIfAborted } from '../util';
import { notAPdfError, READ_CANCELLED } from './pdfErrors';
import { readPdf } from './pdfDocument';
import { assembleText, decodeUtf8 } from './textDocument';
import type { IngestOptions, IngestResult, IngestWarning } from './types';

export async function ingestFile(filePath: string, options: IngestOptions = {}): Promise<IngestResult> {
  throwIfAborted(options.signal, READ_CANCELLED);
  const fileName = path.basename(filePath);
  const kind = documentKindOf(fileName);
  if (!kind) {
    throw new AppError(ErrorCode.FILE_UNSUPPORTED, `"${fileName}" is not a supported file type. Supported types are ${SUPPORTED_FILES}.`, { fileName });
  }
  const bytes = await readBytes(filePath, fileName);
  if (bytes.byteLength === 0) throw emptyFileError(fileName);
  const sha256 = createHash('sha256').update(bytes).digest('hex');

  let content: AssembledText & { pageCount: number; outline: ExtractedDocument['outline']; metadata: Record<string, string> };
  let warnings: IngestWarning[] = [];
  if (kind === 'pdf') {
    if (!looksLikePdf(bytes)) throw notAPdfError(fileName);
    const pdf = await readPdf(bytes, fileName, options);
    warnings = pdf.warnings;
    content = pdf;
  } else {
    const text = decodeUtf8(bytes, fileName);
    if (text.trim().length === 0) throw emptyFileError(fileName);
    const assembled = assembleText(text, kind === 'md');
    content = { ...assembled, pageCount: assembled.pages.length, outline: [], metadata: {} };
    options.onProgress?.(content.pageCount, content.pageCount);
  }

  const document: ExtractedDocument = {
    kind,
    fileName,
    filePath: path.resolve(filePath),
    sha256,
    byteSize: bytes.byteLength,
    pageCount: content.pageCount,
    text: content.text,
    pages: content.pages,
    lines: content.lines,
    outline: content.outline,
    metadata: content.metadata,
  };
  return { document, warnings };
}

/** pdf.js accepts a %PDF- header anywhere in the first 1024 bytes (some writers prepend junk); so do we. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).includes('%PDF-');
}

async function readBytes(filePath: string, fileName: string): Promise<Uint8Array> {
  try {
    // A plain Uint8Array: pdf.js refuses Node Buffers.
    return new Uint8Array(await readFile(filePath));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') {
      throw new AppError(
        ErrorCode.FILE_UNSUPPORTED,
        `"${fileName}" is a folder, not a file. Add the files inside it instead (${SUPPORTED_FILES}).`,
        { filePath },
        { cause: error },
      );
    }
    const reason = code === 'EACCES' || code === 'EPERM' ? 'cannot be read (permission denied)' : 'was not found (moved, renamed or deleted?)';
    throw new AppError(ErrorCode.FILE_NOT_FOUND, `"${fileName}" ${reason}. Check the file and add it again.`, { filePath, code }, { cause: error });
  }
}

function emptyFileError(fileName: string): AppError {
  return new AppError(ErrorCode.FILE_EMPTY, `"${fileName}" is empty. Check that the file was saved or downloaded completely and add it again.`, { fileName });
}
