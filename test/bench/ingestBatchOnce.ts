/**
 * One measured rules-only run (ingest + chunk tree + ID mentions + store; OCR off) of
 * several files in one process, as `npm run analyze -- <files> --rules-only`
 * does it, with the time per stage. Prints one JSON line; used by run.ts.
 *   tsx test/bench/ingestBatchOnce.ts <db> <file...>
 */
import { performance } from 'node:perf_hooks';
import { createEngine } from '../../electron/engine';
import { ingestFile } from '../../electron/engine/pdf';
import { openDatabase } from '../../electron/engine/store';
import { stageTimes } from '../../electron/engine/util/stageProfile';

const [dbPath, ...files] = process.argv.slice(2);
if (!dbPath || files.length === 0) throw new Error('usage: ingestBatchOnce <db> <file...>');
const db = openDatabase(dbPath);
const engine = createEngine({ db, appVersion: 'bench', ingestFile });
const started = performance.now();
const cpuBefore = process.cpuUsage();
const outcome = await engine.analyze(files, { mode: 'rules-only', ocr: 'off' });
const seconds = (performance.now() - started) / 1000;
const pages = (db.prepare('SELECT COALESCE(SUM(page_count), 0) AS n FROM documents').get() as { n: number }).n;
db.close();
process.stdout.write(
  `${JSON.stringify({
    seconds,
    pages,
    failed: outcome.inputs.filter((input) => input.status !== 'done').map((input) => `${input.filePath.split('/').pop()}: ${input.error?.code}`),
    cpuSeconds: cpuSeconds(process.cpuUsage(cpuBefore)),
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    stageMs: stageTimes(),
  })}\n`,
);

/** User + system CPU time of every thread of the process: steadier than wall time on a busy machine. */
function cpuSeconds(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1e6;
}
