/**
 * States and numbers that agree (issue 27), in Chromium through the WebSocket bridge with the demo model:
 * - the library badge and the run card follow the completeness verdict: a report that states 3 findings and
 *   yields 1 is never a green "Done", and its Findings message does not say "yet" once the run has ended;
 * - one time-left figure: the status bar and the run card show the same one, "estimating" until the host has a
 *   rate for what the run is doing;
 * - while paused, the status bar says the run is paused, the card says "Paused by you" and offers Cancel;
 *   after resuming, elapsed counts this execution's working time only.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTextPdf, proseLines } from '../fixtures/pdfFactory';
import { demoResponder } from '../ollama-sim/demoResponder';
import type { BridgeServer } from './bridgeServer';
import { startApp, type AppUnderTest } from './appUnderTest';
import { reportSpec } from '../integration/completeness/helpers';
import { dropFiles, screenshot, seriousAxeViolations } from './browser';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import { SETUP_DEADLINE_MS, poll } from './waits';

const body = (lines: string[]) => ({ blocks: [{ kind: 'body' as const, lines }] });

/** States High 2 and Medium 1 on its first page; details only one finding, so 1 of 3 is found. */
async function shortfallReportPdf(): Promise<Uint8Array> {
  return makeTextPdf({
    title: 'Shortfall',
    pages: [
      body(['1 Summary', 'Total High-Severity Issues 2', 'Total Medium-Severity Issues 1', ...proseLines(3, 7)]),
      body([
        '3.1 SHF-001 Backups are never restored',
        'Severity: High',
        'Nobody has restored a backup of the ledger database since 2021.',
        ...proseLines(3, 8),
      ]),
    ],
  });
}

/** States High 0 and Medium 1 (a count alone is never read as the document's totals) and details exactly that one finding: complete. */
async function completeReportPdf(): Promise<Uint8Array> {
  return makeTextPdf({
    title: 'Complete',
    pages: [
      body(['1 Summary', 'Total High-Severity Issues 0', 'Total Medium-Severity Issues 1', ...proseLines(3, 9)]),
      body([
        '3.1 CMP-001 Audit log can be deleted by operators',
        'Severity: Medium',
        'Operators can delete the audit log table without a second approval.',
        ...proseLines(3, 10),
      ]),
    ],
  });
}

/** Six pages, one finding each, so a run with slow replies can be watched, paused and resumed. */
async function slowReportPdf(): Promise<Uint8Array> {
  return makeTextPdf({
    title: 'Slow',
    pages: [1, 2, 3, 4, 5, 6].map((n) =>
      body([
        `3.${n} SLW-00${n} Control number ${n} is not tested`,
        'Severity: Low',
        `Control number ${n} was not tested during the period under review at all.`,
        ...proseLines(4, n),
      ]),
    ),
  });
}

