/**
 * `npm run reconcile` as a real child process on a generated release note (no model): the issue's JSON, the
 * workpaper, a stored analysis reused from --db, the columns chosen by name, duplicate keys said with their code,
 * and every bad population refused with its code and exit status before anything is analysed or stored.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf, writeFixture } from '../../fixtures/pdfFactory';
import { csvText, encryptedWorkbook, jiraExport } from '../../fixtures/populations';
import { releaseNotes } from '../../fixtures/releaseNotes';
import { useTempDir } from '../../helpers/tempDir';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-reconcile-cli-');
const notes = releaseNotes({ tableIssues: 12, listIssues: 4, perPage: 40 });
const items = notes.truth.findings.map((f) => ({ id: f.id, title: f.title, page: f.page }));
let pdfBytes: Uint8Array;
beforeAll(async () => {
  pdfBytes = await makeTextPdf({ pages: notes.pages, title: 'Release Notes 7.4' });
});

function runReconcile(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'electron/cli/reconcile.ts'), ...args], { cwd, env: { ...process.env, CI: 'true' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

function setUp() {
  const dir = tempDir();
  const pdf = writeFixture(join(dir, 'notes.pdf'), pdfBytes);
  const jira = jiraExport(items, { dropEvery: 4, family: 'PBI' });
  // Row 1's key again, lower case and zero-padded: a duplicate, the first row wins.
  const rows = [...jira.rows, [String(items[0]!.id).toLowerCase().replace('-', '-0'), 'Same ticket exported twice', 'Done', 'Major', '7.4']];
  const csv = writeFixture(join(dir, 'jira.csv'), csvText(jira.header, rows));
  return { dir, pdf, csv, jira, db: join(dir, 'store.sqlite') };
}

const populationsIn = (db: string) => {
  if (!existsSync(db)) return 0;
  const handle = new Database(db, { readonly: true });
  try {
    return (handle.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'populations'").get() as { n: number }).n === 0
      ? 0
      : (handle.prepare('SELECT COUNT(*) AS n FROM populations').get() as { n: number }).n;
  } finally {
    handle.close();
  }
};

describe('npm run reconcile', () => {
  it('writes the issue’s JSON and the workpaper, says the duplicate key, and reuses the stored analysis with --db', async () => {
    const { dir, pdf, csv, jira, db } = setUp();
    const first = await runReconcile([pdf, csv, '--rules-only', '--db', db, '--json', 'out.json', '--out', 'wp.xlsx'], dir);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`POPULATION_DUPLICATE_KEYS: key PBI-10001 is on rows 1, ${jira.rows.length + 1}; row 1 is used`);
    const json = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as {
      population: object;
      matched: { row: number; by: string }[];
      only_in_document: { id: string }[];
      only_in_population: { row: number }[];
    };
    expect(json.population).toEqual({ file: 'jira.csv', rows: jira.rows.length, key_column: 'Issue key', title_column: 'Summary' });
    expect(json.matched.map((m) => m.row)).toEqual([...jira.expected.matched.keys()]);
    expect(json.only_in_document.map((d) => d.id)).toEqual(jira.expected.onlyInDocument.map((i) => items[i]!.id));
    expect(json.only_in_population.map((p) => p.row)).toEqual(jira.expected.onlyInPopulation);
    expect(readFileSync(join(dir, 'wp.xlsx')).subarray(0, 2).toString()).toBe('PK');
    expect(first.stdout).toMatch(new RegExp(`${jira.rows.length} rows: ${jira.expected.matched.size} matched \\+ 3 only in the population`));

    const again = await runReconcile([pdf, csv, '--rules-only', '--db', db, '--json', 'again.json', '--key-column', 'issue key', '--title-column', 'B'], dir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/document: reusing the stored analysis of .*notes\.pdf/);
    expect(readFileSync(join(dir, 'again.json'), 'utf8')).toBe(readFileSync(join(dir, 'out.json'), 'utf8'));
    // The same population file is stored once.
    expect(populationsIn(db)).toBe(1);
  }, 60_000);

  it('--no-key matches by title only', async () => {
    const { dir, pdf, csv, db } = setUp();
    const run = await runReconcile([pdf, csv, '--rules-only', '--db', db, '--json', 'out.json', '--no-key'], dir);
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as { population: { key_column: string | null }; matched: { by: string }[] };
    expect(json.population.key_column).toBeNull();
    expect(json.matched.every((m) => m.by === 'title')).toBe(true);
  }, 60_000);

  it('refuses bad populations with their code and exit status, before analysing the document, storing nothing', async () => {
    const { dir, pdf, csv, db } = setUp();
    const cases: { file: string; bytes: Buffer | string; args?: string[]; code: string; exit: number }[] = [
      { file: 'empty.csv', bytes: '', code: 'POPULATION_EMPTY', exit: 1 },
      { file: 'noheader.csv', bytes: 'PBI-10001,Invoice export fails\nPBI-10002,Login page\n', code: 'POPULATION_NO_HEADER', exit: 1 },
      { file: 'locked.xlsx', bytes: encryptedWorkbook(), code: 'POPULATION_PASSWORD_PROTECTED', exit: 1 },
      { file: 'notes.pdf', bytes: Buffer.from(pdfBytes), code: 'POPULATION_UNSUPPORTED', exit: 1 },
      { file: 'big.csv', bytes: `Key,Title\n${Array.from({ length: 200_001 }, (_, i) => `K-${i},t`).join('\n')}\n`, code: 'POPULATION_TOO_LARGE', exit: 1 },
    ];
    for (const c of cases) {
      const file = c.file === 'notes.pdf' ? pdf : writeFixture(join(dir, c.file), c.bytes);
      const run = await runReconcile([pdf, file, '--db', db, '--json', 'x.json'], dir);
      expect(run.stderr, c.file).toContain(`${c.code}: `);
      expect(run.code, c.file).toBe(c.exit);
    }
    const column = await runReconcile([pdf, csv, '--db', db, '--key-column', 'Ticket'], dir);
    expect(column.code).toBe(2);
    expect(column.stderr).toMatch(/POPULATION_COLUMN_NOT_FOUND: jira\.csv has no column "Ticket" for the key: its columns are "Issue key", "Summary"/);
    // Nothing was analysed (the population is read first) and nothing stored.
    expect(existsSync(db)).toBe(false);
    expect(existsSync(join(dir, 'x.json'))).toBe(false);
  }, 120_000);

  it('usage errors exit 2 with the usage', async () => {
    const dir = tempDir();
    const one = await runReconcile(['only-one.pdf'], dir);
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/Give the document first, then the population file/);
    const missing = await runReconcile(['a.pdf', 'b.csv'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/FILE_NOT_FOUND/);
    writeFileSync(join(dir, 'a.pdf'), pdfBytes);
    writeFileSync(join(dir, 'b.csv'), 'Key,Title\nA-1,x\n');
    const format = await runReconcile(['a.pdf', 'b.csv', '--out', 'w.docx'], dir);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/--out must end in \.xlsx, \.md, \.html, \.pdf, \.csv, \.json/);
  }, 60_000);
});
