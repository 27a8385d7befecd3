/**
 * The OCR step of ingestion: which pages need it, reading them (render,
 * hash, cache, recognize: one page at a time, cancellable, each page
 * committed as soon as it is read), and the document rebuilt with their text.
 *
 * When a page needs OCR (mode):
 * - off:   never; pages without a text layer stay empty and are listed.
 * - auto:  pages without a text layer, and pages whose text layer is garbage
 *          (garbage.ts). A garbage layer is replaced only when the OCR text
 *          reads clearly better, so a page of source code keeps its text.
 * - force: every readable page; its OCR text replaces the text layer.
 */
import { createHash } from 'node:crypto';
import type { OcrMode } from '../../../shared/contract';
import { LOW_OCR_CONFIDENCE, MAX_DECODED_IMAGE_PIXELS } from '../../../shared/ocr';
import type { ExtractedDocument, PageSpan } from '../../../shared/types';
import { assemblePages, MIN_TEXT_LAYER_CHARS, type AssembledPage, type IngestWarning, type PageLine } from '../pdf';
import { throwIfAborted } from '../util';
import { CELL_SEPARATOR, visibleCharCount } from '../pdf';
import type { Database } from '../store';
import { judgeTextLayer } from './garbage';
import { oversizedImages } from './oversizedImages';
import { openForRendering } from './render';
import { getCachedOcr, saveCachedOcr, type PageOcrMark } from './store';
import type { OcrPageText, PageBox, PageRecognizer } from './types';
import { oversizedImageWarning } from './warnings';

/** Pages read by OCR with a mean confidence below this are flagged (shared with the window, which tints words by it). */
export { LOW_OCR_CONFIDENCE };

export interface OcrCandidate {
  pageNumber: number;
  /** Why: 'no-text' (no text layer), 'garbage' (a text layer that is no use), 'forced'. */
  reason: 'no-text' | 'garbage' | 'forced';
}

/**
 * The page's text without the separators ingestion writes between the cells of a table row: they are the engine's
 * own layout, and counted as lone symbols they made a dense born-digital table look like a garbled layer (and OCR it).
 */
function withoutCellSeparators(text: string): string {
  return text.split(CELL_SEPARATOR).join('  ');
}

export function pagesNeedingOcr(doc: ExtractedDocument, mode: OcrMode): OcrCandidate[] {
  if (mode === 'off' || doc.kind !== 'pdf') return [];
  const candidates: OcrCandidate[] = [];
  for (const page of doc.pages) {
    if (page.readError !== undefined || page.textSource === 'ocr') continue;
    if (mode === 'force') candidates.push({ pageNumber: page.pageNumber, reason: 'forced' });
    else if (!page.hasTextLayer) candidates.push({ pageNumber: page.pageNumber, reason: 'no-text' });
    else if (judgeTextLayer(withoutCellSeparators(doc.text.slice(page.start, page.end))).garbage)
      candidates.push({ pageNumber: page.pageNumber, reason: 'garbage' });
  }
  return candidates;
}

export interface OcrStepInput {
  db: Database;
  recognizer: PageRecognizer;
  doc: ExtractedDocument;
  bytes: Uint8Array;
  password?: string;
  mode: OcrMode;
  now: () => Date;
  signal?: AbortSignal;
  /** Before each page (a page takes seconds): how many candidates are done so far, and which page is next. */
  onPageStart?: (done: number, total: number, pageNumber: number) => void;
  /** After each page: how many of the candidates are done, and whether that page came from the cache. */
  onPage?: (done: number, total: number, pageNumber: number, cached: boolean) => void;
}

export interface OcrStepResult {
  doc: ExtractedDocument;
  /** Pages whose text now comes from OCR, for page_ocr. */
  marks: PageOcrMark[];
  /** What OCR had to leave out (an image too large to decode), said once per document. */
  warnings: IngestWarning[];
}

