/**
 * Pages as images for OCR: pdf.js renders a page onto an @napi-rs/canvas
 * canvas (pdf.js's own Node canvas factory uses that package). The engine
 * runs off the UI thread (the app's utility process, or the CLI), and pages
 * are rendered one at a time, so memory stays at one page image.
 *
 * Memory is bounded whatever the PDF holds:
 * - a page whose content paints nothing (no fill, stroke, text or image operator) is known blank from its
 *   operator list, before any canvas is made: a PDF of thousands of empty pages costs no page images (and takes
 *   a millisecond a page instead of the tenth of a second a render takes);
 * - a rendered page's pixels are read with `canvas.data()`, never `getImageData` (in @napi-rs/canvas each
 *   `getImageData` of a page-sized canvas kept its ~20 MB of native memory for good: 200 blank pages reached 4 GB);
 * - pdf.js decodes an image whole before it is scaled onto the page, so an image above MAX_DECODED_IMAGE_PIXELS
 *   is not decoded at all (pdf.js's `maxImageSize`): such a page is read without it, and the caller warns
 *   (oversizedImages.ts finds those images in the file).
 */
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/display/api';
import { MAX_DECODED_IMAGE_PIXELS } from '../../../shared/ocr';
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
  const { getDocument, OPS, VerbosityLevel } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({
    data: bytes.slice(),
    ...(password === undefined ? {} : { password }),
    isEvalSupported: false,
    // Fonts are drawn from their embedded data by pdf.js's own glyph paths (no FontFace in Node).
    disableFontFace: true,
    maxImageSize: MAX_DECODED_IMAGE_PIXELS,
    verbosity: VerbosityLevel.ERRORS,
  });
  let pdf: PDFDocumentProxy;
  try {
    pdf = await task.promise;
  } catch (error) {
    await task.destroy();
    throw openError(error, fileName);
  }
  const operators = { statesOnly: stateOnlyOperators(OPS), dependency: OPS.dependency };
  return {
    pageCount: pdf.numPages,
    render: (pageNumber) => renderPage(pdf, pageNumber, operators),
    close: () => task.destroy(),
  };
}

async function renderPage(pdf: PDFDocumentProxy, pageNumber: number, operators: Operators): Promise<RenderedPage> {
  const page = await pdf.getPage(pageNumber);
  try {
    const unit = page.getViewport({ scale: 1 });
    const wanted = RENDER_DPI / 72;
    const scale = Math.min(wanted, Math.sqrt(MAX_PIXELS / (unit.width * unit.height)));
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.ceil(viewport.width));
    const height = Math.max(1, Math.ceil(viewport.height));
    const size = { pixelWidth: width, pixelHeight: height, pageWidth: unit.width, pageHeight: unit.height };
    if (!(await paintsAnything(page, operators))) return { png: Buffer.alloc(0), ...size, blank: true, rendered: false };
    const factory = pdf.canvasFactory as CanvasFactory;
    const target = factory.create(width, height);
    try {
      const { canvas, context } = target;
      // Transparent areas would read as black to the recognizer: start from white paper.
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, width, height);
      // pdf.js types its render target as the DOM canvas; @napi-rs/canvas implements the same drawing API in Node.
      const params = { canvas, canvasContext: context, viewport, background: '#ffffff' } as unknown as Parameters<typeof page.render>[0];
      await page.render(params).promise;
      const blank = !hasInk(canvas.data());
      return { png: blank ? Buffer.alloc(0) : canvas.toBuffer('image/png'), ...size, blank, rendered: true };
    } finally {
      factory.destroy(target);
    }
  } finally {
    page.cleanup();
  }
}

/**
 * Whether the page's content (annotations included, as they are rendered) has any operator that may put ink on
 * the page. Only operators known to change state alone count as painting nothing: an operator not listed (a path,
 * text, an image, a shading, one pdf.js adds later) means the page is rendered and its pixels decide. The operator
 * list is freed again before rendering (page.cleanup), so a page's images are never held twice.
 */
