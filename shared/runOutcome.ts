/**
 * What a run, a file or a document honestly ended as, in the user's words:
 * "Done" only when nothing was lost; "Done with problems: 1 file failed,
 * 5 pages without text" when the run finished but some input or page was
 * left out. The run card, the library and the document view all say it the
 * same way, from the statuses and warnings the host reports.
 */
import { formatPageRanges } from './canonical';
import type { CheckPlace, CompletenessStatus, CompletenessVerdict } from './completeness';
import type { ErrorInfo } from './errors';
import type { RunStatus } from './types';

/** "1 file", "2 files"; `many` for irregular plurals. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

export interface Problems {
  failedFiles: number;
  /** Pages with no text to read (scanned, and not read by OCR) across the inputs. */
  pagesWithoutText: number;
  /**
   * Pages OCR read and found no words on: a picture-only cover or back page, a blank page. Nothing on them was
   * lost, so they are noted quietly (see picturePagesNote), never a problem of the audit.
   */
  picturePages: number[];
  /** Pages pdf.js could not read. */
  unreadablePages: number;
  /** Chunks whose analysis failed (only known for a document's analysis). */
  failedChunks: number;
  /** The pages those chunks cover, when known: named as ranges ("pp. 83-96"), never page by page. */
  failedChunkPages?: readonly number[];
}

interface InputLike {
  status: RunStatus | 'stored';
  warnings?: readonly ErrorInfo[];
  error?: ErrorInfo | null;
}

/** A warning about pages OCR read and found no words on (the OCR step marks it `picturesOnly`). */
function isPicturePages(w: ErrorInfo): boolean {
  return w.code === 'PDF_NO_TEXT_LAYER' && w.details?.picturesOnly === true;
}

function warnedPages(warnings: readonly ErrorInfo[] | undefined, code: string): number {
  let pages = 0;
  for (const w of warnings ?? []) {
    if (w.code !== code || isPicturePages(w)) continue;
    const listed = w.details?.pages;
    pages += Array.isArray(listed) ? listed.length : 1;
  }
  return pages;
}

/** An input's warnings that tell of a loss, i.e. all but the quiet note on picture-only pages (a report lists these as Problems). */
export function problemWarnings<W extends ErrorInfo>(warnings: readonly W[]): W[] {
  return warnings.filter((w) => !isPicturePages(w));
}

/** Pages OCR found no words on, from an input's warnings. */
export function picturePagesOf(warnings: readonly ErrorInfo[] | undefined): number[] {
  const pages = (warnings ?? []).filter(isPicturePages).flatMap((w) => (Array.isArray(w.details?.pages) ? (w.details.pages as number[]) : []));
  return [...new Set(pages)].sort((a, b) => a - b);
}

/** The one sentence every view uses for picture-only pages: "Page 38 has only pictures or nothing on it (OCR found no words)." */
export function picturePagesNote(pages: readonly number[]): string | null {
  if (pages.length === 0) return null;
  const list = pages.length === 1 ? `Page ${pages[0]} has` : `Pages ${formatPageRanges(pages)} have`;
  return `${list} only pictures or nothing on ${pages.length === 1 ? 'it' : 'them'} (OCR found no words).`;
}

/**
 * The parts of a file its analysis could not do, when that is all that failed (the engine records the file as
 * failed with the chunks and pages in the error's details); null for a file that failed as a whole, or did not fail.
 */
export function partsNotAnalysed(error: ErrorInfo | null | undefined): { parts: number; pages: number[] } | null {
  const chunks = error?.details?.failedChunks;
  if (!Array.isArray(chunks) || chunks.length === 0) return null;
  const pages = error?.details?.failedPages;
  return { parts: chunks.length, pages: Array.isArray(pages) ? pages.filter((p): p is number => typeof p === 'number') : [] };
}

/**
 * The status a file is shown with: a file whose analysis failed only in some parts was analysed, all the rest of it
 * kept, so it reads "Done with problems: 8 parts not analysed (pp. 83-96)", amber, never a red "Failed" beside a
 * document whose findings were all found (trial 2026-11-28 row 9).
 */
export function shownStatus<S extends RunStatus | 'stored'>(status: S, error: ErrorInfo | null | undefined): S | 'done' {
  return status === 'failed' && partsNotAnalysed(error) ? 'done' : status;
}

