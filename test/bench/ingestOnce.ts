/**
 * One measured ingest + chunk tree + store of one file, in its own process so
 * its peak RSS is its own. Prints one JSON line; used by run.ts.
 *   tsx test/bench/ingestOnce.ts <file> <db> [workers]
 */
import { performance } from 'node:perf_hooks';
import { createEngine } from '../../electron/engine';
import { ingestFile } from '../../electron/engine/pdf';
import { openDatabase } from '../../electron/engine/store';

const [file, dbPath, workers] = process.argv.slice(2);
if (!file || !dbPath) throw new Error('usage: ingestOnce <file> <db> [workers]');
const db = openDatabase(dbPath);
const engine = createEngine({
  db,
  appVersion: 'bench',
  ingestFile: (path, options) => ingestFile(path, { ...options, ...(workers ? { workers: Number(workers) } : {}) }),
});
const started = performance.now();
const outcome = await engine.analyze([file], { mode: 'rules-only' });
const seconds = (performance.now() - started) / 1000;
const input = outcome.inputs[0]!;
const pages = input.documentId === null ? 0 : (db.prepare('SELECT page_count AS n FROM documents WHERE id = ?').get(input.documentId) as { n: number }).n;
db.close();
process.stdout.write(
  `${JSON.stringify({ seconds, pages, status: input.status, error: input.error?.code ?? null, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);
