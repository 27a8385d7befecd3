import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePlantedReport } from '../pipeline/helpers';
import { useTempDir } from '../../helpers/tempDir';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-report-cli-');

function runCli(args: string[], cwd: string) {
  const result = spawnSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'electron/cli/analyze.ts'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('CLI report formats', () => {
  it('writes the format --format asks for, whatever the file is called', () => {
    const dir = tempDir();
    const file = writePlantedReport(dir);
    const out = join(dir, 'audit.out');
    const { code, stdout, stderr } = runCli([file, '--rules-only', '--db', join(dir, 's.sqlite'), '--out', out, '--format', 'html'], dir);
    expect(stderr).not.toMatch(/could not be written/);
    expect(code).toBe(0);
    expect(stdout).toContain(`Report: ${out}`);
    const html = readFileSync(out, 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toMatch(/Mode: rules only/);
  });

  it('refuses an unknown extension or format before running anything', () => {
    const dir = tempDir();
    const file = writePlantedReport(dir);
    const bad = runCli([file, '--rules-only', '--db', join(dir, 's.sqlite'), '--out', join(dir, 'r.txt')], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--out must end in \.md, \.html, \.pdf, \.csv, \.json, or give --format/);
    const badFormat = runCli([file, '--rules-only', '--db', join(dir, 's.sqlite'), '--format', 'docx'], dir);
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toMatch(/--format must be one of md, html, pdf, csv, json/);
    expect(existsSync(join(dir, 's.sqlite'))).toBe(false);
  });
});