export function problemsOf(inputs: readonly InputLike[], failedChunks = 0): Problems {
  const parts = inputs.map((i) => partsNotAnalysed(i.error)).filter((p): p is NonNullable<typeof p> => p !== null);
  const failedChunkPages = parts.flatMap((p) => p.pages);
  return {
    failedFiles: inputs.filter((i) => shownStatus(i.status, i.error) === 'failed').length,
    pagesWithoutText: inputs.reduce((sum, i) => sum + warnedPages(i.warnings, 'PDF_NO_TEXT_LAYER'), 0),
    picturePages: inputs.length === 1 ? picturePagesOf(inputs[0]!.warnings) : [],
    unreadablePages: inputs.reduce((sum, i) => sum + warnedPages(i.warnings, 'PDF_PAGE_UNREADABLE'), 0),
    failedChunks: failedChunks + parts.reduce((sum, p) => sum + p.parts, 0),
    ...(failedChunkPages.length > 0 ? { failedChunkPages } : {}),
  };
}

/** " (p. 83)", " (pp. 83-96, 101)", or nothing when the pages are not known. */
function pagesInBrackets(pages: readonly number[] | undefined): string {
  if (!pages || pages.length === 0) return '';
  return ` (${new Set(pages).size === 1 ? 'p.' : 'pp.'} ${formatPageRanges(pages)})`;
}

