/**
 * Reconcile in the desktop UI through the WebSocket bridge (issue 41): a generated release note imported as the
 * app does, "Reconcile with…" from the document view, a Jira-like XLSX dropped beside it, then a CSV chosen with
 * the picker; the three lists with counts that add up, a matched item's page drawn with pdf.js from its row, a
 * match confirmed, a row matched by hand, the tie-out exported; screenshots at 1440x900 and 1024x700.
 */
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DocumentSummary } from '../../shared/contract';
import { makeTextPdf } from '../fixtures/pdfFactory';
import { csvText, jiraExport, titlesOnlyTracker, xlsxBytes } from '../fixtures/populations';
import { releaseNotes } from '../fixtures/releaseNotes';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import { startApp, type AppUnderTest } from './appUnderTest';
import { screenshot, seriousAxeViolations } from './browser';

const notes = releaseNotes({ tableIssues: 30, listIssues: 10 });
const items = notes.truth.findings.map((f) => ({ id: f.id, title: f.title, page: f.page }));
const jira = jiraExport(items, { dropEvery: 5, rewordEvery: 4, respellEvery: 6, family: 'PBI' });

/** Drops a file on the element the way a browser does: a drop event carrying it in a DataTransfer. */
async function dropFile(page: Page, selector: string, file: { name: string; type: string; base64: string }): Promise<void> {
  await page.evaluate(
    ({ selector, file }) => {
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], file.name, { type: file.type }));
      document.querySelector(selector)!.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    { selector, file },
  );
}

