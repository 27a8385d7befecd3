// @ts-check
/**
 * Pages as images for OCR, drawn on a thread of their own: pdf.js renders a page onto an @napi-rs/canvas canvas
 * (pdf.js's own Node canvas factory uses that package). Drawing a dense page at 300 dpi takes up to a second of
 * CPU; on the engine's thread (the app's utility process, or the CLI) that second would hold every command the
 * UI sends (the stall bench measured 849 ms). render.ts starts this file as a worker per document and asks for one
 * page at a time, so memory stays at one page image.
 *
 * Memory is bounded whatever the PDF holds:
 * - a page whose content paints nothing (no fill, stroke, text or image operator) is known blank from its
 *   operator list, before any canvas is made: a PDF of thousands of empty pages costs no page images (and takes
 *   a millisecond a page instead of the tenth of a second a render takes);
 * - a rendered page's pixels are read with `canvas.data()`, never `getImageData` (in @napi-rs/canvas each
 *   `getImageData` of a page-sized canvas kept its ~20 MB of native memory for good: 200 blank pages reached 4 GB);
 * - pdf.js decodes an image whole before it is scaled onto the page, so an image above `maxImageSize` pixels is
 *   not decoded at all: such a page is read without it, and the caller warns (oversizedImages.ts finds those
 *   images in the file).
 *
 * Why a plain .mjs file: a worker entry must load without a TypeScript loader (vitest does not transform worker
 * threads; electron-vite and the CLI build emit it as its own entry, next to the code that starts it), so it only
 * depends on pdfjs-dist, @napi-rs/canvas (through pdf.js) and node built-ins. Messages:
 *   { type: 'open', data, password?, dpi, maxPixels, maxImageSize } -> { type: 'ready', pageCount } or { type: 'fatal', name, message, code }
 *   { type: 'render', pageNumber }                                 -> { type: 'page', page } or { type: 'error', name, message }
 *   { type: 'close' }                                              -> { type: 'closed' }
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';

/** Must equal the role render.ts starts the worker with. */
export const WORKER_ROLE = 'ocr-page-renderer';
/** A pixel darker than this (0..255) counts as ink when deciding whether a page is blank. */
const INK_LEVEL = 200;

/**
 * @typedef {{ pdf: import('pdfjs-dist').PDFDocumentProxy, task: import('pdfjs-dist').PDFDocumentLoadingTask, statesOnly: Set<number>, dependency: number, dpi: number, maxPixels: number }} OpenDocument
 */

/**
 * @param {Uint8Array} data
 * @param {{ password?: string, dpi: number, maxPixels: number, maxImageSize: number }} options
 * @returns {Promise<OpenDocument>}
 */
async function openDocument(data, { password, dpi, maxPixels, maxImageSize }) {
  const { getDocument, OPS, VerbosityLevel } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({
    data,
    ...(password === undefined ? {} : { password }),
    isEvalSupported: false,
    // Fonts are drawn from their embedded data by pdf.js's own glyph paths (no FontFace in Node).
    disableFontFace: true,
    maxImageSize,
    verbosity: VerbosityLevel.ERRORS,
  });
  try {
    const pdf = await task.promise;
    return { pdf, task, statesOnly: stateOnlyOperators(OPS), dependency: OPS.dependency, dpi, maxPixels };
  } catch (error) {
    await task.destroy().catch(() => undefined);
    throw error;
  }
}

/**
 * One page as a PNG, with its size; blank when nothing on it is ink.
 * @param {OpenDocument} doc
 * @param {number} pageNumber
 */
