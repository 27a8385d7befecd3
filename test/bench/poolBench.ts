/**
 * A pool of inference endpoints (issue 29): a batch of 12 corpus documents on one Ollama endpoint (today's
 * sequential run) against the same batch spread over three Ollama endpoints, over one OpenAI-compatible endpoint with
 * three slots (a vLLM-like server), and over three Ollama endpoints of which one dies a third of the way through its
 * share. The simulators keep a Q4 8B model's timing on a mid-range GPU (modelTimeBench RATES, replies of realistic
 * length), with time scaled by POOL_TIME_SCALE (default 0.1: a simulated minute is 6 s). At real speed the model's
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
import { DEFAULT_RUN_LLM_SETTINGS, type RunSettings } from '../../electron/engine/jobs/settings';
import { listMergedFindings } from '../../electron/engine/merge';
import { listRunInputs, openDatabase, type Database } from '../../electron/engine/store';
import { loadCorpusTruth } from '../eval/truthResponder';
import { startOllamaSim, type OllamaSim } from '../ollama-sim/index';
import { startOpenAiSim, type OpenAiSim } from '../ollama-sim/openai';
import { RATES, realisticResponder } from './modelTimeBench';
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
  const facts = (name: string) => JSON.parse(readFileSync(join(CORPUS, 'truth', `${name}.json`), 'utf8')) as { pages: number; has_text_layer: boolean; encrypted: string | boolean };
  const encrypted = (name: string) => {
    const written = facts(name).encrypted;
    return written === true || /^yes/i.test(String(written));
  };
  const available = readdirSync(pdfDir).filter((f) => names.includes(f.replace(/\.pdf$/, ''))).map((f) => f.replace(/\.pdf$/, ''));
  const reports = available.filter((n) => !n.startsWith('hard-')).sort();
  const readable = available
    .filter((n) => n.startsWith('hard-') && facts(n).has_text_layer && !encrypted(n))
    .sort((a, b) => facts(a).pages - facts(b).pages || a.localeCompare(b));
  return [...reports, ...readable].slice(0, BATCH).map((n) => join(pdfDir, `${n}.pdf`));
}

/** Endpoints a run left out after it had started (the pool's run event for an endpoint that stopped answering). */
function leftOutMidRun(db: Database, runId: number): number {
  const row = db.prepare("SELECT COUNT(*) AS n FROM run_events WHERE run_id = ? AND level = 'warn' AND message LIKE '% stopped answering%'").get(runId) as { n: number };
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

export async function runPoolBench(): Promise<Record<string, string>[]> {
  const pdfDir = join(CORPUS, 'pdfs');
  if (!existsSync(pdfDir)) throw new Error('../shared/corpus not found');
  const docs = loadCorpusTruth(CORPUS);
  const files = batchFiles(pdfDir, docs.map((d) => d.name));
  const dir = mkdtempSync(join(tmpdir(), 'pool-bench-'));
  const db = openDatabase(join(dir, 'bench.sqlite'));
  const responder = realisticResponder(docs);
  const servers: Array<OllamaSim | OpenAiSim> = [];
  const ollama = async () => {
    const sim = await startOllamaSim({ rates: RATES, timeScale: TIME_SCALE, responder });
    servers.push(sim);
    return sim;
  };
  try {
    const engine = createEngine({ db, appVersion: 'bench' });
    // Stored once: every measured run reuses the documents (same bytes) and measures the analysis only.
    await engine.analyze(files, { mode: 'rules-only' });
    const base: Partial<RunSettings> = { llm: { ...DEFAULT_RUN_LLM_SETTINGS, models: { default: 'qwen3:8b' }, cache: false } };
    const [a, b, c] = [await ollama(), await ollama(), await ollama()];
    const vllm = await startOpenAiSim({ rates: RATES, timeScale: TIME_SCALE, responder, slots: 3, contextLength: 32768 });
    servers.push(vllm);
    // The dying endpoint's own three servers: it closes every connection in the middle of a call, a third of the
    // way through the calls it would take (a third of the reference run's).
    const [d, e, f] = [await ollama(), await ollama(), await ollama()];
    let killAfter = Infinity;
    let dCalls = 0;
    d.setResponder(async (req) => {
      if (++dCalls === killAfter) await d.close();
      return responder(req);
    });
    const layouts: Array<[string, EndpointSettings[]]> = [
      ['1 Ollama endpoint (one file at a time)', [{ kind: 'ollama', url: a.url, concurrency: 1 }]],
      [
        '3 Ollama endpoints',
        [a, b, c].map((s): EndpointSettings => ({ kind: 'ollama', url: s.url, concurrency: 1 })),
      ],
      ['1 OpenAI-compatible endpoint, 3 slots', [{ kind: 'openai', url: vllm.baseUrl, concurrency: 3 }]],
      ['3 Ollama endpoints, one dies mid-batch', [d, e, f].map((s): EndpointSettings => ({ kind: 'ollama', url: s.url, concurrency: 1 }))],
    ];
    const rows: Record<string, string>[] = [];
    let reference: { seconds: number; findings: string; calls: number } | undefined;
    for (const [label, endpoints] of layouts) {
      const dying = label.includes('dies');
      if (dying) killAfter = Math.max(2, Math.round(reference!.calls / 9));
      const started = performance.now();
      const outcome = await engine.analyze(files, { ...base, llm: { ...base.llm!, endpoints } });
      const seconds = (performance.now() - started) / 1000;
      const findings = findingsOf(db, outcome.run.id);
      const calls = servers.reduce((n, s) => n + s.counters.chatRequests, 0);
      reference ??= { seconds, findings, calls };
      const notDone = outcome.inputs.filter((i) => i.status !== 'done').length;
      rows.push({
        endpoints: label,
        files: String(files.length),
        status: outcome.run.status,
        'wall s': seconds.toFixed(1),
        'simulated model min': (servers.reduce((n, s) => n + s.counters.simulatedSeconds, 0) / 60).toFixed(1),
        'speed-up': `${(reference.seconds / seconds).toFixed(2)}x`,
        'findings identical': findings === reference.findings ? 'yes' : 'NO',
        'files not done': String(notDone),
        'units answered twice': String(answeredTwice(db, outcome.run.id)),
        // The proof that an endpoint did die in that row: the run left it out mid-run.
        'endpoints left out mid-run': String(leftOutMidRun(db, outcome.run.id)),
        target: label.startsWith('1 Ollama') ? '' : dying ? '0 not done, 0 twice, identical' : '>= 2.5x, identical',
      });
      for (const s of servers) {
        s.counters.simulatedSeconds = 0;
        s.counters.chatRequests = 0;
      }
    }
    return rows;
  } finally {
    for (const s of servers) await s.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
