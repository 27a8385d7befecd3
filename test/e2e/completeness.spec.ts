/**
 * The completeness verdict in the desktop UI through the WebSocket bridge: a
 * generated report whose summary says Medium 2 while it lists and details one
 * Medium finding is analysed by the full pipeline (simulator), and the
 * document view says "Check this place", shows stated vs found, and its page
 * link opens the chunk where the document states its totals.
 */
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTextPdf } from '../fixtures/pdfFactory';
import { FINDINGS, headingResponder, reportSpec } from '../integration/completeness/helpers';
import { startApp, type AppUnderTest } from './appUnderTest';
import { screenshot, seriousAxeViolations } from './browser';
import { SETUP_DEADLINE_MS, poll } from './waits';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';

describeNeeding([CHROMIUM], 'completeness verdict in the document view', () => {
  let app: AppUnderTest;
  let page: Page;

  beforeAll(async () => {
    app = await startApp({ ollamaSim: { responder: headingResponder(FINDINGS) } }, async ({ host }) => {
      await host.invoke('settings.update', { strategy: 'pages', useJudge: false });
      const pdf = await makeTextPdf(reportSpec(['Total High-Severity Issues 1', 'Total Medium-Severity Issues 2', 'Total Low-Severity Issues 1']));
      await host.invoke('documents.import', { files: [{ name: 'disagreeing-report.pdf', bytes: Buffer.from(pdf).toString('base64') }] });
      await host.idle();
    });
    page = app.page;
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  it('says the document disagrees with itself, with stated vs found, and opens the page it names', async () => {
    await page.getByRole('button', { name: 'Open disagreeing-report.pdf' }).click();
    const panel = page.getByTestId('completeness');
    await panel.getByTestId('completeness-headline').waitFor();
    await poll(() => panel.getAttribute('data-status')).toBe('check');
    await poll(() => panel.getByTestId('completeness-headline').textContent()).toBe('Check this place');
    const medium = panel.getByTestId('completeness-tallies').locator('tr[data-severity="Medium"] td');
    await poll(() => medium.allTextContents()).toEqual(['Medium 2', '1', '1']);
    const place = panel.getByTestId('completeness-places').locator('li[data-kind="document-disagrees"]');
    await poll(() => place.textContent()).toBe(
      'p. 1: The document disagrees with itself: it states Medium 2 on page 1, but its summary table (page 2) lists 1 Medium finding; 1 found.',
    );

    // Another chunk first, so the link has to move the view.
    await page.getByRole('treeitem', { name: /Page 3/ }).click();
    await poll(() => page.getByTestId('chunk-text').locator('pre').textContent()).toContain('1. SQL injection in the report export');
    await place.getByRole('button', { name: 'p. 1' }).click();
    await poll(() => page.getByTestId('chunk-text').locator('pre').textContent()).toContain('Total Medium-Severity Issues 2');
    await screenshot(page, 'completeness');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