async function renderPage(doc, pageNumber) {
  const page = await doc.pdf.getPage(pageNumber);
  try {
    const unit = page.getViewport({ scale: 1 });
    const scale = Math.min(doc.dpi / 72, Math.sqrt(doc.maxPixels / (unit.width * unit.height)));
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.ceil(viewport.width));
    const height = Math.max(1, Math.ceil(viewport.height));
    const size = { pixelWidth: width, pixelHeight: height, pageWidth: unit.width, pageHeight: unit.height };
    if (!(await paintsAnything(page, doc))) return { png: new Uint8Array(0), ...size, blank: true, rendered: false };
    const factory = /** @type {any} */ (doc.pdf).canvasFactory;
    const target = factory.create(width, height);
    try {
      const { canvas, context } = target;
      // Transparent areas would read as black to the recognizer: start from white paper.
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, width, height);
      // pdf.js types its render target as the DOM canvas; @napi-rs/canvas implements the same drawing API in Node.
      await page.render(/** @type {any} */ ({ canvas, canvasContext: context, viewport, background: '#ffffff' })).promise;
      const blank = !hasInk(canvas.data());
      return { png: blank ? new Uint8Array(0) : new Uint8Array(canvas.toBuffer('image/png')), ...size, blank, rendered: true };
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
 * @param {import('pdfjs-dist').PDFPageProxy} page
 * @param {{ statesOnly: Set<number>, dependency: number }} operators
 */
async function paintsAnything(page, { statesOnly, dependency }) {
  const { fnArray, argsArray } = await page.getOperatorList();
  const paints = fnArray.some((op) => !statesOnly.has(op));
  // The list resolves before its images are decoded (pdf.js sends them after it): wait for them, so the render's own
  // decoding of a large image never runs beside this one (measured: +200 MB at 36 megapixels). pdf.js's own rule for
  // where a dependency lives: "g_" objects (fonts) are the document's, the others (images) the page's.
  /** @type {string[]} */
  const pending = fnArray.flatMap((op, i) => (op === dependency ? argsArray[i] : []));
  await Promise.all(pending.map((id) => new Promise((resolve) => (id.startsWith('g_') ? page.commonObjs : page.objs).get(id, () => resolve(undefined)))));
  page.cleanup();
  return paints;
}

/**
 * pdf.js operators that only set state (graphics state, text state, colours, grouping, marks, clipping): none of them draws.
 * @param {Record<string, number>} ops
 */
function stateOnlyOperators(ops) {
  const names = [
    'dependency',
    'setLineWidth',
    'setLineCap',
    'setLineJoin',
    'setMiterLimit',
    'setDash',
    'setRenderingIntent',
    'setFlatness',
    'setGState',
    'save',
    'restore',
    'transform',
    'clip',
    'eoClip',
    'endPath',
    'beginText',
    'endText',
    'setCharSpacing',
    'setWordSpacing',
    'setHScale',
    'setLeading',
    'setFont',
    'setTextRenderingMode',
    'setTextRise',
    'moveText',
    'setLeadingMoveText',
    'setTextMatrix',
    'nextLine',
    'setCharWidth',
    'setCharWidthAndBounds',
    'setStrokeColorSpace',
    'setFillColorSpace',
    'setStrokeColor',
    'setStrokeColorN',
    'setFillColor',
    'setFillColorN',
    'setStrokeGray',
    'setFillGray',
    'setStrokeRGBColor',
    'setFillRGBColor',
    'setStrokeCMYKColor',
    'setFillCMYKColor',
    'setStrokeTransparent',
    'setFillTransparent',
    'markPoint',
    'markPointProps',
    'beginMarkedContent',
    'beginMarkedContentProps',
    'endMarkedContent',
    'beginCompat',
    'endCompat',
    'paintFormXObjectBegin',
    'paintFormXObjectEnd',
    'beginGroup',
    'endGroup',
    'beginAnnotation',
    'endAnnotation',
  ];
  return new Set(names.map((name) => ops[name]).filter((op) => op !== undefined));
}

/**
 * Any pixel with ink (RGBA bytes). Every fourth pixel is enough: at 300 dpi a glyph's stroke is several pixels wide.
 * @param {Uint8Array} rgba
 */
function hasInk(rgba) {
  for (let i = 0; i < rgba.length; i += 16) {
    if (Math.min(rgba[i] ?? 255, rgba[i + 1] ?? 255, rgba[i + 2] ?? 255) < INK_LEVEL) return true;
  }
  return false;
}

/**
 * What crosses the thread boundary of a thrown value: its name, message and pdf.js's code (an Error does not survive
 * postMessage whole; the code tells a missing password from a wrong one).
 * @param {unknown} error
 */
function errorFields(error) {
  const e = /** @type {{ name?: unknown, message?: unknown, code?: unknown } | null | undefined} */ (error);
  return { name: e?.name ?? 'Error', message: String(e?.message ?? error), code: e?.code };
}

/** Worker loop: one document, one message at a time (a page is drawn whole before the next request is read). */
function runWorker() {
  const port = parentPort;
  if (!port) return;
  /** @type {OpenDocument | null} */
  let open = null;
  /** @param {any} message */
  const answer = async (message) => {
    if (message?.type === 'open') {
      try {
        open = await openDocument(message.data, message);
        port.postMessage({ type: 'ready', pageCount: open.pdf.numPages });
      } catch (error) {
        port.postMessage({ type: 'fatal', ...errorFields(error) });
      }
    } else if (message?.type === 'render' && open) {
      try {
        const page = await renderPage(open, message.pageNumber);
        port.postMessage({ type: 'page', page }, page.png.byteLength > 0 ? [page.png.buffer] : []);
      } catch (error) {
        port.postMessage({ type: 'error', ...errorFields(error) });
      }
    } else if (message?.type === 'close') {
      if (open) await open.task.destroy().catch(() => undefined);
      open = null;
      port.postMessage({ type: 'closed' });
    }
  };
  let previous = Promise.resolve();
  port.on('message', (message) => {
    previous = previous.then(() => answer(message));
  });
}

if (!isMainThread && workerData?.role === WORKER_ROLE) runWorker();
