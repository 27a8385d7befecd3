/**
 * Where document info and raw pages come from. Two sources with one
 * contract (info first, then every page to `sink` strictly in page order), so
 * the TypeScript line rebuilding that follows is identical for both. A page
 * pdf.js fails on arrives as an empty page with `readError`: one damaged page
 * does not cost the rest of the document.
 *
 * - worker threads (default, kept between documents by extractorPool.ts): the
 *   first worker opens the file and reports the page count; long documents
 *   get more workers, each with its own copy. The
 *   host thread never loads pdf.js, which keeps PDF parsing off the Electron
 *   main/utility thread and keeps memory low under `tsx`, whose loader
 *   inflates pdf.js's 3 MB of JavaScript several times over. Workers start
 *   with `execArgv: []`: their entry is plain JS and needs no TS loader.
 * - in-process: when threads cannot start.
 */
import { performance } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import { addStageTime, cancelledError, throwIfAborted } from '../util';
import type { DocumentInfo, RawPage } from './rawExtractor.mjs';
import { borrowWorker, discardWorker, returnWorker, tryBorrowWorker } from './extractorPool';
import { noPagesError, openError, READ_CANCELLED } from './pdfErrors';
import { createPageOrder, type PageOrder } from './pageOrder';

export type PageSink = (page: RawPage) => void;

export interface ExtractContext {
  fileName: string;
  signal?: AbortSignal;
  /** The user password of an encrypted PDF; never stored or logged. */
  password?: string;
  /** Called once, before any page; may throw to stop (e.g. no pages). */
  onInfo: (info: DocumentInfo) => void;
}

export async function extractInProcess(bytes: Uint8Array, sink: PageSink, context: ExtractContext): Promise<void> {
  // Loaded lazily: hosts that use workers never pay for pdf.js on this thread.
  const { openPdf, closePdf, readDocumentInfo, extractRawPage } = await import('./rawExtractor.mjs');
  const opening = performance.now();
  const task = openPdf(bytes.slice(), context.password);
  try {
    const pdf = await task.promise.catch((error: unknown) => {
      throw openError(error, context.fileName);
    });
    if (pdf.numPages === 0) throw noPagesError(context.fileName);
    const info = await readDocumentInfo(pdf);
    addStageTime('open', performance.now() - opening);
    context.onInfo(info);
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
      throwIfAborted(context.signal, READ_CANCELLED);
      const page = await extractRawPage(pdf, pageNumber).catch((error: unknown) =>
        unreadablePage(pageNumber, error instanceof Error ? error.message : String(error)),
      );
      recordPageCost(page);
      sink(page);
    }
  } finally {
    await closePdf(task);
  }
}

function recordPageCost(page: RawPage): void {
  if (!page.costMs) return;
  addStageTime('text', page.costMs.text);
  addStageTime('fonts', page.costMs.fonts);
}

/** The stand-in for a page pdf.js failed on: no text, and why. */
function unreadablePage(pageNumber: number, reason: string): RawPage {
  return { pageNumber, width: 0, height: 0, items: [], readError: reason || 'unknown error' };
}

/** Thrown when worker threads cannot start at all (e.g. a bundle without the worker file): the caller falls back to in-process. */
export class WorkerStartError extends Error {}

/** Requests kept in flight per worker, so a worker never idles while the host handles its last answer. */
const IN_FLIGHT_PER_WORKER = 2;
/** Files this large are opened by every worker at once (see the end of extractWithWorkers). */
const EAGER_WORKERS_MIN_BYTES = 1024 * 1024;

type WorkerMessage =
  | { type: 'ready'; info: DocumentInfo; withInfo: boolean; openMs: number }
  | { type: 'page'; page: RawPage }
  | { type: 'error'; pageNumber: number; name: string; message: string }
  | { type: 'fatal'; name: string; message: string; code?: number }
  | { type: 'closed' };

export interface WorkerPlan {
  maxWorkers: number;
  /** Extra workers only for documents at least this long. */
  minPagesForMore: number;
}

export async function extractWithWorkers(bytes: Uint8Array, plan: WorkerPlan, sink: PageSink, context: ExtractContext): Promise<void> {
  throwIfAborted(context.signal, READ_CANCELLED);
  // Waits while other documents use every thread the pool lends (a run reading ahead, see extractorPool.ts).
  const first = await borrowWorker();
  if (context.signal?.aborted) {
    returnWorker(first);
    throw cancelledError(context.signal, READ_CANCELLED);
  }
  return readWithWorkers(first, bytes, plan, sink, context);
}

/** One document read by workers, as its steps share it. */
interface WorkerRead {
  bytes: Uint8Array;
  plan: WorkerPlan;
  context: ExtractContext;
  workers: Worker[];
  order: PageOrder;
  /** -1 until the first worker has opened the document. */
  pageCount: number;
  nextToRequest: number;
  settled: boolean;
  /** Ends the read, once. `workersIdle`: no worker is in the middle of a page (a complete read, or a document pdf.js refused to open). */
  finish: (error?: unknown, workersIdle?: boolean) => void;
}

