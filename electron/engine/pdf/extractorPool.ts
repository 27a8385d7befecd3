/**
 * PDF worker threads kept between documents. Starting one costs more than
 * reading a typical report: the thread must load and compile pdf.js (about
 * 3 MB of JavaScript, 0.2 to 0.5 s here) before opening anything. A batch of
 * files, or the app ingesting one document after another, reuses the threads
 * instead; a thread idle for IDLE_MS ends, so an app that has finished
 * ingesting gives its memory back.
 *
 * A lent worker belongs to one extraction until it is given back (after its
 * document was closed, so it holds nothing of it) or discarded (on any
 * error or cancellation: terminating is the only sure way to stop pdf.js).
 *
 * At most MAX_LENT workers are lent at once, over all documents being read:
 * a run reads the next file while it analyses the current one (pipeline/readAhead.ts),
 * and that read waits for a free thread rather than overloading the cores and
 * holding a third copy of pdf.js in memory.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** Must equal WORKER_ROLE in rawExtractor.mjs; duplicated so this module does not import pdf.js. */
const WORKER_ROLE = 'pdf-raw-extractor';
/** How long an idle worker waits for the next document before it ends. */
const IDLE_MS = 5_000;
/** Idle workers kept at most (more are only needed while several documents are read at once). */
const MAX_IDLE = 2;

/** Workers lent at once at most: one per core, and two even on one core (as a document alone may use two). */
export const MAX_LENT = Math.max(2, availableParallelism());

const idle: Worker[] = [];
const idleTimers = new Map<Worker, NodeJS.Timeout>();
const lent = new Set<Worker>();
/** Borrowers waiting for a free thread, first come first served. */
const waiting: ((worker: Worker) => void)[] = [];

/** A worker as soon as one is free (see MAX_LENT). */
export function borrowWorker(): Promise<Worker> {
  const worker = tryBorrowWorker();
  if (worker) return Promise.resolve(worker);
  return new Promise((lend) => waiting.push(lend));
}

/** A worker if one is free now, else undefined (for the extra workers of a long document: welcome, not needed). */
export function tryBorrowWorker(): Worker | undefined {
  if (lent.size >= MAX_LENT || waiting.length > 0) return undefined;
  return lend(takeWorker());
}

function lend(worker: Worker): Worker {
  lent.add(worker);
  return worker;
}

/** An idle worker, or a new one (whose 'error' event says when it cannot start). */
function takeWorker(): Worker {
  const worker = idle.pop();
  if (worker) {
    clearTimeout(idleTimers.get(worker));
    idleTimers.delete(worker);
    worker.removeAllListeners('exit');
    // Working again: the process must wait for its answers.
    worker.ref();
    return worker;
  }
  // A capped young generation makes each worker collect pdf.js's short-lived per-page objects sooner. Measured on
  // a 1000-page file: 8 MB gives the least memory but GC slows extraction by a third; 16 MB keeps peak RSS near
  // 280 MB (under 300) at about 3.7 s; 32 MB or none is faster but above 300 MB. The old-generation cap is a backstop.
  return new Worker(new URL('./rawExtractor.mjs', import.meta.url), {
    workerData: { role: WORKER_ROLE },
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 16 },
  });
}

/** Gives back a worker whose document is closed and whose listeners were removed by the borrower. */
export function returnWorker(worker: Worker): void {
  lent.delete(worker);
  const next = waiting.shift();
  // Someone is waiting: the thread goes straight to them, warm.
  if (next) return next(lend(worker));
  if (idle.length >= MAX_IDLE) {
    void worker.terminate();
    return;
  }
  // An idle worker must not keep a finished CLI run alive, nor linger in the app.
  worker.unref();
  worker.once('exit', () => forget(worker));
  idleTimers.set(
    worker,
    setTimeout(() => {
      forget(worker);
      void worker.terminate();
    }, IDLE_MS).unref(),
  );
  idle.push(worker);
}

export function discardWorker(worker: Worker): Promise<unknown> {
  const ended = worker.terminate();
  if (lent.delete(worker)) waiting.shift()?.(lend(takeWorker()));
  return ended;
}

function forget(worker: Worker): void {
  clearTimeout(idleTimers.get(worker));
  idleTimers.delete(worker);
  const index = idle.indexOf(worker);
  if (index >= 0) idle.splice(index, 1);
}

/** Thread ids of the idle workers (for tests and diagnostics). */
export function idleThreadIds(): number[] {
  return idle.map((worker) => worker.threadId);
}
