/**
 * What a run, a file or a document honestly ended as, in the user's words:
 * "Done" only when nothing was lost; "Done with problems: 1 file failed,
 * 5 pages without text" when the run finished but some input or page was
 * left out. The run card, the library and the document view all say it the
 * same way, from the statuses and warnings the host reports.
 */
import type { ErrorInfo } from './errors';
import type { RunStatus } from './types';

/** "1 file", "2 files"; `many` for irregular plurals. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

export interface Problems {
  failedFiles: number;
  /** Pages with no text layer (scanned) across the inputs. */
  pagesWithoutText: number;
  /** Pages pdf.js could not read. */
  unreadablePages: number;
  /** Chunks whose analysis failed (only known for a document's analysis). */
  failedChunks: number;
}

interface InputLike {
  status: RunStatus | 'stored';
  warnings?: readonly ErrorInfo[];
  error?: ErrorInfo | null;
}

function warnedPages(warnings: readonly ErrorInfo[] | undefined, code: string): number {
  let pages = 0;
  for (const w of warnings ?? []) {
    if (w.code !== code) continue;
    const listed = w.details?.pages;
    pages += Array.isArray(listed) ? listed.length : 1;
  }
  return pages;
}

export function problemsOf(inputs: readonly InputLike[], failedChunks = 0): Problems {
  return {
    failedFiles: inputs.filter((i) => i.status === 'failed').length,
    pagesWithoutText: inputs.reduce((sum, i) => sum + warnedPages(i.warnings, 'PDF_NO_TEXT_LAYER'), 0),
    unreadablePages: inputs.reduce((sum, i) => sum + warnedPages(i.warnings, 'PDF_PAGE_UNREADABLE'), 0),
    failedChunks,
  };
}

/** "1 file failed, 5 pages without text", or null when nothing was lost. */
export function describeProblems(p: Problems): string | null {
  const parts = [
    p.failedFiles > 0 ? `${plural(p.failedFiles, 'file')} failed` : null,
    p.failedChunks > 0 ? `${plural(p.failedChunks, 'part')} not analysed` : null,
    p.pagesWithoutText > 0 ? `${plural(p.pagesWithoutText, 'page')} without text` : null,
    p.unreadablePages > 0 ? `${plural(p.unreadablePages, 'page')} unreadable` : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(', ') : null;
}

export type OutcomeTone = 'ok' | 'warn' | 'bad' | 'busy' | 'idle';

export interface Outcome {
  /** Short label for a badge: "Done", "Done with problems", "Paused"... */
  label: string;
  tone: OutcomeTone;
  /** What was left out, when anything was; null otherwise. */
  problems: string | null;
}

const LABELS: Record<RunStatus | 'stored', { label: string; tone: OutcomeTone }> = {
  queued: { label: 'Queued', tone: 'idle' },
  running: { label: 'Running', tone: 'busy' },
  paused: { label: 'Paused', tone: 'warn' },
  cancelled: { label: 'Stopped', tone: 'warn' },
  failed: { label: 'Failed', tone: 'bad' },
  done: { label: 'Done', tone: 'ok' },
  stored: { label: 'Not analysed', tone: 'idle' },
};

/** The outcome of something with a status (a run, a file, a document) and the problems of its inputs. */
export function outcomeOf(status: RunStatus | 'stored', problems: Problems): Outcome {
  const text = describeProblems(problems);
  if (status === 'done' && text) return { label: 'Done with problems', tone: 'warn', problems: text };
  return { ...LABELS[status], problems: text };
}
