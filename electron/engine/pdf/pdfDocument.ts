/** PDF ingestion: open with pdf.js, pull raw pages (in-process or workers), rebuild lines, collect outline and metadata. */
import { availableParallelism } from 'node:os';
import { ErrorCode } from '../../../shared/errors';
import type { OutlineEntry } from '../../../shared/types';
import { assemblePages, type AssembledPage, type AssembledText } from './assemble';
import { buildPageLines } from './lineBuilder';
import { extractInProcess, extractWithWorkers, WorkerStartError, type ExtractContext, type PageSink } from './pageSource';
import { throwIfAborted, timeStage } from '../util';
import { noPagesError, READ_CANCELLED } from './pdfErrors';
import type { DocumentInfo, RawPage } from './rawExtractor.mjs';
import { pageWarnings } from './pageWarnings';
import { cleanText, visibleCharCount } from './textCleanup';
import type { IngestOptions, IngestWarning } from './types';

/**
 * A page "has a text layer" with at least this many visible characters. A
 * scanned page often still carries a page number or a scanner stamp
 * ("Page 3 of 9" is 8), while a real text page has hundreds.
 */
export const MIN_TEXT_LAYER_CHARS = 10;
/**
 * Below this many pages one worker reads the document. A second one parses the file and translates its fonts again:
 * on the corpus batch, splitting documents from 16 pages on took a fifth more CPU time and 60 MB more memory for no
 * gain in time on this shared 2-core machine (threads are kept between documents, so starting them is not the cost).
 */
export const WORKER_MIN_PAGES = 64;

export interface PdfContent extends AssembledText {
  pageCount: number;
  outline: OutlineEntry[];
  metadata: Record<string, string>;
  warnings: IngestWarning[];
}

export async function readPdf(bytes: Uint8Array, fileName: string, options: IngestOptions): Promise<PdfContent> {
  let info: DocumentInfo | null = null;
  let pages: AssembledPage[] = [];
  let pagesDone = 0;
  const context: ExtractContext = {
    fileName,
    signal: options.signal,
    ...(options.password === undefined ? {} : { password: options.password }),
    onInfo: (documentInfo) => {
      info = documentInfo;
      pages = new Array<AssembledPage>(documentInfo.pageCount);
    },
  };
  const sink: PageSink = (raw) => {
    pages[raw.pageNumber - 1] = toAssembledPage(raw);
    options.onProgress?.(++pagesDone, pages.length);
  };
  await extractPages(bytes, sink, context, options.workers ?? Math.min(2, availableParallelism()));
  throwIfAborted(options.signal, READ_CANCELLED);
  const documentInfo = info as DocumentInfo | null;
  if (!documentInfo) throw noPagesError(fileName);

  const assembled = assemblePages(pages);
  return {
    ...assembled,
    pageCount: documentInfo.pageCount,
    outline: documentInfo.outline.map((entry) => ({ ...entry, title: cleanInline(entry.title) })),
    metadata: Object.fromEntries(Object.entries(documentInfo.info).map(([key, value]) => [key, cleanInline(value)])),
    warnings: [...pageWarnings(assembled.pages, fileName), ...truncationWarnings(bytes, fileName)],
  };
}

async function extractPages(bytes: Uint8Array, sink: PageSink, context: ExtractContext, workers: number): Promise<void> {
  if (workers >= 1) {
    try {
      return await extractWithWorkers(bytes, { maxWorkers: workers, minPagesForMore: WORKER_MIN_PAGES }, sink, context);
    } catch (error) {
      if (!(error instanceof WorkerStartError)) throw error;
      // Threads unavailable in this host: same result on this thread.
    }
  }
  return extractInProcess(bytes, sink, context);
}

function cleanInline(text: string): string {
  return cleanText(text).replace(/\s+/g, ' ').trim();
}

function toAssembledPage(raw: RawPage): AssembledPage {
  if (raw.readError !== undefined) return { lines: [], hasTextLayer: false, readError: raw.readError };
  const lines = timeStage('lines', () => buildPageLines(raw));
  const visible = lines.reduce((sum, line) => sum + visibleCharCount(line.text), 0);
  return { lines, hasTextLayer: visible >= MIN_TEXT_LAYER_CHARS };
}

function truncationWarnings(bytes: Uint8Array, fileName: string): IngestWarning[] {
  const warnings: IngestWarning[] = [];
  if (!hasEndOfFileMarker(bytes)) {
    warnings.push({
      code: ErrorCode.PDF_CORRUPT,
      message: `"${fileName}" looks truncated (no end-of-file marker); its text was recovered, but parts may be missing. Get a complete copy if the result looks incomplete.`,
    });
  }
  return warnings;
}

/** A complete PDF ends with %%EOF (possibly followed by whitespace or a little junk); pdf.js silently repairs files that do not. */
function hasEndOfFileMarker(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(Math.max(0, bytes.byteLength - 1024));
  return tail.includes('%%EOF');
}
