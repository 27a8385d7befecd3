/**
 * A pool of inference endpoints (issue 29): a batch of 12 corpus documents on one Ollama endpoint (today's
 * sequential run) against the same batch spread over three Ollama endpoints, and over three Ollama endpoints of which
 * one dies a third of the way through its share; and one OpenAI-compatible endpoint of one slot against three of
 * them, and against one endpoint with three slots (a vLLM-like server). The simulators keep a Q4 8B model's timing on a mid-range GPU (modelTimeBench RATES, replies of realistic
 * length), with time scaled by POOL_TIME_SCALE (default 0.1: a simulated minute is 6 s), and run in a process of
 * their own (simFleet.ts), as real servers run on their own machines: the client's CPU time is its own. At real speed the model's
 * time is about a hundred times the engine's own CPU time; the scale keeps it the larger part, as it is, while the
 * bench ends in minutes (the engine runs on one thread, so on a busy machine its CPU time is what three endpoints
 * cannot divide). The batch is the corpus reports (not the hard-* extraction cases), filled up to 12 with the corpus
 * documents that have a text layer and no password, fewest pages first; the documents are stored once before the
 * runs, so every run measures the analysis alone. Findings must be identical in every row; the row with the dead
 * endpoint counts the files not finished and the model calls whose prompt was answered twice (both must be 0).
 *
 * Run alone: BENCH_ONLY=pool npx tsx test/bench/run.ts
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EndpointSettings } from '../../shared/endpoints';
import { createEngine } from '../../electron/engine';
import { DEFAULT_RUN_LLM_SETTINGS, type RunSettings } from '../../electron/engine/pipeline/settings';
import { listMergedFindings } from '../../electron/engine/merge';
import { listRunInputs, openDatabase, type Database } from '../../electron/engine/store';
import { loadCorpusTruth } from '../eval/truthResponder';
import { Fleet } from './fleet';
import { CORPUS } from './treesplitCorpusBench';

const TIME_SCALE = Number(process.env.POOL_TIME_SCALE ?? 0.1);
/** The batch: 12 corpus reports. */
const BATCH = 12;

/**
 * The batch: every corpus report with a truth file, then other corpus documents a run reads as they are (a text
 * layer, no password), fewest pages first, up to BATCH.
 */
function batchFiles(pdfDir: string, names: readonly string[]): string[] {
  // `encrypted` is written as "no" or "yes (…how…)".
  const facts = (name: string) =>
    JSON.parse(readFileSync(join(CORPUS, 'truth', `${name}.json`), 'utf8')) as { pages: number; has_text_layer: boolean; encrypted: string | boolean };
  const encrypted = (name: string) => {
    const written = facts(name).encrypted;
    return written === true || /^yes/i.test(String(written));
  };
  const available = readdirSync(pdfDir)
    .filter((f) => names.includes(f.replace(/\.pdf$/, '')))
    .map((f) => f.replace(/\.pdf$/, ''));
  const reports = available.filter((n) => !n.startsWith('hard-')).sort();
  const readable = available
    .filter((n) => n.startsWith('hard-') && facts(n).has_text_layer && !encrypted(n))
    .sort((a, b) => facts(a).pages - facts(b).pages || a.localeCompare(b));
  return [...reports, ...readable].slice(0, BATCH).map((n) => join(pdfDir, `${n}.pdf`));
}

/** Endpoints a run left out after it had started (the pool's run event for an endpoint that stopped answering). */
function leftOutMidRun(db: Database, runId: number): number {
  const row = db.prepare("SELECT COUNT(*) AS n FROM run_events WHERE run_id = ? AND level = 'warn' AND message LIKE '% stopped answering%'").get(runId) as {
    n: number;
  };
  return row.n;
}

/** Model calls of a run whose prompt was answered more than once for the same document: a unit analysed twice. */
function answeredTwice(db: Database, runId: number): number {
  const row = db
    .prepare(
      "SELECT COUNT(*) AS n FROM (SELECT 1 FROM llm_calls WHERE run_id = ? AND outcome IN ('ok', 'cached') AND purpose != 'probe' GROUP BY document_id, prompt_hash HAVING COUNT(*) > 1)",
    )
    .get(runId) as { n: number };
  return row.n;
}

function findingsOf(db: Database, runId: number): string {
  return listRunInputs(db, runId)
    .map((input) =>
      listMergedFindings(db, runId, input.documentId ?? -1)
        .map((f) => `${input.ordinal}|${f.findingKey ?? '-'}|${f.title}|${f.mainPage ?? '-'}|${f.grounded}`)
        .sort()
        .join('\n'),
    )
    .join('\n--\n');
}

/** One row: the endpoints of a run; the baseline row of a server kind, or the kind whose baseline it is compared with. */
interface PoolLayout {
  label: string;
  endpoints: EndpointSettings[];
  baseline?: 'ollama' | 'openai';
  against?: 'ollama' | 'openai';
  dying?: boolean;
}

