/**
 * Page recognition with tesseract.js, offline: the language data comes from
 * installed npm packages (`@tesseract.js-data/<lang>`, eng ships with the
 * app), given to tesseract as a local folder, so nothing is ever downloaded
 * (tesseract.js only fetches when `langPath` is a URL or missing) and nothing
 * is written next to the app (cacheMethod 'none'). The worker thread is
 * started on the first page that needs it and reused for every later page.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Tesseract from 'tesseract.js';
import { AppError, ErrorCode } from '../../../shared/errors';
import { throwIfAborted, cancelledError } from '../util';
import { expandLigatures, stripInvisible } from '../pdf';
import type { OcrLine, OcrPageText, PageBox, PageRecognizer, RenderedPage } from './types';

const require = createRequire(import.meta.url);
/** LSTM-only recognition reads the integer "best" models (the data tesseract.js itself uses for OEM 1). */
const DATA_FOLDER = '4.0.0_best_int';

/** The local folder holding `<lang>.traineddata.gz`, or a clear error naming the package to install. */
export function languageDataPath(language: string): string {
  let folder: string | undefined;
  try {
    folder = path.join(path.dirname(require.resolve(`@tesseract.js-data/${language}/package.json`)), DATA_FOLDER);
  } catch {
    folder = undefined;
  }
  if (!folder || !existsSync(path.join(folder, `${language}.traineddata.gz`))) {
    throw new AppError(
      ErrorCode.OCR_FAILED,
      `OCR language data for "${language}" is not installed. Install it with \`npm install @tesseract.js-data/${language}\`, or choose an installed language.`,
      { language },
    );
  }
  return folder;
}

/** Languages whose data packages are installed next to tesseract.js (eng always is). */
export function installedOcrLanguages(): string[] {
  const scope = path.join(path.dirname(path.dirname(require.resolve('@tesseract.js-data/eng/package.json'))));
  return readdirSync(scope).filter((name) => existsSync(path.join(scope, name, DATA_FOLDER, `${name}.traineddata.gz`))).sort();
}

type TesseractWorker = Awaited<ReturnType<typeof Tesseract.createWorker>>;

export function createTesseractRecognizer(languages: readonly string[] = ['eng']): PageRecognizer {
  let worker: Promise<TesseractWorker> | null = null;
  const start = async (): Promise<TesseractWorker> => {
    const paths = [...new Set(languages.map(languageDataPath))];
    if (paths.length > 1) throw new AppError(ErrorCode.OCR_FAILED, 'OCR with several languages needs their data in one folder; choose one language.');
    const tesseract = await import('tesseract.js');
    const createWorker = tesseract.createWorker ?? (tesseract as unknown as { default: typeof tesseract }).default.createWorker;
    return createWorker([...languages], 1 /* OEM.LSTM_ONLY */, { langPath: paths[0]!, gzip: true, cacheMethod: 'none' });
  };
  const stop = async (): Promise<void> => {
    const running = worker;
    worker = null;
    if (running) await (await running.catch(() => null))?.terminate();
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
