import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { AppError, ErrorCode } from '../../../shared/errors';

/**
 * sha256 of a file, streamed. Runs before parsing so a file already in the
 * store is recognised by content (whatever its name) and never parsed twice.
 */
export async function fileSha256(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(filePath)) hash.update(chunk as Buffer);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new AppError(
        ErrorCode.FILE_NOT_FOUND,
        `${filePath} no longer exists. It may have been moved or deleted after it was added; add it again from its new place.`,
      );
    }
    if (code === 'EISDIR') {
      throw new AppError(ErrorCode.FILE_UNSUPPORTED, `${filePath} is a folder. Add the PDF files inside it instead.`);
    }
    throw new AppError(ErrorCode.FILE_NOT_FOUND, `${filePath} cannot be read (${code ?? (error as Error).message}). Check its permissions.`);
  }
  return hash.digest('hex');
}
