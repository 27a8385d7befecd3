import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { makePdfWithBlankPages, makeTextPdf, notAPdfBytes, sampleReportSpec, truncate, writeFixture } from '../../fixtures/pdfFactory';
import { useTempDir } from '../../helpers/tempDir';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-cli-');

function runCli(args: string[], cwd: string) {
  const result = spawnSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'electron/cli/analyze.ts'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('npm run analyze (CLI, real child process)', () => {
  it('analyses a batch: good files go through, each bad one fails with its code, exit code 1', async () => {
    const dir = tempDir();
    const report = await makeTextPdf(sampleReportSpec());
    const good = writeFixture(join(dir, 'report.pdf'), report);
    const copy = writeFixture(join(dir, 'report-copy.pdf'), report);
    const corrupt = writeFixture(join(dir, 'corrupt.pdf'), truncate(report, 0.4));
    const fake = writeFixture(join(dir, 'fake.pdf'), notAPdfBytes());
    const empty = writeFixture(join(dir, 'empty.pdf'), '');
    const scanned = writeFixture(join(dir, 'scanned.pdf'), await makePdfWithBlankPages(3, [0, 1, 2]));
    const vanished = join(dir, 'vanished.pdf');
    const db = join(dir, 'store.sqlite');
    const out = join(dir, 'report.md');

    const { code, stdout, stderr } = runCli([good, corrupt, fake, empty, scanned, vanished, copy, '--db', db, '--out', out, '--rules-only'], dir);

    expect(stderr).toMatch(/file 1 of 7/);
    expect(code).toBe(1);
    const statusOf = (file: string) => stdout.split('\n').find((line) => line.includes(`${file}:`)) ?? '';
    expect(statusOf(good)).toMatch(/: done$/);
    expect(statusOf(copy)).toMatch(/: done$/);
    expect(statusOf(corrupt)).toMatch(/failed: PDF_CORRUPT/);
    expect(statusOf(fake)).toMatch(/failed: PDF_NOT_A_PDF/);
    expect(statusOf(empty)).toMatch(/failed: FILE_EMPTY/);
    expect(statusOf(scanned)).toMatch(/failed: PDF_NO_TEXT_LAYER: .*OCR/);
    expect(statusOf(vanished)).toMatch(/failed: FILE_NOT_FOUND/);
    // The run finished, but not with everything: it says so instead of a plain "done".
    // The blank scan failed as a file (its line says why); its pages, which OCR read and found no words on, are not counted again.
    expect(stdout).toMatch(/^Run \d+: done with problems: 5 files failed\. Store: /m);

    const markdown = readFileSync(out, 'utf8');
    expect(markdown).toMatch(/\| TOB-ACME-001 \| 2 \| 1 \|/);
    expect(markdown).toMatch(/### Pages without a text layer \(3\)\n\nPages 1-3\./);
    expect(markdown).toMatch(/rules only/);

    const store = new BetterSqlite3(db, { readonly: true });
    // The copy has the same bytes: stored once. The scanned PDF is stored (its pages are flagged) even though it cannot be analysed.
    expect(store.prepare('SELECT file_name FROM documents ORDER BY id').all()).toEqual([{ file_name: 'report.pdf' }, { file_name: 'scanned.pdf' }]);
    expect(store.prepare("SELECT COUNT(*) AS n FROM id_mentions WHERE normalized = 'TOB-ACME-001'").get()).toEqual({ n: 1 });
    store.close();
  });

  it('writes its log where --log says (else beside the --db store), prints the path, and logs each failed input with its code', async () => {
    const dir = tempDir();
    const good = writeFixture(join(dir, 'notes.md'), '# Notes\n\nSee PBI-42.\n');
    const empty = writeFixture(join(dir, 'empty.pdf'), '');
    const logFile = join(dir, 'my.log');
    const run = runCli([good, empty, '--db', join(dir, 's.sqlite'), '--out', join(dir, 'r.md'), '--rules-only', '--log', logFile], dir);
    expect(run.stdout).toContain(`Log: ${logFile}`);
    const entries = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.find((e) => e.msg === 'input failed')).toMatchObject({ runId: 1, ordinal: 1, stage: 'ingest', code: 'FILE_EMPTY' });
    expect(entries.at(-1)).toMatchObject({ msg: 'run finished', runId: 1, failedInputs: 1 });

    const beside = runCli([good, '--db', join(dir, 'other', 's.sqlite'), '--out', join(dir, 'r2.md'), '--rules-only'], dir);
    expect(beside.stdout).toContain(`Log: ${join(dir, 'other', 'logs', 'audit.log')}`);
    expect(readFileSync(join(dir, 'other', 'logs', 'audit.log'), 'utf8')).toContain('"msg":"run finished"');
  });

  it('exits 0 when every file was analysed, and 2 with usage for no files', async () => {
    const dir = tempDir();
    const file = writeFixture(join(dir, 'notes.md'), '# Notes\n\nSee PBI-42.\n\n## Details\n\nCR-7 is open.\n');
    const ok = runCli([file, '--db', join(dir, 's.sqlite'), '--out', join(dir, 'r.md'), '--rules-only'], dir);
    expect(ok.code).toBe(0);

    expect(readFileSync(join(dir, 'r.md'), 'utf8')).toMatch(/\| PBI-42 \| 1 \| 1 \|[\s\S]*\| CR-7 \| 1 \| 1 \|/);
    const usage = runCli([], dir);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/No files given/);
  });
});
