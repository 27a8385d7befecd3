/**
 * Peak memory of a child Node process, for the tests and the benchmark that hold the CLI to a memory bound (hostile
 * PDFs). The child reports its own peak resident set size (`process.resourceUsage().maxRSS`) when it exits (the
 * benchmark's exitFigures.mjs, loaded with --import); meanwhile its resident size is read every 100 ms from /proc
 * (Linux), and the child is killed once it passes `killAboveMb`, so a regression fails the test in seconds instead
 * of taking the machine's memory.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface MeasuredRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident set size in MB: the child's own figure, or the largest seen from outside when it was killed. */
  peakMb: number;
  /** Set when the guard killed the child: what it had reached. */
  killedAtMb: number | null;
  /** Wall time from spawn to exit (for the benchmark; tests never assert on it). */
  seconds: number;
}

const reporter = pathToFileURL(join(import.meta.dirname, '../bench/exitFigures.mjs')).href;

/** Runs `node <nodeArgs...>` and measures its peak memory (see above). */
export async function runMeasured(nodeArgs: readonly string[], options: { cwd: string; killAboveMb: number; env?: NodeJS.ProcessEnv }): Promise<MeasuredRun> {
  const dir = mkdtempSync(join(tmpdir(), 'peak-rss-'));
  const figures = join(dir, 'figures.json');
  try {
    const child = spawn(process.execPath, ['--import', reporter, ...nodeArgs], {
      cwd: options.cwd,
      env: { ...process.env, CI: 'true', ...options.env, BENCH_FIGURES_FILE: figures },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const started = performance.now();
    let seenMb = 0;
    let killedAtMb: number | null = null;
    const watch = setInterval(() => {
      const mb = residentMb(child.pid);
      seenMb = Math.max(seenMb, mb);
      if (mb > options.killAboveMb && killedAtMb === null) {
        killedAtMb = mb;
        child.kill('SIGKILL');
      }
    }, 100);
    const code = await new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
    clearInterval(watch);
    const reported = existsSync(figures) ? (JSON.parse(readFileSync(figures, 'utf8')) as { maxRssMb: number }).maxRssMb : 0;
    return {
      code,
      stdout,
      stderr,
      peakMb: Math.round(Math.max(reported, seenMb)),
      killedAtMb: killedAtMb === null ? null : Math.round(killedAtMb),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The process's resident set size now (VmRSS), in MB; 0 once it is gone or where /proc does not exist. */
function residentMb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

const root = join(import.meta.dirname, '../..');

/** `npm run analyze -- <args>` as node arguments: the built CLI (scripts/analyze.mjs) with the V8 flags package.json gives it. */
export function analyzeCliNodeArgs(args: readonly string[]): string[] {
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { analyze: string } }).scripts.analyze;
  return [...script.split(' ').filter((token) => token.startsWith('--')), join(root, 'scripts/analyze.mjs'), ...args];
}
