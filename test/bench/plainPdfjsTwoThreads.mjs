/**
 * The floor of the ingest benchmark's batch on two cores: the plain pdf.js loop of plainPdfjsOnce.mjs (getDocument
 * + getTextContent on every page, nothing else, default options) in two worker threads that take the next file as
 * soon as they are free, so neither waits while the other has work. Each thread loads pdf.js itself (timed, as
 * the engine's workers do). Nothing is rebuilt, detected or stored: no run on two cores can take less time.
 * Prints one JSON line: { seconds, pages, cpuSeconds }.
 *   node test/bench/plainPdfjsTwoThreads.mjs <file...>
 */
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { readEveryPage } from './plainPdfjsLoop.mjs';

if (isMainThread) {
  const files = process.argv.slice(2);
  if (files.length === 0) throw new Error('usage: plainPdfjsTwoThreads <file...>');
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let next = 0;
  let pages = 0;
  await Promise.all(
    [0, 1].map(
      () =>
        new Promise((done, fail) => {
          const worker = new Worker(new URL(import.meta.url));
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
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
  port.on('message', async (/** @type {string} */ file) => port.postMessage({ pages: await readEveryPage(pdfjs, file) }));
  // Ready for the first file once pdf.js is loaded.
  port.postMessage({ pages: 0 });
}
