/**
 * A report is never written through a symbolic link planted where it goes (security probe 2026-11-28, row 15:
 * `ln -s victim.txt link.md; npm run analyze -- doc.md --out link.md` overwrote victim.txt). The CLIs refuse
 * with OUTPUT_IS_SYMLINK, keep what they stored, and the file the link points to is unchanged.
 */
import { spawn } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../helpers/tempDir';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-cli-links-');

function runTsx(cli: 'analyze' | 'compare', args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, `electron/cli/${cli}.ts`), ...args], { cwd, env: { ...process.env, CI: 'true' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const NOTES = '# Notes\n\n## TOB-ACME-1: Missing check\n\nSeverity: High\n\nThe withdraw function does not check the owner.\n';

describe('reports are never written through a symbolic link', () => {
  it('analyze refuses --out that is a link, and the link planted at the default report name', async () => {
    const dir = tempDir();
    const doc = join(dir, 'notes.md');
    writeFileSync(doc, NOTES);
    writeFileSync(join(dir, 'victim.txt'), 'ORIGINAL\n');
    symlinkSync(join(dir, 'victim.txt'), join(dir, 'link.md'));
    const db = join(dir, 'store.sqlite');

    const chosen = await runTsx('analyze', [doc, '--rules-only', '--db', db, '--out', join(dir, 'link.md')], dir);
    expect(chosen.code).toBe(1);
    expect(chosen.stderr).toMatch(/Run 1: done, but the md report could not be written: OUTPUT_IS_SYMLINK: .*link\.md is a symbolic link/);
    expect(chosen.stderr).toMatch(/The results are stored; write the report again with: npm run analyze -- --resume 1/);
    expect(readFileSync(join(dir, 'victim.txt'), 'utf8')).toBe('ORIGINAL\n');

    // Without --out the name is predictable (audit-report-<run>.md in the current folder): a link planted there is refused too.
    symlinkSync(join(dir, 'victim.txt'), join(dir, 'audit-report-2.md'));
    const byDefault = await runTsx('analyze', [doc, '--rules-only', '--db', db], dir);
    expect(byDefault.code).toBe(1);
    expect(byDefault.stderr).toMatch(/OUTPUT_IS_SYMLINK: .*audit-report-2\.md is a symbolic link/);
    expect(readFileSync(join(dir, 'victim.txt'), 'utf8')).toBe('ORIGINAL\n');
  });

  it('compare refuses --out and --json that are links', async () => {
    const dir = tempDir();
    const earlier = join(dir, 'earlier.md');
    const later = join(dir, 'later.md');
    writeFileSync(earlier, NOTES);
    writeFileSync(later, `${NOTES}\n## TOB-ACME-2: Another problem\n\nSeverity: Low\n\nA second finding.\n`);
    writeFileSync(join(dir, 'victim.txt'), 'ORIGINAL\n');
    symlinkSync(join(dir, 'victim.txt'), join(dir, 'link.html'));
    symlinkSync(join(dir, 'victim.txt'), join(dir, 'link.json'));
    const db = join(dir, 'store.sqlite');
    for (const option of [
      ['--out', join(dir, 'link.html')],
      ['--json', join(dir, 'link.json')],
    ]) {
      const run = await runTsx('compare', [earlier, later, '--rules-only', '--db', db, ...option], dir);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/could not be written to .*link\.(html|json): OUTPUT_IS_SYMLINK: /);
      expect(readFileSync(join(dir, 'victim.txt'), 'utf8')).toBe('ORIGINAL\n');
    }
  });
});