async function paintsAnything(page: PDFPageProxy, { statesOnly, dependency }: Operators): Promise<boolean> {
  const { fnArray, argsArray } = await page.getOperatorList();
  const paints = fnArray.some((op) => !statesOnly.has(op));
  // The list resolves before its images are decoded (pdf.js sends them after it): wait for them, so the render's own
  // decoding of a large image never runs beside this one (measured: +200 MB at 36 megapixels). pdf.js's own rule for
  // where a dependency lives: "g_" objects (fonts) are the document's, the others (images) the page's.
  const pending = fnArray.flatMap((op, i) => (op === dependency ? (argsArray[i] as string[]) : []));
  await Promise.all(pending.map((id) => new Promise<void>((resolve) => (id.startsWith('g_') ? page.commonObjs : page.objs).get(id, () => resolve()))));
  page.cleanup();
  return paints;
}

interface Operators {
  /** pdf.js operators that paint nothing (stateOnlyOperators). */
  statesOnly: ReadonlySet<number>;
  /** pdf.js's `dependency` operator: the fonts and images the list needs, by object id. */
  dependency: number;
}

/** pdf.js operators that only set state (graphics state, text state, colours, grouping, marks, clipping): none of them draws. */
function stateOnlyOperators(ops: Record<string, number>): Set<number> {
  const names = [
    'dependency', 'setLineWidth', 'setLineCap', 'setLineJoin', 'setMiterLimit', 'setDash', 'setRenderingIntent', 'setFlatness', 'setGState',
    'save', 'restore', 'transform', 'clip', 'eoClip', 'endPath',
    'beginText', 'endText', 'setCharSpacing', 'setWordSpacing', 'setHScale', 'setLeading', 'setFont', 'setTextRenderingMode', 'setTextRise',
    'moveText', 'setLeadingMoveText', 'setTextMatrix', 'nextLine', 'setCharWidth', 'setCharWidthAndBounds',
    'setStrokeColorSpace', 'setFillColorSpace', 'setStrokeColor', 'setStrokeColorN', 'setFillColor', 'setFillColorN', 'setStrokeGray',
    'setFillGray', 'setStrokeRGBColor', 'setFillRGBColor', 'setStrokeCMYKColor', 'setFillCMYKColor', 'setStrokeTransparent', 'setFillTransparent',
    'markPoint', 'markPointProps', 'beginMarkedContent', 'beginMarkedContentProps', 'endMarkedContent', 'beginCompat', 'endCompat',
    'paintFormXObjectBegin', 'paintFormXObjectEnd', 'beginGroup', 'endGroup', 'beginAnnotation', 'endAnnotation',
  ];
  return new Set(names.map((name) => ops[name]).filter((op): op is number => op !== undefined));
}

/** Any pixel with ink (RGBA bytes). Every fourth pixel is enough: at 300 dpi a glyph's stroke is several pixels wide. */
function hasInk(rgba: Uint8Array): boolean {
  for (let i = 0; i < rgba.length; i += 16) {
    if (Math.min(rgba[i]!, rgba[i + 1]!, rgba[i + 2]!) < INK_LEVEL) return true;
  }
  return false;
}

interface NapiCanvas {
  width: number;
  height: number;
  toBuffer(mime: 'image/png'): Buffer;
  /** The canvas's own pixels (RGBA), without the native copy `getImageData` keeps. */
  data(): Buffer;
}
interface NapiContext {
  fillStyle: string;
  fillRect(x: number, y: number, w: number, h: number): void;
}
/** pdf.js's Node canvas factory (pdfjs-dist types it as Object). */
interface CanvasFactory {
  create(width: number, height: number): { canvas: NapiCanvas; context: NapiContext };
  destroy(target: { canvas: NapiCanvas; context: NapiContext }): void;
}