export async function readPagesWithOcr(input: OcrStepInput): Promise<OcrStepResult> {
  const candidates = pagesNeedingOcr(input.doc, input.mode);
  if (candidates.length === 0) return { doc: input.doc, marks: [], warnings: [] };
  const read = new Map<number, PageRead>();
  const blankPages: number[] = [];
  const pdf = await openForRendering(input.bytes, input.doc.fileName, input.password, input.signal);
  try {
    for (const [index, candidate] of candidates.entries()) {
      throwIfAborted(input.signal);
      input.onPageStart?.(index, candidates.length, candidate.pageNumber);
      const image = await pdf.render(candidate.pageNumber);
      if (image.blank) blankPages.push(candidate.pageNumber);
      const contentHash = createHash('sha256')
        .update(input.recognizer.id)
        .update('\0')
        .update(image.blank ? 'blank' : image.png)
        .digest('hex');
      let text = getCachedOcr(input.db, contentHash);
      const cached = text !== undefined;
      if (!text) {
        text = await input.recognizer.recognize(image, input.signal);
        saveCachedOcr(input.db, contentHash, input.recognizer.id, text, input.now().toISOString());
      }
      read.set(candidate.pageNumber, { text, contentHash, pageHeight: image.pageHeight });
      input.onPage?.(index + 1, candidates.length, candidate.pageNumber, cached);
    }
  } finally {
    await pdf.close();
  }
  const oversized = oversizedImages(input.bytes, MAX_DECODED_IMAGE_PIXELS);
  const warnings = oversized.length > 0 ? [oversizedImageWarning(input.doc.fileName, oversized, blankPages)] : [];
  return { ...replacePages(input.doc, candidates, read), warnings };
}

/** A garbage text layer gives way only to OCR text that is itself not garbage and read with reasonable confidence. */
export function ocrReadsBetter(text: OcrPageText): boolean {
  return text.confidence !== null && text.confidence >= LOW_OCR_CONFIDENCE && !judgeTextLayer(text.lines.map((line) => line.text).join('\n')).garbage;
}

/** The document with the chosen pages' lines replaced by OCR lines: canonical text, spans and line offsets rebuilt. */
function replacePages(doc: ExtractedDocument, candidates: readonly OcrCandidate[], read: ReadonlyMap<number, PageRead>): Omit<OcrStepResult, 'warnings'> {
  const replaced = new Map<number, PageRead>();
  for (const candidate of candidates) {
    const result = read.get(candidate.pageNumber);
    if (result && (candidate.reason !== 'garbage' || ocrReadsBetter(result.text))) replaced.set(candidate.pageNumber, result);
  }
  if (replaced.size === 0) return { doc, marks: [] };
  const linesByPage = new Map<number, PageLine[]>();
  for (const line of doc.lines) {
    const list = linesByPage.get(line.page) ?? [];
    list.push({
      text: doc.text.slice(line.start, line.end),
      fontSize: line.fontSize,
      bold: line.bold,
      ...(line.markdownLevel === undefined ? {} : { markdownLevel: line.markdownLevel }),
    });
    linesByPage.set(line.page, list);
  }
  const pages: AssembledPage[] = doc.pages.map((span) => {
    const ocr = replaced.get(span.pageNumber);
    if (!ocr)
      return {
        lines: linesByPage.get(span.pageNumber) ?? [],
        hasTextLayer: span.hasTextLayer,
        ...(span.readError === undefined ? {} : { readError: span.readError }),
      };
    const lines = ocr.text.lines.map((line): PageLine => ({ text: line.text, fontSize: lineFontSize(line.box, ocr.pageHeight), bold: false }));
    return { lines, hasTextLayer: lines.reduce((sum, line) => sum + visibleCharCount(line.text), 0) >= MIN_TEXT_LAYER_CHARS };
  });
  const assembled = assemblePages(pages);
  const spans = assembled.pages.map((span: PageSpan): PageSpan => {
    const ocr = replaced.get(span.pageNumber);
    if (!ocr) return span;
    return { ...span, textSource: 'ocr', ...(ocr.text.confidence === null ? {} : { ocrConfidence: ocr.text.confidence }) };
  });
  const marks = [...replaced].map(([pageNumber, ocr]) => ({ pageNumber, contentHash: ocr.contentHash, confidence: ocr.text.confidence }));
  return { doc: { ...doc, text: assembled.text, pages: spans, lines: assembled.lines }, marks };
}

/** A line's size in PDF units from its box height: a line box spans ascenders to descenders, about 1.2 em. */
function lineFontSize(box: PageBox, pageHeight: number): number {
  return Math.round((((box[3] - box[1]) * pageHeight) / 1.2) * 10) / 10;
}

interface PageRead {
  text: OcrPageText;
  contentHash: string;
  /** In PDF units, to turn box heights into font sizes. */
  pageHeight: number;
}
