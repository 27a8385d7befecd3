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
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

/** Font names that mark a bold face (PostScript names such as "Helvetica-Bold", "ABCDEF+Arial-BoldMT"). */
const BOLD_NAME = /bold|black|heavy|semibold|demibold|extrabold|ultrabold|,b$|-b$/i;
/** FontDescriptor /Flags bit 19 (PDF 32000-1, table 121): glyphs painted bold even at small sizes. */
const FORCE_BOLD_FLAG = 1 << 18;
/** FontDescriptor /FontWeight: 600 (semibold) and above is bold (400 is normal). */
const BOLD_FONT_WEIGHT = 600;

/**
 * Whether each font pdf.js has loaded on this thread is a bold face, by its
 * loaded name (the item.fontName of text content, e.g. "g_d0_f3"; document
 * ids make them unique per thread). Filled by the parser itself, see
 * importParserReportingFonts; emptied per document by forgetFonts.
 * @type {Map<string, boolean>}
 */
const boldByLoadedName = new Map();
const FONT_LOADED_HOOK = Symbol.for('offline-audit.pdfjs.fontLoaded');

/**
 * Bold from what a loaded font already carries, without drawing anything:
 * pdf.js's own flags (from the PostScript name), the name itself, and the
 * font dictionary's descriptor (ForceBold flag, FontWeight; a composite font
 * keeps its descriptor on its descendant font).
 * @param {any} font pdf.js Font (name, bold, black)
 * @param {any} dict the PDF font dictionary (pdf.js Dict)
 */
function isBoldFace(font, dict) {
  if (font?.bold || font?.black) return true;
  if (typeof font?.name === 'string' && BOLD_NAME.test(font.name)) return true;
  try {
    let descriptor = dict?.get('FontDescriptor');
    if (!descriptor) {
      const descendants = dict?.get('DescendantFonts');
      descriptor = Array.isArray(descendants) ? dict.xref?.fetchIfRef(descendants[0])?.get('FontDescriptor') : undefined;
    }
    const flags = descriptor?.get('Flags');
    const weight = descriptor?.get('FontWeight');
    return (typeof flags === 'number' && (flags & FORCE_BOLD_FLAG) !== 0) || (typeof weight === 'number' && weight >= BOLD_FONT_WEIGHT);
  } catch {
    // A damaged descriptor only costs the bold flag.
    return false;
  }
}

/** Where pdf.js's TranslatedFont constructor reports each font it loads (see importParserReportingFonts). */
const TRANSLATED_FONT_ANCHOR = 'this.loadedName = loadedName;\n    this.font = font;\n    this.dict = dict;\n';

/**
 * pdf.js's parser module, changed in one place: each font it loads (it loads
 * every font a page's text uses, to decode the text) is reported to
 * FONT_LOADED_HOOK with its PDF dictionary. pdf.js itself hands font objects
 * to the API side only while building a page's operator list (for drawing),
 * which costs a second parse of the page's content stream; text extraction
 * alone never exposes them. The changed source is imported from a temporary
 * copy, its import.meta.url references (the wasm decoders' file lookups) pointing
 * at the real file. When a pdf.js update moves the anchor (or the file cannot
 * be read), the unchanged module is used and fonts are not bold (a test fails
 * on such an update).
 */
