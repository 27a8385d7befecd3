/**
 * A file name with a line break and escape sequences (security probe 2026-11-28, row 14) printed a forged status
 * line: `Run 9: done.md: done`, and `evil` in red. The CLI's own lines stay its own: every control character in a
 * name, message or title is shown escaped.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../helpers/tempDir';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-cli-terminal-');

describe('the CLI shows hostile names, never obeys them', () => {
  it('escapes a file name with escape sequences and a line break in the progress, the status lines and the errors', () => {
    const dir = tempDir();
    const name = 'evil\u001b[31mRED\u001b[0m\nRun 9: done.md';
    const doc = join(dir, name);
    writeFileSync(doc, '# Notes\n\nSee TOB-ACME-1.\n');
    const missing = join(dir, 'gone\u001b]0;pwned\u0007.pdf');
    const result = spawnSync(
      join(root, 'node_modules/.bin/tsx'),
      [join(root, 'electron/cli/analyze.ts'), doc, missing, '--rules-only', '--db', join(dir, 'store.sqlite'), '--out', join(dir, 'report.md')],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, CI: 'true' },
      },
    );
    const output = `${result.stdout}${result.stderr}`;
    expect(result.status).toBe(1);
    expect(output).not.toMatch(/[\u001b\u0007]/);
    expect(output.split('\n').filter((line) => /^\s*Run 9: done/.test(line))).toEqual([]);
    expect(result.stdout).toContain('evil\\e[31mRED\\e[0m\\nRun 9: done.md: done');
    expect(result.stdout).toMatch(/gone\\e\]0;pwned\\x07\.pdf: failed: FILE_NOT_FOUND/);
  });
});