describeNeeding([CHROMIUM], 'reconcile view', () => {
  let app: AppUnderTest;
  let page: Page;

  beforeAll(async () => {
    app = await startApp({}, async ({ host }) => {
      await host.invoke('settings.update', { analysisMode: 'rules-only', reviewerName: 'Ada' });
      await host.invoke('documents.import', {
        files: [
          { name: 'release-notes-7.4.pdf', bytes: Buffer.from(await makeTextPdf({ pages: notes.pages, title: 'Release Notes 7.4' })).toString('base64') },
        ],
        mode: 'rules-only',
      });
      await host.idle();
      const listed = await host.invoke('documents.list', {});
      if (!listed.ok || !(listed.data as DocumentSummary[]).some((d) => d.fileName === 'release-notes-7.4.pdf'))
        throw new Error('the release note was not imported');
    });
    page = app.page;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('a population dropped beside the document: three lists whose counts add up, each item’s page one click away, the review', async () => {
    // "Reconcile with…" from the document view.
    await page.getByRole('button', { name: 'Document', exact: true }).click();
    await page.getByLabel('Document').first().selectOption({ label: 'release-notes-7.4.pdf' });
    await page.getByRole('button', { name: 'Reconcile with…' }).click();
    const view = page.getByRole('region', { name: 'Reconcile' });
    expect(await view.getByLabel('Document').inputValue()).not.toBe('');

    // A Jira-like XLSX (a title block above its header) dropped beside it: read, columns proposed, reconciled.
    const xlsx = await xlsxBytes([{ name: 'Export', above: [['Jira export, release 7.4'], [null]], header: jira.header, rows: jira.rows }]);
    await dropFile(page, '[data-testid="population-drop"]', {
      name: 'jira-7.4.xlsx',
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      base64: xlsx.toString('base64'),
    });
    const counts = view.getByLabel('Counts');
    await counts.waitFor();
    const matched = jira.expected.matched.size;
    const onlyInPopulation = jira.expected.onlyInPopulation.length;
    const onlyInDocument = jira.expected.onlyInDocument.length;
    expect(await counts.textContent()).toBe(
      `${jira.rows.length} rows: ${matched} matched + ${onlyInPopulation} only in the population; ${items.length} items in the document: ${matched} matched + ${onlyInDocument} only in the document.`,
    );
    expect(matched + onlyInPopulation).toBe(jira.rows.length);
    expect(matched + onlyInDocument).toBe(items.length);
    expect(await view.getByRole('group', { name: 'Population columns' }).textContent()).toContain(
      `jira-7.4.xlsx, sheet “Export”: ${jira.rows.length} rows, header on row 3`,
    );
    expect(await view.getByLabel('Key column').inputValue()).toBe('Issue key');
    expect(await view.getByLabel('Title column').inputValue()).toBe('Summary');
    for (const [name, n] of [
      ['Matched', matched],
      ['Only in the document', onlyInDocument],
      ['Only in the population', onlyInPopulation],
    ] as const) {
      expect(await view.getByRole('tab', { name: new RegExp(`^${name}`) }).textContent()).toBe(`${name} (${n})`);
    }

    // A row matched by its reworded title: its tick says how, its page opens the PDF page with the item highlighted.
    const byTitle = view.getByTestId('matched-row').filter({ hasText: 'title' }).first();
    expect(await byTitle.getByLabel(/^ticked: title/).textContent()).toBe('≈');
    expect(await byTitle.textContent()).toMatch(/title \d+%/);
    const firstRow = view.getByTestId('matched-row').first();
    expect(await firstRow.textContent()).toContain(items[0]!.id!);
    await firstRow.getByRole('button', { name: /^Open page \d+ for row 1$/ }).click();
    const pagePanel = view.getByRole('complementary', { name: new RegExp(`^Page ${items[0]!.page} of release-notes-7.4.pdf`) });
    // Drawn by pdf.js, the item's line highlighted on it.
    await pagePanel.locator('[data-testid="pdf-page"][data-rendered="true"]').waitFor();
    expect(Number(await pagePanel.getByTestId('pdf-page').getAttribute('data-highlights'))).toBeGreaterThan(0);
    await screenshot(page, 'reconcile-1440');

    // The auditor confirms a match: recorded with the reviewer name, shown on the row.
    await firstRow.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(async () => firstRow.textContent()).toContain('Confirmed');

    // The exceptions: items only in the document, rows only in the population; one row matched by hand.
    await view.getByRole('tab', { name: /^Only in the document/ }).click();
    expect(await view.getByTestId('document-only-row').count()).toBe(onlyInDocument);
    await view.getByRole('tab', { name: /^Only in the population/ }).click();
    const rows = view.getByTestId('population-only-row');
    expect(await rows.count()).toBe(onlyInPopulation);
    const dropped = items[jira.expected.onlyInDocument[0]!]!;
    await rows
      .first()
      .getByRole('combobox')
      .selectOption({ label: `${dropped.id} ${dropped.title}` });
    await expect.poll(async () => view.getByRole('tab', { name: /^Matched/ }).textContent()).toBe(`Matched (${matched + 1})`);
    expect(await view.getByRole('tab', { name: /^Only in the document/ }).textContent()).toBe(`Only in the document (${onlyInDocument - 1})`);

    // Exported as the workpaper: the host writes it to the exports folder and the view says where.
    const exporting = view.getByRole('group', { name: 'Export the tie-out' });
    await exporting.getByRole('button', { name: 'Export tie-out' }).click();
    await exporting.getByRole('status').waitFor();
    expect(await exporting.getByRole('status').textContent()).toMatch(/^Written: .*[/\\]exports[/\\]tie-out-\d+-[\dT-]+Z\.xlsx$/);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('a titles-only CSV chosen with the picker, at 1024x700: every row by title, the lists still add up', async () => {
    await page.setViewportSize({ width: 1024, height: 700 });
    const tracker = titlesOnlyTracker(items, { dropEvery: 7 });
    await page
      .getByTestId('population-picker')
      .setInputFiles({ name: 'tracker.csv', mimeType: 'text/csv', buffer: Buffer.from(csvText(tracker.header, tracker.rows)) });
    const view = page.getByRole('region', { name: 'Reconcile' });
    await expect
      .poll(async () => view.getByLabel('Counts').textContent())
      .toContain(`${tracker.rows.length} rows: ${tracker.expected.matched.size} matched + ${tracker.expected.onlyInPopulation.length} only in the population`);
    expect(await view.getByLabel('Key column').inputValue()).toBe('');
    await view.getByRole('tab', { name: /^Matched/ }).click();
    const first = view.getByTestId('matched-row').first();
    await first.getByRole('button', { name: /^Open page/ }).click();
    await view.getByRole('complementary').locator('[data-testid="pdf-page"][data-rendered="true"]').waitFor();
    await screenshot(page, 'reconcile-1024');
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
