/**
 * Printed page labels beside PDF pages (issue 27): the app counts pages from the PDF's first page, a report
 * prints its own numbers. The finding's source heading says both ("Page 3, printed 2"): from the PDF's page
 * labels when it has them (pdf.js), else from the number printed in the page's footer. Chromium through the
 * WebSocket bridge with the demo model. The queue rows cite pages the same way ("p. 3, printed 2").
 */
import { PDFDocument, PDFName } from 'pdf-lib';
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTextPdf, proseLines } from '../fixtures/pdfFactory';
import { demoResponder } from '../ollama-sim/demoResponder';
import { startApp, type AppUnderTest } from './appUnderTest';
import { screenshot, seriousAxeViolations } from './browser';
import { SETUP_DEADLINE_MS, poll } from './waits';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';

const body = (lines: string[]) => ({ blocks: [{ kind: 'body' as const, lines }] });

/** An unnumbered cover, then pages whose footer prints "Page | n" one less than their position. */
async function footerNumberedPdf(): Promise<Uint8Array> {
  return makeTextPdf({
    title: 'Footers',
    pages: [
      body(['Security Assessment of the Ledger', 'Prepared for the board, 2025']),
      body(['1 Introduction', ...proseLines(4, 3), 'Page | 1']),
      body([
        '2.1 FTR-001 Backups are never restored',
        'Severity: High',
        'Nobody has restored a backup of the ledger database since 2021.',
        ...proseLines(3, 4),
        'Page | 2',
      ]),
    ],
  });
}

/** The same kind of report with PDF page labels: "i" for the cover, then 1, 2... */
async function labelledPdf(): Promise<Uint8Array> {
  const bytes = await makeTextPdf({
    title: 'Labels',
    pages: [
      body(['Audit of the Payroll Service', 'Prepared for the finance team, 2025']),
      body([
        '2.1 LBL-001 Payroll exports are not encrypted',
        'Severity: Medium',
        'Payroll exports are written to a shared folder without encryption.',
        ...proseLines(3, 5),
      ]),
    ],
  });
  const pdf = await PDFDocument.load(bytes);
  pdf.catalog.set(PDFName.of('PageLabels'), pdf.context.obj({ Nums: [0, { S: 'r' }, 1, { S: 'D', St: 1 }] }));
  return pdf.save();
}

describeNeeding([CHROMIUM], 'printed page labels beside PDF pages', () => {
  let app: AppUnderTest;
  let page: Page;

  beforeAll(async () => {
    app = await startApp({ ollamaSim: { responder: demoResponder } }, async ({ host }) => {
      await host.invoke('settings.update', { reviewerName: 'A. Auditor', strategy: 'pages', useJudge: false });
      await host.invoke('documents.import', {
        files: [
          { name: 'footers.pdf', bytes: Buffer.from(await footerNumberedPdf()).toString('base64') },
          { name: 'labelled.pdf', bytes: Buffer.from(await labelledPdf()).toString('base64') },
        ],
      });
      await host.idle();
    });
    page = app.page;
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  const heading = () => page.getByTestId('review-detail').getByTestId('source-place').locator('h3').first();

  it('says "Page 3, printed 2" where the footer prints 2 on the PDF’s third page', async () => {
    await page.getByRole('button', { name: 'Findings of footers.pdf' }).click();
    await page.getByRole('listbox', { name: 'Findings to review' }).getByRole('option').first().waitFor();
    await poll(() => heading().textContent()).toMatch(/^Page 3, printed 2 · /);
    // The queue row cites the page the same way.
    const queueRow = page.getByRole('listbox', { name: 'Findings to review' }).getByRole('option').filter({ hasText: 'FTR-001' });
    await poll(() => queueRow.getByTestId('queue-page').textContent()).toBe('p. 3, printed 2');
    await screenshot(page, 'printed-label-footer-1440');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('uses the PDF’s own page labels when it has them', async () => {
    await page
      .getByRole('navigation', { name: 'Places' })
      .getByRole('button', { name: /^Library/ })
      .click();
    await page.getByRole('button', { name: 'Findings of labelled.pdf' }).click();
    await poll(() => page.getByTestId('review-detail').textContent()).toContain('LBL-001');
    await poll(() => heading().textContent()).toMatch(/^Page 2, printed 1 · /);
  });
});
