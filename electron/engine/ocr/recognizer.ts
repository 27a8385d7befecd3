/**
 * Page recognition with tesseract.js, offline: the language data comes from
 * installed npm packages (`@tesseract.js-data/<lang>`, eng ships with the
 * app), given to tesseract as a local folder, so nothing is ever downloaded
 * (tesseract.js only fetches when `langPath` is a URL or missing) and nothing
 * is written next to the app (cacheMethod 'none'). The worker thread is
 * started on the first page that needs it and reused for every later page.
 */
import { copyFileSync, existsSync, linkSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Tesseract from 'tesseract.js';
import { AppError, ErrorCode } from '../../../shared/errors';
import { DEFAULT_OCR_LANGUAGES } from '../../../shared/ocr';
import { throwIfAborted, cancelledError } from '../util';
import { expandLigatures, stripInvisible } from '../pdf';
import type { OcrLine, OcrPageText, PageBox, PageRecognizer, RenderedPage } from './types';

const require = createRequire(import.meta.url);
/** LSTM-only recognition reads the integer "best" models (the data tesseract.js itself uses for OEM 1). */
const DATA_FOLDER = '4.0.0_best_int';
const dataFile = (language: string) => `${language}.traineddata.gz`;

/** The folder of installed `@tesseract.js-data/*` packages (eng ships with the app, so it is always there). */
function dataPackagesFolder(): string {
  return path.dirname(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')));
}

/** The local folder holding `<lang>.traineddata.gz`, or OCR_LANGUAGE_MISSING naming the package to install. */
export function languageDataPath(language: string, packagesFolder: string = dataPackagesFolder()): string {
  const folder = path.join(packagesFolder, language, DATA_FOLDER);
  if (!/^[a-z][a-z0-9_]*$/.test(language) || !existsSync(path.join(folder, dataFile(language)))) throw missingLanguageError([language], packagesFolder);
  return folder;
}

/** Languages whose data packages are installed next to tesseract.js (eng always is), by code, sorted. */
export function installedOcrLanguages(packagesFolder: string = dataPackagesFolder()): string[] {
  return readdirSync(packagesFolder)
    .filter((name) => existsSync(path.join(packagesFolder, name, DATA_FOLDER, dataFile(name))))
    .sort();
}

/** Throws OCR_LANGUAGE_MISSING unless every language has its data installed: a run checks before reading any page. */
export function assertOcrLanguagesInstalled(languages: readonly string[], packagesFolder: string = dataPackagesFolder()): void {
  const installed = new Set(installedOcrLanguages(packagesFolder));
  const missing = languages.filter((language) => !installed.has(language));
  if (missing.length > 0) throw missingLanguageError(missing, packagesFolder);
}

function missingLanguageError(missing: readonly string[], packagesFolder: string): AppError {
  const installed = installedOcrLanguages(packagesFolder);
  const packages = missing.map((language) => `@tesseract.js-data/${language}`).join(' ');
  return new AppError(
    ErrorCode.OCR_LANGUAGE_MISSING,
    `OCR language data for ${missing.map((language) => `"${language}"`).join(', ')} is not installed on this computer (installed: ${installed.join(', ') || 'none'}). ` +
      `Install it with \`npm install ${packages}\` in the app's folder (nothing is downloaded at run time), or choose an installed language in Settings (--ocr-lang on the command line).`,
    { missing: [...missing], installed },
  );
}

/**
 * One folder holding every chosen language's data: tesseract.js reads all languages from one `langPath`, and each
 * package has its own folder. With one language that is its package folder; with several, a temporary folder of
 * links to the installed files (a copy where links are not allowed), removed when the recognizer closes.
 */
function languageFolder(languages: readonly string[]): { folder: string; cleanup: () => void } {
  const folders = languages.map((language) => languageDataPath(language));
  if (languages.length === 1) return { folder: folders[0]!, cleanup: () => {} };
  const folder = mkdtempSync(path.join(tmpdir(), 'audit-ocr-languages-'));
  languages.forEach((language, i) => {
    const source = path.join(folders[i]!, dataFile(language));
    const target = path.join(folder, dataFile(language));
    try {
      linkSync(source, target);
    } catch {
      copyFileSync(source, target);
    }
  });
  return { folder, cleanup: () => rmSync(folder, { recursive: true, force: true }) };
}

type TesseractWorker = Awaited<ReturnType<typeof Tesseract.createWorker>>;

/** A recognizer reading with these languages (tesseract's "eng+deu": the first is the main one). */
export function createTesseractRecognizer(languages: readonly string[] = DEFAULT_OCR_LANGUAGES): PageRecognizer {
  let worker: Promise<TesseractWorker> | null = null;
  let cleanup = (): void => {};
  const start = async (): Promise<TesseractWorker> => {
    const data = languageFolder(languages);
    cleanup = data.cleanup;
    const tesseract = await import('tesseract.js');
    const createWorker = tesseract.createWorker ?? (tesseract as unknown as { default: typeof tesseract }).default.createWorker;
    return createWorker([...languages], 1 /* OEM.LSTM_ONLY */, { langPath: data.folder, gzip: true, cacheMethod: 'none' });
  };
  const stop = async (): Promise<void> => {
    const running = worker;
    worker = null;
    if (running) await (await running.catch(() => null))?.terminate();
    cleanup();
    cleanup = () => {};
  };
  return {
    id: `tesseract.js-7/lstm/${languages.join('+')}`,
    async recognize(page: RenderedPage, signal?: AbortSignal): Promise<OcrPageText> {
      if (page.blank) return { lines: [], confidence: null };
      throwIfAborted(signal);
      worker ??= start();
      const job = worker.then((w) => w.recognize(page.png, {}, { blocks: true, text: false }));
      // tesseract cannot stop a page half-way: cancelling ends the worker (a new one starts for the next page).
      const result = await new Promise<Awaited<typeof job>>((resolve, reject) => {
        const onAbort = (): void => {
          void stop();
          reject(cancelledError(signal));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        job.then(resolve, reject).finally(() => signal?.removeEventListener('abort', onAbort));
      });
      return toPageText(result.data.blocks ?? [], page);
    },
    close: stop,
  };
}

type Blocks = NonNullable<Awaited<ReturnType<TesseractWorker['recognize']>>['data']['blocks']>;
interface Bbox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Tesseract's blocks -> lines of words with page-relative boxes; the mean confidence is weighted by word length. */
function toPageText(blocks: Blocks, page: RenderedPage): OcrPageText {
  const box = (b: Bbox): PageBox => [b.x0 / page.pixelWidth, b.y0 / page.pixelHeight, b.x1 / page.pixelWidth, b.y1 / page.pixelHeight];
  const lines: OcrLine[] = [];
  let weighted = 0;
  let characters = 0;
  for (const block of blocks) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = line.words
          .map((word) => ({ text: expandLigatures(stripInvisible(word.text)).trim(), confidence: Math.round(word.confidence * 10) / 10, box: box(word.bbox) }))
          .filter((word) => word.text.length > 0);
        if (words.length === 0) continue;
        for (const word of words) {
          weighted += word.confidence * word.text.length;
          characters += word.text.length;
        }
        lines.push({ text: words.map((word) => word.text).join(' '), box: box(line.bbox), words });
      }
    }
  }
  return { lines, confidence: characters === 0 ? null : Math.round((weighted / characters) * 10) / 10 };
}
