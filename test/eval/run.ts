/**
 * `npm run eval`: runs the whole pipeline over labelled documents and scores the merged findings strictly
 * (strictScore.ts): found once each, duplicates, wrong merges, detail pages, invented findings kept ungrounded.
 *
 *   npm run eval -- --sim [--corpus] [--modes invented-ids,null-ids,...]   the Ollama simulator answers
 *   npm run eval -- --host <url> --model <name> [--corpus]                 a real Ollama answers
 *   ... --openai                                                            the same through the OpenAI-compatible API:
 *                                                                           with --sim its simulator (test/ollama-sim/openai.ts),
 *                                                                           with --host a llama-server/vLLM base URL (.../v1;
 *                                                                           --key-env NAME for its key)
 *   ... --unit-tokens 2000,4000,8000                                        the same documents at each extraction unit
 *                                                                           size, recall side by side (see docs/model-time.md)
 *
 * With --sim the generated report is answered from its planted truth, and the real PDFs of ../shared/corpus
 * (--corpus) by the truth-driven responder (truthResponder.ts) in the given model modes (default: the faithful
 * ones, FAITHFUL_MODES). With --sim --corpus the command exits 1 unless the corpus passes the gate
 * (100% found once each, 0 duplicates, 0 wrong merges, 100% detail pages, no finding on the negative control,
 * every invented finding ungrounded), and so must the generated sibling report (titles one word apart): CI runs it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '../../electron/engine';
import { DEFAULT_RUN_LLM_SETTINGS } from '../../electron/engine/pipeline/settings';
import { getCompleteness } from '../../electron/engine/completeness';
import { listMergedFindings } from '../../electron/engine/merge';
import { openDatabase } from '../../electron/engine/store';
import { plantedReport, plantedResponder } from '../fixtures/plantedFindings';
import { startOllamaSim, type Responder } from '../ollama-sim/index';
import { startOpenAiSim } from '../ollama-sim/openai';
import { generatedSet } from './labelledSet';
import { completenessGate, scoreCompleteness, type CompletenessScore } from './completenessScore';
import { scoreStrict, type StrictScore } from './strictScore';
import { corpusGap, corpusInventory } from '../helpers/corpus';
import {
  defaultCorpusDir,
  FAITHFUL_MODES,
  loadCorpusTruth,
  MODE_SETS,
  MODEL_MODES,
  truthResponder,
  type ModelMode,
  type TruthDocument,
  type TruthFindingSpec,
} from './truthResponder';

/** Modes in which the model leaves findings out: the strict gate cannot hold, the completeness check must name them. */
const SKIPPING_MODES: readonly ModelMode[] = ['missed-finding', 'skips-findings'];

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
  /** Extraction unit size (RunLlmSettings.unitTokens); default the app's. */
  unitTokens?: number;
  /** Through the OpenAI-compatible API: its simulator with `sim`, else `host` is the server's base URL (.../v1). */
  openai?: boolean;
  /** With `openai` and a real server: the environment variable holding its API key. */
  keyEnv?: string;
  /** The reply room of a call (the run setting replyTokens); a small one makes dense units overflow it. */
  replyTokens?: number;
  /** stops-after-n: findings per reply before the simulated model ends its list (default STOPS_AFTER). */
  stopAfter?: number;
}

/** The OpenAI simulator's context: what a vLLM server started with --max-model-len 32768 lists, the Ollama path's cap. */
const OPENAI_SIM_CONTEXT = 32768;

export interface EvalRow extends StrictScore {
  name: string;
  pages: number;
  seconds: number;
  status: string;
  /** Part of the corpus (gated) rather than the generated set. */
  corpus: boolean;
  /** Held to the corpus gate: the corpus, and generated documents answered from their truth (the sibling report). */
  gated: boolean;
  runId: number;
  documentId: number | null;
  /** The completeness check held against the truth (corpus documents only). */
  completeness: CompletenessScore | null;
}

