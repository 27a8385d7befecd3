/**
 * The re-trial of 2026-11-29 (issue 37's done-when, /work/notes/retrial-2026-11-29.md), in Chromium through the
 * WebSocket bridge against a real engine and the demo model, for the rows about the UI:
 * - the table of all findings shows the auditor's edit (title, severity, marked edited), as the queue and the
 *   reports do (row 1);
 * - a finding that quotes a long path or identifier never makes the detail pane scroll sideways, at 1440x900,
 *   1024x700 and 800x600 (row 3); screenshots in test-results/screenshots/retrial-detail-*.png;
 * - at 1024x700 and 800x600 a queue row's page and the table's severity are never cut ("p. 12, printe",
 *   "Informationa": polish rows 6, 7); an endpoint of the pool is a card, not a bulleted item, and Settings' "unsaved"
 *   mark stays on its line (polish rows 9, 10);
 * - a blank last page is noted once, quietly, in the Document view, not above the triage queue (polish row 5).
 */
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTextPdf } from '../fixtures/pdfFactory';
import { demoResponder } from '../ollama-sim/demoResponder';
import { startApp, type AppUnderTest } from './appUnderTest';
import { screenshot } from './browser';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import { laidOut, poll, resizedTo, SETUP_DEADLINE_MS } from './waits';

/** A path as audit reports quote them, wider than the detail pane at every window size. */
const LONG_PATH = 'packages/incentives/src/state/rewards_schedule_calculation.rs:128';

const TITLES = ['Rewards are paid twice for a new schedule', 'Paused pools still accrue rewards'];

/**
 * An unnumbered cover, then one finding a page as a report prints them, each page's footer printing a number one less
 * than its position ("p. 2, printed 1"); the first finding's opening sentence quotes a long path (short enough for the page).
 */
async function reportPdf(): Promise<Uint8Array> {
  const findingPages = TITLES.map((title, i) => [
    `3.${i + 1} RWD-00${i + 1} ${title}`,
    'Severity: Medium',
    i === 0 ? `In ${LONG_PATH} it is paid twice.` : 'Rewards keep accruing while the pool is paused by the owner.',
    'The team was told on the day it was found.',
    `Page | ${i + 1}`,
  ]);
  // The last page is blank, as reports often end: OCR finds no words on it.
  const pages = [['Security review of the rewards contracts'], ...findingPages, []].map((lines) => ({ blocks: [{ kind: 'body' as const, lines }] }));
  return makeTextPdf({ title: 'Rewards', pages });
}

