/**
 * The README's first-run story for someone without Ollama ("First run
 * without Ollama, and trying it without a GPU") stays true: this runs its
 * commands as npm runs them (the package.json scripts, through a shell) in a
 * fresh home folder and checks that they print the lines the README shows.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTextPdf, sampleReportSpec, writeFixture } from '../../fixtures/pdfFactory';
import { npmRunArgs } from '../../helpers/npmRun';
import { useTempDir } from '../../helpers/tempDir';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-first-run-');
const README_PORT = 11434;

/** The README section's text, and the lines of its `console` block (after the `$` command line). */
function readmeStory(): { section: string; consoleLines: string[] } {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('First run without Ollama'));
  if (!section) throw new Error('README has no section "First run without Ollama"');
  const block = /```console\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('the section has no console block');
  return {
    section,
    consoleLines: block
      .trimEnd()
      .split('\n')
      .filter((line) => !line.startsWith('$ ')),
  };
}

/** A TCP port nothing listens on (yet). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}

describe('README: first run without Ollama', () => {
  it('says Ollama is not reachable and how to resume; with the simulator started, the resumed run is done', async () => {
    const { section, consoleLines } = readmeStory();
    const home = tempDir();
    // Stands for the project folder, where npm runs the scripts.
    const cwd = join(home, 'offline-audit');
    mkdirSync(cwd);
    writeFixture(join(cwd, 'report.pdf'), await makeTextPdf(sampleReportSpec()));
    const port = await freePort();
    const env = {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      OLLAMA_HOST: `http://127.0.0.1:${port}`,
      PATH: `${join(root, 'node_modules/.bin')}${delimiter}${process.env.PATH ?? ''}`,
      CI: 'true',
    };
    /** Output as the README shows it: this test's home, folder and port replaced by the README's. */
    const asInReadme = (text: string) => text.replaceAll(cwd, '/home/you/offline-audit').replaceAll(home, '~').replaceAll(`:${port}`, `:${README_PORT}`);
    const analyze = (args: string[]) => {
      const [command, commandArgs] = npmRunArgs('analyze', args);
      const result = spawnSync(command, commandArgs, { cwd, env, encoding: 'utf8' });
      return { code: result.status, output: asInReadme(`${result.stderr}${result.stdout}`) };
    };

    const first = analyze(['report.pdf']);
    expect(first.code).toBe(1);
    // Every line of the README's console block, in that order (the build notice of a first start may come before).
    const printed = first.output.split('\n');
    const at = consoleLines.map((line) => printed.indexOf(line));
    expect(
      consoleLines.filter((_, i) => at[i]! < 0),
      first.output,
    ).toEqual([]);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(existsSync(join(cwd, 'audit-report-1.md'))).toBe(true);

    // The simulator where Ollama would listen, as `npm run ollama-sim` (on this test's port).
    const [command, commandArgs] = npmRunArgs('ollama-sim', ['--port', String(port)]);
    const sim = spawn(command, commandArgs, { cwd, env, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    try {
      const banner = await new Promise<string>((done, fail) => {
        let out = '';
        sim.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) done(out.split('\n')[0]!);
        });
        sim.on('exit', (code) => fail(new Error(`the simulator exited (${code})`)));
      });
      expect(section).toContain(`prints: ${asInReadme(banner)}`);

      const resumed = analyze(['--resume', '1']);
      expect(resumed.output).toContain('Run 1: done');
      expect(resumed.code).toBe(0);
      expect(section).toContain('prints "Run 1: done" and writes audit-report-1.md');
      const report = readFileSync(join(cwd, 'audit-report-1.md'), 'utf8');
      expect(report).toMatch(/- Run: 1 \(full\), status done/);
      // A simulated run says so wherever it names a model: the terminal, the report's notice and its appendix.
      expect(resumed.output).toContain(
        "Models: qwen3:8b (simulator, not a language model). The models named here were answered by Offline Audit's Ollama simulator",
      );
      expect(report).toContain(
        "- The models named here were answered by Offline Audit's Ollama simulator: a stand-in that answers from scripts, not a language model.",
      );
      expect(report).toContain('- Models: judge: qwen3:8b (simulator, not a language model), ');
      expect(report).toContain('  - extract: qwen3:8b (simulator, not a language model) (digest');
      expect(section).toContain('reads "simulator, not a language model"');
      // The terminal and the report give the same completeness verdict.
      // The completeness phase's last line is its verdict: "completeness: file 1 of 1: <headline> | <places>".
      const verdictLine = resumed.output
        .split('\n')
        .filter((line) => line.startsWith('completeness: '))
        .at(-1);
      const terminal = verdictLine?.replace(/^completeness: (?:file \d+ of \d+: )?/, '').split(' | ')[0];
      const inReport = /### Completeness: (.+)\n/.exec(report)?.[1];
      expect(terminal, resumed.output).toBeDefined();
      expect(terminal).toBe(inReport);
    } finally {
      // The shell and the simulator under it, as one process group.
      process.kill(-sim.pid!, 'SIGTERM');
    }
  });
});
