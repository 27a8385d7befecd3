/**
 * Reading the next input while the current one is analysed. A run handles
 * its files one at a time (its state, progress and resume stay simple), but
 * parsing a PDF happens in worker threads: the next file's parse can run
 * while this thread builds the current file's tree and ID mentions, or waits
 * for the model. A short document uses one worker, so on a batch of reports
 * two files are parsed at once, one per core, instead of one core idling.
 * The PDF worker pool caps the threads of all reads together
 * (pdf/extractorPool.ts), so a read ahead never overloads the machine.
 *
 * Only the parse runs ahead: the file's password prompt, its OCR and its
 * storing wait for its turn. A file already in the store is not parsed.
 */
import type { IngestResult } from '../pdf';
import { findDocumentBySha, type Database } from '../store';
import { fileSha256 } from './fileIdentity';

type Progress = (done: number, total: number) => void;

export interface ReadAhead {
  readonly filePath: string;
  /**
   * The parse's result (as a first attempt without a password), or undefined when the file was already in the
   * store when the read began. `onProgress` gets the pages read so far at once, then each further page.
   */
  take(onProgress: Progress): Promise<IngestResult | undefined>;
}

export interface ReadAheadDeps {
  db: Database;
  ingestFile: (filePath: string, options: { signal?: AbortSignal; onProgress?: Progress }) => Promise<IngestResult>;
}

/** Starts parsing `filePath` now; stopped by `signal` (which the run aborts when it ends for any reason). */
export function startReadAhead(deps: ReadAheadDeps, filePath: string, signal: AbortSignal): ReadAhead {
  let listener: Progress | undefined;
  let latest: [number, number] | undefined;
  const onProgress: Progress = (done, total) => {
    latest = [done, total];
    listener?.(done, total);
  };
  const result = (async () => {
    if (findDocumentBySha(deps.db, await fileSha256(filePath))) return undefined;
    return deps.ingestFile(filePath, { signal, onProgress });
  })();
  // Its failure belongs to its turn (take); a run that stops first never takes it.
  result.catch(() => undefined);
  return {
    filePath,
    take(progress) {
      listener = progress;
      if (latest) progress(...latest);
      return result;
    },
  };
}
