/**
 * Pages as images for OCR: pdf.js renders a page onto an @napi-rs/canvas
 * canvas (pdf.js's own Node canvas factory uses that package). The engine
 * runs off the UI thread (the app's utility process, or the CLI), and pages
 * are rendered one at a time, so memory stays at one page image.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api';
import { openError } from '../pdf';
import { throwIfAborted } from '../util';
import type { RenderedPage } from './types';

/** 300 dpi is tesseract's sweet spot for body text; very large pages are capped so one image stays under ~20 MB. */
export const RENDER_DPI = 300;
const MAX_PIXELS = 5_000_000;
/** A pixel darker than this (0..255) counts as ink when deciding whether a page is blank. */
const INK_LEVEL = 200;

export interface OpenedPdf {
  pageCount: number;
  render(pageNumber: number): Promise<RenderedPage>;
  close(): Promise<void>;
}

export async function openForRendering(bytes: Uint8Array, fileName: string, password?: string, signal?: AbortSignal): Promise<OpenedPdf> {
  throwIfAborted(signal);
  const { getDocument, VerbosityLevel } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({
    data: bytes.slice(),
    ...(password === undefined ? {} : { password }),
    isEvalSupported: false,
    // Fonts are drawn from their embedded data by pdf.js's own glyph paths (no FontFace in Node).
    disableFontFace: true,
    verbosity: VerbosityLevel.ERRORS,
  });
  let pdf: PDFDocumentProxy;
  try {
    pdf = await task.promise;
  } catch (error) {
    await task.destroy();
    throw openError(error, fileName);
  }
  return {
    pageCount: pdf.numPages,
    render: (pageNumber) => renderPage(pdf, pageNumber),
    close: () => task.destroy(),
  };
}

async function renderPage(pdf: PDFDocumentProxy, pageNumber: number): Promise<RenderedPage> {
  const page = await pdf.getPage(pageNumber);
  try {
    const unit = page.getViewport({ scale: 1 });
    const wanted = RENDER_DPI / 72;
    const scale = Math.min(wanted, Math.sqrt(MAX_PIXELS / (unit.width * unit.height)));
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.ceil(viewport.width));
    const height = Math.max(1, Math.ceil(viewport.height));
    const factory = pdf.canvasFactory as CanvasFactory;
    const { canvas, context } = factory.create(width, height);
    // Transparent areas would read as black to the recognizer: start from white paper.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    // pdf.js types its render target as the DOM canvas; @napi-rs/canvas implements the same drawing API in Node.
    const target = { canvas, canvasContext: context, viewport, background: '#ffffff' } as unknown as Parameters<typeof page.render>[0];
    await page.render(target).promise;
    const blank = isBlank(context.getImageData(0, 0, width, height).data);
    const png = blank ? Buffer.alloc(0) : canvas.toBuffer('image/png');
    factory.destroy({ canvas, context });
    return { png, pixelWidth: width, pixelHeight: height, pageWidth: unit.width, pageHeight: unit.height, blank };
  } finally {
    page.cleanup();
  }
}

/** No pixel with ink. Every fourth pixel is enough: at 300 dpi a glyph's stroke is several pixels wide. */
function isBlank(rgba: Uint8ClampedArray): boolean {
  for (let i = 0; i < rgba.length; i += 16) {
    if (Math.min(rgba[i]!, rgba[i + 1]!, rgba[i + 2]!) < INK_LEVEL) return false;
  }
  return true;
}

interface NapiCanvas {
  width: number;
  height: number;
  toBuffer(mime: 'image/png'): Buffer;
}
interface NapiContext {
  fillStyle: string;
  fillRect(x: number, y: number, w: number, h: number): void;
  getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
}
/** pdf.js's Node canvas factory (pdfjs-dist types it as Object). */
interface CanvasFactory {
  create(width: number, height: number): { canvas: NapiCanvas; context: NapiContext };
  destroy(target: { canvas: NapiCanvas; context: NapiContext }): void;
}
