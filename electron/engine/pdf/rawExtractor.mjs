// @ts-check
/**
 * pdf.js access: opening a document and turning one page's text content into
 * plain "raw items" in viewport coordinates. Everything that interprets the
 * items (lines, columns, spacing, cleanup) lives in TypeScript (lineBuilder.ts)
 * and runs on the main thread for both paths.
 *
 * Why a plain .mjs file: the same file is imported in-process by the engine
 * AND started as a worker_threads entry. A worker entry must load without a
 * TypeScript loader (vitest does not transform worker threads; electron-vite
 * builds it as its own entry, out/main/rawExtractor.mjs), so it only depends
 * on pdfjs-dist and node built-ins.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import zlib from 'node:zlib';

/**
 * pdf.js's legacy build (the one meant for Node) bundles core-js, which
 * replaces some built-ins of the whole thread with JavaScript versions
 * whenever V8 fails one of its edge-case checks. On Node 20 that includes
 * Array.prototype.push, on which pdf.js's own parser leans: the polyfill cost
 * about a third of opening a 1000-page file and a tenth of each page. The
 * native versions are captured before pdf.js loads (hence the dynamic imports
 * below, which run after this) and put back once it has; they differ only for
 * arrays longer than 2^32, which no PDF page produces.
 */
/** @type {ReadonlyArray<readonly [object, string, unknown]>} */
const NATIVE_BUILTINS = ([
  [Array.prototype, 'push', Array.prototype.push],
  [JSON, 'stringify', JSON.stringify],
]);
const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
// Loaded here rather than by pdf.js on first use, so that its polyfills are also undone below (pdf.js picks it up
// from globalThis.pdfjsWorker, its documented hook for running the parser on the calling thread).
// @ts-expect-error pdfjs-dist ships no types for the worker module
globalThis.pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
for (const [owner, key, native] of NATIVE_BUILTINS) {
  if (Reflect.get(owner, key) !== native) Object.defineProperty(owner, key, { value: native, writable: true, configurable: true, enumerable: false });
}
const { getDocument, Util, VerbosityLevel } = pdfjs;

export const WORKER_ROLE = 'pdf-raw-extractor';

/**
 * Opens a PDF from bytes. The caller must `destroy()` the returned task.
 * @param {Uint8Array} data bytes (pdf.js may take ownership: pass a copy you do not need)
 */
export function openPdf(data) {
  return getDocument({
    data,
    // Node has no FontFace/DOM: fonts are only parsed for text, never rendered.
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    // Everything is local: no range/stream requests, no auto-fetching of the whole file twice.
    disableRange: true,
    disableStream: true,
    disableAutoFetch: true,
    // Nothing is rendered: images are left out of the operator lists built for font names (loadFontsOnce) instead of
    // being decoded (a tenth of the time of an illustrated 70-page report). Text extraction never reads images.
    maxImageSize: 0,
    verbosity: VerbosityLevel.ERRORS,
  });
}

/** Font names that mark a bold face (PostScript names such as "Helvetica-Bold", "ABCDEF+Arial-BoldMT"). */
const BOLD_NAME = /bold|black|heavy|semibold|demibold|extrabold|ultrabold|,b$|-b$/i;

/**
 * The real font name is only known when pdf.js has shipped the font object to
 * the main side (it does so for rendering, not for text extraction), so this
 * is best effort: a font object present in commonObjs is used, otherwise the
 * style's fontFamily (pdf.js puts the substituted family there for
 * non-embedded fonts), otherwise "not bold".
 * @param {any} page
 * @param {string} loadedName
 * @param {any} style
 */
function isBoldFont(page, loadedName, style) {
  try {
    if (page.commonObjs.has(loadedName)) {
      const font = page.commonObjs.get(loadedName);
      if (font?.bold || font?.black) return true;
      if (typeof font?.name === 'string' && BOLD_NAME.test(font.name)) return true;
    }
  } catch {
    // A missing or failed font object only costs us the bold flag.
  }
  const family = `${style?.fontFamily ?? ''} ${style?.fontSubstitution ?? ''}`;
  return BOLD_NAME.test(family);
}

