/**
 * Reconcile (issue 41) on generated documents, which always run: a release note of 150 IDs (an issue table and a
 * list of change requests, 30 pairs of them titled alike but for a case number, and a page that mentions an ID in passing)
 * analysed without a model, and an audit report whose findings print no ID (numbered headings only) analysed by
 * the simulator answering from its truth over HTTP. Against a Jira-like export, a tracker of titles only, an XLSX
 * with its header on row 3 and a total row, and a findings tracker keyed by its own IDs: every row on its item,
 * no wrong match, both exception lists exact, reworded titles and IDs missing on either side included. Then the
 * review of the tie-out (kept across a re-run and a re-analysis, written to the review trail) and the exports.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/engine';
import { DEFAULT_RUN_LLM_SETTINGS } from '../../../electron/engine/pipeline/settings';
import {
  importPopulation,
  reconcileAndStore,
  reconcileDocument,
  renderReconciliation,
  reviewTieOut,
  WORKPAPER_SHEETS,
} from '../../../electron/engine/reconcile';
import { listTrail } from '../../../electron/engine/review';
import { openDatabase, type Database } from '../../../electron/engine/store';
import { MATCH_REASON_TEXT, type Reconciliation } from '../../../shared/reconcile';
import { FAITHFUL_MODES, truthResponder, type TruthDocument } from '../../eval/truthResponder';
import { makeTextPdf, proseLines, type PageSpec } from '../../fixtures/pdfFactory';
import { csvText, jiraExport, NOT_IN_DOCUMENT, reword, titlesOnlyTracker, xlsxBytes, type Expected, type TruthItem } from '../../fixtures/populations';
import { releaseNotes } from '../../fixtures/releaseNotes';
import { startOllamaSim } from '../../ollama-sim/index';
import { CHROMIUM, itNeeding } from '../../helpers/requirements';
import { useTempDir } from '../../helpers/tempDir';
import { expectTieOut } from './tieOutExpect';

const tempDir = useTempDir('audit-reconcile-');

/** The release note of the fixture, with a last page that names an issue of another release in passing. */
const notes = releaseNotes({ tableIssues: 130, listIssues: 20, perPage: 40 });
const MENTIONED = 'PBI-19999';
const notesPages: PageSpec[] = [
  ...notes.pages,
  {
    blocks: [
      { kind: 'heading', text: 'Backports' },
      { kind: 'body', lines: [`This release also carries the fix made for ${MENTIONED} in release 7.3, unchanged.`, ...proseLines(4, 11)] },
    ],
  },
];
const notesItems: TruthItem[] = notes.truth.findings.map((f) => ({ id: f.id, title: f.title, page: f.page }));

/** An audit report whose findings are numbered headings with no ID: "3.2 Session tokens never expire". */
const REPORT_TITLES = [
  'Session tokens never expire after logout',
  'Password reset links can be reused',
  'Administrative actions are not logged',
  'Backups are stored without encryption',
  'Rate limiting is missing on the login endpoint',
  'Outdated TLS configuration allows weak ciphers',
  'Error pages disclose stack traces',
  'Uploaded files are served from the application domain',
];
const SEVERITIES = ['High', 'Medium', 'Low'];
function auditReport(): { pages: PageSpec[]; truth: TruthDocument; items: TruthItem[] } {
  const pages: PageSpec[] = [
    {
      blocks: [
        { kind: 'heading', text: 'Security Review of the Ledger Service' },
        { kind: 'body', lines: proseLines(20, 2) },
      ],
    },
  ];
  const findings: TruthDocument['findings'] = [];
  REPORT_TITLES.forEach((title, i) => {
    const heading = `3.${i + 1} ${title}`;
    findings.push({ id: `3.${i + 1}`, title, severity: SEVERITIES[i % 3]!, page: pages.length + 1 });
    pages.push({
      blocks: [
        ...(i === 0 ? [{ kind: 'heading' as const, text: '3 Detailed findings' }] : []),
        { kind: 'heading', text: heading, size: 12.5 },
        {
          kind: 'body',
          lines: [
            `Severity: ${SEVERITIES[i % 3]}`,
            `We found that ${title.toLowerCase()}, which an attacker can use against the service.`,
            ...proseLines(8, i + 3),
          ],
        },
      ],
    });
  });
  return { pages, truth: { name: 'ledger-review', findings }, items: findings.map((f) => ({ id: null, title: f.title, page: f.page })) };
}
const report = auditReport();

let dir: string;
let db: Database;
let notesDocument: number;
let reportDocument: number;

