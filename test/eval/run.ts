/**
 * `npm run eval -- --host <url> --model <name>`: runs the whole pipeline over
 * a labelled set and prints recall, precision, grounded share, duplicates and
 * time per page, so a user can choose a model and we can compare models.
 * `--sim` answers from the planted truth with the Ollama simulator (what CI runs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '../../electron/engine';
import { DEFAULT_RUN_LLM_SETTINGS } from '../../electron/engine/jobs/settings';
import { listMergedFindings } from '../../electron/engine/merge';
import { openDatabase } from '../../electron/engine/store';
import { plantedReport, plantedResponder } from '../fixtures/plantedFindings';
import { startOllamaSim } from '../ollama-sim/index';
import { corpusSet, generatedSet, type LabelledDocument } from './labelledSet';
import { scoreDocument, summarize, type DocumentScore } from './metrics';

export interface EvalOptions {
  host?: string;
  model?: string;
  sim?: boolean;
  /** Include the real audit reports of ../shared/corpus (needs a real model). */
  corpus?: boolean;
}

export interface EvalRow extends DocumentScore {
  name: string;
  pages: number;
  seconds: number;
  status: string;
}

export async function runEval(options: EvalOptions): Promise<{ rows: EvalRow[]; totals: ReturnType<typeof summarize> & { secondsPerPage: number } }> {
  const dir = mkdtempSync(join(tmpdir(), 'audit-eval-'));
  const sim = options.sim ? await startOllamaSim({ timeScale: 0, responder: plantedResponder(plantedReport()) }) : undefined;
  const db = openDatabase(join(dir, 'eval.sqlite'));
  try {
    const engine = createEngine({ db, appVersion: 'eval' });
    const documents: LabelledDocument[] = [...generatedSet(dir), ...(options.corpus && !sim ? corpusSet() : [])];
    const rows: EvalRow[] = [];
    for (const doc of documents) {
      const started = performance.now();
      const outcome = await engine.analyze([doc.file], {
        llm: {
          ...DEFAULT_RUN_LLM_SETTINGS,
          cache: false,
          models: options.model ? { default: options.model } : {},
          ...(sim ? { host: sim.url } : options.host ? { host: options.host } : {}),
        },
      });
      const seconds = (performance.now() - started) / 1000;
      const input = outcome.inputs[0]!;
      const pages = input.documentId === null ? 0 : (db.prepare('SELECT page_count AS n FROM documents WHERE id = ?').get(input.documentId) as { n: number }).n;
      const findings = listMergedFindings(db, outcome.run.id);
      const status = outcome.run.status === 'done' ? input.status : `${outcome.run.status}: ${outcome.run.error?.message ?? ''}`;
      rows.push({ name: doc.name, pages, seconds, status, ...scoreDocument(doc.truth, findings) });
    }
    const pages = rows.reduce((a, r) => a + r.pages, 0);
    return { rows, totals: { ...summarize(rows), secondsPerPage: pages === 0 ? 0 : rows.reduce((a, r) => a + r.seconds, 0) / pages } };
  } finally {
    db.close();
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { host: { type: 'string' }, model: { type: 'string' }, sim: { type: 'boolean', default: false }, corpus: { type: 'boolean', default: false } },
  });
  const { rows, totals } = await runEval({
    ...(values.host ? { host: values.host } : {}),
    ...(values.model ? { model: values.model } : {}),
    sim: values.sim,
    corpus: values.corpus,
  });
  console.table(rows.map((r) => ({ document: r.name, status: r.status, pages: r.pages, truth: r.truth, found: r.found, extra: r.extra, duplicates: r.duplicates, 'grounded/reported': `${r.grounded}/${r.reported}`, 's/page': (r.seconds / Math.max(1, r.pages)).toFixed(2) })));
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  console.log(`recall ${pct(totals.recall)}  precision ${pct(totals.precision)}  grounded share ${pct(totals.groundedShare)}  duplicates ${totals.duplicates}  time per page ${totals.secondsPerPage.toFixed(2)} s`);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) await main();
