import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { plantedReport, plantedResponder } from '../../fixtures/plantedFindings';
import { useTempDir } from '../../helpers/tempDir';
import { startOpenAiSim, type OpenAiSim } from '../../ollama-sim/openai';
import { writePlantedReport } from '../pipeline/helpers';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-cli-endpoints-');
const report = plantedReport();

/** The CLI as a child process; async, so the simulator in this process keeps answering it. */
function runCli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'electron/cli/analyze.ts'), ...args], {
      cwd,
      env: { ...process.env, CI: 'true', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const sims: OpenAiSim[] = [];
afterEach(async () => {
  while (sims.length) await sims.pop()!.close();
});

const common = ['--strategy', 'pages', '--no-judge', '--model', 'qwen3:8b'];

describe('npm run analyze --endpoint (CLI, real child process, OpenAI-compatible simulator)', () => {
  it('analyses through an OpenAI-compatible endpoint with a key from key-env: findings reported, the key nowhere on disk', async () => {
    const secret = 'sk-cli-test-7f3a9b1c';
    const sim = await startOpenAiSim({ responder: plantedResponder(report), apiKey: secret, contextLength: 16384 });
    sims.push(sim);
    const dir = tempDir();
    const file = writePlantedReport(dir, report);
    const db = join(dir, 'store.sqlite');
    const log = join(dir, 'audit.log');
    const out = join(dir, 'report.md');
    const { code, stdout, stderr } = await runCli(
      [file, ...common, '--db', db, '--log', log, '--out', out, '--endpoint', `kind=openai,url=${sim.baseUrl},context=16384,key-env=AUDIT_TEST_KEY`],
      dir,
      { AUDIT_TEST_KEY: secret },
    );
    expect(stderr + stdout).not.toMatch(/Warning/);
    expect(code, stderr).toBe(0);
    expect(sim.counters.completed).toBeGreaterThan(0);
    expect(sim.counters.unauthorized).toBe(0);
    const markdown = readFileSync(out, 'utf8');
    for (const planted of report.truth.filter((t) => t.id && t.behaviour === undefined).slice(0, 3)) expect(markdown).toContain(planted.id!);
    // The run stored where it went and the key's name, never the key.
    const store = new BetterSqlite3(db, { readonly: true });
    const settingsJson = (store.prepare('SELECT settings_json FROM runs').get() as { settings_json: string }).settings_json;
    expect(JSON.parse(settingsJson).llm.endpoints).toEqual([
      { kind: 'openai', url: sim.baseUrl, concurrency: 1, contextTokens: 16384, keyRef: 'AUDIT_TEST_KEY' },
    ]);
    // The simulator says what it is: the run's record never passes it off as a language model.
    expect(store.prepare("SELECT message FROM run_events WHERE message LIKE '%(OpenAI-compatible server API, not a language model) at %'").all()).toHaveLength(
      1,
    );
    store.close();
    for (const text of [readFileSync(db).toString('latin1'), readFileSync(log, 'utf8'), stdout, stderr, markdown]) expect(text).not.toContain(secret);
  });

  it('a wrong key stops the run with LLM_UNAUTHORIZED and the resume command; --resume with the right key finishes it', async () => {
    const sim = await startOpenAiSim({ responder: plantedResponder(report), apiKey: 'right-key' });
    sims.push(sim);
    const dir = tempDir();
    const file = writePlantedReport(dir, report);
    const db = join(dir, 'store.sqlite');
    const endpoint = `kind=openai,url=${sim.baseUrl},key-env=AUDIT_TEST_KEY`;
    const failed = await runCli([file, ...common, '--db', db, '--endpoint', endpoint], dir, { AUDIT_TEST_KEY: 'wrong-key' });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/LLM_UNAUTHORIZED: The inference server at .* refused the API key/);
    expect(failed.stdout).toMatch(/resume with: npm run analyze -- --resume 1/);
    expect(failed.stdout + failed.stderr).not.toContain('wrong-key');
    const resumed = await runCli(['--resume', '1', '--db', db, '--endpoint', endpoint], dir, { AUDIT_TEST_KEY: 'right-key' });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/Run 1: done/);
  });

  it('a pool from repeated --endpoint: files spread, each progress line names its endpoint, a refused key leaves one out', async () => {
    // Real (short) generation time, so the two files' calls overlap on the server.
    const good = await startOpenAiSim({
      responder: plantedResponder(report),
      contextLength: 16384,
      slots: 2,
      timeScale: 1,
      rates: { prefillTokensPerSec: 1e5, decodeTokensPerSec: 1000, loadSeconds: 0 },
    });
    const keyed = await startOpenAiSim({ responder: plantedResponder(report), apiKey: 'right' });
    sims.push(good, keyed);
    const dir = tempDir();
    const first = writePlantedReport(dir, report);
    const second = join(dir, 'second.txt');
    writeFileSync(second, `${readFileSync(first, 'utf8')}\nA second copy.`);
    const db = join(dir, 'store.sqlite');
    const { code, stdout, stderr } = await runCli(
      [
        first,
        second,
        ...common,
        '--db',
        db,
        '--endpoint',
        `kind=openai,url=${keyed.baseUrl},key-env=AUDIT_TEST_KEY,label=keyed`,
        '--endpoint',
        `kind=openai,url=${good.baseUrl},concurrency=2,label=good`,
      ],
      dir,
      { AUDIT_TEST_KEY: 'wrong' },
    );
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/Run 1: done\./);
    expect(stderr).toMatch(/keyed left out: The inference server at .* refused the API key/);
    expect(stderr).toMatch(/extract: .* \[good\]/);
    expect(good.counters.maxInFlight).toBe(2);
    expect(keyed.counters.completed).toBe(0);
  });

  it('refuses a malformed --endpoint, --host beside --endpoint, and an unset key-env before reading any file (exit 2)', async () => {
    const dir = tempDir();
    const file = writePlantedReport(dir, report);
    const cases: Array<[string[], RegExp]> = [
      [['--endpoint', 'kind=vllm,url=http://127.0.0.1:8000/v1'], /kind=ollama or kind=openai/],
      [['--endpoint', 'kind=openai,url=http://127.0.0.1:8000/v1,concurrency=0'], /concurrency must be a whole number/],
      [['--endpoint', 'kind=openai,url=127.0.0.1:8000'], /is not a URL: write it with its scheme/],
      [['--endpoint', 'kind=openai,url=ftp://127.0.0.1:8000/v1'], /must start with http:\/\/ or https:\/\//],
      [['--endpoint', 'kind=openai,url=http://user:pw@127.0.0.1:8000/v1'], /key-env=VARIABLE/],
      [['--endpoint', 'kind=ollama,url=http://127.0.0.1:11434,context=8192'], /--num-ctx/],
      [['--endpoint', 'kind=openai,url=http://127.0.0.1:8000/v1', '--host', 'http://127.0.0.1:11434'], /--host is the shorthand/],
      [['--endpoint', 'kind=openai,url=http://127.0.0.1:8000/v1,key-env=AUDIT_UNSET_KEY_VAR'], /AUDIT_UNSET_KEY_VAR .* is not set/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli([file, '--db', join(dir, 'store.sqlite'), ...args], dir);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('warns that document text leaves the machine unencrypted for a non-loopback http endpoint, not for https or loopback', async () => {
    const dir = tempDir();
    const file = writePlantedReport(dir, report);
    const db = join(dir, 'store.sqlite');
    const remote = await runCli([file, '--rules-only', '--db', db, '--endpoint', 'kind=openai,url=http://gpu-box.invalid:8000/v1,label=GPU box'], dir);
    expect(remote.stderr).toMatch(/Warning \(GPU box\): Document text will be sent unencrypted over plain http to gpu-box\.invalid:8000/);
    const secure = await runCli(
      [file, '--rules-only', '--db', db, '--endpoint', 'kind=openai,url=https://gpu-box.invalid/v1', '--endpoint', 'kind=ollama,url=http://127.0.0.1:11434'],
      dir,
    );
    expect(secure.stderr).not.toMatch(/unencrypted/);
  });
});
