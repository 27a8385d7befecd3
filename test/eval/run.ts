/**
 * `npm run eval`: runs the whole pipeline over labelled documents and scores the merged findings strictly
 * (strictScore.ts): found once each, duplicates, wrong merges, detail pages, invented findings kept ungrounded.
 *
 *   npm run eval -- --sim [--corpus] [--modes invented-ids,null-ids,...]   the Ollama simulator answers
 *   npm run eval -- --host <url> --model <name> [--corpus]                 a real Ollama answers
 *
 * With --sim the generated report is answered from its planted truth, and the real PDFs of ../shared/corpus
 * (--corpus) by the truth-driven responder (truthResponder.ts) in the given model modes (default: the faithful
 * ones, FAITHFUL_MODES). With --sim --corpus the command exits 1 unless the corpus passes the gate
 * (100% found once each, 0 duplicates, 0 wrong merges, 100% detail pages, no finding on the negative control,
 * every invented finding ungrounded): CI runs it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '../../electron/engine';
import { DEFAULT_RUN_LLM_SETTINGS } from '../../electron/engine/jobs/settings';
import { listMergedFindings } from '../../electron/engine/merge';
import { openDatabase } from '../../electron/engine/store';
import { plantedReport, plantedResponder } from '../fixtures/plantedFindings';
import { startOllamaSim, type Responder } from '../ollama-sim/index';
import { generatedSet } from './labelledSet';
import { scoreStrict, type StrictScore } from './strictScore';
import { defaultCorpusDir, FAITHFUL_MODES, loadCorpusTruth, MODEL_MODES, truthResponder, type ModelMode, type TruthFindingSpec } from './truthResponder';

export interface EvalOptions {
  host?: string;
  model?: string;
  sim?: boolean;
  /** Include the PDFs of ../shared/corpus. */
  corpus?: boolean;
  /** Simulator model modes for the corpus (default FAITHFUL_MODES). */
  modes?: readonly ModelMode[];
  /** Only these corpus documents (by name). */
  only?: readonly string[];
  corpusDir?: string;
  /** Include the generated documents (default true). */
  generated?: boolean;
  /** Keep the SQLite store in this folder (tests open it afterwards; stored documents are reused across calls). */
  workDir?: string;
}

export interface EvalRow extends StrictScore {
  name: string;
  pages: number;
  seconds: number;
  status: string;
  /** Part of the corpus (gated) rather than the generated set. */
  corpus: boolean;
  runId: number;
  documentId: number | null;
}

export interface EvalTotals {
  truth: number;
  found: number;
  duplicates: number;
  wrongMerges: number;
  detailPages: number;
  extra: number;
  recall: number;
  secondsPerPage: number;
}

interface EvalDocument {
  name: string;
  file: string;
  truth: TruthFindingSpec[];
  corpus: boolean;
  responder?: Responder;
}

export async function runEval(options: EvalOptions): Promise<{ rows: EvalRow[]; totals: EvalTotals; gate: string[] }> {
  const dir = options.workDir ?? mkdtempSync(join(tmpdir(), 'audit-eval-'));
  const corpusDir = options.corpusDir ?? defaultCorpusDir();
  const documents: EvalDocument[] = [];
  const planted = plantedReport();
  for (const g of options.generated === false ? [] : generatedSet(dir)) {
    documents.push({ name: g.name, file: g.file, corpus: false, truth: g.truth.map((t) => ({ id: t.id, title: t.titles[0]!, severity: '', page: t.page, ...(t.titles[1] ? { detailTitle: t.titles[1] } : {}) })), responder: plantedResponder(planted) });
  }
  if (options.corpus && existsSync(join(corpusDir, 'pdfs'))) {
    const truths = loadCorpusTruth(corpusDir).filter((d) => !options.only || options.only.includes(d.name));
    const responder = truthResponder(truths, { modes: options.modes ?? FAITHFUL_MODES });
    for (const t of truths) documents.push({ name: t.name, file: join(corpusDir, 'pdfs', `${t.name}.pdf`), truth: t.findings, corpus: true, responder });
  }

  const sim = options.sim ? await startOllamaSim({ timeScale: 0 }) : undefined;
  const db = openDatabase(join(dir, 'eval.sqlite'));
  try {
    const engine = createEngine({ db, appVersion: 'eval' });
    const rows: EvalRow[] = [];
    for (const doc of documents) {
      if (sim && doc.responder) sim.setResponder(doc.responder);
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
      const findings = input.documentId === null ? [] : listMergedFindings(db, outcome.run.id, input.documentId);
      const status = outcome.run.status === 'done' ? input.status : `${outcome.run.status}: ${outcome.run.error?.message ?? ''}`;
      rows.push({ name: doc.name, pages, seconds, status, corpus: doc.corpus, runId: outcome.run.id, documentId: input.documentId, ...scoreStrict(doc.truth, findings) });
    }
    const sum = (key: 'truth' | 'found' | 'duplicates' | 'wrongMerges' | 'detailPages' | 'extra') => rows.reduce((a, r) => a + r[key], 0);
    const pages = rows.reduce((a, r) => a + r.pages, 0);
    const totals: EvalTotals = {
      truth: sum('truth'),
      found: sum('found'),
      duplicates: sum('duplicates'),
      wrongMerges: sum('wrongMerges'),
      detailPages: sum('detailPages'),
      extra: sum('extra'),
      recall: sum('truth') === 0 ? 1 : sum('found') / sum('truth'),
      secondsPerPage: pages === 0 ? 0 : rows.reduce((a, r) => a + r.seconds, 0) / pages,
    };
    return { rows, totals, gate: corpusGate(rows.filter((r) => r.corpus)) };
  } finally {
    db.close();
    await sim?.close();
    if (!options.workDir) rmSync(dir, { recursive: true, force: true });
  }
}

