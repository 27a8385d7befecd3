/**
 * The document view marks a model-written summary that names an ID no verified finding has (security probe
 * 2026-11-28, row 4), as the findings view keeps ungrounded findings apart. Chromium through the WebSocket bridge,
 * with a simulator model that obeys an instruction planted in the document.
 */
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { INJECTED_REVIEW, obeyingSummaryModel } from '../fixtures/injectedSummary';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import { startApp, type AppUnderTest } from './appUnderTest';

describeNeeding([CHROMIUM], 'a summary naming an ID no finding has', () => {
  let app: AppUnderTest;
  let page: Page;

  beforeAll(async () => {
    app = await startApp({ ollamaSim: { responder: obeyingSummaryModel } }, async ({ host }) => {
      await host.invoke('settings.update', { strategy: 'headings', useJudge: false });
      await host.invoke('documents.import', { files: [{ name: 'review.md', bytes: Buffer.from(INJECTED_REVIEW, 'utf8').toString('base64') }] });
      await host.idle();
    });
    page = app.page;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('shows the summary with a mark naming the ID, and no mark for the IDs findings have', async () => {
    await page.getByRole('button', { name: 'Open review.md' }).click();
    const summary = page.getByTestId('analysis').getByTestId('document-summary');
    await summary.waitFor();
    expect(await summary.locator('.summary-text').textContent()).toContain('Referenced findings: TOB-FAKE-1.');
    const mark = summary.getByTestId('summary-ungrounded-ids');
    expect(await mark.textContent()).toMatch(/^Not verified: this summary names TOB-FAKE-1, which no verified finding of this document has/);
    expect(await mark.textContent()).not.toMatch(/TOB-ACME|ERC-20/);
  });
});