async function importParserReportingFonts() {
  const url = import.meta.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
  // Bytes, not a string: a 2.5 MB source read and patched as JavaScript strings stays in the thread's heap (13 MB
  // more resident memory per worker, measured).
  let source = Buffer.alloc(0);
  try {
    source = readFileSync(new URL(url));
  } catch {
    // Not a plain file (e.g. inside an archive): the unchanged module below.
  }
  const anchorEnd = source.indexOf(TRANSLATED_FONT_ANCHOR) + TRANSLATED_FONT_ANCHOR.length;
  // @ts-expect-error pdfjs-dist ships no types for the worker module
  if (anchorEnd < TRANSLATED_FONT_ANCHOR.length) return import('pdfjs-dist/legacy/build/pdf.worker.mjs');
  // @ts-expect-error the hook is our own global symbol
  globalThis[FONT_LOADED_HOOK] = (/** @type {any} */ translated) => {
    if (typeof translated?.loadedName === 'string') boldByLoadedName.set(translated.loadedName, isBoldFace(translated.font, translated.dict));
  };
  const hook = Buffer.from(`    globalThis[Symbol.for(${JSON.stringify(FONT_LOADED_HOOK.description)})]?.(this);\n`);
  /** @param {Buffer} part */
  const relocate = (part) =>
    replaceBytes(part, [
      ['import.meta.url', JSON.stringify(url)],
      ['//# sourceMappingURL=pdf.worker.mjs.map', ''] /* the copy's folder has no map */,
    ]);
  const patched = [...relocate(source.subarray(0, anchorEnd)), hook, ...relocate(source.subarray(anchorEnd))];
  // Imported from a file in a fresh private folder (a data: URL would keep 40 MB more per thread alive), removed once
  // loaded: nobody else can have written it, and nothing is left behind.
  const folder = mkdtempSync(join(tmpdir(), 'offline-audit-pdfjs-'));
  try {
    const file = join(folder, 'pdf.worker.mjs');
    writeFileSync(file, Buffer.concat(patched), { mode: 0o600 });
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * `bytes` with every occurrence of each search string replaced, as the pieces to concatenate.
 * @param {Buffer} bytes @param {[string, string][]} replacements [search, replacement] pairs
 * @returns {Buffer[]}
 */
function replaceBytes(bytes, replacements) {
  if (replacements.length === 0) return [bytes];
  const [[search, replacement], ...rest] = /** @type {[[string, string], ...[string, string][]]} */ (replacements);
  /** @type {Buffer[]} */
  const pieces = [];
  let from = 0;
  for (let at = bytes.indexOf(search); at >= 0; at = bytes.indexOf(search, from)) {
    pieces.push(...replaceBytes(bytes.subarray(from, at), rest), Buffer.from(replacement));
    from = at + search.length;
  }
  pieces.push(...replaceBytes(bytes.subarray(from), rest));
  return pieces;
}

/** True when fonts are reported by the parser (false only if a pdf.js update moved the anchor). */
export function parserReportsFonts() {
  // @ts-expect-error the hook is our own global symbol
  return typeof globalThis[FONT_LOADED_HOOK] === 'function';
}

/**
 * Closes a document opened by openPdf, with what this module kept about its fonts.
 * @param {import('pdfjs-dist').PDFDocumentLoadingTask} task
 */
export async function closePdf(task) {
  const prefix = `g_${task.docId}_`;
  for (const name of boldByLoadedName.keys()) if (name.startsWith(prefix)) boldByLoadedName.delete(name);
  await task.destroy();
}

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
const NATIVE_BUILTINS = [
  [Array.prototype, 'push', Array.prototype.push],
  [JSON, 'stringify', JSON.stringify],
];
const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
// Loaded here rather than by pdf.js on first use, so that its polyfills are also undone below (pdf.js picks it up
// from globalThis.pdfjsWorker, its documented hook for running the parser on the calling thread).
/** @type {{ pdfjsWorker?: unknown }} */ (globalThis).pdfjsWorker ??= await importParserReportingFonts();
for (const [owner, key, native] of NATIVE_BUILTINS) {
  if (Reflect.get(owner, key) !== native) Object.defineProperty(owner, key, { value: native, writable: true, configurable: true, enumerable: false });
}
const { getDocument, Util, VerbosityLevel } = pdfjs;

export const WORKER_ROLE = 'pdf-raw-extractor';

/**
 * Opens a PDF from bytes. The caller must close the returned task with closePdf.
 * @param {Uint8Array} data bytes (pdf.js may take ownership: pass a copy you do not need)
 * @param {string} [password] the user password of an encrypted file (owner-password-only files open without one)
 */
export function openPdf(data, password) {
  return getDocument({
    data,
    ...(password === undefined ? {} : { password }),
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

/**
 * A text item's font is bold when the parser reported it so; a font it did
 * not report (none should be missing) falls back to the style's family,
 * which names the substituted system font of a non-embedded font.
 * @param {string} loadedName
 * @param {any} style
 */
function isBoldFont(loadedName, style) {
  const reported = boldByLoadedName.get(loadedName);
  if (reported !== undefined) return reported;
  return BOLD_NAME.test(`${style?.fontFamily ?? ''} ${style?.fontSubstitution ?? ''}`);
}

/**
 * One page's text items, positioned in viewport space (scale 1, page rotation
 * applied, y grows downwards), so that /Rotate pages read like upright ones.
 * @param {any} pdf PDFDocumentProxy
 * @param {number} pageNumber 1-based
 * @returns {Promise<import('./rawExtractor.d.mts').RawPage>}
 */
export async function extractRawPage(pdf, pageNumber) {
  const started = performance.now();
  const page = await pdf.getPage(pageNumber);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const textDone = performance.now();
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
        bold = isBoldFont(item.fontName, content.styles[item.fontName]);
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
    return { pageNumber, width: viewport.width, height: viewport.height, items, costMs: { text: textDone - started, fonts: performance.now() - textDone } };
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
    if (typeof target === 'number')
      page = target + 1; // some writers store a 0-based page index
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
 * Worker loop. The thread loads pdf.js once and then reads one document after
 * another (pageSource.ts keeps it in a pool between documents):
 *   { type: 'open', data, readInfo } -> { type: 'ready', info, withInfo, openMs } or { type: 'fatal', name, message }
 *   { pageNumber }                   -> { type: 'page', page } or { type: 'error', pageNumber, name, message }
 *   { type: 'close' }                -> { type: 'closed' }
 * Only the worker asked to (readInfo) reads the outline and Info: resolving
 * every outline destination is real work; the others report the page count.
 */
async function runWorker() {
  const port = parentPort;
  if (!port) return;
  // Only pdf.js runs on this thread, so replacing the global is contained.
  // @ts-expect-error a partial DecompressionStream: the part pdf.js uses
  globalThis.DecompressionStream = SyncDecompressionStream;
  /** @type {{ task: import('pdfjs-dist').PDFDocumentLoadingTask, pdf: import('pdfjs-dist').PDFDocumentProxy } | null} */
  let open = null;
  /** @param {any} message */
  const answer = async (message) => {
    if (message?.type === 'open') {
      const started = performance.now();
      const task = openPdf(message.data, message.password);
      try {
        const pdf = await task.promise;
        open = { task, pdf };
        const info = message.readInfo ? await readDocumentInfo(pdf) : { pageCount: pdf.numPages, info: {}, outline: [] };
        port.postMessage({ type: 'ready', info, withInfo: Boolean(message.readInfo), openMs: performance.now() - started });
      } catch (error) {
        await closePdf(task).catch(() => undefined);
        // `code` tells a missing password from a wrong one (PasswordException).
        port.postMessage({ type: 'fatal', ...errorFields(error), code: /** @type {{ code?: number }} */ (error)?.code });
      }
    } else if (message?.type === 'close') {
      if (open) await closePdf(open.task).catch(() => undefined);
      open = null;
      port.postMessage({ type: 'closed' });
    } else if (open) {
      const pageNumber = message?.pageNumber;
      try {
        port.postMessage({ type: 'page', page: await extractRawPage(open.pdf, pageNumber) });
      } catch (error) {
        port.postMessage({ type: 'error', pageNumber, ...errorFields(error) });
      }
    }
  };
  // One message at a time: the thread is busy either way, a page's measured cost is then its own (interleaved
  // requests would each be timed over the other's work too), and 'close' never overtakes a page.
  let previous = Promise.resolve();
  port.on('message', (message) => {
    previous = previous.then(() => answer(message));
  });
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
