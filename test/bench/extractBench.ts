/**
 * Extraction benchmark against the Ollama simulator with a realistic rate
 * model (prefill 1500 tok/s, decode 40 tok/s, load 5 s), the simulator in its
 * own process so the engine's CPU is measured alone. Wired into `npm run bench`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createEngine } from '../../electron/engine';
import { DEFAULT_RUN_LLM_SETTINGS, type RunSettings } from '../../electron/engine/pipeline/settings';
import { openDatabase } from '../../electron/engine/store';
import { defaultTokenize, type SimCounters } from '../ollama-sim/index';

const PREFILL_TOKENS_PER_SEC = 1500;
const COMMON = 'The review covered the deployment records, the change log and the incident register for the quarter.';
const SENTENCES = [
  COMMON,
  'Interviews were held with the operations team and the product owner to confirm the observed practice.',
  'Sampling followed the approach agreed in the engagement letter and the results were discussed with management.',
  'Where evidence was incomplete the team requested additional records before drawing a conclusion.',
  'Management responses are recorded next to each observation and were not verified by the audit team.',
];

function hundredPages(): string[] {
  return Array.from({ length: 100 }, (_, p) => {
    const lines = [`${p + 1}. Observations for area ${p + 1}`];
    for (let i = 0; i < 22; i++) lines.push(SENTENCES[(p + i) % SENTENCES.length]!);
    return lines.join('\n');
  });
}

async function startSim(reply: string) {
  const root = join(import.meta.dirname, '../..');
  const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'test/bench/simProcess.ts'), reply], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => String((await lines.next()).value ?? '');
  const url = (await next()).trim();
  return {
    url,
    counters: async (): Promise<SimCounters> => {
      child.stdin!.write('counters\n');
      return JSON.parse(await next()) as SimCounters;
    },
    reset: async () => {
      child.stdin!.write('reset\ncounters\n');
      await next();
    },
    close: () => child.stdin!.end('quit\n'),
  };
}

export async function runExtractBench(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'extract-bench-'));
  const pages = hundredPages();
  const file = join(dir, 'hundred-pages.txt');
  writeFileSync(file, pages.join('\f'));
  const reply = JSON.stringify({
    findings: [
      {
        id: null,
        type: 'observation',
        title: 'Deployment records reviewed',
        severity: 'Low',
        description: 'Restated on every page.',
        evidence: COMMON,
        page: 1,
      },
    ],
    summary: 'One page of observations.',
  });
  const sim = await startSim(reply);
  const db = openDatabase(join(dir, 'bench.sqlite'));
  try {
    const engine = createEngine({ db, appVersion: 'bench' });
    const settings: Partial<RunSettings> = {
      strategy: 'pages',
      judge: false,
      llm: { ...DEFAULT_RUN_LLM_SETTINGS, host: sim.url, models: { default: 'qwen3:8b' }, cache: true },
    };
    await sim.reset();
    const cpuPerChunk: number[] = [];
    let cpuAtStart: NodeJS.CpuUsage | undefined;
    const started = performance.now();
    const outcome = await engine.analyze([file], settings, {
      onProgress: (e) => {
        if (e.phase !== 'extract') return;
        if (/^file 1 of 1: chunks? \d+(?:-\d+)? of \d+ \(pages/.test(e.message)) cpuAtStart = process.cpuUsage();
        else if (cpuAtStart && /analysed/.test(e.message)) {
          const used = process.cpuUsage(cpuAtStart);
          cpuPerChunk.push((used.user + used.system) / 1000);
          cpuAtStart = undefined;
        }
      },
    });
    const wallSeconds = (performance.now() - started) / 1000;
    const c = await sim.counters();
    const sourceTokens = defaultTokenize(pages.join('\n')).length;
    const extractRows = db.prepare("SELECT COUNT(*) AS n FROM llm_calls WHERE purpose = 'extract' AND outcome = 'ok'").get() as { n: number };
    cpuPerChunk.sort((a, b) => a - b);
    const withoutPrefixReuse = c.simulatedSeconds + (c.promptTokens - c.promptTokensEvaluated) / PREFILL_TOKENS_PER_SEC;

    // A re-run of the same document with the response cache: nothing is paid twice.
    await sim.reset();
    await engine.analyze([file], settings);
    const rerun = await sim.counters();

    return {
      status: `${outcome.run.status}/${outcome.inputs[0]!.status}`,
      pages: pages.length,
      'chunks analysed': extractRows.n,
      'source tokens (simulator tokenizer)': sourceTokens,
      'prompt tokens evaluated per source token, with prefix cache (target <= 1.3)': Number((c.promptTokensEvaluated / sourceTokens).toFixed(3)),
      'prompt tokens sent per source token, without prefix cache': Number((c.promptTokens / sourceTokens).toFixed(3)),
      'model reloads': c.reloads,
      'engine CPU per extraction call (unit), median ms (target < 5)': Number((cpuPerChunk[Math.floor(cpuPerChunk.length / 2)] ?? 0).toFixed(2)),
      'engine CPU per extraction call (unit), p95 ms': Number((cpuPerChunk[Math.floor(cpuPerChunk.length * 0.95)] ?? 0).toFixed(2)),
      'simulated model time, s': Number(c.simulatedSeconds.toFixed(1)),
      'simulated model time without prefix reuse, s': Number(withoutPrefixReuse.toFixed(1)),
      'time ratio (with / without prefix reuse)': Number((c.simulatedSeconds / withoutPrefixReuse).toFixed(3)),
      're-run with response cache: chat requests (probe only)': rerun.chatRequests,
      'wall time of the run (simulator not sleeping), s': Number(wallSeconds.toFixed(2)),
    };
  } finally {
    sim.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  runExtractBench().then((r) => console.table(r));
}