/** "1 file failed, 5 pages without text", or null when nothing was lost. */
export function describeProblems(p: Problems): string | null {
  const parts = [
    p.failedFiles > 0 ? `${plural(p.failedFiles, 'file')} failed` : null,
    p.failedChunks > 0 ? `${plural(p.failedChunks, 'part')} not analysed${pagesInBrackets(p.failedChunkPages)}` : null,
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
  cancelled: { label: 'Cancelled', tone: 'warn' },
  failed: { label: 'Failed', tone: 'bad' },
  done: { label: 'Done', tone: 'ok' },
  stored: { label: 'Not analysed', tone: 'idle' },
};

/**
 * What a document's completeness verdict says, in the few numbers a badge needs (the host builds it from the
 * stored verdict and the input's warnings, so the library and the run card read the same thing).
 */
export interface VerdictSummary {
  status: CompletenessStatus;
  /** Places to check, not counting pages that hold only pictures (nothing was lost there). */
  placesToCheck: number;
  statedTotal: number | null;
  foundTotal: number;
}

export function summarizeVerdict(verdict: CompletenessVerdict, picturePages: readonly number[]): VerdictSummary {
  const placesToCheck = placesToCheckOf(verdict, picturePages).length;
  const status = verdict.status === 'check' && placesToCheck === 0 ? (verdict.stated.length > 0 ? 'complete' : 'no-stated-totals') : verdict.status;
  return { status, placesToCheck, statedTotal: verdict.statedTotal, foundTotal: verdict.foundTotal };
}

/**
 * The verdict's places an auditor has to look at: a "pages without text" place is left out when every page of
 * it holds only pictures (OCR found no words: nothing was lost there, picturePagesNote says so quietly).
 */
export function placesToCheckOf(verdict: CompletenessVerdict, picturePages: readonly number[]): CompletenessVerdict['places'] {
  const pictures = new Set(picturePages);
  const withoutText = new Set(verdict.pagesWithoutText);
  return foldUnrated(verdict).filter((place) => {
    if (place.kind !== 'pages-without-text' || place.page === null) return true;
    // The place names a run of consecutive pages without text, from its first page.
    for (let page = place.page; withoutText.has(page) || page === place.page; page += 1) if (!pictures.has(page)) return true;
    return false;
  });
}

/**
 * When no finding found is rated (every one off the scale), "states Critical 1; 0 Critical findings found" for each
 * severity says five times what one sentence says: the findings have no severity to compare. Those places become
 * one, "50 findings found, none rated: rate them to compare with the stated Critical 1, High 1...", at the page the
 * counts are stated on (trial 2026-11-28 row 10); every other place stays.
 */
function foldUnrated(verdict: CompletenessVerdict): CompletenessVerdict['places'] {
  const unrated = verdict.tallies.find((t) => t.severity === null)?.found ?? 0;
  const rated = verdict.tallies.filter((t) => t.severity !== null).reduce((n, t) => n + t.found, 0);
  const bySeverity = verdict.places.filter((p) => p.kind === 'stated-vs-found' && p.severity);
  if (unrated === 0 || rated > 0 || bySeverity.length === 0) return verdict.places;
  const stated = verdict.stated.filter((c) => c.severity !== null);
  const page = stated[0]?.page ?? bySeverity[0]!.page;
  const folded: CheckPlace = {
    kind: 'stated-vs-found',
    page,
    message: `${plural(unrated, 'finding')} found, none rated: rate them to compare with the stated ${stated.map((c) => `${c.severity} ${c.count}`).join(', ')}.`,
  };
  const first = verdict.places.indexOf(bySeverity[0]!);
  const rest = verdict.places.filter((p) => !bySeverity.includes(p));
  return [...rest.slice(0, first), folded, ...rest.slice(first)];
}

/** The headline of a verdict whose places were counted by placesToCheckOf. */
export function verdictHeadline(summary: Pick<VerdictSummary, 'status' | 'placesToCheck'>): string {
  if (summary.status === 'complete') return 'Complete';
  if (summary.status === 'no-stated-totals') return 'No stated totals to check against';
  return summary.placesToCheck === 1 ? 'Check this place' : `Check these ${summary.placesToCheck} places`;
}

/** The verdicts of a run's documents as one: "check" when any of them says so, places and totals added up. */
export function combineVerdicts(verdicts: readonly (VerdictSummary | null | undefined)[]): VerdictSummary | null {
  const known = verdicts.filter((v): v is VerdictSummary => v !== null && v !== undefined);
  if (known.length === 0) return null;
  const check = known.filter((v) => v.status === 'check');
  const stated = known.filter((v) => v.statedTotal !== null);
  return {
    status: check.length > 0 ? 'check' : known.every((v) => v.status === 'complete') ? 'complete' : 'no-stated-totals',
    placesToCheck: known.reduce((n, v) => n + v.placesToCheck, 0),
    // A total only when every document stated one, so "0 of 3" never mixes a stated total with a silent document.
    statedTotal: stated.length === known.length ? stated.reduce((n, v) => n + v.statedTotal!, 0) : null,
    foundTotal: known.reduce((n, v) => n + v.foundTotal, 0),
  };
}

/** "0 of 3 stated findings found", when the document states more than was found. */
export function shortfallText(v: VerdictSummary): string | null {
  return v.statedTotal !== null && v.foundTotal < v.statedTotal ? `${v.foundTotal.toLocaleString()} of ${plural(v.statedTotal, 'stated finding')} found` : null;
}

/**
 * A file its run never started, because the run was paused, cancelled or stopped first: "Not started: run
 * cancelled", never a plain "Queued" that promises work no run will do. Null for any other file.
 */
export function notStartedOutcome(inputStatus: RunStatus | 'stored', runStatus: RunStatus | null | undefined): Outcome | null {
  if (inputStatus !== 'queued' || !runStatus || runStatus === 'queued' || runStatus === 'running') return null;
  const why = runStatus === 'paused' ? 'run paused' : runStatus === 'cancelled' ? 'run cancelled' : 'run stopped';
  return { label: `Not started: ${why}`, tone: 'idle', problems: null };
}

/**
 * The outcome of something with a status (a run, a file, a document) and the problems of its inputs; for a
 * finished document, its completeness verdict too: "Done" (green) only when nothing was lost AND the verdict
 * has nothing to check. A run that found 0 of the 3 findings its document states is never a green "Done".
 */
export function outcomeOf(status: RunStatus | 'stored', problems: Problems, verdict?: VerdictSummary | null): Outcome {
  const text = describeProblems(problems);
  if (status === 'done' && verdict && verdict.status === 'check') {
    const parts = [shortfallText(verdict), `${plural(verdict.placesToCheck, 'place')} to check`, text].filter((part): part is string => part !== null);
    return { label: 'Done: check the result', tone: 'warn', problems: parts.join(', ') };
  }
  if (status === 'done' && text) return { label: 'Done with problems', tone: 'warn', problems: text };
  return { ...LABELS[status], problems: text };
}
