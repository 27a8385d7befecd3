/**
 * pdf.js text extraction alone, in the same worker threads ingestion uses,
 * with nothing done with the pages: the floor under "ingest + chunk tree +
 * store" for one file. Prints one JSON line like ingestOnce.ts; used by run.ts.
 *   tsx test/bench/extractOnce.ts <file> [workers]
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { extractWithWorkers } from '../../electron/engine/pdf/pageSource';

const [file, workers] = process.argv.slice(2);
if (!file) throw new Error('usage: extractOnce <file> [workers]');
const started = performance.now();
const bytes = new Uint8Array(readFileSync(file));
let pages = 0;
await extractWithWorkers(bytes, { maxWorkers: Number(workers ?? 2), minPagesForMore: 64 }, () => void pages++, { fileName: file, onInfo: () => undefined });
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ seconds, pages, status: 'done', error: null, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
