/** `--password` on the CLI (a real child process without a terminal, so nothing is prompted). */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { makeTextPdf, sampleReportSpec, writeFixture } from '../../fixtures/pdfFactory';
import { useTempDir } from '../../helpers/tempDir';
import { describeNeeding, QPDF as QPDF_INSTALLED } from '../../helpers/requirements';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-cli-password-');

function runCli(args: string[], cwd: string, options: { env?: NodeJS.ProcessEnv; input?: string } = {}) {
  const result = spawnSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'electron/cli/analyze.ts'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', ...options.env },
    ...(options.input === undefined ? {} : { input: options.input }),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describeNeeding([QPDF_INSTALLED], 'npm run analyze --password', () => {
  it('opens an encrypted PDF with --password, fails clearly without one or with a wrong one, and never prints or stores it', async () => {
    const dir = tempDir();
    const plain = writeFixture(join(dir, 'plain.pdf'), await makeTextPdf(sampleReportSpec()));
    const locked = join(dir, 'locked.pdf');
    execFileSync('qpdf', ['--encrypt', 'Right-Pass-7', 'owner', '256', '--', plain, locked]);
    const db = join(dir, 'store.sqlite');
    const args = (out: string) => [locked, '--db', db, '--out', join(dir, out), '--rules-only'];

    const none = runCli(args('none.md'), dir);
    expect(none.code).toBe(1);
    expect(none.stdout).toMatch(/locked\.pdf: failed: PDF_ENCRYPTED: .*--password/);

    const wrong = runCli([...args('wrong.md'), '--password', 'Wrong-Pass-1'], dir);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toMatch(/locked\.pdf: failed: PDF_PASSWORD_WRONG: The password for "locked\.pdf" is wrong/);

    const right = runCli([...args('right.md'), '--password', 'Right-Pass-7'], dir);
    expect(right.code).toBe(0);
    expect(right.stdout).toMatch(/locked\.pdf: done/);
    expect(readFileSync(join(dir, 'right.md'), 'utf8')).toMatch(/\| TOB-ACME-001 \|/);

    for (const run of [wrong, right]) expect(`${run.stdout}${run.stderr}`).not.toMatch(/Right-Pass-7|Wrong-Pass-1/);
    expect(readFileSync(db).includes('Right-Pass-7')).toBe(false);
  });

  it('takes the password from an environment variable or standard input, so it is not on the command line', async () => {
    const dir = tempDir();
    const plain = writeFixture(join(dir, 'plain.pdf'), await makeTextPdf(sampleReportSpec()));
    const locked = join(dir, 'locked.pdf');
    execFileSync('qpdf', ['--encrypt', 'Right-Pass-7', 'owner', '256', '--', plain, locked]);
    const args = (name: string) => [locked, '--db', join(dir, `${name}.sqlite`), '--out', join(dir, `${name}.md`), '--rules-only'];

    const fromEnv = runCli([...args('env'), '--password-env', 'PDF_PASSWORD'], dir, { env: { PDF_PASSWORD: 'Right-Pass-7' } });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(fromEnv.stdout).toMatch(/locked\.pdf: done/);
    const fromStdin = runCli([...args('stdin'), '--password-stdin'], dir, { input: 'Right-Pass-7\n' });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(readFileSync(join(dir, 'stdin.md'), 'utf8')).toMatch(/\| TOB-ACME-001 \|/);
    const wrongFromStdin = runCli([...args('wrong'), '--password-stdin'], dir, { input: 'Wrong-Pass-1\n' });
    expect(wrongFromStdin.stdout).toMatch(/locked\.pdf: failed: PDF_PASSWORD_WRONG/);
    for (const run of [fromEnv, fromStdin, wrongFromStdin]) expect(`${run.stdout}${run.stderr}`).not.toMatch(/Right-Pass-7|Wrong-Pass-1/);
    expect(readFileSync(join(dir, 'env.sqlite')).includes('Right-Pass-7')).toBe(false);

    // Each way alone, and a variable that is set.
    const unset = runCli([...args('unset'), '--password-env', 'NO_SUCH_PASSWORD_VARIABLE'], dir);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(/The environment variable NO_SUCH_PASSWORD_VARIABLE \(--password-env\) is not set/);
    const twice = runCli([...args('twice'), '--password', 'x', '--password-stdin'], dir, { input: 'y\n' });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/Give the password one way: --password and --password-stdin were both given/);
  });
});
