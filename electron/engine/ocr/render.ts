/**
 * Pages as images for OCR, drawn on a worker thread of their own (pageRenderer.mjs: pdf.js onto an @napi-rs/canvas
 * canvas, one page at a time, memory bounded whatever the PDF holds). Drawing a dense page takes up to a second of
 * CPU, which on the engine's thread would hold every command the UI sends; here the engine only waits for the image.
 * One worker per document: starting it (loading pdf.js) costs a fraction of what reading one page by OCR does, and
 * closing or cancelling ends the thread, so nothing of the document stays behind.
 */
import { Worker } from 'node:worker_threads';
import { MAX_DECODED_IMAGE_PIXELS } from '../../../shared/ocr';
import { openError } from '../pdf';
import { cancelledError, throwIfAborted } from '../util';
import type { RenderedPage } from './types';

/** 300 dpi is tesseract's sweet spot for body text; very large pages are capped so one image stays under ~20 MB. */
export const RENDER_DPI = 300;
const MAX_PIXELS = 5_000_000;
/** Must equal WORKER_ROLE in pageRenderer.mjs; duplicated so this module does not load pdf.js on the engine's thread. */
const WORKER_ROLE = 'ocr-page-renderer';

export interface OpenedPdf {
  pageCount: number;
  render(pageNumber: number): Promise<RenderedPage>;
  close(): Promise<void>;
}

/** A message from the worker: the answer to the one request in flight. */
type Reply =
  | { type: 'ready'; pageCount: number }
  | { type: 'page'; page: Omit<RenderedPage, 'png'> & { png: Uint8Array } }
  | { type: 'closed' }
  | { type: 'fatal' | 'error'; name: string; message: string; code?: unknown };

export async function openForRendering(bytes: Uint8Array, fileName: string, password?: string, signal?: AbortSignal): Promise<OpenedPdf> {
  throwIfAborted(signal);
  const worker = new Worker(new URL('./pageRenderer.mjs', import.meta.url), {
    workerData: { role: WORKER_ROLE },
    execArgv: [],
    // A backstop: pdf.js holds one page's images at a time here (see pageRenderer.mjs).
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
  });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    signal?.removeEventListener('abort', end);
    void worker.terminate();
  };
  signal?.addEventListener('abort', end, { once: true });
  /** Sends one request and waits for its reply; a stop or the thread's end rejects it. */
  const ask = (message: object, transfer: ArrayBuffer[] = []): Promise<Reply> =>
    new Promise((resolve, reject) => {
      if (ended) return reject(cancelledError(signal));
      const settle = (fn: () => void) => {
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        fn();
      };
      const onMessage = (reply: Reply) => settle(() => resolve(reply));
      const onError = (error: Error) => settle(() => reject(error));
      const onExit = () => settle(() => reject(signal?.aborted ? cancelledError(signal) : new Error(`the page renderer of ${fileName} stopped`)));
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage(message, transfer);
    });

  // The bytes are copied for the thread: the caller keeps its own (it hashes and scans them after OCR).
  const data = bytes.slice();
  let opened: Reply;
  try {
    opened = await ask({ type: 'open', data, password, dpi: RENDER_DPI, maxPixels: MAX_PIXELS, maxImageSize: MAX_DECODED_IMAGE_PIXELS }, [data.buffer]);
  } catch (error) {
    end();
    throw error;
  }
  if (opened.type !== 'ready') {
    end();
    throw openError(opened.type === 'fatal' ? Object.assign(new Error(opened.message), { name: opened.name, code: opened.code }) : opened, fileName);
  }
  return {
    pageCount: opened.pageCount,
    async render(pageNumber) {
      throwIfAborted(signal);
      const reply = await ask({ type: 'render', pageNumber });
      if (reply.type === 'page') return { ...reply.page, png: Buffer.from(reply.page.png.buffer, reply.page.png.byteOffset, reply.page.png.byteLength) };
      throw Object.assign(
        new Error(reply.type === 'error' ? reply.message : `unexpected reply ${reply.type}`),
        reply.type === 'error' ? { name: reply.name } : {},
      );
    },
    async close() {
      if (!ended) await ask({ type: 'close' }).catch(() => undefined);
      end();
    },
  };
}