beforeAll(async () => {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  dir = mkdtempSync(join(tmpdir(), 'audit-reconcile-docs-'));
  db = openDatabase(join(dir, 'store.sqlite'));
  const engine = createEngine({ db, appVersion: 'test' });
  const notesFile = join(dir, 'release-notes.pdf');
  writeFileSync(notesFile, await makeTextPdf({ pages: notesPages, title: 'Release Notes 7.4', footer: 'Release Notes 7.4 page' }));
  const rulesOnly = await engine.analyze([notesFile], { mode: 'rules-only' });
  notesDocument = rulesOnly.inputs[0]!.documentId!;
  const reportFile = join(dir, 'ledger-review.pdf');
  writeFileSync(reportFile, await makeTextPdf({ pages: report.pages, title: 'Security Review', footer: 'Page' }));
  const sim = await startOllamaSim({ timeScale: 0, responder: truthResponder([report.truth], { modes: FAITHFUL_MODES }) });
  try {
    const full = await engine.analyze([reportFile], { llm: { ...DEFAULT_RUN_LLM_SETTINGS, host: sim.url, cache: false } });
    expect(full.inputs[0]!.status).toBe('done');
    reportDocument = full.inputs[0]!.documentId!;
  } finally {
    await sim.close();
  }
}, 120_000);