describeNeeding([CHROMIUM], 'run states and numbers that agree', () => {
  let server: BridgeServer;
  let app: AppUnderTest;
  let page: Page;
  let extractDelayMs = 0;
  const goTo = (place: string) =>
    page
      .getByRole('navigation', { name: 'Places' })
      .getByRole('button', { name: new RegExp(`^${place}`) })
      .click();
  const libraryRow = (name: string) => page.getByTestId('library').locator(`tr[data-document="${name}"]`);

  beforeAll(async () => {
    app = await startApp(
      {
        unitTokens: 1,
        // Reading a file takes a moment, as a real PDF does, so the library can be seen listing it before it is stored.
        ingestDelayMs: 700,
        ollamaSim: {
          responder: async (req) => {
            if (extractDelayMs > 0 && JSON.stringify(req.format ?? '').includes('"findings"'))
              await new Promise((resolve) => setTimeout(resolve, extractDelayMs));
            return demoResponder(req);
          },
        },
      },
      ({ host }) => host.invoke('settings.update', { reviewerName: 'A. Auditor', strategy: 'pages', useJudge: false }).then(() => undefined),
    );
    ({ server, page } = app);
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  it('never shows a green "Done" for a document whose verdict asks to check it, in the library and on the run card', async () => {
    await dropFiles(page, [
      { name: 'shortfall.pdf', bytes: await shortfallReportPdf() },
      { name: 'complete.pdf', bytes: await completeReportPdf() },
    ]);
    // Both files are listed at once, before they are read: the one being read says so, the other waits as "Queued",
    // the word the run card uses (trial row 25: "No documents yet" for the ~10 s a file was read).
    // The rows and their badges read at one moment (a second read may come after the first file is stored).
    const pendingRows = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('[data-testid="library"] tr[data-pending="true"]')].map((tr) => ({
          file: tr.getAttribute('data-document'),
          badge: tr.querySelector('.badge')?.textContent ?? '',
        })),
      );
    const listed: { rows: Awaited<ReturnType<typeof pendingRows>> } = { rows: [] };
    await poll(async () => (listed.rows = await pendingRows()).map((row) => row.file).sort()).toEqual(['complete.pdf', 'shortfall.pdf']);
    for (const row of listed.rows) expect(row.badge).toMatch(/Queued|Reading pages/);
    await page.waitForSelector('[data-testid="run-1"][data-status="done"]');
    const shortfall = libraryRow('shortfall.pdf');
    await poll(() => shortfall.locator('.badge').textContent()).toContain('Done: check the result');
    await poll(() => shortfall.locator('.badge').getAttribute('class')).toContain('badge--warn');
    await poll(() => shortfall.locator('td').nth(1).textContent()).toContain('1 of 3 stated findings found');
    await poll(() => shortfall.locator('td').nth(2).textContent()).toBe('1');
    // The control: a document whose stated totals match what was found is plainly done.
    const complete = libraryRow('complete.pdf');
    await poll(() => complete.locator('.badge').textContent()).toContain('Done');
    await poll(() => complete.locator('.badge').getAttribute('class')).toContain('badge--ok');
    // The run card says what its documents' verdicts say.
    const run = page.getByTestId('run-1');
    await poll(() => run.locator('.run__header .badge').textContent()).toContain('Done: check the result');
    await poll(() => run.getByTestId('run-problems').textContent()).toBe('Done: check the result: 2 of 4 stated findings found, 2 places to check.');
    const inputBadge = run.locator('li[data-file="complete.pdf"] .badge');
    await poll(() => inputBadge.getAttribute('class')).toContain('badge--ok');
    await screenshot(page, 'run-states-verdict-badges-1440');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The findings view of the finished shortfall document does not promise more "as the analysis finishes".
    await shortfall.getByRole('button', { name: 'Findings of shortfall.pdf' }).click();
    await page.getByRole('listbox', { name: 'Findings to review' }).getByRole('option').first().waitFor();
    await poll(() => page.getByRole('listbox', { name: 'Findings to review' }).getByRole('option').count()).toBe(1);
  });

  it('shows the review state in the table of all findings (sortable, filterable), and the exported counts add up', async () => {
    // Confirm the shortfall document's one finding, from the keyboard.
    const queue = page.getByRole('listbox', { name: 'Findings to review' });
    await queue.focus();
    await page.keyboard.press('c');
    await poll(() => queue.locator('[role="option"][data-state="confirmed"]').count()).toBe(1);
    await page.getByRole('button', { name: 'Table of all findings' }).click();
    const table = page.getByTestId('findings-table').first();
    const stateCell = table.locator('[role="row"] [data-state]').first();
    await poll(() => stateCell.textContent()).toBe('Confirmed');
    expect(await table.getByRole('columnheader', { name: /State/ }).count()).toBe(1);
    await table.getByRole('columnheader', { name: /State/ }).getByRole('button').click();
    await poll(() => table.getByRole('columnheader', { name: /State/ }).getAttribute('aria-sort')).toBe('ascending');
    const stateRows = table.locator('[role="row"] [data-state]');
    const unfiltered = await stateRows.count();
    await page.getByLabel('State').selectOption('new');
    await poll(() => stateRows.count()).toBe(0);
    await page.getByLabel('State').selectOption('');
    // Drawn again before the screenshot.
    await poll(() => stateRows.count()).toBe(unfiltered);
    await screenshot(page, 'run-states-findings-table-state-1440');

    // The run's report: every review sentence adds up, and says 1 confirmed of the 2 findings.
    await goTo('Library');
    const exporter = page.getByTestId('run-1').getByTestId('export-run');
    await exporter.getByLabel('Format').selectOption('md');
    await exporter.getByRole('button', { name: 'Export run #1' }).click();
    const result = exporter.getByTestId('export-result');
    await poll(() => result.getAttribute('data-path')).toMatch(/\.md$/);
    const md = readFileSync((await result.getAttribute('data-path'))!, 'utf8');
    const sentences = [...md.matchAll(/(\d+) confirmed, (\d+) rejected, (\d+) need follow-up, (\d+) not reviewed yet \((\d+) in all\)/g)];
    expect(sentences.length).toBe(2);
    for (const m of sentences) expect(Number(m[1]) + Number(m[2]) + Number(m[3]) + Number(m[4])).toBe(Number(m[5]));
    expect(sentences.map((m) => m[0])).toContain('1 confirmed, 0 rejected, 0 need follow-up, 0 not reviewed yet (1 in all)');
    expect(md).not.toMatch(/open \(of \d+\)/);
  });

  it('shows one time-left figure, the same on the run card and in the status bar, and "estimating" until it has a rate', async () => {
    extractDelayMs = 900;
    await goTo('Library');
    // Every state the window shows from before the drop, recorded in the page at each change: the status bar and run
    // #2's figure together. Sampled from the test instead, the short "estimating" stretch could pass unseen under load.
    await page.evaluate(() => {
      const moments: { bar: string; card: string | null }[] = [];
      const record = () => {
        const now = {
          bar: document.querySelector('[data-testid="status-run"]')?.textContent ?? '',
          card: document.querySelector('[data-testid="run-2"] [data-testid="run-eta"]')?.textContent ?? null,
        };
        const last = moments.at(-1);
        if (!last || last.bar !== now.bar || last.card !== now.card) moments.push(now);
      };
      const observer = new MutationObserver(record);
      observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      Object.assign(window, { etaMoments: moments, etaObserver: observer });
    });
    const moments = () => page.evaluate(() => (window as unknown as { etaMoments: { bar: string; card: string | null }[] }).etaMoments);
    await dropFiles(page, [{ name: 'slow.pdf', bytes: await slowReportPdf() }]);
    await page.waitForSelector('[data-testid="run-2"][data-status="running"]');
    await poll(async () => (await moments()).some((m) => /about \d+ s left/.test(m.card ?? ''))).toBe(true);
    await page.evaluate(() => (window as unknown as { etaObserver: MutationObserver }).etaObserver.disconnect());
    const seen = await moments();
    // Before extraction measured its pace, both said "estimating"; never a number made up from OCR or reading time.
    expect(seen.some((s) => s.card === 'estimating time left' && s.bar.endsWith('estimating time left'))).toBe(true);
    // Every moment shown: the card's figure is exactly the status bar's.
    for (const s of seen.filter((x) => x.card !== null)) expect(s.bar.endsWith(s.card!)).toBe(true);
    await screenshot(page, 'run-states-one-eta-1440');
  });

  it('says "paused" in the status bar while a run is paused, offers Cancel, and never counts the pause as elapsed', async () => {
    const run = page.getByTestId('run-2');
    await run.getByRole('button', { name: 'Pause' }).click();
    await page.waitForSelector('[data-testid="run-2"][data-status="paused"]');
    const status = page.getByTestId('status-run');
    await poll(() => status.textContent()).toBe('Run #2 paused');
    await poll(() => run.getByTestId('run-paused-note').textContent()).toBe('Paused by you. Resume continues where it stopped.');
    // Problems met so far are not given as the reason for the pause.
    expect(await run.getByTestId('run-problems').count()).toBe(0);
    await poll(() => run.getByRole('button', { name: 'Cancel' }).count()).toBe(1);
    await poll(() => run.getByRole('button', { name: 'Resume' }).count()).toBe(1);
    await screenshot(page, 'run-states-paused-1440');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Sit paused for 4 s (the scenario itself, not a wait for a state): the elapsed time after resuming must not include it.
    await page.waitForTimeout(4000);
    extractDelayMs = 600;
    const resumedAt = Date.now();
    await run.getByRole('button', { name: 'Resume' }).click();
    await poll(() => status.textContent()).toMatch(/elapsed since resuming/);
    const elapsed = Number(/(\d+) s elapsed since resuming/.exec((await status.textContent()) ?? '')?.[1]);
    // At most the time since the click (rounded up): with the 4 s paused counted it would be 4 s more than that.
    // (Against a fixed 4 s, a slow machine's own delay before this read failed it.)
    expect(elapsed).toBeLessThanOrEqual(Math.ceil((Date.now() - resumedAt) / 1000));

    // Cancel while running, then cancel is offered and the state reads "Cancelled", the same word as the action.
    await run.getByRole('button', { name: 'Pause' }).click();
    await page.waitForSelector('[data-testid="run-2"][data-status="paused"]');
    await run.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForSelector('[data-testid="run-2"][data-status="cancelled"]');
    await poll(() => run.locator('.run__header .badge').textContent()).toContain('Cancelled');
    // Its file says the same, on the card and in the library (it stayed "Paused" beside a "Cancelled" run).
    await poll(() => run.locator('li[data-file="slow.pdf"] .badge').textContent()).toContain('Cancelled');
    await poll(() => libraryRow('slow.pdf').locator('.badge').textContent()).toContain('Cancelled');
    await poll(() => run.getByRole('button', { name: 'Resume' }).count()).toBe(1);
    await poll(() => status.textContent()).toBe('No run in progress');
    extractDelayMs = 0;
    expect(await server.host.invoke('runs.list', {})).toMatchObject({ ok: true, data: [{ id: 2, status: 'cancelled' }, {}] });
  });

  it('says how many findings are known only from the document’s own list, so the count and "N of M stated found" agree', async () => {
    // The summary table lists three findings; the detailed section of the third is missing, so the model reports two
    // and the third is known from its row alone: 3 findings in the library, 2 of 3 stated found, 1 only listed.
    const spec = reportSpec(['Total High-Severity Issues 1', 'Total Medium-Severity Issues 1', 'Total Low-Severity Issues 1']);
    await goTo('Library');
    await dropFiles(page, [{ name: 'listed-only.pdf', bytes: await makeTextPdf({ ...spec, pages: spec.pages.slice(0, 3) }) }]);
    await page.waitForSelector('[data-testid="run-3"][data-status="done"]');
    const row = libraryRow('listed-only.pdf');
    await poll(() => row.locator('td').nth(1).textContent()).toContain('2 of 3 stated findings found');
    const findings = row.locator('td').nth(2);
    await poll(() => findings.getByTestId('listed-only').textContent()).toBe('1 only listed');
    await poll(() => findings.textContent()).toBe('31 only listed');
    await screenshot(page, 'run-states-listed-only-1440');
  });
});