export async function runPoolBench(): Promise<Record<string, string>[]> {
  const pdfDir = join(CORPUS, 'pdfs');
  if (!existsSync(pdfDir)) throw new Error('../shared/corpus not found');
  const docs = loadCorpusTruth(CORPUS);
  const files = batchFiles(
    pdfDir,
    docs.map((d) => d.name),
  );
  const dir = mkdtempSync(join(tmpdir(), 'pool-bench-'));
  const db = openDatabase(join(dir, 'bench.sqlite'));
  // Three servers for the pool, three more of which one dies; OpenAI-compatible: one with three slots, three with one.
  const openaiServers = [{ slots: 3, contextLength: 32768 }, ...Array.from({ length: 3 }, () => ({ slots: 1, contextLength: 32768 }))];
  const { fleet, urls } = await Fleet.start({ ollama: 6, openai: openaiServers, timeScale: TIME_SCALE });
  try {
    const engine = createEngine({ db, appVersion: 'bench' });
    // Stored once: every measured run reuses the documents (same bytes) and measures the analysis only.
    await engine.analyze(files, { mode: 'rules-only' });
    const base: Partial<RunSettings> = { llm: { ...DEFAULT_RUN_LLM_SETTINGS, models: { default: 'qwen3:8b' }, cache: false } };
    const ollama = (i: number): EndpointSettings => ({ kind: 'ollama', url: urls.ollama[i]!, concurrency: 1 });
    const openai = (i: number, concurrency = 1): EndpointSettings => ({ kind: 'openai', url: urls.openai[i]!, concurrency });
    // Each row's speed-up is against the one-endpoint row of its server kind (an OpenAI-compatible server keeps no
    // prompt cache between slots as Ollama does, so its model time differs); findings are compared with the first row.
    const layouts: PoolLayout[] = [
      { label: '1 Ollama endpoint (one file at a time)', endpoints: [ollama(0)], baseline: 'ollama' },
      { label: '3 Ollama endpoints', endpoints: [ollama(0), ollama(1), ollama(2)], against: 'ollama' },
      { label: '3 Ollama endpoints, one dies mid-batch', endpoints: [ollama(3), ollama(4), ollama(5)], against: 'ollama', dying: true },
      { label: '1 OpenAI-compatible endpoint, 1 slot (one file at a time)', endpoints: [openai(1)], baseline: 'openai' },
      { label: '3 OpenAI-compatible endpoints', endpoints: [openai(1), openai(2), openai(3)], against: 'openai' },
      { label: '1 OpenAI-compatible endpoint, 3 slots', endpoints: [openai(0, 3)], against: 'openai' },
    ];
    const rows: Record<string, string>[] = [];
    const baselines = new Map<string, { seconds: number; calls: number }>();
    let referenceFindings: string | undefined;
    for (const layout of layouts) {
      const { label, endpoints, dying = false } = layout;
      // The dying endpoint closes every connection in the middle of a call, a third of the way through the calls it
      // would take (a third of its baseline run's).
      if (dying) await fleet.ask(`die 3 ${Math.max(2, Math.round(baselines.get(layout.against!)!.calls / 9))}`);
      await fleet.ask('reset');
      const cpu = process.cpuUsage();
      const started = performance.now();
      const outcome = await engine.analyze(files, { ...base, llm: { ...base.llm!, endpoints } });
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const served = await fleet.ask<{ chatRequests: number; simulatedSeconds: number }>('counters');
      const findings = findingsOf(db, outcome.run.id);
      referenceFindings ??= findings;
      if (layout.baseline) baselines.set(layout.baseline, { seconds, calls: served.chatRequests });
      const baseline = baselines.get(layout.baseline ?? layout.against!)!;
      const notDone = outcome.inputs.filter((i) => i.status !== 'done').length;
      const clientCpu = (used.user + used.system) / 1e6;
      rows.push({
        endpoints: label,
        files: String(files.length),
        status: outcome.run.status,
        'wall s': seconds.toFixed(1),
        'simulated model min': (served.simulatedSeconds / 60).toFixed(1),
        'speed-up (vs 1 endpoint of its kind)': `${(baseline.seconds / seconds).toFixed(2)}x`,
        'findings identical': findings === referenceFindings ? 'yes' : 'NO',
        // The client's own CPU (the servers run in another process): per document and per model call.
        'client CPU s (per file, per call ms)': `${clientCpu.toFixed(1)} (${(clientCpu / files.length).toFixed(2)}, ${((1000 * clientCpu) / Math.max(1, served.chatRequests)).toFixed(0)})`,
        'files not done': String(notDone),
        'units answered twice': String(answeredTwice(db, outcome.run.id)),
        // The proof that an endpoint did die in that row: the run left it out mid-run.
        'endpoints left out mid-run': String(leftOutMidRun(db, outcome.run.id)),
        target: layout.baseline ? '' : dying ? '0 not done, 0 twice, identical' : '>= 2.5x, identical',
      });
    }
    return rows;
  } finally {
    await fleet.stop();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
