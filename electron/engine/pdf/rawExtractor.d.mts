/** Types for rawExtractor.mjs (kept as plain JS so it can start as a worker without a TS loader). */
import type { PDFDocumentLoadingTask, PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api';

/** One pdf.js text item in viewport space (scale 1, y down, page rotation applied). */
export interface RawItem {
  str: string;
  /** Baseline origin. */
  x: number;
  y: number;
  /** Unit vector of the baseline direction; (1, 0) for upright text. */
  dx: number;
  dy: number;
  /** Advance width along the baseline, in page units. */
  width: number;
  fontSize: number;
  bold: boolean;
  hasEOL: boolean;
}

export interface RawPage {
  pageNumber: number;
  width: number;
  height: number;
  items: RawItem[];
  /** Set (with no items) when pdf.js failed on this page; the rest of the document is still read. */
  readError?: string;
  /** Where the worker's time went on this page (for the ingest benchmark's per-stage figures): pdf.js text content, then items and bold flags. */
  costMs?: { text: number; fonts: number };
}

export const WORKER_ROLE: string;
export function openPdf(data: Uint8Array, password?: string): PDFDocumentLoadingTask;
export function closePdf(task: PDFDocumentLoadingTask): Promise<void>;
/** True when pdf.js's parser reports the fonts it loads (bold detection); false only if a pdf.js update broke the hook. */
export function parserReportsFonts(): boolean;
export function extractRawPage(pdf: PDFDocumentProxy, pageNumber: number): Promise<RawPage>;

/** Document-level facts, read once. Strings are raw (not yet cleaned). */
export interface DocumentInfo {
  pageCount: number;
  info: Record<string, string>;
  outline: { title: string; level: number; page: number | null }[];
}
export function readDocumentInfo(pdf: PDFDocumentProxy): Promise<DocumentInfo>;

/** What pdf.js uses of DecompressionStream, on zlib's synchronous inflaters (PDF workers install it as the global). */
export class SyncDecompressionStream {
  constructor(format: string);
  writable: { getWriter(): { ready: Promise<void>; write(bytes: Uint8Array): Promise<void>; close(): Promise<void> } };
  readable: AsyncIterable<Uint8Array>;
}