export interface EvalTotals {
  truth: number;
  found: number;
  /** Found findings whose truth names a severity, and of those the ones carrying the printed word. */
  severityScored: number;
  severityAsPrinted: number;
  /** Found findings whose document prints an ID or number for them, and of those the ones carrying it. */
  idScored: number;
  withPrintedId: number;
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
  /** A generated document held to the corpus gate (its truth is exact, like the corpus's). */
  gated?: boolean;
  responder?: Responder;
  /** Its truth (a corpus truth file, or a generated document's), for the completeness score. */
  truthDoc?: TruthDocument;
}

export async function runEval(options: EvalOptions): Promise<{ rows: EvalRow[]; totals: EvalTotals; gate: string[] }> {
  const dir = options.workDir ?? mkdtempSync(join(tmpdir(), 'audit-eval-'));
  const corpusDir = options.corpusDir ?? defaultCorpusDir();
  const documents: EvalDocument[] = [];
  const planted = plantedReport();
  for (const g of options.generated === false ? [] : await generatedSet(dir)) {
    if (g.truthDocument) {
      // Answered from its truth like the corpus, in the same model modes, and gated with it.
      const responder = truthResponder([g.truthDocument], {
        modes: options.modes ?? FAITHFUL_MODES,
        ...(options.stopAfter ? { stopAfter: options.stopAfter } : {}),
      });
      documents.push({ name: g.name, file: g.file, corpus: false, gated: true, truth: g.truthDocument.findings, responder, truthDoc: g.truthDocument });
      continue;
    }
    documents.push({
      name: g.name,
      file: g.file,
      corpus: false,
      truth: g.truth.map((t) => ({ id: t.id, title: t.titles[0]!, severity: '', page: t.page, ...(t.titles[1] ? { detailTitle: t.titles[1] } : {}) })),
      responder: plantedResponder(planted),
    });
  }
  if (options.corpus && existsSync(join(corpusDir, 'pdfs'))) {
    const truths = loadCorpusTruth(corpusDir).filter((d) => !options.only || options.only.includes(d.name));
    const responder = truthResponder(truths, { modes: options.modes ?? FAITHFUL_MODES, ...(options.stopAfter ? { stopAfter: options.stopAfter } : {}) });
    for (const t of truths)
      documents.push({ name: t.name, file: join(corpusDir, 'pdfs', `${t.name}.pdf`), truth: t.findings, corpus: true, responder, truthDoc: t });
  }

  const sim = !options.sim
    ? undefined
    : options.openai
      ? await startOpenAiSim({ timeScale: 0, contextLength: OPENAI_SIM_CONTEXT })
      : await startOllamaSim({ timeScale: 0 });
  const openAiUrl = options.openai ? (sim && 'baseUrl' in sim ? sim.baseUrl : options.host) : undefined;
  if (options.openai && !openAiUrl) throw new Error("--openai needs --sim, or --host with the server's base URL (e.g. http://127.0.0.1:8080/v1).");
  const db = openDatabase(join(dir, 'eval.sqlite'));
  try {
    const engine = createEngine({ db, appVersion: 'eval', keys: (name) => process.env[name] });
    const rows: EvalRow[] = [];
    for (const doc of documents) {
      if (sim && doc.responder) sim.setResponder(doc.responder);
      const started = performance.now();
      const outcome = await engine.analyze([doc.file], {
        llm: {
          ...DEFAULT_RUN_LLM_SETTINGS,
          cache: false,
          models: options.model ? { default: options.model } : {},
          ...(openAiUrl
            ? { endpoints: [{ kind: 'openai' as const, url: openAiUrl, concurrency: 1, ...(options.keyEnv ? { keyRef: options.keyEnv } : {}) }] }
            : sim
              ? { host: sim.url }
              : options.host
                ? { host: options.host }
                : {}),
          ...(options.unitTokens !== undefined ? { unitTokens: options.unitTokens } : {}),
          ...(options.replyTokens !== undefined ? { replyTokens: options.replyTokens } : {}),
        },
      });
      const seconds = (performance.now() - started) / 1000;
      const input = outcome.inputs[0]!;
      const pages = input.documentId === null ? 0 : (db.prepare('SELECT page_count AS n FROM documents WHERE id = ?').get(input.documentId) as { n: number }).n;
      const findings = input.documentId === null ? [] : listMergedFindings(db, outcome.run.id, input.documentId);
      const status = outcome.run.status === 'done' ? input.status : `${outcome.run.status}: ${outcome.run.error?.message ?? ''}`;
      const verdict = input.documentId === null ? null : getCompleteness(db, outcome.run.id, input.documentId);
      const completeness = doc.truthDoc && verdict ? scoreCompleteness(doc.truthDoc, findings, verdict) : null;
      rows.push({
        name: doc.name,
        pages,
        seconds,
        status,
        corpus: doc.corpus,
        gated: doc.corpus || (doc.gated ?? false),
        runId: outcome.run.id,
        documentId: input.documentId,
        completeness,
        ...scoreStrict(doc.truth, findings),
      });
    }
    const sum = (
      key: 'truth' | 'found' | 'duplicates' | 'wrongMerges' | 'detailPages' | 'extra' | 'severityScored' | 'severityAsPrinted' | 'idScored' | 'withPrintedId',
    ) => rows.reduce((a, r) => a + r[key], 0);
    const pages = rows.reduce((a, r) => a + r.pages, 0);
    const totals: EvalTotals = {
      truth: sum('truth'),
      found: sum('found'),
      severityScored: sum('severityScored'),
      severityAsPrinted: sum('severityAsPrinted'),
      idScored: sum('idScored'),
      withPrintedId: sum('withPrintedId'),
      duplicates: sum('duplicates'),
      wrongMerges: sum('wrongMerges'),
      detailPages: sum('detailPages'),
      extra: sum('extra'),
      recall: sum('truth') === 0 ? 1 : sum('found') / sum('truth'),
      secondsPerPage: pages === 0 ? 0 : rows.reduce((a, r) => a + r.seconds, 0) / pages,
    };
    const skipping = (options.modes ?? FAITHFUL_MODES).some((m) => SKIPPING_MODES.includes(m));
    // A model that leaves findings out cannot pass the strict gate; what must hold then is that the check names each one.
    const gated = rows.filter((r) => r.gated);
    const gate = [...(skipping ? [] : corpusGate(gated)), ...printedGate(gated), ...completenessGate(gated, skipping)];
    return { rows, totals, gate };
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

/**
 * What every found finding must carry, whatever the model left out (a model that skips findings included): the
 * severity its document prints for it, and the ID (or number) it prints for it.
 */
export function printedGate(rows: readonly EvalRow[]): string[] {
  const failures: string[] = [];
  for (const r of rows) {
    if (r.severityAsPrinted < r.severityScored)
      failures.push(`${r.name}: ${r.severityScored - r.severityAsPrinted} of ${r.severityScored} found findings without the severity the document prints`);
    if (r.withPrintedId < r.idScored)
      failures.push(`${r.name}: ${r.idScored - r.withPrintedId} of ${r.idScored} found findings without the ID or number the document prints`);
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
      severity: `${r.severityAsPrinted}/${r.severityScored}`,
      'printed ID': `${r.withPrintedId}/${r.idScored}`,
      extra: r.extra,
      ungrounded: r.ungrounded,
      's/page': (r.seconds / Math.max(1, r.pages)).toFixed(2),
      ...(r.completeness
        ? {
            completeness: r.completeness.status,
            'false places': `${r.completeness.falsePlaces}/${r.completeness.places}`,
            totals: r.completeness.printsTotals ? r.completeness.totals : `${r.completeness.totals} (none printed)`,
            'missed named': `${r.completeness.missedNamed}/${r.completeness.missed}`,
          }
        : {}),
    })),
  );
  for (const r of result.rows) for (const p of [...r.problems, ...(r.completeness?.problems ?? [])].slice(0, 8)) console.log(`  ${r.name}: ${p}`);
  const t = result.totals;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  console.log(
    `found once ${t.found}/${t.truth} (${pct(t.recall)})  duplicates ${t.duplicates}  wrong merges ${t.wrongMerges}  detail pages ${t.detailPages}/${t.found}  extra ${t.extra}  time per page ${t.secondsPerPage.toFixed(2)} s`,
  );
  const share = (a: number, b: number) => `${a}/${b} (${pct(b === 0 ? 1 : a / b)})`;
  console.log(`severity as printed ${share(t.severityAsPrinted, t.severityScored)}  with printed ID or number ${share(t.withPrintedId, t.idScored)}`);
  const scored = result.rows.flatMap((r) => (r.completeness ? [r.completeness] : []));
  if (scored.length > 0) {
    const printing = scored.filter((c) => c.printsTotals);
    const count = (list: readonly CompletenessScore[], totals: string) => list.filter((c) => c.totals === totals).length;
    console.log(
      `completeness: 0 false places on ${scored.filter((c) => c.falsePlaces === 0).length}/${scored.length} reports (${scored.reduce((a, c) => a + c.falsePlaces, 0)} false of ${scored.reduce((a, c) => a + c.places, 0)} places)  ` +
        `stated totals on ${printing.length} reports that print them: exact ${count(printing, 'exact')}, none ${count(printing, 'none')}, wrong ${count(printing, 'wrong')}; read where none printed ${count(
          scored.filter((c) => !c.printsTotals),
          'wrong',
        )}  ` +
        `missed findings named ${scored.reduce((a, c) => a + c.missedNamed, 0)}/${scored.reduce((a, c) => a + c.missed, 0)}`,
    );
  }
}

