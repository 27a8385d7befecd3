import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { listFindings } from '../../../electron/engine/extract';
import { openDatabase } from '../../../electron/engine/store';
import { plantedReport, plantedResponder } from '../../fixtures/plantedFindings';
import { findingFingerprint, mergedOf, MODEL, pipelineHarness, writePlantedReport, type PipelineHarness } from './helpers';

const root = resolve(import.meta.dirname, '../../..');
const tsx = join(root, 'node_modules/.bin/tsx');
const cli = join(root, 'electron/cli/analyze.ts');
const report = plantedReport();

let h: PipelineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Units of about two pages (the planted pages are about 250 tokens each): the resume granularity is a unit, not a page. */
function cliArgs(host: string, db: string, out: string): string[] {
  return ['--host', host, '--model', MODEL, '--strategy', 'pages', '--no-judge', '--no-cache', '--unit-tokens', '500', '--db', db, '--out', out];
}

/** Asynchronous on purpose: the simulator answers from this process, so blocking it (spawnSync) would deadlock. */
function runCli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(tsx, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('close', (status) => resolvePromise({ status, stdout, stderr }));
  });
}

function doneChunks(dbPath: string): number {
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new BetterSqlite3(dbPath, { readonly: true, fileMustExist: true });
    return (db.prepare("SELECT COUNT(*) AS n FROM chunk_results WHERE status = 'done'").get() as { n: number }).n;
  } catch {
    return 0; // the CLI has not created the database or its schema yet
  } finally {
    db?.close();
  }
}

describe('kill -9 in the middle of a run', () => {
  it('resumes at the first unfinished unit and ends with the same findings as an uninterrupted run, none lost or duplicated', async () => {
    // Real time, scaled: each chunk takes a few hundred milliseconds, so the kill lands mid-run.
    h = await pipelineHarness({
      responder: plantedResponder(report),
      timeScale: 0.05,
      rates: { prefillTokensPerSec: 1500, decodeTokensPerSec: 40, loadSeconds: 1 },
    });
    const file = writePlantedReport(h.dir, report);

    const straightDb = join(h.dir, 'straight.sqlite');
    const straight = await runCli([file, ...cliArgs(h.sim.url, straightDb, join(h.dir, 'straight.json'))]);
    expect(straight.status, straight.stderr).toBe(0);

    const killedDb = join(h.dir, 'killed.sqlite');
    const child = spawn(tsx, [cli, file, ...cliArgs(h.sim.url, killedDb, join(h.dir, 'killed.json'))], { stdio: 'ignore', detached: true });
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      if (doneChunks(killedDb) >= 2) break;
    }
    // The whole process group: tsx runs the CLI in a child of its own.
    process.kill(-child.pid!, 'SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const doneAtKill = doneChunks(killedDb);
    expect(doneAtKill).toBeGreaterThanOrEqual(2);
    expect(doneAtKill).toBeLessThan(6);

    const resumed = await runCli(['--resume', '1', ...cliArgs(h.sim.url, killedDb, join(h.dir, 'resumed.json'))]);
    expect(resumed.status, resumed.stderr + resumed.stdout).toBe(0);

    const a = openDatabase(straightDb);
    const b = openDatabase(killedDb);
    try {
      expect(findingFingerprint(mergedOf(b, 1))).toEqual(findingFingerprint(mergedOf(a, 1)));
      expect(listFindings(b, 1)).toHaveLength(listFindings(a, 1).length);
      // Nothing committed before the kill was asked for again: one successful call per unit, as in the straight run.
      const extractCalls = (db: typeof a) =>
        (db.prepare("SELECT COUNT(DISTINCT chunk_ref) AS n FROM llm_calls WHERE purpose = 'extract' AND outcome = 'ok'").get() as { n: number }).n;
      expect(extractCalls(a)).toBeGreaterThan(1);
      expect(extractCalls(a)).toBeLessThan(6);
      expect(extractCalls(b)).toBe(extractCalls(a));
    } finally {
      a.close();
      b.close();
    }
  }, 120_000);
});

describe('resuming after Ollama was unreachable', () => {
  it('resumes against the host given with --resume, and keeps it for later resumes', async () => {
    h = await pipelineHarness({ responder: plantedResponder(report) });
    const file = writePlantedReport(h.dir, report);
    const dbPath = join(h.dir, 'store.sqlite');

    // Port 1 on the loopback: nothing listens there.
    const first = await runCli([file, ...cliArgs('http://127.0.0.1:1', dbPath, join(h.dir, 'first.json'))]);
    expect(first.status).toBe(1);
    expect(first.stdout).toMatch(/OLLAMA_UNREACHABLE: .*Tried http:\/\/127\.0\.0\.1:1\./);
    expect(first.stdout).toContain('--resume 1');

    const resumed = await runCli(['--resume', '1', '--host', h.sim.url, '--db', dbPath, '--out', join(h.dir, 'resumed.json')]);
    expect(resumed.status, resumed.stderr + resumed.stdout).toBe(0);
    const db = openDatabase(dbPath);
    try {
      expect(listFindings(db, 1).length).toBeGreaterThan(0);
      const settings = JSON.parse((db.prepare('SELECT settings_json FROM runs WHERE id = 1').get() as { settings_json: string }).settings_json) as {
        llm: { host: string; models: Record<string, string> };
      };
      expect(settings.llm.host).toBe(h.sim.url);
      // Only where Ollama runs changed: the run's models are the ones it started with.
      expect(settings.llm.models).toMatchObject({ default: MODEL });
    } finally {
      db.close();
    }
  }, 120_000);
});
