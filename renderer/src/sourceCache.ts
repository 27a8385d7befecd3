/**
 * Per-document data the source page needs, fetched once per window and never
 * changed once stored: the chunk tree (to name a place by its section), chunk
 * texts, the original PDF opened with pdf.js, its printed page labels and
 * what OCR read on its pages. A cache of immutable data beside the store: the
 * store holds what changes (review, runs, settings).
 */
import type { PDFDocumentProxy } from 'pdfjs-dist';
// Bundled by vite next to the renderer (the CSP allows only 'self' scripts; nothing is fetched from the network).
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import type { OcrPageInfo, OcrWordBox } from '../../shared/contract';
import { MAX_DECODED_IMAGE_PIXELS } from '../../shared/ocr';
import type { ChunkNode } from '../../shared/types';
import { invoke } from './api';
import { printedLabelOf as printedLabelFrom } from '../../shared/printedPages';

export type PdfDocument = PDFDocumentProxy;

/** pdf.js is loaded the first time a page is shown, not at start. */
async function loadPdfJs() {
  const pdfjs = await import('pdfjs-dist');
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  return pdfjs;
}

const trees = new Map<number, Promise<ChunkNode[]>>();
/** Documents that are text or Markdown: they print no page labels, and their file is not fetched again for one. */
const notPdf = new Set<number>();
const files = new Map<number, Promise<PdfDocument>>();
const texts = new Map<string, Promise<string>>();

export function treeOf(documentId: number): Promise<ChunkNode[]> {
  let tree = trees.get(documentId);
  if (!tree) {
    tree = invoke('tree.get', { documentId }).then((r) => (r.ok && r.data ? r.data.nodes : []));
    trees.set(documentId, tree);
  }
  return tree;
}

/** Forget a document's cached tree (a re-run may have built a new one). */
export function forgetTree(documentId: number): void {
  trees.delete(documentId);
  for (const key of texts.keys()) if (key.startsWith(`${documentId}:`)) texts.delete(key);
}

/** The deepest node holding `offset`, and the titles from the top down to it ("2 Findings › 2.1 Missing input validation"). */
export function placeOf(nodes: readonly ChunkNode[], offset: number): { leaf: ChunkNode | null; path: string[] } {
  const byIndex = new Map(nodes.map((n) => [n.index, n]));
  const holding = nodes.filter((n) => n.start <= offset && offset < n.end);
  const leaf = holding.find((n) => n.isLeaf) ?? holding[holding.length - 1] ?? null;
  const path: string[] = [];
  for (let n = leaf; n; n = n.parentIndex === null ? null : (byIndex.get(n.parentIndex) ?? null)) {
    // The root is the document itself; a leaf cut from a section often repeats the section's title.
    if (n.parentIndex !== null && n.title && n.title !== path[0]) path.unshift(n.title);
  }
  return { leaf, path };
}

const DOT_LEADERS = /(?:\.\s?){4,}|…{2,}/;
const HEADING_LINE = /^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.|Chapter \d+|Section \d+)\s+\S.{0,118}$/;

/**
 * The section a place is in, by name: the last heading line before it in its chunk (a chunk may hold several
 * small sections), else the chunk's own path without the "(+N)" of merged sections.
 */
export function sectionName(path: readonly string[], leafText: string, offsetInLeaf: number): string | null {
  const lines = leafText.slice(0, offsetInLeaf).split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    // A contents line ("7.1 Critical Risk . . . . 7") names a section without being in it.
    if (HEADING_LINE.test(line) && !/[.;:,]$/.test(line) && !DOT_LEADERS.test(line)) return line;
  }
  // A leaf that opens with the front matter is named after what follows it ("Front matter, Executive Summary (+2)");
  // a place in it is in the front matter, however the next title reads (an OCR'd logo read "J sigma orime").
  const cleaned = path
    .map((title) => title.replace(/\s*\(\+\d+\)$/, '').replace(/^Front matter(?:,| and) .*$/, 'Front matter'))
    .filter((title, i, all) => title !== all[i - 1]);
  return cleaned.length > 0 ? cleaned.join(' › ') : null;
}

/** The text of a tree node (cached): the surrounding text of a place. */
export function nodeText(documentId: number, nodeIndex: number): Promise<string> {
  const key = `${documentId}:${nodeIndex}`;
  let text = texts.get(key);
  if (!text) {
    text = invoke('chunk.text', { documentId, nodeIndex }).then((r) => (r.ok ? r.data.text : ''));
    texts.set(key, text);
  }
  return text;
}

export function pdfOf(documentId: number): Promise<PdfDocument> {
  let doc = files.get(documentId);
  if (!doc) {
    doc = invoke('documents.file', { documentId }).then(async (r) => {
      if (!r.ok) throw new Error(r.error.message);
      if (r.data.kind !== 'pdf') {
        notPdf.add(documentId);
        throw new Error(`${r.data.fileName} is not a PDF: its text is shown above.`);
      }
      const bytes = Uint8Array.from(atob(r.data.bytes), (c) => c.charCodeAt(0));
      const pdfjs = await loadPdfJs();
      // An image above the limit OCR keeps to is left out here too: decoding it whole could take gigabytes of the window's memory.
      return pdfjs.getDocument({ data: bytes, isEvalSupported: false, maxImageSize: MAX_DECODED_IMAGE_PIXELS }).promise;
    });
    // A failure is not cached: the user may fix the file and try again.
    doc.catch(() => files.delete(documentId));
    files.set(documentId, doc);
  }
  return doc;
}

const printedLabels = new Map<string, Promise<string | null>>();

/** The label the document prints on a PDF page when it differs from its position (shared/printedPages.ts), cached. */
export function printedLabelOf(documentId: number, page: number): Promise<string | null> {
  if (notPdf.has(documentId)) return Promise.resolve(null);
  const key = `${documentId}:${page}`;
  let label = printedLabels.get(key);
  if (!label) {
    label = pdfOf(documentId)
      .then((pdf) => printedLabelFrom(pdf, page))
      .catch(() => null);
    printedLabels.set(key, label);
  }
  return label;
}

/** Whitespace-insensitive, case-insensitive form used to find a quote among a page's text items. */
export function normalizeForMatch(text: string): string {
  return text
    .replace(/[\u00ad\u200b-\u200d\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

const pageWords = new Map<string, Promise<OcrWordBox[]>>();
const documentPages = new Map<number, Promise<OcrPageInfo[]>>();

/** The words OCR read on a page; empty for a page with a text layer (or when they cannot be fetched: the page is then drawn without them). */
export function ocrWordsOf(documentId: number, pageNumber: number): Promise<OcrWordBox[]> {
  const key = `${documentId}:${pageNumber}`;
  let words = pageWords.get(key);
  if (!words) {
    words = invoke('pages.ocrWords', { documentId, pageNumber }).then((r) => (r.ok ? r.data : []));
    pageWords.set(key, words);
  }
  return words;
}

/** A document's pages read by OCR, with their confidence. Not cached while empty: the document may still be being read. */
export function ocrPagesOf(documentId: number): Promise<OcrPageInfo[]> {
  let pages = documentPages.get(documentId);
  if (!pages) {
    pages = invoke('documents.ocrPages', { documentId }).then((r) => (r.ok ? r.data : []));
    documentPages.set(documentId, pages);
    void pages.then((list) => list.length === 0 && documentPages.delete(documentId));
  }
  return pages;
}