/**
 * Font objects (with their PostScript names, "OpenSans-Bold") reach
 * commonObjs only when pdf.js builds a page's operator list. They are
 * document-wide, so the operator list is built only for a page that uses a
 * font not seen before: usually the first pages, never a page without text
 * (a scanned image page would cost an image decode). This is what makes the
 * bold flag work for heading detection, at the price of an operator list on a
 * few pages.
 * @param {any} page
 * @param {any[]} items
 */
async function loadFontsOnce(page, items) {
  const missing = items.some((item) => 'str' in item && item.str.length > 0 && !page.commonObjs.has(item.fontName));
  if (!missing) return;
  try {
    await page.getOperatorList();
  } catch {
    // Only the bold flag depends on it.
  }
}

/**
 * One page's text items, positioned in viewport space (scale 1, page rotation
 * applied, y grows downwards), so that /Rotate pages read like upright ones.
 * @param {any} pdf PDFDocumentProxy
 * @param {number} pageNumber 1-based
 * @returns {Promise<import('./rawExtractor.d.mts').RawPage>}
 */
export async function extractRawPage(pdf, pageNumber) {
  const page = await pdf.getPage(pageNumber);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    await loadFontsOnce(page, content.items);
    /** @type {Record<string, boolean>} */
    const boldByFont = {};
    /** @type {import('./rawExtractor.d.mts').RawItem[]} */
    const items = [];
    for (const item of content.items) {
      if (!('str' in item) || item.str.length === 0) continue;
      const m = Util.transform(viewport.transform, item.transform);
      const fontSize = Math.hypot(m[2], m[3]);
      const advance = Math.hypot(m[0], m[1]);
      if (!(fontSize > 0) || !(advance > 0)) continue;
      let bold = boldByFont[item.fontName];
      if (bold === undefined) {
        bold = isBoldFont(page, item.fontName, content.styles[item.fontName]);
        boldByFont[item.fontName] = bold;
      }
      items.push({
        str: item.str,
        x: m[4],
        y: m[5],
        // Direction of the baseline in viewport space: (1, 0) for upright text.
        dx: m[0] / advance,
        dy: m[1] / advance,
        width: item.width,
        fontSize,
        bold,
        hasEOL: item.hasEOL,
      });
    }
    return { pageNumber, width: viewport.width, height: viewport.height, items };
  } finally {
    // Drop the page's parsed objects so a long document is not held in memory.
    page.cleanup();
  }
}

const INFO_KEYS = ['Title', 'Author', 'Subject', 'Keywords', 'Creator', 'Producer'];

/**
 * Page count, Info strings and the outline flattened in document order with
 * levels (1 = top) and destinations resolved to 1-based pages. A broken
 * outline or Info dictionary must never stop ingestion: unresolvable entries
 * get page null, unreadable parts are left empty.
 * @param {any} pdf PDFDocumentProxy
 * @returns {Promise<import('./rawExtractor.d.mts').DocumentInfo>}
 */
export async function readDocumentInfo(pdf) {
  /** @type {Record<string, string>} */
  const info = {};
  try {
    const raw = (await pdf.getMetadata()).info ?? {};
    for (const key of INFO_KEYS) if (typeof raw[key] === 'string' && raw[key].trim()) info[key.toLowerCase()] = raw[key];
  } catch {
    // optional
  }
  /** @type {import('./rawExtractor.d.mts').DocumentInfo['outline']} */
  const outline = [];
  let roots = null;
  try {
    roots = await pdf.getOutline();
  } catch {
    roots = null;
  }
  /** @param {any[]} nodes @param {number} level */
  const visit = async (nodes, level) => {
    for (const node of nodes) {
      outline.push({ title: String(node?.title ?? ''), level, page: await resolveDestinationPage(pdf, node?.dest) });
      if (Array.isArray(node?.items) && node.items.length > 0) await visit(node.items, level + 1);
    }
  };
  await visit(roots ?? [], 1);
  return { pageCount: pdf.numPages, info, outline };
}

