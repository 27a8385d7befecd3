/**
 * The baseline of the ingest benchmark: a plain single-thread pdf.js loop
 * (getDocument + getTextContent on every page, nothing else, default
 * options), over the given files in one process. Plain JavaScript run by node
 * itself, so no TypeScript loader sits between it and pdf.js. Loading pdf.js
 * is timed, as the ingest side's workers load it inside their timed run too.
 * Prints one JSON line; used by run.ts.
 *   node test/bench/plainPdfjsOnce.mjs <file...>
 */
import { performance } from 'node:perf_hooks';
import { readEveryPage } from './plainPdfjsLoop.mjs';

const files = process.argv.slice(2);
if (files.length === 0) throw new Error('usage: plainPdfjsOnce <file...>');
const started = performance.now();
const cpuBefore = process.cpuUsage();
const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
let pages = 0;
for (const file of files) pages += await readEveryPage(pdfjs, file);
const seconds = (performance.now() - started) / 1000;
process.stdout.write(
  `${JSON.stringify({ seconds, pages, cpuSeconds: cpuSeconds(process.cpuUsage(cpuBefore)), maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);

/** User + system CPU time of every thread of the process: steadier than wall time on a busy machine. */
function cpuSeconds(usage) /* NodeJS.CpuUsage */ {
  return (usage.user + usage.system) / 1e6;
}