afterAll(async () => {
  db?.close();
  const { rmSync } = await import('node:fs');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function reconcileCsv(
  documentId: number,
  header: string[],
  rows: Parameters<typeof csvText>[1],
  options: { keyColumn?: string | null; mode?: 'rules-only' } = {},
): Promise<Reconciliation> {
  const population = await importPopulation(db, { name: 'population.csv', bytes: Buffer.from(csvText(header, rows)) });
  return reconcileAndStore(db, { documentId, population, ...options });
}

describe('a generated release note (no model: the IDs it prints)', () => {
  const jira = jiraExport(notesItems, {
    dropEvery: 6,
    rewordEvery: 5,
    respellEvery: 7,
    family: 'PBI',
    mentions: [{ key: MENTIONED, title: 'Ledger sync fails at month end (7.3)' }],
  });

  it('the population is what it says: reworded titles without keys, respelled keys, dropped items, invented rows, a mention', () => {
    const rewordedWithoutKey = jira.rows.filter((r) => r[0] === '' && !notesItems.some((i) => i.title === r[1]));
    expect(rewordedWithoutKey.length).toBeGreaterThanOrEqual(10);
    expect(jira.rows.filter((r) => typeof r[0] === 'string' && /^pbi 0\d+$/.test(r[0])).length).toBeGreaterThanOrEqual(5);
    expect(jira.expected.onlyInDocument.length).toBeGreaterThanOrEqual(10);
    // Siblings: titles alike but for their case number, so a title match must read the number.
    const stem = (t: string) => t.replace(/\d+$/, '');
    expect(notesItems.filter((item, i) => notesItems.some((other, j) => j !== i && stem(other.title) === stem(item.title))).length).toBeGreaterThanOrEqual(40);
  });

  it('a Jira-like export: by key (case, dashes, zero padding ignored), by reworded title, the mention with its page; exceptions both ways exact', async () => {
    const r = await reconcileCsv(notesDocument, jira.header, jira.rows);
    expect(r.population).toMatchObject({ keyColumn: 'Issue key', titleColumn: 'Summary', rows: jira.rows.length });
    expectTieOut(r, notesItems, jira.expected);
    const byReason = r.counts.byReason;
    expect(byReason.title).toBeGreaterThanOrEqual(10);
    expect(byReason.mention).toBe(1);
    expect(r.matched.find((m) => m.by === 'mention')!.finding.page).toBe(notesPages.length);
  });

  it('a tracker of titles only: every row by its title, half of them reworded, siblings one number apart never crossed', async () => {
    const tracker = titlesOnlyTracker(notesItems, { dropEvery: 7 });
    const r = await reconcileCsv(notesDocument, tracker.header, tracker.rows);
    expect(r.population).toMatchObject({ keyColumn: null, titleColumn: 'Title' });
    expectTieOut(r, notesItems, tracker.expected);
    expect(r.matched.every((m) => m.by === 'title')).toBe(true);
  });

  it('an XLSX with its header on row 3 and a total row: the same tie-out as the CSV, the total row left out', async () => {
    const bytes = await xlsxBytes([
      { name: 'Export', above: [['Jira export, release 7.4'], [null]], header: jira.header, rows: jira.rows, below: [['Total', null, null, null, null]] },
    ]);
    const population = await importPopulation(db, { name: 'jira.xlsx', bytes });
    expect(population.headerRow).toBe(3);
    const r = reconcileAndStore(db, { documentId: notesDocument, population });
    expectTieOut(r, notesItems, jira.expected);
    expect(r.population.skipped).toEqual([{ row: jira.rows.length + 1, reason: 'total-row' }]);
  });
});

describe('a generated audit report whose findings print no ID (the simulator answering from its truth)', () => {
  // The tracker keys findings by its own IDs (FT-101...): the document prints none, so every row is matched by title.
  const tracker = jiraExport(report.items, { dropEvery: 4, family: 'FT' });
  const itemRows = tracker.rows.length - NOT_IN_DOCUMENT.length;
  const rows = tracker.rows.map((row, i) => (i < itemRows ? [`FT-${101 + i}`, i % 2 === 0 ? reword(String(row[1])) : (row[1] ?? null), ...row.slice(2)] : row));

  it('a findings tracker keyed by its own IDs: each finding on its row and detailed page, reworded titles included', async () => {
    const r = await reconcileCsv(reportDocument, ['Finding ID', 'Title', 'Status', 'Severity', 'Release'], rows);
    expect(r.document.mode).toBe('full');
    expect(r.population.keyColumn).toBe('Finding ID');
    const expected: Expected = { ...tracker.expected, onlyInPopulation: tracker.expected.onlyInPopulation };
    expectTieOut(r, report.items, expected);
    expect(r.onlyInPopulation.map((p) => p.title)).toEqual(NOT_IN_DOCUMENT);
  });

  it('rules only: the report prints no ID, so nothing of it is an item and every row is only in the population', async () => {
    const r = await reconcileCsv(reportDocument, ['Finding ID', 'Title', 'Status', 'Severity', 'Release'], rows, { mode: 'rules-only' });
    expect(r.counts).toMatchObject({ matched: 0, documentItems: 0, onlyInPopulation: rows.length });
  });
});

describe('exports of a tie-out', () => {
  it('the XLSX workpaper: a sheet per list, the population’s own columns, match, reason, page and review', async () => {
    const jira = jiraExport(notesItems.slice(0, 10), { dropEvery: 5, family: 'PBI' });
    const rows = jira.rows.map((row, i) => (i === 0 ? [row[0] ?? null, '=HYPERLINK("http://evil")', ...row.slice(2)] : row));
    const r = await reconcileCsv(notesDocument, jira.header, rows);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await renderReconciliation(r, 'xlsx')) as never);
    expect(book.worksheets.map((s) => s.name)).toEqual(Object.values(WORKPAPER_SHEETS));
    const values = (name: string) =>
      book
        .getWorksheet(name)!
        .getSheetValues()
        .slice(1)
        .map((row) => (row as unknown[]).slice(1));
    const matched = values(WORKPAPER_SHEETS.matched);
    expect(matched[0]).toEqual(['Tick', 'Row', ...jira.header, 'Match', 'Reason', 'Page', 'Review state']);
    expect(matched).toHaveLength(1 + r.matched.length);
    const m = r.matched[1]!;
    expect(matched[2]).toEqual(['✓', m.row, ...m.cells, `${m.finding.id} ${m.finding.title}`, 'printed ID', m.finding.page, 'not reviewed']);
    // A formula in the population is kept as the text it is, never as a formula.
    expect(book.getWorksheet(WORKPAPER_SHEETS.matched)!.getCell('D2').formula).toBeUndefined();
    expect(book.getWorksheet(WORKPAPER_SHEETS.matched)!.getCell('D2').value).toBe('=HYPERLINK("http://evil")');
    expect(values(WORKPAPER_SHEETS.onlyInDocument)).toHaveLength(1 + r.onlyInDocument.length);
    expect(values(WORKPAPER_SHEETS.onlyInPopulation)).toHaveLength(1 + r.onlyInPopulation.length);
    expect(values(WORKPAPER_SHEETS.onlyInPopulation)[1]!.slice(0, 3)).toEqual(['✗', r.onlyInPopulation[0]!.row, r.onlyInPopulation[0]!.cells[0]]);
  });

  it('Markdown, HTML and CSV: everything from the document and the population escaped, formula cells disarmed, ticks and pages', async () => {
    const hostile = [['PBI-10001', '<script>alert(1)</script> | *bold* =cmd', 'Resolved', 'Major', '@SUM(A1)']];
    const r = await reconcileCsv(notesDocument, ['Issue key', 'Summary', 'Status', 'Priority', 'Fix Version/s'], hostile);
    const html = (await renderReconciliation(r, 'html')) as string;
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toMatch(/<td class="tick"[^>]*>✓<\/td><td>1<\/td><td>PBI-10001<\/td>/);
    expect(html).toContain(`p. ${notesItems[0]!.page}`);
    expect(html).toMatch(/Content-Security-Policy" content="default-src 'none'/);
    const md = (await renderReconciliation(r, 'md')) as string;
    expect(md).toContain('&lt;script\\>alert(1)&lt;/script\\> \\| \\*bold\\* =cmd');
    expect(md).not.toContain('<script');
    const csv = Papa.parse<string[]>((await renderReconciliation(r, 'csv')) as string, { skipEmptyLines: true }).data;
    expect(csv[0]!.slice(0, 4)).toEqual(['list', 'row', 'key', 'title']);
    const matchedLine = csv.find((line) => line[0] === 'matched')!;
    expect(matchedLine[3]).toBe('<script>alert(1)</script> | *bold* =cmd');
    expect(matchedLine.at(-1)).toBe("'@SUM(A1)");
    expect(csv.filter((line) => line[0] === 'only_in_document')).toHaveLength(r.counts.onlyInDocument);
  });

  itNeeding([CHROMIUM], 'PDF: printed from the HTML by Chromium, each matched row with its tick mark and page, the exceptions marked', async () => {
    const jira = jiraExport(notesItems.slice(0, 10), { dropEvery: 5, rewordEvery: 4, family: 'PBI' });
    const r = await reconcileCsv(notesDocument, jira.header, jira.rows);
    const bytes = (await renderReconciliation(r, 'pdf')) as Buffer;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
    let text = '';
    for (let n = 1; n <= doc.numPages; n++)
      text += `${(await (await doc.getPage(n)).getTextContent()).items.map((item) => ('str' in item ? item.str : '')).join(' ')} `;
    await doc.destroy();
    const squashed = text.replace(/\s+/g, '');
    for (const m of r.matched) expect(squashed, m.finding.id!).toContain(`${MATCH_REASON_TEXT[m.by].mark}${m.row}${(m.key ?? '').replace(/\s+/g, '')}`);
    expect(squashed).toContain(`p.${notesItems[0]!.page}`);
    expect(squashed).toContain(`Onlyinthepopulation:rowsthedocumentnevermentions(${r.counts.onlyInPopulation})`);
    expect(squashed.split('✗').length - 1).toBe(r.counts.onlyInDocument + r.counts.onlyInPopulation + 1);
  });

  it('JSON in the issue’s shape (rows numbered from 1), the workpaper’s JSON with the review added', async () => {
    const jira = jiraExport(notesItems.slice(0, 4), { family: 'PBI' });
    const r = await reconcileCsv(notesDocument, jira.header, jira.rows);
    const { reconciliationJsonValue } = await import('../../../electron/engine/reconcile');
    const value = reconciliationJsonValue(r) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['document', 'population', 'matched', 'only_in_document', 'only_in_population']);
    expect(value.document).toEqual({ file: 'release-notes.pdf' });
    expect(value.population).toEqual({ file: 'population.csv', rows: jira.rows.length, key_column: 'Issue key', title_column: 'Summary' });
    expect((value.matched as unknown[])[0]).toEqual({
      row: 1,
      key: notesItems[0]!.id,
      title: notesItems[0]!.title,
      finding: { id: notesItems[0]!.id, title: notesItems[0]!.title, page: notesItems[0]!.page },
      by: 'id',
      score: 1,
    });
    expect(Object.keys((value.only_in_document as object[])[0]!)).toEqual(['id', 'title', 'page']);
    expect(Object.keys((value.only_in_population as object[])[0]!)).toEqual(['row', 'key', 'title']);
    const workpaper = JSON.parse((await renderReconciliation(r, 'json')) as string) as { matched: { review: { state: string } }[] };
    expect(workpaper.matched[0]!.review.state).toBe('unreviewed');
  });
});