export interface UnitSizeResult {
  unitTokens: number;
  result: Awaited<ReturnType<typeof runEval>>;
  /** Extraction calls the runs made at this size (llm_calls rows of purpose 'extract' that reached the model). */
  extractionCalls: number;
}

/**
 * The same documents at each extraction unit size, one after the other: larger units mean fewer, cheaper calls, and
 * can lower a small model's recall (more text to keep in mind, more findings per reply). Only a real model shows how
 * much; this is how a user measures it before choosing `--unit-tokens`.
 */
export async function runEvalByUnitSize(options: EvalOptions, sizes: readonly number[]): Promise<UnitSizeResult[]> {
  const results: UnitSizeResult[] = [];
  for (const unitTokens of sizes) {
    const dir = mkdtempSync(join(tmpdir(), `audit-eval-unit-${unitTokens}-`));
    try {
      const result = await runEval({ ...options, unitTokens, workDir: dir });
      const db = openDatabase(join(dir, 'eval.sqlite'));
      try {
        const row = db.prepare("SELECT COUNT(*) AS n FROM llm_calls WHERE purpose = 'extract' AND outcome IN ('ok', 'retried', 'failed')").get() as {
          n: number;
        };
        results.push({ unitTokens, result, extractionCalls: row.n });
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return results;
}

/** One row per document, one column per unit size; then recall, calls and time per page per size. */
export function unitSizeTable(results: readonly UnitSizeResult[]): Record<string, string>[] {
  const first = results[0]?.result.rows ?? [];
  const column = (r: UnitSizeResult) => `unit ${r.unitTokens}`;
  const rows: Record<string, string>[] = first.map((doc, i) => ({
    document: doc.name,
    truth: String(doc.truth),
    ...Object.fromEntries(
      results.map((r) => [column(r), `${r.result.rows[i]?.found ?? '-'} found${r.result.rows[i]?.status === 'done' ? '' : ` (${r.result.rows[i]?.status})`}`]),
    ),
  }));
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  rows.push({
    document: 'recall (found once / truth)',
    truth: String(results[0]?.result.totals.truth ?? 0),
    ...Object.fromEntries(results.map((r) => [column(r), pct(r.result.totals.recall)])),
  });
  rows.push({ document: 'extraction calls', truth: '', ...Object.fromEntries(results.map((r) => [column(r), String(r.extractionCalls)])) });
  rows.push({ document: 'seconds per page', truth: '', ...Object.fromEntries(results.map((r) => [column(r), r.result.totals.secondsPerPage.toFixed(2)])) });
  return rows;
}

/** `--unit-tokens 2000,4000`: positive whole numbers, or a usage error. */
export function parseUnitSizes(value: string): number[] {
  const sizes = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
    .map(Number);
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error(`--unit-tokens takes whole numbers of tokens separated by commas (for example 2000,4000,8000), not "${value}".`);
  }
  return [...new Set(sizes)];
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
      'unit-tokens': { type: 'string' },
      openai: { type: 'boolean', default: false },
      'key-env': { type: 'string' },
    },
  });
  // A named set (faithful, imperfect, bare-titles-set) stands for its modes; sets and single modes combine.
  const named = values.modes
    ?.split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  const modes = named && [...new Set(named.flatMap((m): readonly string[] => MODE_SETS[m] ?? [m]))];
  const unknown = modes?.filter((m) => !(MODEL_MODES as readonly string[]).includes(m)) ?? [];
  if (unknown.length > 0) {
    console.error(`Unknown mode ${unknown.join(', ')}. Modes: ${MODEL_MODES.join(', ')}; sets: ${Object.keys(MODE_SETS).join(', ')}.`);
    process.exit(2);
  }
  let sizes: number[] | undefined;
  try {
    sizes = values['unit-tokens'] === undefined ? undefined : parseUnitSizes(values['unit-tokens']);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const options: EvalOptions = {
    ...(values.host ? { host: values.host } : {}),
    ...(values.model ? { model: values.model } : {}),
    sim: values.sim,
    corpus: values.corpus,
    ...(modes ? { modes: modes as ModelMode[] } : {}),
    ...(values.only ? { only: values.only.split(',') } : {}),
    ...(values.openai ? { openai: true } : {}),
    ...(values['key-env'] ? { keyEnv: values['key-env'] } : {}),
  };
  if (sizes && sizes.length > 1) {
    const results = await runEvalByUnitSize(options, sizes);
    console.log(
      `Recall by extraction unit size (${values.sim ? 'simulator' : `${values.model ?? 'default model'} at ${values.host ?? 'the default Ollama host'}`}):`,
    );
    console.table(unitSizeTable(results));
    const gated = values.sim && values.corpus ? results.filter((r) => r.result.gate.length > 0) : [];
    for (const r of gated) console.log(`\nCorpus gate FAILED at unit ${r.unitTokens}:\n- ${r.result.gate.join('\n- ')}`);
    if (gated.length > 0) process.exit(1);
    return;
  }
  const result = await runEval({ ...options, ...(sizes ? { unitTokens: sizes[0]! } : {}) });
  printEval(result);
  if (values.corpus) {
    // A document the corpus holds only half of (a PDF without its truth file, or the reverse) cannot be scored: say so.
    const halves = corpusInventory(options.corpusDir ?? defaultCorpusDir())
      .map(corpusGap)
      .filter((gap) => gap !== null);
    if (halves.length > 0) console.log(`\nLeft out, the corpus holds only half of: ${halves.join(', ')}.`);
  }
  if (values.sim && values.corpus) {
    if (!result.rows.some((r) => r.corpus)) {
      console.log(`\nNo corpus found at ${defaultCorpusDir()}: put ../shared/corpus beside the checkout (or drop --corpus).`);
      process.exit(1);
    }
    if (result.gate.length > 0) {
      console.log(`\nCorpus gate FAILED:\n- ${result.gate.join('\n- ')}`);
      process.exit(1);
    }
    console.log(
      (options.modes ?? FAITHFUL_MODES).some((m) => SKIPPING_MODES.includes(m))
        ? '\nCorpus gate passed: every finding the model left out is named by the completeness check; no stated total read wrong.'
        : '\nCorpus gate passed: every truth finding found once, with its detail page; no duplicate, no wrong merge, nothing extra; 0 false completeness places on 90% of reports, no stated total read wrong.',
    );
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) await main();
