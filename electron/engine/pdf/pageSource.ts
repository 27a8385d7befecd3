/**
 * Where document info and raw pages come from. Two sources with one
 * contract (info first, then every page to `sink` strictly in page order), so
 * the TypeScript line rebuilding that follows is identical for both. A page
 * pdf.js fails on arrives as an empty page with `readError`: one damaged page
 * does not cost the rest of the document.
 *
 * - worker threads (default): the first worker opens the file and reports the
 *   page count; long documents get more workers, each with its own copy. The
 *   host thread never loads pdf.js, which keeps PDF parsing off the Electron
 *   main/utility thread and keeps memory low under `tsx`, whose loader
 *   inflates pdf.js's 3 MB of JavaScript several times over. Workers start
 *   with `execArgv: []`: their entry is plain JS and needs no TS loader.
 * - in-process: when `workers` is 1 or threads cannot start.
 */
import { Worker } from 'node:worker_threads';
import type { DocumentInfo, RawPage } from './rawExtractor.mjs';
import { cancelledError, throwIfAborted } from '../util';
import { noPagesError, openError, READ_CANCELLED } from './pdfErrors';

export type PageSink = (page: RawPage) => void;

export interface ExtractContext {
  fileName: string;
  signal?: AbortSignal;
  /** Called once, before any page; may throw to stop (e.g. no pages). */
  onInfo: (info: DocumentInfo) => void;
}

export async function extractInProcess(bytes: Uint8Array, sink: PageSink, context: ExtractContext): Promise<void> {
  // Loaded lazily: hosts that use workers never pay for pdf.js on this thread.
  const { openPdf, readDocumentInfo, extractRawPage } = await import('./rawExtractor.mjs');
  const task = openPdf(bytes.slice());
  try {
    const pdf = await task.promise.catch((error: unknown) => {
      throw openError(error, context.fileName);
    });
    if (pdf.numPages === 0) throw noPagesError(context.fileName);
    context.onInfo(await readDocumentInfo(pdf));
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
      throwIfAborted(context.signal, READ_CANCELLED);
      sink(await extractRawPage(pdf, pageNumber).catch((error: unknown) => unreadablePage(pageNumber, error instanceof Error ? error.message : String(error))));
    }
  } finally {
    await task.destroy();
  }
}

/** The stand-in for a page pdf.js failed on: no text, and why. */
function unreadablePage(pageNumber: number, reason: string): RawPage {
  return { pageNumber, width: 0, height: 0, items: [], readError: reason || 'unknown error' };
}

/** Thrown when worker threads cannot start at all (e.g. a bundle without the worker file): the caller falls back to in-process. */
export class WorkerStartError extends Error {}

/** Requests kept in flight per worker, so a worker never idles while the host handles its last answer. */
const IN_FLIGHT_PER_WORKER = 2;
const EAGER_WORKERS_MIN_BYTES = 1024 * 1024;

type WorkerMessage =
  | { type: 'ready'; info: DocumentInfo; withInfo: boolean }
  | { type: 'page'; page: RawPage }
  | { type: 'error'; pageNumber: number; name: string; message: string }
  | { type: 'fatal'; name: string; message: string };

export interface WorkerPlan {
  maxWorkers: number;
  /** Extra workers only for documents at least this long. */
  minPagesForMore: number;
}