describe('a population refused leaves nothing stored', () => {
  it('an encrypted workbook and a file with no header store no population', async () => {
    const { encryptedWorkbook } = await import('../../fixtures/populations');
    const local = openDatabase(join(tempDir(), 's.sqlite'));
    try {
      await expect(importPopulation(local, { name: 'x.xlsx', bytes: encryptedWorkbook() })).rejects.toMatchObject({ code: 'POPULATION_PASSWORD_PROTECTED' });
      await expect(importPopulation(local, { name: 'x.csv', bytes: Buffer.from('A-1,B\nA-2,C\n') })).rejects.toMatchObject({ code: 'POPULATION_NO_HEADER' });
      expect(local.prepare('SELECT COUNT(*) AS n FROM populations').get()).toEqual({ n: 0 });
    } finally {
      local.close();
    }
  });
});

describe('the review of a tie-out', () => {
  it('confirm, break, match by hand and note: kept across a re-run and a re-analysis, written to the review trail', async () => {
    // A store of its own: the decisions stay out of the other tests' tie-outs.
    const db = openDatabase(join(tempDir(), 'review.sqlite'));
    const engine = createEngine({ db, appVersion: 'test' });
    const notesDocument = (await engine.analyze([join(dir, 'release-notes.pdf')], { mode: 'rules-only' })).inputs[0]!.documentId!;
    const jira = jiraExport(notesItems.slice(0, 12), { family: 'PBI' });
    const population = await importPopulation(db, { name: 'review.csv', bytes: Buffer.from(csvText(jira.header, jira.rows)) });
    const first = reconcileDocument(db, { documentId: notesDocument, population });
    const [a, b] = first.matched;
    const lonely = first.onlyInPopulation[0]!;
    const spare = first.onlyInDocument[0]!;
    const at = '2025-01-02T10:00:00.000Z';
    reviewTieOut(db, { documentId: notesDocument, action: 'confirm', rowKey: a!.rowKey, itemKey: a!.finding.key, reviewer: 'A. Auditor', at });
    reviewTieOut(db, {
      documentId: notesDocument,
      action: 'break',
      rowKey: b!.rowKey,
      itemKey: b!.finding.key,
      text: 'Different ticket, same words',
      reviewer: 'A. Auditor',
      at,
    });
    reviewTieOut(db, { documentId: notesDocument, action: 'match', rowKey: lonely.rowKey, itemKey: spare.finding.key, reviewer: 'A. Auditor', at });
    reviewTieOut(db, {
      documentId: notesDocument,
      action: 'note',
      itemKey: first.onlyInDocument[1]!.finding.key,
      text: 'Tracked in the 7.5 population',
      reviewer: 'A. Auditor',
      at,
    });

    // A re-analysis of the same file: a new run, the same document; the decisions are keyed by row and item, not by run.
    const rerun = await engine.analyze([join(dir, 'release-notes.pdf')], { mode: 'rules-only' });
    expect(rerun.inputs[0]!.documentId).toBe(notesDocument);
    const again = reconcileDocument(db, { documentId: notesDocument, population });
    expect(again.document.runId).toBe(rerun.run.id);
    expect(again.matched.find((m) => m.rowKey === a!.rowKey)!.review).toMatchObject({ state: 'confirmed', reviewer: 'A. Auditor', at });
    expect(again.matched.find((m) => m.rowKey === b!.rowKey)).toBeUndefined();
    expect(again.onlyInPopulation.find((p) => p.rowKey === b!.rowKey)).toMatchObject({
      broken: [b!.finding.key],
      review: { notes: [{ text: 'Different ticket, same words' }] },
    });
    expect(again.onlyInDocument.some((d) => d.finding.key === b!.finding.key)).toBe(true);
    expect(again.matched.find((m) => m.rowKey === lonely.rowKey)).toMatchObject({
      by: 'auditor',
      finding: { key: spare.finding.key },
      review: { state: 'confirmed' },
    });
    expect(again.onlyInDocument.find((d) => d.finding.key === first.onlyInDocument[1]!.finding.key)!.review.notes).toEqual([
      { reviewer: 'A. Auditor', at, text: 'Tracked in the 7.5 population' },
    ]);
    expect(again.counts.rows).toBe(again.counts.matched + again.counts.onlyInPopulation);

    const trail = listTrail(db, { documentId: notesDocument }).filter((t) => t.field === 'tie-out');
    expect(trail.map((t) => [t.action, t.to])).toEqual([
      ['state', 'confirmed'],
      ['state', 'broken'],
      ['state', 'matched'],
      ['note', null],
    ]);
    expect(trail.every((t) => t.reviewer === 'A. Auditor' && t.reviewedId === null)).toBe(true);

    // Taking the break back makes the match again.
    reviewTieOut(db, { documentId: notesDocument, action: 'undo', rowKey: b!.rowKey, itemKey: b!.finding.key, reviewer: 'B. Auditor', at });
    expect(reconcileDocument(db, { documentId: notesDocument, population }).matched.find((m) => m.rowKey === b!.rowKey)!.finding.key).toBe(b!.finding.key);
    expect(() => reviewTieOut(db, { documentId: notesDocument, action: 'confirm', rowKey: a!.rowKey, itemKey: a!.finding.key, reviewer: ' ', at })).toThrow(
      /reviewer name/,
    );
    db.close();
  });
});
