/**
 * The triage queue and detail (issue 16) in Chromium through the WebSocket
 * bridge, against a real engine host:
 * - the detail says where a finding's ID comes from (printed in the document,
 *   or only the model's label) and lists the findings the document gives the
 *   same ID, each a way to open it (a real pipeline run, scripted model);
 * - a queue of 3,000 findings is virtual: only the rows in view exist, and
 *   the keyboard, the mouse and the filter still reach every finding.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addManualFinding } from '../../electron/engine/review';
import { openDatabase } from '../../electron/engine/store';
import { ID_CONFLICT_PAGES, idConflictResponder } from '../fixtures/idConflicts';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import { startApp, type AppUnderTest } from './appUnderTest';
import { screenshot, seriousAxeViolations } from './browser';
import { SETUP_DEADLINE_MS, poll } from './waits';

const goToFindings = (page: Page) =>
  page
    .getByRole('navigation', { name: 'Places' })
    .getByRole('button', { name: /^Findings/ })
    .click();
const queueOf = (page: Page) => page.getByRole('listbox', { name: 'Findings to review' });

describeNeeding([CHROMIUM], 'the triage detail: where the ID comes from, and findings given the same ID', () => {
  let app: AppUnderTest;
  let page: Page;
  const detail = () => page.getByTestId('review-detail');
  const pick = (title: string) => queueOf(page).getByRole('option').filter({ hasText: title }).click();

  beforeAll(async () => {
    app = await startApp({ unitTokens: 1, ollamaSim: { responder: idConflictResponder } }, async (server) => {
      await server.host.invoke('settings.update', { strategy: 'pages', useJudge: false, reviewerName: 'A. Auditor' });
      const file = join(server.dataDir, 'id-conflicts.txt');
      writeFileSync(file, ID_CONFLICT_PAGES.join('\f'));
      await server.host.invoke('runs.start', { files: [file] });
      await server.host.idle();
    });
    page = app.page;
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  it('says whether the ID is printed in the document or only the model’s label', async () => {
    await goToFindings(page);
    await queueOf(page).getByRole('option').first().waitFor();
    await pick('Login rate limiting missing');
    await poll(() => detail().getByTestId('id-origin').textContent()).toBe("ID F-1 (model's label): given by the model only, not printed in the document");
    // Drawn with the ID line, from the same finding: none for this one.
    expect(await detail().getByTestId('merge-conflicts').count()).toBe(0);
    await pick('SQL injection in report export');
    await poll(() => detail().getByTestId('id-origin').textContent()).toBe('ID PBI-1201: printed in the document');
  });

  it('lists the other finding the document gives the same ID, and opens it', async () => {
    const note = detail().getByTestId('merge-conflicts');
    await poll(() => note.textContent()).toContain('The document also gives ID PBI-1201 to “Cleartext passwords in the deployment archive”');
    await screenshot(page, 'triage-id-conflict-1440');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await note.getByRole('button', { name: /^Open R-\d+$/ }).click();
    await poll(() => detail().locator('h2').textContent()).toContain('Cleartext passwords in the deployment archive');
    // The way back: the other side names the first finding.
    await poll(() => detail().getByTestId('merge-conflicts').textContent()).toContain('“SQL injection in report export”');
    await poll(() => queueOf(page).locator('[aria-selected="true"]').textContent()).toContain('Cleartext passwords in the deployment archive');
  });
});

const MANY = 3000;

describeNeeding([CHROMIUM], 'a triage queue of thousands of findings', () => {
  let app: AppUnderTest;
  let page: Page;
  const active = () => page.getByTestId('review-detail').getAttribute('data-review-id');
  const options = () => queueOf(page).getByRole('option');

  beforeAll(async () => {
    app = await startApp({}, async (server) => {
      await server.host.invoke('settings.update', { reviewerName: 'A. Auditor' });
      const lines = Array.from({ length: MANY }, (_, i) => `BULK-${String(i + 1).padStart(4, '0')} Control ${i + 1} was not tested during the period.`);
      const file = join(server.dataDir, 'bulk.txt');
      writeFileSync(file, lines.join('\n'));
      await server.host.invoke('runs.start', { files: [file], mode: 'rules-only' });
      await server.host.idle();
      // Thousands of findings straight into the store (a model run of this size takes minutes): one per line, by hand.
      const db = openDatabase(server.host.dbPath);
      const { id: documentId, canonical_text: text } = db.prepare('SELECT id, canonical_text FROM documents').get() as { id: number; canonical_text: string };
      db.transaction(() => {
        lines.forEach((line, i) => {
          const start = text.indexOf(line);
          addManualFinding(db, {
            documentId,
            start,
            end: start + line.length,
            title: `Control ${i + 1} not tested`,
            severity: ['High', 'Medium', 'Low'][i % 3]!,
            type: 'control deficiency',
            description: '',
            reviewer: 'A. Auditor',
          });
        });
      })();
      db.close();
    });
    page = app.page;
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  it('renders only the rows in view, and the keyboard reaches the last finding and back', async () => {
    await goToFindings(page);
    await options().first().waitFor();
    await poll(() => page.getByTestId('review-counters').textContent()).toContain('3,000 findings in all');
    const rendered = await options().count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(60);
    expect(await options().first().getAttribute('aria-setsize')).toBe(String(MANY));
    // Whenever the list names its active row (aria-activedescendant), that row is in the DOM: checked at every change,
    // before the browser's next frame (the rows used to follow one scroll event later, a frame or more on a busy machine).
    await queueOf(page).evaluate((list) => {
      const missing: string[] = [];
      (window as unknown as { activeRowsMissing: string[] }).activeRowsMissing = missing;
      new MutationObserver(() => {
        const id = list.getAttribute('aria-activedescendant');
        if (id && !document.getElementById(id)) missing.push(id);
      }).observe(list, { attributes: true, attributeFilter: ['aria-activedescendant'] });
    });

    await queueOf(page).focus();
    await page.keyboard.press('End');
    await poll(() => page.getByTestId('review-detail').locator('h2').textContent()).toContain(`Control ${MANY} not tested`);
    const last = queueOf(page).locator('[aria-selected="true"]');
    await poll(() => last.getAttribute('aria-posinset')).toBe(String(MANY));
    // The active row is drawn and inside the list's visible box (both measured at one moment).
    const activeRowPlace = () =>
      queueOf(page).evaluate((list) => {
        const row = list.querySelector('[aria-selected="true"]');
        if (!row) return 'no active row drawn';
        const [r, box] = [row.getBoundingClientRect(), list.getBoundingClientRect()];
        return r.top >= box.top - 1 && r.bottom <= box.bottom + 1 ? 'in view' : `out of view: ${r.top}-${r.bottom} in ${box.top}-${box.bottom}`;
      });
    await poll(activeRowPlace).toBe('in view');
    expect(await options().count()).toBeLessThan(60);
    expect(await queueOf(page).getAttribute('aria-activedescendant')).toBe(await last.getAttribute('id'));

    await page.keyboard.press('k');
    await page.keyboard.press('PageUp');
    await poll(() => page.getByTestId('review-detail').locator('h2').textContent()).toContain(`Control ${MANY - 11} not tested`);
    await page.keyboard.press('Home');
    await poll(() => page.getByTestId('review-detail').locator('h2').textContent()).toContain('Control 1 not tested');
    // The list follows the detail: the first row drawn is the active one (the race of issue 43 read this once, too early).
    await poll(() => options().first().getAttribute('aria-selected')).toBe('true');
    // One source beside the finding: the places of the findings passed on the way are gone.
    await poll(() => page.getByTestId('review-detail').getByTestId('source-place').count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { activeRowsMissing: string[] }).activeRowsMissing)).toEqual([]);
  });

  it('selects with the mouse after scrolling, reviews the chosen finding, and filters the whole queue', async () => {
    await queueOf(page).evaluate((list) => (list.scrollTop = list.scrollHeight / 2));
    await poll(() => options().first().getAttribute('aria-posinset').then(Number)).toBeGreaterThan(1000);
    // The row is named by its finding, not its place among the rows drawn (a re-render may shift them before the click).
    const id = await options().nth(3).getAttribute('data-review-id');
    const target = queueOf(page).locator(`[data-review-id="${id}"]`);
    await target.click();
    await poll(active).toBe(id);
    await page.keyboard.press('c');
    await poll(() => target.getAttribute('data-state')).toBe('confirmed');

    await page.getByRole('searchbox', { name: 'Search' }).fill('Control 2999 ');
    await page.getByRole('searchbox', { name: 'Search' }).fill('Control 2999');
    await poll(() => options().count()).toBe(1);
    expect(await options().first().getAttribute('aria-setsize')).toBe('1');
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await poll(() => options().first().getAttribute('aria-setsize')).toBe(String(MANY));
    await screenshot(page, 'triage-many-1440');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
