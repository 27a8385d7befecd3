/**
 * The comparison view in the desktop UI through the WebSocket bridge: two versions of a generated report
 * analysed by the full pipeline (simulator), compared side by side, filtered by label, a side's source page
 * drawn with one click, the auditor's review note on an earlier finding shown on its pair, the statuses the
 * rules could not read asked of the model (its made-up ones dropped), and the sibling candidate confirmed by
 * the auditor.
 */
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTextPdf } from '../fixtures/pdfFactory';
import { secondRoundPair, statusQuoteResponder, versionSpec } from '../fixtures/reportPairs';
import { startApp, type AppUnderTest } from './appUnderTest';
import { screenshot, seriousAxeViolations } from './browser';
import { SETUP_DEADLINE_MS, poll } from './waits';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import type { DocumentSummary, ReviewViewResult } from '../../shared/contract';

describeNeeding([CHROMIUM], 'comparison view', () => {
  let app: AppUnderTest;
  let page: Page;

  beforeAll(async () => {
    app = await startApp({ ollamaSim: { responder: statusQuoteResponder } }, async ({ host }) => {
      await host.invoke('settings.update', { strategy: 'pages', useJudge: false, reviewerName: 'Ada' });
      const pair = secondRoundPair();
      for (const [name, version, seed] of [
        ['round-one.pdf', pair.earlier, 1],
        ['round-two.pdf', pair.later, 2],
      ] as const) {
        const pdf = await makeTextPdf(versionSpec(version, seed));
        await host.invoke('documents.import', { files: [{ name, bytes: Buffer.from(pdf).toString('base64') }] });
        await host.idle();
      }
      // The auditor's note on an earlier finding, written in the review: it must show on that finding's pair.
      const documents = await host.invoke('documents.list', {});
      const roundOne = documents.ok ? (documents.data as DocumentSummary[]).find((d) => d.fileName === 'round-one.pdf') : undefined;
      const review = roundOne ? await host.invoke('review.get', { documentId: roundOne.id }) : undefined;
      const finding = review?.ok ? (review.data as ReviewViewResult).findings.find((f) => f.findingKey === 'ACME-05') : undefined;
      if (!finding) throw new Error('the earlier report has no reviewed ACME-05 to note');
      const noted = await host.invoke('review.note', { reviewedId: finding.id, text: 'Client promised SafeERC20 in round two.' });
      if (!noted.ok) throw new Error(noted.error.message);
    });
    page = app.page;
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  it('shows both versions side by side with labels, stated statuses, filters, source pages and the candidate to confirm', async () => {
    await page.getByRole('button', { name: 'Compare' }).first().click();
    const view = page.getByRole('region', { name: 'Compare versions' });
    await view.getByLabel('Earlier').selectOption({ label: 'round-one.pdf' });
    await view.getByLabel('Later').selectOption({ label: 'round-two.pdf' });
    await view.getByRole('button', { name: 'Compare', exact: true }).click();
    const summary = view.getByLabel('Summary');
    await summary.waitFor();
    await poll(() => summary.textContent()).toContain(
      'Resolved (as the later document states): 1 · Still open: 4 · No longer present: 2 · New: 2 · Severity changed: 1 · Candidates to confirm: 1',
    );
    // The two new findings state no status; the model was asked once and the statuses it made up were not in the text.
    await poll(() => view.getByLabel('Statuses read by the model').textContent()).toBe(
      "0 status(es) the rules could not read were read by qwen3:8b, each quote found in its finding's section; 2 quote(s) not found in their finding's section and dropped.",
    );

    const rows = view.locator('table.compare__pairs tbody tr');
    await poll(() => rows.count()).toBe(9);
    const reentrancy = rows.filter({ hasText: 'ACME-01 Reentrancy in withdraw' });
    await poll(() => reentrancy.locator('td').nth(1).textContent()).toContain('“Fixed”p. 2: Status: Fixed');

    // Filter by label: only the re-rated finding.
    await view.getByRole('button', { name: /^Severity changed/ }).click();
    await poll(() => rows.count()).toBe(1);
    await poll(() => rows.first().textContent()).toContain('ACME-05 Unchecked return value of token transfer (Medium)');
    await poll(() => rows.first().textContent()).toContain('ACME-04 Unchecked return value of token transfer (High)');
    // The note written on the earlier finding in the review is carried over to its pair, in the earlier column.
    await poll(() => rows.first().locator('td').nth(2).getByRole('list', { name: 'Auditor notes' }).textContent()).toBe(
      'Ada: Client promised SafeERC20 in round two.',
    );
    await poll(() => view.getByRole('list', { name: 'Auditor notes' }).count()).toBe(1);
    // The later side's source page, one click away, drawn with pdf.js.
    await rows
      .first()
      .locator('td')
      .nth(3)
      .getByRole('button', { name: /Show page/ })
      .click();
    await rows.first().locator('td').nth(3).locator('canvas').waitFor();
    await view.getByRole('button', { name: /^Severity changed/ }).click();
    await poll(() => rows.count()).toBe(9);

    // The sibling candidate: confirmed, it becomes one pair.
    const candidates = view.getByRole('region', { name: 'Candidate pairs' });
    await poll(() => candidates.textContent()).toContain('Missing input validation in deposit ↔ Missing input validation in withdraw');
    await candidates.getByRole('button', { name: 'Confirm pair' }).click();
    await poll(() => rows.count()).toBe(8);
    await poll(() => candidates.textContent()).toContain('Confirmed: shown as one pair.');
    await poll(() => rows.filter({ hasText: 'Missing input validation in deposit' }).textContent()).toContain('Missing input validation in withdraw');

    // Exported from the view: the host writes it to the exports folder and the view says where.
    const exporting = view.getByRole('group', { name: 'Export the comparison' });
    await exporting.getByLabel('Format').selectOption({ label: 'JSON' });
    await exporting.getByRole('button', { name: 'Export comparison' }).click();
    await exporting.getByRole('status').waitFor();
    await poll(() => exporting.getByRole('status').textContent()).toMatch(/^Written: .*[/\\]exports[/\\]comparison-\d+-[\dT-]+Z\.json \(\d+ bytes\)$/);
    await screenshot(page, 'compare');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
