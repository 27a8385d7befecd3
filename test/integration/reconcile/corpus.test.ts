/**
 * Reconcile (issue 41) through `npm run reconcile` on the shared corpus's real documents: the release note
 * (relnotes-hadoop-thirdparty, no model: the IDs it prints) and audit reports analysed by the simulator answering
 * from their truth over HTTP: one that prints finding IDs (Sigma Prime's Lido review, LID-01...) and one that
 * prints none (Cyfrin's StakePet review, numbered headings). The populations are generated from each truth: a
 * Jira-like export (items dropped, titles reworded without their keys, keys respelled, invented rows, a key the
 * release note names only inside another issue's title), a tracker of titles only, an XLSX with its header on
 * row 3 and a total row, a findings tracker keyed by its own IDs. Every match on the right row, no wrong match,
 * both exception lists exact. Skipped with the reason when the corpus is not next to this checkout.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import type { MatchReason, Reconciliation } from '../../../shared/reconcile';
import { FAITHFUL_MODES, truthResponder } from '../../eval/truthResponder';
import {
  csvText,
  jiraExport,
  NOT_IN_DOCUMENT,
  reword,
  titlesOnlyTracker,
  xlsxBytes,
  type Expected,
  type GeneratedPopulation,
  type TruthItem,
} from '../../fixtures/populations';
import { corpusDocuments, describeNeeding, realDocument } from '../../helpers/requirements';
import { useSims } from '../../helpers/sim';
import { useTempDir } from '../../helpers/tempDir';
import { expectTieOut } from './tieOutExpect';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-reconcile-corpus-');
const startSim = useSims();

interface Truth {
  findings: { id: string; title: string; detail_title?: string; severity: string; page: number; type?: string }[];
}
const truthOf = (name: string) => JSON.parse(readFileSync(realDocument(name, 'truth')!, 'utf8')) as Truth;
/** A truth's items; a section number ("7.1.1", "3.2") is no ID the document prints. */
const itemsOf = (truth: Truth): TruthItem[] => truth.findings.map((f) => ({ id: /^\d+(?:\.\d+)*$/.test(f.id) ? null : f.id, title: f.title, page: f.page }));

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

/** The issue's JSON, read back into the lists expectTieOut holds against what the population must give. */
interface IssueJson {
  population: { file: string; rows: number; key_column: string | null; title_column: string };
  matched: { row: number; key: string | null; title: string; finding: { id: string | null; title: string; page: number | null }; by: string; score: number }[];
  only_in_document: { id: string | null; title: string; page: number | null }[];
  only_in_population: { row: number; key: string | null; title: string }[];
}
function asReconciliation(json: IssueJson): Reconciliation {
  const review = { state: 'unreviewed' as const, reviewer: null, at: null, notes: [] };
  const item = (f: { id: string | null; title: string; page: number | null }) => ({
    ...f,
    pages: f.page === null ? [] : [f.page],
    quote: '',
    start: null,
    end: null,
    mergedId: null,
    key: '',
  });
  const matched = json.matched.map((m) => ({ ...m, rowKey: '', cells: [], finding: item(m.finding), by: m.by as MatchReason, review }));
  const onlyInPopulation = json.only_in_population.map((p) => ({ ...p, rowKey: '', cells: [], broken: [], review }));
  const onlyInDocument = json.only_in_document.map((d) => ({ finding: item(d), review }));
  const documentItems = matched.filter((m) => m.by !== 'mention').length + onlyInDocument.length;
  return {
    matched,
    onlyInPopulation,
    onlyInDocument,
    counts: {
      rows: matched.length + onlyInPopulation.length,
      matched: matched.length,
      onlyInPopulation: onlyInPopulation.length,
      onlyInDocument: onlyInDocument.length,
      documentItems,
      byReason: { id: 0, title: 0, mention: 0, auditor: 0 },
      confirmed: 0,
    },
  } as unknown as Reconciliation;
}

async function reconcile(pdf: string, population: { file: string; bytes: string | Buffer }, dir: string, extra: string[] = []): Promise<IssueJson> {
  const file = join(dir, population.file);
  writeFileSync(file, population.bytes);
  const out = join(dir, `${population.file}.json`);
  const run = await runReconcile([pdf, file, '--json', out, '--db', join(dir, 'store.sqlite'), ...extra], dir);
  expect(run.stderr).not.toMatch(/INTERNAL|Unexpected error/);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(readFileSync(out, 'utf8')) as IssueJson;
}

const csvOf = (name: string, p: GeneratedPopulation) => ({ file: name, bytes: csvText(p.header, p.rows) });