/** What keeps the corpus from passing: every truth finding found once with its detail page, no wrong merge, nothing extra. */
export function corpusGate(rows: readonly EvalRow[]): string[] {
  const failures: string[] = [];
  for (const r of rows) {
    if (r.found !== r.truth) failures.push(`${r.name}: found ${r.found} of ${r.truth}`);
    if (r.duplicates > 0) failures.push(`${r.name}: ${r.duplicates} duplicated`);
    if (r.wrongMerges > 0) failures.push(`${r.name}: ${r.wrongMerges} wrong merges`);
    if (r.detailPages !== r.found) failures.push(`${r.name}: ${r.found - r.detailPages} without their detail page`);
    if (r.extra > 0) failures.push(`${r.name}: ${r.extra} grounded findings that are in no truth file`);
  }
  return failures;
}

export function printEval(result: Awaited<ReturnType<typeof runEval>>): void {
  console.table(
    result.rows.map((r) => ({
      document: r.name,
      status: r.status,
      pages: r.pages,
      truth: r.truth,
      'found once': r.found,
      duplicates: r.duplicates,
      'wrong merges': r.wrongMerges,
      'detail page': `${r.detailPages}/${r.found}`,
      extra: r.extra,
      ungrounded: r.ungrounded,
      's/page': (r.seconds / Math.max(1, r.pages)).toFixed(2),
    })),
  );
  for (const r of result.rows) for (const p of r.problems.slice(0, 8)) console.log(`  ${r.name}: ${p}`);
  const t = result.totals;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  console.log(
    `found once ${t.found}/${t.truth} (${pct(t.recall)})  duplicates ${t.duplicates}  wrong merges ${t.wrongMerges}  detail pages ${t.detailPages}/${t.found}  extra ${t.extra}  time per page ${t.secondsPerPage.toFixed(2)} s`,
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string' },
      model: { type: 'string' },
      sim: { type: 'boolean', default: false },
      corpus: { type: 'boolean', default: false },
      modes: { type: 'string' },
      only: { type: 'string' },
    },
  });
  const modes = values.modes?.split(',').map((m) => m.trim()).filter(Boolean);
  const unknown = modes?.filter((m) => !(MODEL_MODES as readonly string[]).includes(m)) ?? [];
  if (unknown.length > 0) {
    console.error(`Unknown mode ${unknown.join(', ')}. Modes: ${MODEL_MODES.join(', ')}.`);
    process.exit(2);
  }
  const result = await runEval({
    ...(values.host ? { host: values.host } : {}),
    ...(values.model ? { model: values.model } : {}),
    sim: values.sim,
    corpus: values.corpus,
    ...(modes ? { modes: modes as ModelMode[] } : {}),
    ...(values.only ? { only: values.only.split(',') } : {}),
  });
  printEval(result);
  if (values.sim && values.corpus) {
    if (!result.rows.some((r) => r.corpus)) {
      console.log(`\nNo corpus found at ${defaultCorpusDir()}: put ../shared/corpus beside the checkout (or drop --corpus).`);
      process.exit(1);
    }
    if (result.gate.length > 0) {
      console.log(`\nCorpus gate FAILED:\n- ${result.gate.join('\n- ')}`);
      process.exit(1);
    }
    console.log('\nCorpus gate passed: every truth finding found once, with its detail page; no duplicate, no wrong merge, nothing extra.');
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) await main();