describeNeeding([CHROMIUM], 'the re-trial of 2026-11-29', () => {
  let app: AppUnderTest;
  let page: Page;
  const goTo = (place: string) =>
    page
      .getByRole('navigation', { name: 'Places' })
      .getByRole('button', { name: new RegExp(`^${place}`) })
      .click();
  const queue = () => page.getByRole('listbox', { name: 'Findings to review' });
  const detail = () => page.getByTestId('review-detail');

  beforeAll(async () => {
    app = await startApp({ ollamaSim: { responder: demoResponder } }, async ({ host }) => {
      await host.invoke('settings.update', { reviewerName: 'A. Auditor' });
      await host.invoke('documents.import', { files: [{ name: 'rewards-report.pdf', bytes: Buffer.from(await reportPdf()).toString('base64') }] });
      await host.idle();
    });
    ({ page } = app);
    await goTo('Library');
    await page.getByRole('button', { name: 'Findings of rewards-report.pdf' }).click();
    // Playwright's wait (expect.poll belongs to a test): the queue holds both findings.
    await queue().getByRole('option').nth(1).waitFor();
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  it("shows the auditor's edited title and severity in the table of all findings, marked edited (row 1)", async () => {
    await queue().getByRole('option').filter({ hasText: TITLES[1] }).click();
    await poll(() => detail().locator('h2').textContent()).toContain(TITLES[1]);
    await queue().focus();
    await page.keyboard.press('e');
    const form = page.getByRole('form', { name: 'Edit the finding' });
    await form.getByLabel(/^Title/).fill('Paused pools keep accruing rewards');
    await form.getByLabel(/^Severity/).selectOption('Informational');
    await form.getByRole('button', { name: 'Save edits' }).click();
    await poll(() => detail().getByTestId('review-values').locator('tr[data-field="severity"] td.effective').textContent()).toBe('Informational');

    await page.getByRole('button', { name: 'Table of all findings' }).click();
    const row = page.getByTestId('findings-table').first().getByRole('row').filter({ hasText: 'RWD-002' });
    await poll(() => row.locator('.cell-title').textContent()).toMatch(/Paused pools keep accruing rewards$/);
    expect(await row.locator('.severity').textContent()).toContain('Informational');
    expect(await row.getByTestId('table-edited').getAttribute('title')).toBe('Edited by the auditor: title, severity');
    // The finding nobody edited keeps the model's values and no mark.
    const other = page.getByTestId('findings-table').first().getByRole('row').filter({ hasText: 'RWD-001' });
    expect(await other.locator('.severity').textContent()).toContain('Medium');
    expect(await other.getByTestId('table-edited').count()).toBe(0);
    // Sorted by severity, the edited Informational comes after the Medium.
    await poll(async () => (await page.getByTestId('findings-table').first().getByRole('row').allTextContents()).slice(1).map((t) => t.slice(0, 7))).toEqual([
      'RWD-001',
      'RWD-002',
    ]);
    await page.getByRole('button', { name: 'Triage queue' }).click();
  });

  for (const size of [
    { width: 1440, height: 900 },
    { width: 1024, height: 700 },
    { width: 800, height: 600 },
  ]) {
    it(`keeps the detail of a finding that quotes a long path inside its pane at ${size.width}x${size.height} (row 3)`, async () => {
      await resizedTo(page, size);
      // The queue, whichever tab an earlier test left open.
      await page.getByRole('button', { name: 'Triage queue' }).click();
      await queue().getByRole('option').filter({ hasText: TITLES[0] }).click();
      await poll(() => detail().locator('h2').textContent()).toContain(TITLES[0]);
      const values = detail().getByTestId('review-values');
      await poll(() => values.locator('tr[data-field="description"]').textContent()).toContain(LONG_PATH);
      await laidOut(page);
      const pane = page.locator('.split__detail');
      const [scrollWidth, clientWidth] = await pane.evaluate((e) => [e.scrollWidth, e.clientWidth]);
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      // The auditor's column is in sight, inside the pane.
      const [paneBox, effectiveBox] = await Promise.all([pane.boundingBox(), values.locator('tr[data-field="description"] td.effective').boundingBox()]);
      expect(effectiveBox!.x + effectiveBox!.width).toBeLessThanOrEqual(paneBox!.x + paneBox!.width);
      await values.scrollIntoViewIfNeeded();
      await screenshot(page, `retrial-detail-${size.width}x${size.height}`);
    });
  }

  for (const size of [
    { width: 1024, height: 700 },
    { width: 800, height: 600 },
  ]) {
    it(`cuts neither a queue row's page nor the table's severity at ${size.width}x${size.height} (polish rows 6, 7)`, async () => {
      await resizedTo(page, size);
      await page.getByRole('button', { name: 'Triage queue' }).click();
      // The edited finding: state icon, "Informational", "edited" and its page share one line.
      const edited = queue().getByRole('option').filter({ hasText: 'Paused pools keep accruing rewards' });
      await poll(() => edited.getByTestId('queue-page').textContent()).toBe('p. 3, printed 2');
      await laidOut(page);
      for (const option of await queue().getByRole('option').all()) {
        const [line, where] = await Promise.all([option.locator('.review-item__line').boundingBox(), option.locator('.review-item__where').boundingBox()]);
        expect(where!.x + where!.width).toBeLessThanOrEqual(line!.x + line!.width + 0.5);
      }
      await screenshot(page, `retrial-queue-${size.width}x${size.height}`);

      await page.getByRole('button', { name: 'Table of all findings' }).click();
      const table = page.getByTestId('findings-table').first();
      await poll(() => table.getByRole('row').filter({ hasText: 'RWD-002' }).locator('.severity').textContent()).toContain('Informational');
      await laidOut(page);
      for (const cell of await table.locator('[role="gridcell"]:has(> .severity)').all()) {
        const [scrollWidth, clientWidth] = await cell.evaluate((e) => [e.scrollWidth, e.clientWidth]);
        expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      }
      await screenshot(page, `retrial-table-${size.width}x${size.height}`);
      await page.getByRole('button', { name: 'Triage queue' }).click();
    });
  }

  it('shows an endpoint of the pool as a card, without a list bullet, and "unsaved" on the Settings line (polish rows 9, 10)', async () => {
    await resizedTo(page, { width: 1024, height: 700 });
    await goTo('Settings');
    await page.getByRole('button', { name: 'Add an endpoint' }).click();
    const endpoint = page.getByTestId('endpoint').first();
    await endpoint.waitFor();
    expect(await endpoint.evaluate((e) => getComputedStyle(e).listStyleType)).toBe('none');
    // Elsewhere, the Settings place keeps one line with its "• unsaved" mark: as high as a place without one.
    await goTo('Library');
    const places = page.getByRole('navigation', { name: 'Places' });
    await places.getByTestId('settings-unsaved').waitFor();
    const [settings, library] = await Promise.all([
      places.getByRole('button', { name: /^Settings/ }).boundingBox(),
      places.getByRole('button', { name: /^Library/ }).boundingBox(),
    ]);
    expect(Math.abs(settings!.height - library!.height)).toBeLessThan(1);
    await goTo('Settings');
    await page.getByRole('button', { name: 'Discard' }).click();
    await poll(() => page.getByTestId('endpoint').count()).toBe(0);
  });

  it('notes a blank last page in the Document view, not above the triage queue (polish row 5)', async () => {
    await resizedTo(page, { width: 800, height: 600 });
    await goTo('Document');
    await poll(() => page.getByTestId('picture-pages').textContent()).toBe('Page 4 has only pictures or nothing on it (OCR found no words).');
    await goTo('Findings');
    await page.getByRole('button', { name: 'Triage queue' }).click();
    const head = page.getByTestId('queue-head');
    await poll(() => head.getByTestId('review-counters').textContent()).toMatch(/2 findings in all/);
    expect(await head.getByTestId('picture-pages').count()).toBe(0);
    await screenshot(page, 'retrial-queue-blank-page-800x600');
  });
});