describeNeeding([corpusDocuments(['relnotes-hadoop-thirdparty'])], 'reconcile against the corpus release note (relnotes-hadoop-thirdparty, no model)', () => {
  const NAME = 'relnotes-hadoop-thirdparty';
  const pdf = () => realDocument(NAME, 'pdf')!;
  const items = () => itemsOf(truthOf(NAME));
  // HADOOP-16754 is printed only inside HADOOP-16824's summary ("port HADOOP-16754 (...) to thirdparty").
  const mention = { key: 'HADOOP-16754', title: 'Fix docker failed to build yetus/hadoop' };

  it('a Jira-like export, a titles-only tracker and an XLSX (header on row 3, a total row): every row on its item, exceptions exact', async () => {
    const dir = tempDir();
    const jira = jiraExport(items(), { dropEvery: 5, rewordEvery: 4, respellEvery: 6, family: 'HADOOP', mentions: [mention] });
    const byJira = await reconcile(pdf(), csvOf('jira.csv', jira), dir, ['--rules-only']);
    expect(byJira.population).toEqual({ file: 'jira.csv', rows: jira.rows.length, key_column: 'Issue key', title_column: 'Summary' });
    expectTieOut(asReconciliation(byJira), items(), jira.expected);
    expect(byJira.matched.filter((m) => m.by === 'title').length).toBeGreaterThanOrEqual(4);
    expect(byJira.matched.find((m) => m.key === mention.key)).toMatchObject({ by: 'mention', finding: { id: mention.key, page: 2 } });

    const titles = titlesOnlyTracker(items(), { dropEvery: 6 });
    const byTitle = await reconcile(pdf(), csvOf('tracker.csv', titles), dir, ['--rules-only']);
    expect(byTitle.population.key_column).toBeNull();
    expectTieOut(asReconciliation(byTitle), items(), titles.expected);

    const xlsx = await xlsxBytes([
      {
        name: 'Jira',
        above: [['Changes in thirdparty 1.0.0 to 1.2.0'], [null]],
        header: jira.header,
        rows: jira.rows,
        below: [['Total', null, null, null, jira.rows.length]],
      },
    ]);
    const byXlsx = await reconcile(pdf(), { file: 'jira.xlsx', bytes: xlsx }, dir, ['--rules-only']);
    expectTieOut(asReconciliation(byXlsx), items(), jira.expected);
    expect(byXlsx.population.rows).toBe(jira.rows.length);
  }, 120_000);
});

const ANALYSED = ['sigp-lido', 'cyfrin-stakepet-2023'];

describeNeeding([corpusDocuments(ANALYSED)], 'reconcile against corpus audit reports analysed by a model (the simulator answering from their truth)', () => {
  for (const NAME of ANALYSED) {
    it(`${NAME}: a Jira-like export and a findings tracker keyed by its own IDs, reworded titles included`, async () => {
      const dir = tempDir();
      const truth = truthOf(NAME);
      const items = itemsOf(truth);
      const { sim } = await startSim({
        responder: truthResponder(
          [
            {
              name: NAME,
              findings: truth.findings.map((t) => ({
                id: t.id,
                title: t.title,
                ...(t.detail_title ? { detailTitle: t.detail_title } : {}),
                severity: t.severity,
                page: t.page,
                ...(t.type ? { type: t.type } : {}),
              })),
            },
          ],
          { modes: FAITHFUL_MODES },
        ),
      });
      const model = ['--host', sim.url];
      // The report's own IDs where it prints them (LID-01), none where it does not: then every row goes by title.
      const jira = jiraExport(items, { dropEvery: 4, rewordEvery: 3, respellEvery: 5, family: 'AUD' });
      const byJira = await reconcile(realDocument(NAME, 'pdf')!, csvOf('jira.csv', jira), dir, model);
      expectTieOut(asReconciliation(byJira), items, jira.expected, { pages: false });
      // Each match carries the page of the finding's main quote: the summary row or the detailed section, never another page.
      for (const m of byJira.matched) expect(m.finding.page).not.toBeNull();

      // A findings tracker with IDs of its own (FT-1...), every other title reworded: all by title, across ID families.
      const tracker = jiraExport(items, { dropEvery: 3, family: 'FT' });
      const itemRows = tracker.rows.length - NOT_IN_DOCUMENT.length;
      const rows = tracker.rows.map((row, i) =>
        i < itemRows ? [`FT-${i + 1}`, i % 2 === 0 ? reword(String(row[1])) : (row[1] ?? null), ...row.slice(2)] : row,
      );
      const expected: Expected = tracker.expected;
      const byTracker = await reconcile(
        realDocument(NAME, 'pdf')!,
        { file: 'tracker.csv', bytes: csvText(['Finding', 'Title', 'Status', 'Severity', 'Release'], rows) },
        dir,
        model,
      );
      expect(byTracker.population.key_column).toBe('Finding');
      expectTieOut(asReconciliation(byTracker), items, expected, { pages: false });
      expect(byTracker.matched.every((m) => m.by === 'title')).toBe(true);
    }, 300_000);
  }
});
