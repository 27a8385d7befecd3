/**
 * A pool of inference endpoints (issue 29): the corpus reports as one batch on one Ollama endpoint (today's
 * sequential run) against the same batch spread over three Ollama endpoints, and over one OpenAI-compatible
 * endpoint with three slots (a vLLM-like server). The simulators keep a Q4 8B model's timing on a mid-range GPU
 * (modelTimeBench RATES, replies of realistic length), with time scaled by POOL_TIME_SCALE (default 0.1: a
 * simulated minute is 6 s). At real speed the model's time is about a hundred times the engine's own CPU time; the
 * scale keeps it the larger part, as it is, while the bench ends in minutes (the engine runs on one thread, so on a
 * busy machine its CPU time is what three endpoints cannot divide). The documents are the corpus reports (not the
 * hard-* extraction cases), stored once before the runs, so every run measures the analysis alone. Findings must be
 * identical in every row.
 *
 * Run alone: BENCH_ONLY=pool npx tsx test/bench/run.ts
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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
  const files = readdirSync(pdfDir)
    .filter((f) => !f.startsWith('hard-') && docs.some((d) => `${d.name}.pdf` === f))
    .sort()
    .map((f) => join(pdfDir, f));
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
    const layouts: Array<[string, EndpointSettings[]]> = [
      ['1 Ollama endpoint (one file at a time)', [{ kind: 'ollama', url: a.url, concurrency: 1 }]],
      [
        '3 Ollama endpoints',
        [a, b, c].map((s): EndpointSettings => ({ kind: 'ollama', url: s.url, concurrency: 1 })),
      ],
      ['1 OpenAI-compatible endpoint, 3 slots', [{ kind: 'openai', url: vllm.baseUrl, concurrency: 3 }]],
    ];
    const rows: Record<string, string>[] = [];
    let reference: { seconds: number; findings: string } | undefined;
    for (const [label, endpoints] of layouts) {
      const started = performance.now();
      const outcome = await engine.analyze(files, { ...base, llm: { ...base.llm!, endpoints } });
      const seconds = (performance.now() - started) / 1000;
      const findings = findingsOf(db, outcome.run.id);
      reference ??= { seconds, findings };
      rows.push({
        endpoints: label,
        files: String(files.length),
        status: outcome.run.status,
        'wall s': seconds.toFixed(1),
        'simulated model min': (servers.reduce((n, s) => n + s.counters.simulatedSeconds, 0) / 60).toFixed(1),
        'speed-up': `${(reference.seconds / seconds).toFixed(2)}x`,
        'findings identical': findings === reference.findings ? 'yes' : 'NO',
        target: label.startsWith('1 Ollama') ? '' : '>= 2.5x',
      });
      for (const s of servers) s.counters.simulatedSeconds = 0;
    }
    return rows;
  } finally {
    for (const s of servers) await s.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