function readWithWorkers(first: Worker, bytes: Uint8Array, plan: WorkerPlan, sink: PageSink, context: ExtractContext): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const read: WorkerRead = {
      bytes,
      plan,
      context,
      workers: [],
      order: createPageOrder(sink),
      pageCount: -1,
      nextToRequest: 1,
      settled: false,
      finish: (error, workersIdle = error === undefined) => {
        if (read.settled) return;
        read.settled = true;
        context.signal?.removeEventListener('abort', onAbort);
        // After an error or a cancel the workers may be mid-page: terminating drops their pdf.js document with the
        // thread. Idle ones close their document and go back to the pool.
        const released = read.workers.map((worker) => (workersIdle ? closeAndReturn(worker) : discardWorker(worker)));
        void Promise.allSettled(released).then(() => (error === undefined ? resolve() : reject(error)));
      },
    };
    const onAbort = (): void => read.finish(cancelledError(context.signal, READ_CANCELLED));
    context.signal?.addEventListener('abort', onAbort, { once: true });
    startWorker(read, first);
    // A large file is almost surely long: open it in every worker at once instead of after the first has counted pages
    // (each worker parses the file itself, which is a good part of its work).
    if (bytes.length >= EAGER_WORKERS_MIN_BYTES) startExtraWorkers(read);
  });
}

function requestMore(read: WorkerRead, worker: Worker, count: number): void {
  for (let i = 0; i < count && read.nextToRequest <= read.pageCount; i++) worker.postMessage({ pageNumber: read.nextToRequest++ });
}

function deliverInOrder(read: WorkerRead): void {
  if (read.order.deliver(read.pageCount)) read.finish();
}

function onReady(read: WorkerRead, worker: Worker, info: DocumentInfo, withInfo: boolean): void {
  if (read.pageCount === -1) {
    read.pageCount = info.pageCount;
    if (read.pageCount === 0) throw noPagesError(read.context.fileName);
    if (read.pageCount >= read.plan.minPagesForMore) startExtraWorkers(read);
  }
  if (withInfo) {
    read.context.onInfo(info);
    read.order.infoDelivered();
    deliverInOrder(read);
  }
  requestMore(read, worker, IN_FLIGHT_PER_WORKER);
}

function onMessage(read: WorkerRead, worker: Worker, message: WorkerMessage): void {
  if (message.type === 'fatal') {
    // Every worker was asked to open the same bytes and will fail alike; closing first lets them finish that.
    return read.finish(openError(Object.assign(new Error(message.message), { name: message.name, code: message.code }), read.context.fileName), true);
  }
  switch (message.type) {
    case 'ready':
      addStageTime('open', message.openMs);
      return onReady(read, worker, message.info, message.withInfo);
    case 'page':
      recordPageCost(message.page);
      read.order.add(message.page);
      requestMore(read, worker, 1);
      return deliverInOrder(read);
    case 'error':
      read.order.add(unreadablePage(message.pageNumber, message.message));
      requestMore(read, worker, 1);
      return deliverInOrder(read);
    case 'closed':
      return;
  }
}

function startWorker(read: WorkerRead, worker: Worker): void {
  read.workers.push(worker);
  worker.on('message', (message: WorkerMessage) => {
    if (read.settled) return;
    try {
      onMessage(read, worker, message);
    } catch (error) {
      read.finish(error);
    }
  });
  worker.on('error', (error) =>
    read.finish(read.pageCount === -1 ? new WorkerStartError(String(error)) : new Error(`PDF worker failed: ${error.message}`, { cause: error })),
  );
  worker.on('exit', (code) => {
    // A plain Error: the runner logs it with its stack and tells the user to report it with that log.
    if (!read.settled) read.finish(new Error(`PDF worker stopped unexpectedly (exit code ${code})`));
  });
  // The first worker reads the document info; every worker opens its own copy of the bytes (postMessage copies).
  worker.postMessage({ type: 'open', data: read.bytes, readInfo: read.workers.length === 1, password: read.context.password });
}

/** More workers up to the plan, as far as the pool has free threads now (another document may be using them). */
function startExtraWorkers(read: WorkerRead): void {
  while (read.workers.length < read.plan.maxWorkers) {
    const worker = tryBorrowWorker();
    if (!worker) return;
    startWorker(read, worker);
  }
}

/**
 * Closes the worker's document, then gives the worker back to the pool. The worker answers in order, so answers
 * still on their way (a late 'ready' from a worker that was not needed after all) come before 'closed' and are
 * dropped; a worker that fails or exits meanwhile is simply not given back.
 */
function closeAndReturn(worker: Worker): Promise<void> {
  worker.removeAllListeners('message');
  worker.removeAllListeners('error');
  worker.removeAllListeners('exit');
  return new Promise<void>((done) => {
    const stop = (): void => {
      worker.removeAllListeners('message');
      worker.removeAllListeners('error');
      worker.removeAllListeners('exit');
      done();
    };
    // A worker that ends or fails is not given back, but its place in the pool is (discardWorker).
    const drop = (): void => {
      stop();
      void discardWorker(worker);
    };
    worker.once('exit', drop);
    worker.once('error', drop);
    worker.on('message', (message: { type?: string }) => {
      if (message.type !== 'closed') return;
      stop();
      returnWorker(worker);
    });
    worker.postMessage({ type: 'close' });
  });
}
