/**
 * The floor of the ingest benchmark's batch on two cores: the plain pdf.js loop of plainPdfjsOnce.mjs (getDocument
 * + getTextContent on every page, nothing else, default options) in two worker threads that take the next file as
 * soon as they are free, so neither waits while the other has work. Each thread loads pdf.js itself (timed, as
 * the engine's workers do). Nothing is rebuilt, detected or stored: no run on two cores can take less time.
 * With --ours, the threads run the engine's own extractor instead (pdf/rawExtractor.mjs, as its PDF workers run
 * it, fonts' bold flags and item positions included): the floor of our pipeline's reading alone.
 * Prints one JSON line: { seconds, pages, cpuSeconds }.
 *   node test/bench/plainPdfjsTwoThreads.mjs [--ours] <file...>
 */
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { extractEveryPage, readEveryPage } from './plainPdfjsLoop.mjs';

/** @returns {Promise<(file: string) => Promise<number>>} */
async function plainLoop() {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  return (file) => readEveryPage(pdfjs, file);
}

/** The engine's extractor, set up as its PDF workers set it up (the synchronous inflater, see rawExtractor.mjs). */
async function engineExtractor() {
  const extractor = await import('../../electron/engine/pdf/rawExtractor.mjs');
  // @ts-expect-error a partial DecompressionStream: the part pdf.js uses
  globalThis.DecompressionStream = extractor.SyncDecompressionStream;
  return (/** @type {string} */ file) => extractEveryPage(extractor, file);
}

if (isMainThread) {
  const ours = process.argv[2] === '--ours';
  const files = process.argv.slice(ours ? 3 : 2);
  if (files.length === 0) throw new Error('usage: plainPdfjsTwoThreads [--ours] <file...>');
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let next = 0;
  let pages = 0;
  await Promise.all(
    [0, 1].map(
      () =>
        new Promise((done, fail) => {
          const worker = new Worker(new URL(import.meta.url), { workerData: { ours } });
          worker.on('message', (message) => {
            pages += message.pages ?? 0;
            if (next < files.length) worker.postMessage(files[next++]);
            else void worker.terminate().then(done);
          });
          worker.once('error', fail);
        }),
    ),
  );
  const usage = process.cpuUsage(cpuBefore);
  process.stdout.write(`${JSON.stringify({ seconds: (performance.now() - started) / 1000, pages, cpuSeconds: (usage.user + usage.system) / 1e6 })}\n`);
} else {
  const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
  const read = workerData.ours ? await engineExtractor() : await plainLoop();
  port.on('message', async (/** @type {string} */ file) => port.postMessage({ pages: await read(file) }));
  // Ready for the first file once pdf.js is loaded.
  port.postMessage({ pages: 0 });
}