export function extractWithWorkers(bytes: Uint8Array, plan: WorkerPlan, sink: PageSink, context: ExtractContext): Promise<void> {
  const entry = new URL('./rawExtractor.mjs', import.meta.url);
  const workers: Worker[] = [];
  const finished = new Map<number, RawPage>();
  let pageCount = -1;
  /** Pages wait until the info worker has answered: the sink's contract is info first, then pages. */
  let infoDelivered = false;
  let nextToRequest = 1;
  let nextToDeliver = 1;

  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      context.signal?.removeEventListener('abort', onAbort);
      // Terminating drops each worker's pdf.js document together with its thread.
      void Promise.allSettled(workers.map((worker) => worker.terminate())).then(() => (error === undefined ? resolve() : reject(error)));
    };
    const onAbort = (): void => finish(cancelledError(context.signal, READ_CANCELLED));
    if (context.signal?.aborted) return finish(cancelledError(context.signal, READ_CANCELLED));
    context.signal?.addEventListener('abort', onAbort, { once: true });

    const requestMore = (worker: Worker, count: number): void => {
      for (let i = 0; i < count && nextToRequest <= pageCount; i++) worker.postMessage({ pageNumber: nextToRequest++ });
    };
    const deliverInOrder = (): void => {
      if (!infoDelivered) return;
      for (let page = finished.get(nextToDeliver); page !== undefined; page = finished.get(nextToDeliver)) {
        finished.delete(nextToDeliver);
        nextToDeliver++;
        sink(page);
      }
      if (nextToDeliver > pageCount) finish();
    };
    const onReady = (worker: Worker, info: DocumentInfo, withInfo: boolean): void => {
      if (pageCount === -1) {
        pageCount = info.pageCount;
        if (pageCount === 0) throw noPagesError(context.fileName);
        const extra = pageCount >= plan.minPagesForMore ? plan.maxWorkers - workers.length : 0;
        for (let i = 0; i < extra; i++) startWorker();
      }
      if (withInfo) {
        context.onInfo(info);
        infoDelivered = true;
        deliverInOrder();
      }
      requestMore(worker, IN_FLIGHT_PER_WORKER);
    };
    const onMessage = (worker: Worker, message: WorkerMessage): void => {
      switch (message.type) {
        case 'ready':
          return onReady(worker, message.info, message.withInfo);
        case 'page':
          finished.set(message.page.pageNumber, message.page);
          requestMore(worker, 1);
          return deliverInOrder();
        case 'error':
          finished.set(message.pageNumber, unreadablePage(message.pageNumber, message.message));
          requestMore(worker, 1);
          return deliverInOrder();
        case 'fatal':
          throw openError(Object.assign(new Error(message.message), { name: message.name }), context.fileName);
      }
    };
    const startWorker = (): void => {
      // A capped young generation makes each worker collect pdf.js's short-lived per-page objects sooner. Measured on
      // a 1000-page file: 8 MB gives the least memory but GC slows extraction by a third; 16 MB keeps peak RSS near
      // 280 MB (under 300) at about 3.7 s; 32 MB or none is faster but above 300 MB. The old-generation cap is a backstop.
      const worker = new Worker(entry, {
        // The first worker reads the document info; every worker opens its own copy of the bytes.
        workerData: { role: WORKER_ROLE, data: bytes, readInfo: workers.length === 0 },
        execArgv: [],
        resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 16 },
      });
      workers.push(worker);
      worker.on('message', (message: WorkerMessage) => {
        if (settled) return;
        try {
          onMessage(worker, message);
        } catch (error) {
          finish(error);
        }
      });
      worker.on('error', (error) =>
        finish(pageCount === -1 ? new WorkerStartError(String(error)) : new Error(`PDF worker failed: ${error.message}`, { cause: error })),
      );
      worker.on('exit', (code) => {
        if (!settled) // A plain Error: the runner logs it with its stack and tells the user to report it with that log.
        if (!settled) finish(new Error(`PDF worker stopped unexpectedly (exit code ${code})`));
      });
    };
    startWorker();
    // A large file is almost surely long: open it in every worker at once instead of after the first has counted pages
    // (each worker parses the file itself, which is a good part of its work).
    if (bytes.length >= EAGER_WORKERS_MIN_BYTES) for (let i = 1; i < plan.maxWorkers; i++) startWorker();
  });
}

/** Must equal WORKER_ROLE in rawExtractor.mjs; duplicated so this module does not import pdf.js. */
const WORKER_ROLE = 'pdf-raw-extractor';