/** @param {any} pdf @param {unknown} dest @returns {Promise<number | null>} */
async function resolveDestinationPage(pdf, dest) {
  try {
    const explicit = typeof dest === 'string' ? await pdf.getDestination(dest) : dest;
    const target = Array.isArray(explicit) ? explicit[0] : null;
    let page = null;
    if (typeof target === 'number') page = target + 1; // some writers store a 0-based page index
    else if (target && typeof target === 'object') page = (await pdf.getPageIndex(target)) + 1;
    return Number.isInteger(page) && page >= 1 && page <= pdf.numPages ? page : null;
  } catch {
    return null;
  }
}

const INFLATERS = {
  deflate: zlib.inflateSync,
  'deflate-raw': zlib.inflateRawSync,
  gzip: zlib.gunzipSync,
  brotli: zlib.brotliDecompressSync,
};

/**
 * pdf.js inflates Flate (and Brotli) streams through DecompressionStream when
 * the global exists. Node's is a web stream over a thread-pool zlib: per page
 * content stream that round trip cost about a third of each page of a text
 * document. Without the global, pdf.js falls back to its own JavaScript
 * inflater, fast for small streams but slow for images and fonts. This class
 * gives pdf.js what it uses of the API (a writer it writes one buffer to and
 * closes, and a readable it iterates) with zlib's synchronous native
 * inflaters. Anything it cannot do throws, and pdf.js then uses its own
 * inflater: a corrupt or truncated stream is decoded as pdf.js always did.
 */
export class SyncDecompressionStream {
  /** @param {string} format */
  constructor(format) {
    const inflate = INFLATERS[/** @type {keyof typeof INFLATERS} */ (format)];
    if (!inflate) throw new TypeError(`Unsupported compression format: ${format}`);
    /** @type {Uint8Array[]} */
    const input = [];
    this.writable = {
      getWriter: () => ({
        ready: Promise.resolve(),
        /** @param {Uint8Array} bytes */
        write: async (bytes) => void input.push(bytes),
        close: async () => undefined,
      }),
    };
    this.readable = {
      async *[Symbol.asyncIterator]() {
        const [only] = input;
        const output = inflate(input.length === 1 && only ? only : Buffer.concat(input));
        yield new Uint8Array(output.buffer, output.byteOffset, output.byteLength);
      },
    };
  }
}

/**
 * Worker loop: open the document once, report { type: 'ready' } (with the
 * document info when workerData.readInfo), then answer { pageNumber } requests
 * with { type: 'page', page } or { type: 'error', pageNumber, name, message }.
 */
async function runWorker() {
  const port = parentPort;
  if (!port) return;
  // Only pdf.js runs on this thread, so replacing the global is contained.
  // @ts-expect-error a partial DecompressionStream: the part pdf.js uses
  globalThis.DecompressionStream = SyncDecompressionStream;
  const task = openPdf(workerData.data);
  let pdf;
  try {
    pdf = await task.promise;
  } catch (error) {
    port.postMessage({ type: 'fatal', ...errorFields(error) });
    return;
  }
  port.on('message', async (message) => {
    if (message?.type === 'close') {
      await task.destroy();
      port.close();
      return;
    }
    const pageNumber = message?.pageNumber;
    try {
      const page = await extractRawPage(pdf, pageNumber);
      port.postMessage({ type: 'page', page });
    } catch (error) {
      port.postMessage({ type: 'error', pageNumber, ...errorFields(error) });
    }
  });
  // Only one worker reads the outline and Info (resolving every outline destination is real work); the others
  // report just the page count.
  const info = workerData.readInfo ? await readDocumentInfo(pdf) : { pageCount: pdf.numPages, info: {}, outline: [] };
  port.postMessage({ type: 'ready', info, withInfo: Boolean(workerData.readInfo) });
}

/**
 * What crosses the thread boundary of a thrown value: its name and message (an Error does not survive postMessage whole).
 * @param {unknown} error
 */
function errorFields(error) {
  const e = /** @type {{ name?: unknown, message?: unknown } | null | undefined} */ (error);
  return { name: e?.name ?? 'Error', message: String(e?.message ?? error) };
}

if (!isMainThread && workerData?.role === WORKER_ROLE) {
  void runWorker();
}
