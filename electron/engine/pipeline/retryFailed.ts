/**
 * A resumed run tries again what failed (issue 38): a server that was down for every chunk of a document, a disk
 * that was full, a file that was not there. Resuming only continued what was unfinished, so a run whose failures
 * had been fixed reported the same failures again, and only a new run recovered.
 *
 * The files that failed go back to the queue with their committed work (the document pipeline then analyses only
 * their chunks not done: the failed ones), and the run says what it retries, as a run event and on the progress line.
 * A run's first execution has nothing failed: nothing is said.
 */
import { listChunkResults } from '../extract';
import { addRunEvent, listRunInputs, type Database, type RunInput } from '../store';
import { requeueInput } from './runStatus';

export interface Retry {
  /** What is tried again, in a sentence ("Retrying what failed: 2 files (a.pdf: 19 chunks; b.pdf: PDF_CORRUPT)"). */
  message: string;
  files: number;
  chunks: number;
}

/** Whether the run has anything that failed to try again. */
export function hasFailures(db: Database, runId: number): boolean {
  return listRunInputs(db, runId).some((input) => input.status === 'failed');
}

/** Puts the run's failed files back in the queue and records what is retried; null when nothing failed. */
export function queueFailedForRetry(db: Database, runId: number, at: string): Retry | null {
  const failed = listRunInputs(db, runId).filter((input) => input.status === 'failed');
  if (failed.length === 0) return null;
  let chunks = 0;
  const parts = failed.map((input) => {
    const failedChunks = input.documentId === null ? 0 : listChunkResults(db, runId, input.documentId).filter((r) => r.status === 'failed').length;
    chunks += failedChunks;
    return `${baseName(input)}: ${failedChunks > 0 ? `${failedChunks} chunk${failedChunks === 1 ? '' : 's'}` : (input.error?.code ?? 'failed')}`;
  });
  for (const input of failed) requeueInput(db, runId, input.ordinal, { error: true });
  const message = `Retrying what failed: ${failed.length} file${failed.length === 1 ? '' : 's'} (${parts.join('; ')})`;
  addRunEvent(db, runId, { at, level: 'info', phase: 'ingest', message, data: { files: failed.map((i) => i.ordinal), chunks } });
  return { message, files: failed.length, chunks };
}

function baseName(input: RunInput): string {
  return input.filePath.split(/[\\/]/).pop() ?? input.filePath;
}
