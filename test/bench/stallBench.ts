/**
 * The host's event loop during whole analyses (issue 38 item 2: every command answered within 200 ms during any
 * run). The engine runs on the host's thread (the app's utility process, or the CLI), so a step that computes for
 * half a second without yielding holds every command the UI sends for that long.
 *
 * Each PDF of ../shared/corpus is analysed by the real engine against simulated servers in a process of their own
 * (simFleet.ts, answering from the truth files at once: only the engine's own work is on this thread). A 10 ms timer
 * notes each gap longer than it asked for and the phase the run was in; perf_hooks' event-loop histogram gives the
 * worst delay and the 99th percentile. Per document: the longest stall, in which phase, and how many exceeded 200 ms.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createEngine } from '../../electron/engine';
import { DEFAULT_RUN_LLM_SETTINGS } from '../../electron/engine/pipeline/settings';
import { openDatabase } from '../../electron/engine/store';
import { Fleet } from './fleet';
import { CORPUS } from './treesplitCorpusBench';

/** The target: no command waits longer than this for the engine's thread. */
const TARGET_MS = 200;
/** How often the probe asks for the thread; a gap longer than this plus a little is a stall. */
const PROBE_MS = 10;

interface Stall {
  ms: number;
  phase: string;
}

export async function runStallBench(): Promise<Record<string, string>[]> {
  const pdfDir = join(CORPUS, 'pdfs');
  if (!existsSync(pdfDir)) throw new Error('../shared/corpus not found');
  const files = readdirSync(pdfDir)
    .filter((name) => name.endsWith('.pdf'))
    .sort();
  const { fleet, urls } = await Fleet.start({ ollama: 1, timeScale: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'stall-bench-'));
  const rows: Record<string, string>[] = [];
  const worst: Stall[] = [];
  try {
    for (const name of files) {
      const db = openDatabase(join(dir, `${name}.sqlite`));
      let phase = 'start';
      const stalls: Stall[] = [];
      let last = performance.now();
      const probe = setInterval(() => {
        const now = performance.now();
        const late = now - last - PROBE_MS;
        if (late > 50) stalls.push({ ms: late, phase });
        last = now;
      }, PROBE_MS);
      const histogram = monitorEventLoopDelay({ resolution: 5 });
      histogram.enable();
      const started = performance.now();
      let status = '';
      try {
        const outcome = await createEngine({ db, appVersion: 'bench' }).analyze(
          [join(pdfDir, name)],
          { llm: { ...DEFAULT_RUN_LLM_SETTINGS, host: urls.ollama[0]!, cache: false } },
          { onProgress: (e) => (phase = e.phase) },
        );
        status = outcome.inputs[0]?.status ?? '?';
      } finally {
        histogram.disable();
        clearInterval(probe);
        db.close();
      }
      const longest = stalls.reduce<Stall | null>((a, b) => (a === null || b.ms > a.ms ? b : a), null);
      if (longest) worst.push({ ms: longest.ms, phase: `${longest.phase} (${name})` });
      rows.push({
        document: name,
        status,
        's total': ((performance.now() - started) / 1000).toFixed(1),
        [`longest stall ms (<= ${TARGET_MS})`]: (histogram.max / 1e6).toFixed(0),
        'in phase': longest?.phase ?? '-',
        'p99 ms': (histogram.percentile(99) / 1e6).toFixed(0),
        [`stalls > ${TARGET_MS} ms`]: String(stalls.filter((s) => s.ms > TARGET_MS).length),
      });
    }
  } finally {
    await fleet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  // Where the engine holds the thread longest, over all documents: the steps to move off it or slice first.
  const byPhase = new Map<string, number>();
  for (const s of worst) {
    const key = s.phase.replace(/ \(.*$/, '');
    byPhase.set(key, Math.max(byPhase.get(key) ?? 0, s.ms));
  }
  rows.push({
    document: 'ALL',
    status: '',
    's total': '',
    [`longest stall ms (<= ${TARGET_MS})`]: Math.max(0, ...worst.map((w) => w.ms)).toFixed(0),
    'in phase': [...byPhase.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([p, ms]) => `${p} ${ms.toFixed(0)}`)
      .join(', '),
    'p99 ms': '',
    [`stalls > ${TARGET_MS} ms`]: String(rows.reduce((n, r) => n + Number(r[`stalls > ${TARGET_MS} ms`] ?? 0), 0)),
  });
  return rows;
}
