/**
 * `npm run eval -- --host <url> --model <name> --unit-tokens 1,4000`: the command a user runs against a real Ollama
 * to choose an extraction unit size, run here as a child process against the simulator standing in for Ollama
 * (real HTTP). The simulated model writes at most two findings per reply, as a small model that loses track in a
 * long text would: its recall must fall with the larger unit, and the table must show it, size beside size.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { plantedReport, plantedResponder } from '../../fixtures/plantedFindings';
import { startOllamaSim, type OllamaSim } from '../../ollama-sim/index';
import { parseUnitSizes } from '../../eval/run';

const root = resolve(__dirname, '../../..');
const MOST_FINDINGS_PER_REPLY = 2;

let sim: OllamaSim | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

function runEvalCommand(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'test/eval/run.ts'), ...args], { cwd: root, env: { ...process.env, CI: 'true' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The unit-size cells of one row of console.table's output (│ index │ document │ truth │ unit … │), by its document cell. */
function rowValues(stdout: string, label: string): string[] {
  const line = stdout.split('\n').find((l) => l.includes(label));
  if (!line) throw new Error(`no row "${label}" in:\n${stdout}`);
  return line
    .split('│')
    .slice(4, -1)
    .map((cell) => cell.trim().replace(/^'|'$/g, ''));
}

describe('npm run eval --unit-tokens against an Ollama (the simulator over HTTP)', () => {
  it('reports recall, calls and time per page for each unit size side by side', async () => {
    const planted = plantedResponder(plantedReport());
    const requests: { numCtx: number; extraction: boolean }[] = [];
    sim = await startOllamaSim({
      timeScale: 0,
      responder: (req) => {
        const reply = planted(req);
        const extraction =
          typeof req.format === 'object' &&
          req.format !== null &&
          'properties' in req.format &&
          'findings' in (req.format as { properties: object }).properties;
        requests.push({ numCtx: req.numCtx, extraction });
        if (!extraction || typeof reply !== 'string') return reply;
        const parsed = JSON.parse(reply) as { findings: unknown[]; summary: string };
        return JSON.stringify({ ...parsed, findings: parsed.findings.slice(0, MOST_FINDINGS_PER_REPLY) });
      },
    });
    const { code, stdout, stderr } = await runEvalCommand(['--host', sim.url, '--model', 'qwen3:8b', '--unit-tokens', '1,4000']);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(`qwen3:8b at ${sim.url}`);
    expect(stdout).toMatch(/unit 1\s.*unit 4000/);

    const recall = rowValues(stdout, 'recall (found once / truth)').map((v) => Number.parseFloat(v));
    const calls = rowValues(stdout, 'extraction calls').map(Number);
    expect(recall).toHaveLength(2);
    // One leaf per call: at most two findings a reply costs little; the whole report in one call keeps two findings.
    expect(recall[0]).toBeGreaterThan(recall[1]!);
    expect(calls[0]).toBeGreaterThan(calls[1]!);
    // The planted report at 4000 tokens is two units (planned by the reply they need) and a follow-up for the IDs
    // they skipped: more than one call's two findings, fewer than one leaf per call finds.
    const [plantedAtLeaf, plantedAtUnit] = rowValues(stdout, 'planted-report').map((v) => Number.parseInt(v, 10));
    expect(plantedAtUnit).toBeLessThan(plantedAtLeaf!);
    expect(plantedAtLeaf).toBeGreaterThan(MOST_FINDINGS_PER_REPLY);
    expect(requests.filter((r) => r.extraction).length).toBe(calls[0]! + calls[1]!);
  }, 180_000);

  it('refuses a unit size that is not a whole number of tokens', () => {
    expect(parseUnitSizes('2000, 4000,8000')).toEqual([2000, 4000, 8000]);
    expect(() => parseUnitSizes('2000,big')).toThrow(/whole numbers of tokens separated by commas/);
    expect(() => parseUnitSizes('0')).toThrow(/whole numbers/);
  });
});
