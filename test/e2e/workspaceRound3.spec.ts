/**
 * The workspace, round 3 (issue 37; trial 2026-11-28), in Chromium through the WebSocket bridge against a real
 * engine and the demo model, for the rows about the UI:
 * - one open document: a library button, a citation and the table follow the document they name (rows 2, 19), and
 *   the way back of a review is kept per document for the session (row 28);
 * - a finding shows its printed ID, "Page 3, printed 2" as the queue does (row 25), its repeated sightings folded
 *   (row 21), and an unrated one is edited from "— unrated —" (row 14);
 * - a document analysed but for one part is amber "Done with problems", its page named (row 9);
 * - the analysis panel names the strategy that ran and the judge's small target (row 16); the tree's root is the
 *   file's name (row 26);
 * - a paused or cancelled run keeps its queued files listed and its reported findings counted (rows 6, 7), and the
 *   status bar names two runs (row 29);
 * - the comparison has an ID column in ID order (row 22);
 * - at 1024x700 the queue shows five findings and more, at 800x600 three (row 20), nothing scrolls sideways, and
 *   the screenshots of each are in test-results/screenshots/round3-*.png.
 */
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTextPdf, proseLines } from '../fixtures/pdfFactory';
import { promptBlocks } from '../fixtures/plantedFindings';
import { demoFindings, demoResponder } from '../ollama-sim/demoResponder';
import type { SimChatRequest } from '../ollama-sim/index';
import type { BridgeServer } from './bridgeServer';
import { startApp, type AppUnderTest } from './appUnderTest';
import { dropFiles, screenshot, seriousAxeViolations } from './browser';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import { poll, SETUP_DEADLINE_MS } from './waits';

const body = (lines: string[]) => ({ blocks: [{ kind: 'body' as const, lines }] });

/** A finding's detailed section as a report prints it. */
const section = (prefix: string, n: number, title: string, severity: string | null) => [
  `3.${n} ${prefix}-00${n} ${title}`,
  ...(severity ? [`Severity: ${severity}`] : []),
  `${title} was seen on the production systems during the review of the quarter.`,
  ...proseLines(3, n),
];

/** An unnumbered cover, then pages whose footer prints a number one less than their position ("printed 2" on page 3). */
async function reportPdf(prefix: string, titles: readonly string[], severity: string | null = 'High'): Promise<Uint8Array> {
  const perPage = 2;
  const pages = [body([`Security review of the ${prefix} service`, 'Prepared for the board, 2026'])];
  for (let i = 0; i < titles.length; i += perPage) {
    const lines = titles.slice(i, i + perPage).flatMap((t, k) => section(prefix, i + k + 1, t, severity));
    pages.push(body([...lines, `Page | ${pages.length}`]));
  }
  return makeTextPdf({ title: prefix, pages });
}

const ALPHA_TITLES = [
  'Backups are never restored',
  'Admin passwords never expire',
  'Audit log can be deleted by operators',
  'Payroll exports are not encrypted',
  'Firewall rules allow any source',
  'Session tokens are logged in clear',
];

/** Three pages, one finding each; the model's reply on the middle one is never readable: that part is not analysed. */
async function partlyReadPdf(): Promise<Uint8Array> {
  return makeTextPdf({
    title: 'Partly',
    pages: [1, 2, 3].map((n) => body(section(n === 2 ? 'BRK' : 'PRT', n, `Control number ${n} is not tested`, 'Low'))),
  });
}

/** Four pages, one finding each: with slow replies a run on it can be paused part-way. */
async function slowPdf(prefix: string): Promise<Uint8Array> {
  return makeTextPdf({ title: prefix, pages: [1, 2, 3, 4].map((n) => body(section(prefix, n, `Control number ${n} of ${prefix} is not tested`, 'Medium'))) });
}

/** The fix review of alpha: the same IDs, listed out of order, two of them resolved. */
async function fixReviewPdf(): Promise<Uint8Array> {
  const order = [6, 2, 1, 4, 3, 5];
  return makeTextPdf({
    title: 'Fix review',
    pages: [
      body(
        order.flatMap((n) => [
          `3.${n} ALP-00${n} ${ALPHA_TITLES[n - 1]}`,
          'Severity: High',
          `${ALPHA_TITLES[n - 1]} was seen on the production systems during the review of the quarter.`,
          `Status: ${n <= 2 ? 'Resolved' : 'Unresolved'}`,
        ]),
      ),
    ],
  });
}

describeNeeding([CHROMIUM], 'the workspace, round 3', () => {
  let app: AppUnderTest;
  let server: BridgeServer;
  let page: Page;
  /** Extraction replies wait this long (a run watched part-way). */
  let extractDelayMs = 0;
  const goTo = (place: string) =>
    page
      .getByRole('navigation', { name: 'Places' })
      .getByRole('button', { name: new RegExp(`^${place}`) })
      .click();
  const queue = () => page.getByRole('listbox', { name: 'Findings to review' });
  const detail = () => page.getByTestId('review-detail');
  const queueTitle = () => page.locator('#review-title');
  const libraryRow = (name: string) => page.getByTestId('library').locator(`tr[data-document="${name}"]`);

  beforeAll(async () => {
    app = await startApp(
      {
        // One chunk a page: findings arrive page by page, and a run can be paused between them.
        unitTokens: 1,
        ollamaSim: {
          responder: async (req: SimChatRequest) => {
            const format = JSON.stringify(req.format ?? '');
            // A judge that asks for the PDF outline these files do not have, and a far smaller chunk than Settings.
            if (format.includes('"targetChunkTokens"')) {
              return JSON.stringify({ strategy: 'outline', targetChunkTokens: 128, overlapChars: 0, justification: 'The outline marks the sections.' });
            }
            if (format.includes('"findings"')) {
              const chunk = promptBlocks(req).chunk ?? '';
              // Never readable, its retry included (the retry's last message is the request to answer again).
              if (req.messages.some((m) => m.role === 'user' && m.content.includes('BRK-'))) return 'I cannot read this part of the document.';
              if (extractDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, extractDelayMs));
              // The demo model, except that it rates none of UNR's findings and reports each of them three times.
              const findings = demoFindings(chunk).flatMap((f) => (f.id?.startsWith('UNR-') ? [1, 2, 3].map(() => ({ ...f, severity: '' })) : [f]));
              return JSON.stringify({ findings, summary: `${findings.length} findings.` });
            }
            return demoResponder(req);
          },
        },
      },
      async ({ host }) => {
        await host.invoke('settings.update', { reviewerName: 'A. Auditor', strategy: 'auto', useJudge: true });
        const file = async (name: string, bytes: Promise<Uint8Array>) => ({ name, bytes: Buffer.from(await bytes).toString('base64') });
        await host.invoke('documents.import', {
          files: await Promise.all([
            file('alpha-report.pdf', reportPdf('ALP', ALPHA_TITLES)),
            file('beta-report.pdf', reportPdf('BET', ['Certificates expire unnoticed', 'Old accounts stay active'])),
            file('unrated-report.pdf', reportPdf('UNR', ['Shared folder is world readable'], null)),
            file('partly-read-report.pdf', partlyReadPdf()),
            file('alpha-fix-review.pdf', fixReviewPdf()),
          ]),
        });
        await host.idle();
      },
    );
    ({ server, page } = app);
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  it('opens the document a library button names, whatever document another view had open (row 2)', async () => {
    await goTo('Library');
    await page.getByRole('button', { name: 'Findings of alpha-report.pdf' }).click();
    await poll(() => queueTitle().textContent()).toBe('Findings in alpha-report.pdf');
    // The trial's sequence: another document in the Document view, then Compare, then the library's Findings button.
    await goTo('Library');
    await page.getByRole('button', { name: 'Open beta-report.pdf' }).click();
    await poll(() => page.locator('#tree-title').textContent()).toBe('beta-report.pdf');
    await goTo('Compare');
    await goTo('Library');
    await page.getByRole('button', { name: 'Findings of alpha-report.pdf' }).click();
    await poll(() => queueTitle().textContent()).toBe('Findings in alpha-report.pdf');
    await poll(() => queue().getByRole('option').first().textContent()).toContain(ALPHA_TITLES[0]);
    // And the Document view shows the same document now: there is one open document.
    await goTo('Document');
    await poll(() => page.locator('#tree-title').textContent()).toBe('alpha-report.pdf');
  });

  it('opens the document an Ask citation names, after another document was open (row 2)', async () => {
    await goTo('Library');
    await page.getByRole('button', { name: 'Open beta-report.pdf' }).click();
    await poll(() => page.locator('#tree-title').textContent()).toBe('beta-report.pdf');
    await goTo('Ask');
    await page.getByLabel('Documents').selectOption({ label: 'alpha-report.pdf' });
    // A long question: the conversation is named by it, and its picker still fits the card (row 27).
    await page.getByLabel('Question').fill('Are the backups of the ledger ever restored, and who checks that they are restored at all during the quarter?');
    await page.locator('form.ask-form').getByRole('button', { name: 'Ask', exact: true }).click();
    const answer = page.getByTestId('ask-answer').last();
    await poll(() => page.getByTestId('ask-answer').count()).toBe(1);
    await poll(() => page.getByLabel('Conversation').locator('option').count()).toBe(2);
    const [card, picker] = await Promise.all([page.locator('.ask-panel').boundingBox(), page.getByLabel('Conversation').boundingBox()]);
    expect(picker!.x + picker!.width).toBeLessThanOrEqual(card!.x + card!.width);
    const citation = answer.getByRole('list', { name: 'Sources' }).getByRole('button').first();
    expect(await citation.textContent()).toMatch(/^alpha-report\.pdf, page \d+/);
    await screenshot(page, 'round3-ask-1440');
    await citation.click();
    // The cited document, wherever it opens (its finding in Findings, or its passage in the Document view).
    await poll(async () =>
      (await page.locator('.place[aria-current="page"]').textContent())?.includes('Findings')
        ? queueTitle().textContent()
        : page.locator('#tree-title').textContent(),
    ).toMatch(/alpha-report\.pdf$/);
  });

  it('shows the open document in the table of all findings too, and follows it when another is chosen (row 19)', async () => {
    await goTo('Library');
    await page.getByRole('button', { name: 'Findings of alpha-report.pdf' }).click();
    await poll(() => queueTitle().textContent()).toBe('Findings in alpha-report.pdf');
    await page.getByRole('button', { name: 'Table of all findings' }).click();
    const table = page.getByTestId('findings-table').first();
    await poll(() => page.locator('#findings-title').textContent()).toBe('Findings in alpha-report.pdf');
    await poll(() => table.getByRole('row').count()).toBe(7);
    await page.getByRole('button', { name: 'Triage queue' }).click();
    await page
      .locator('.queue__head')
      .getByRole('combobox', { name: /^Document/ })
      .selectOption({ label: 'beta-report.pdf' });
    await poll(() => queueTitle().textContent()).toBe('Findings in beta-report.pdf');
    await page.getByRole('button', { name: 'Table of all findings' }).click();
    await poll(() => page.locator('#findings-title').textContent()).toBe('Findings in beta-report.pdf');
    await poll(() => table.getByRole('row').count()).toBe(3);
    expect(await table.textContent()).toContain('BET-001');
    await page.getByRole('button', { name: 'Triage queue' }).click();
  });

  it('keeps the way back of a review while the user looks at other documents and places (row 28)', async () => {
    await page
      .locator('.queue__head')
      .getByRole('combobox', { name: /^Document/ })
      .selectOption({ label: 'alpha-report.pdf' });
    await poll(() => queueTitle().textContent()).toBe('Findings in alpha-report.pdf');
    await queue().getByRole('option').first().click();
    const id = await detail().getAttribute('data-review-id');
    await page.keyboard.press('c');
    await poll(() => detail().getAttribute('data-state')).toBe('confirmed');
    // Elsewhere: another document's findings, the library, the document view.
    await page
      .locator('.queue__head')
      .getByRole('combobox', { name: /^Document/ })
      .selectOption({ label: 'beta-report.pdf' });
    await poll(() => queueTitle().textContent()).toBe('Findings in beta-report.pdf');
    await goTo('Library');
    await page.getByRole('button', { name: 'Open alpha-report.pdf' }).click();
    await goTo('Findings');
    await poll(() => queueTitle().textContent()).toBe('Findings in alpha-report.pdf');
    await queue().focus();
    await page.keyboard.press('Control+z');
    await poll(() => page.getByTestId('undone').textContent()).toMatch(/^Undone: R-\d+ marked confirmed$/);
    await poll(() => queue().locator(`[data-review-id="${id}"]`).getAttribute('data-state')).toBe('new');
  });

  it("names a finding's page as the queue does, and folds the repeats of its sightings (rows 21, 25)", async () => {
    const row = queue().getByRole('option').filter({ hasText: ALPHA_TITLES[2] });
    await row.click();
    await poll(() => detail().locator('h2').textContent()).toContain(ALPHA_TITLES[2]);
    // The page the way the queue row and the source heading say it: "Page 3, printed 2" (row 25).
    await poll(() => row.getByTestId('queue-page').textContent()).toBe('p. 3, printed 2');
    await poll(() => detail().getByTestId('detail-page').textContent()).toBe('· Page 3, printed 2');

    await page
      .locator('.queue__head')
      .getByRole('combobox', { name: /^Document/ })
      .selectOption({ label: 'unrated-report.pdf' });
    await poll(() => detail().locator('h2').textContent()).toContain('Shared folder is world readable');
    // Three sightings of one quote: one place, its repeats counted (row 21).
    await poll(() =>
      detail()
        .getByRole('heading', { name: /^Sources/ })
        .textContent(),
    ).toMatch(/^Sources \(1, \+\d+ repeats\)$/);
    expect(await detail().getByTestId('source').count()).toBe(1);
    expect(await detail().getByTestId('source-repeats').textContent()).toMatch(/\+\d+ repeats/);
  });

  it('edits an unrated finding from "— unrated —", never from the first word of the scale (row 14)', async () => {
    expect(await detail().locator('.review-detail__facts .severity').textContent()).toContain('Unrated');
    await queue().focus();
    await page.keyboard.press('e');
    const severity = page.getByRole('form', { name: 'Edit the finding' }).getByLabel(/^Severity/);
    expect(await severity.inputValue()).toBe('');
    expect(await severity.locator('option:checked').textContent()).toBe('— unrated —');
    // Saving another field leaves the severity as it was: unrated, and the form said so.
    await page
      .getByRole('form', { name: 'Edit the finding' })
      .getByLabel(/^Title/)
      .fill('Shared folder is readable by everyone');
    await page.getByRole('form', { name: 'Edit the finding' }).getByRole('button', { name: 'Save edits' }).click();
    await poll(() => detail().getByTestId('review-values').locator('tr[data-field="title"] td.effective').textContent()).toBe(
      'Shared folder is readable by everyone',
    );
    expect(await detail().getByTestId('review-values').locator('tr[data-field="severity"] td.effective').textContent()).toBe('same');
  });

  it('calls a document analysed but for one part amber and done, its part not analysed named by page (row 9)', async () => {
    await goTo('Library');
    const row = libraryRow('partly-read-report.pdf');
    // Amber and done (here "Done: check the result": the part not analysed is a place its completeness check names), never a red "Failed".
    await poll(() => row.locator('.badge').textContent()).toMatch(/^! Done/);
    expect(await row.locator('.badge').getAttribute('class')).toContain('badge--warn');
    // The pages of the chunk that holds the unreadable page, as a range.
    expect(await row.locator('td').nth(1).textContent()).toMatch(/1 part not analysed \(pp?\. \d+(?:-\d+)?\)/);
    await row.getByRole('button', { name: 'Open partly-read-report.pdf' }).click();
    await poll(() => page.getByTestId('document-problems').textContent()).toMatch(/^Done with problems: 1 part not analysed \(pp?\. \d+(?:-\d+)?\)\./);
  });

  it("names the strategy that cut the tree and says the judge's chunk target is far below Settings (rows 16, 26)", async () => {
    await goTo('Library');
    await page.getByRole('button', { name: 'Open alpha-report.pdf' }).click();
    const analysis = page.getByTestId('analysis');
    await poll(() => analysis.getByTestId('strategy-used').textContent()).toBe(
      'detected headings (the language model’s choice, PDF outline (bookmarks), did not fit this document)',
    );
    expect(await analysis.getByTestId('chunk-size').textContent()).toMatch(
      /target \d+ tokens a chunk, chosen by the language model \(Settings ask for 1,500\)/,
    );
    expect(await analysis.getByTestId('small-chunk-target').textContent()).toMatch(/Far smaller than Settings ask: \d+ chunks/);
    // The tree's root is the file, and the strategy is in words.
    const tree = page.getByRole('tree');
    await poll(() => tree.getByRole('treeitem').first().locator('.tree-row__title').textContent()).toMatch(/alpha-report\.pdf$/);
    expect(await page.locator('.tree-wrap .hint').textContent()).toMatch(/nodes, cut by detected headings/);
    await screenshot(page, 'round3-document-1440');
  });

  it('pairs the compared findings in the order of their printed IDs, with an ID column (row 22)', async () => {
    await goTo('Compare');
    await page.getByLabel('Earlier').selectOption({ label: 'alpha-report.pdf' });
    await page.getByLabel('Later').selectOption({ label: 'alpha-fix-review.pdf' });
    // Paired by the IDs both documents print.
    await page.getByLabel('Printed IDs only (no model findings)').check();
    await page.locator('.compare').getByRole('button', { name: 'Compare', exact: true }).click();
    const rows = page.locator('.compare__pairs tbody tr');
    await poll(() => rows.count()).toBe(6);
    expect(await page.locator('.compare__pairs thead th').first().textContent()).toBe('ID');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')))).toEqual([
      'ALP-001',
      'ALP-002',
      'ALP-003',
      'ALP-004',
      'ALP-005',
      'ALP-006',
    ]);
  });

  it("keeps a paused or cancelled run's files listed and its reported findings counted, and names two runs at once (rows 6, 7, 29)", async () => {
    extractDelayMs = 1500;
    await goTo('Library');
    await dropFiles(page, [
      { name: 'gamma-report.pdf', bytes: await slowPdf('GAM') },
      { name: 'delta-report.pdf', bytes: await slowPdf('DEL') },
    ]);
    await dropFiles(page, [{ name: 'epsilon-report.pdf', bytes: await slowPdf('EPS') }]);
    // Two runs at once: the status bar names both (row 29).
    await poll(() => page.getByTestId('status-run').textContent()).toMatch(/^2 runs: #\d+ .*, #\d+ /);
    const gamma = libraryRow('gamma-report.pdf');
    await poll(() => gamma.getByTestId('findings-so-far').textContent()).toMatch(/^[1-3] so far/);
    const runs = (await server.host.invoke('runs.list', {})) as { ok: true; data: { id: number; inputs: { fileName: string }[] }[] };
    const runId = runs.data.find((r) => r.inputs.some((i) => i.fileName === 'gamma-report.pdf'))!.id;
    const card = page.getByTestId(`run-${runId}`);
    await card.getByRole('button', { name: 'Pause' }).click();
    await page.waitForSelector(`[data-testid="run-${runId}"][data-status="paused"]`);
    // Paused: the file not started yet stays listed and says why (row 6); the findings reported so far stay counted (row 7).
    const delta = libraryRow('delta-report.pdf');
    await poll(() => delta.locator('.badge').textContent()).toContain('Not started: run paused');
    await poll(() => gamma.getByTestId('findings-so-far').textContent()).toMatch(/^[1-3] so far run paused$/);
    const reported = Number(/^(\d+)/.exec((await gamma.getByTestId('findings-so-far').textContent()) ?? '')![1]);
    expect(await card.locator('li[data-file="delta-report.pdf"] .badge').textContent()).toContain('Not started: run paused');
    await screenshot(page, 'round3-library-paused-1440');

    await gamma.getByRole('button', { name: 'Findings of gamma-report.pdf' }).click();
    const arriving = page.getByTestId('arriving');
    await poll(() => arriving.getAttribute('data-input-status')).toBe('paused');
    expect(await page.getByTestId('arriving-finding').count()).toBe(reported);
    expect(await page.locator('#arriving-title').textContent()).toBe(`Reported by run #${runId} before it was paused (${reported})`);
    expect(await page.getByTestId('findings-empty').textContent()).toMatch(/^The run was paused after \d+ findings? had been reported/);
    await screenshot(page, 'round3-findings-paused-1440');

    await goTo('Runs');
    await card.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForSelector(`[data-testid="run-${runId}"][data-status="cancelled"]`);
    await goTo('Library');
    await poll(() => delta.locator('.badge').textContent()).toContain('Not started: run cancelled');
    await poll(() => gamma.getByTestId('findings-so-far').textContent()).toBe(`${reported} so far run cancelled`);
    extractDelayMs = 0;
    await page.waitForSelector('[data-testid="status-run"]:has-text("No run in progress")', { timeout: 60_000 });
  });

  for (const [width, height, rows] of [
    [1024, 700, 5],
    [800, 600, 3],
  ] as const) {
    it(`keeps ${rows} findings and more in view at ${width}x${height}, nothing scrolling sideways (row 20)`, async () => {
      await page.setViewportSize({ width, height });
      await goTo('Library');
      await libraryRow('alpha-report.pdf').getByRole('button', { name: 'Findings of alpha-report.pdf' }).click();
      await poll(() => queueTitle().textContent()).toBe('Findings in alpha-report.pdf');
      await poll(() => queue().getByRole('option').count()).toBeGreaterThan(rows);
      // Whole rows inside the listbox's visible box.
      const inView = async () =>
        queue().evaluate((list) => {
          const box = list.getBoundingClientRect();
          const bottom = Math.min(box.bottom, window.innerHeight);
          return [...list.querySelectorAll('[role="option"]')].filter((o) => {
            const r = o.getBoundingClientRect();
            return r.top >= box.top - 1 && r.bottom <= bottom + 1;
          }).length;
        });
      await poll(inView).toBeGreaterThanOrEqual(rows);
      const scrollers = await page.evaluate(() =>
        [document.documentElement, ...document.querySelectorAll<HTMLElement>('body *')]
          .filter((el) => {
            const style = getComputedStyle(el);
            const scrolls = el === document.documentElement || style.overflowX === 'auto' || style.overflowX === 'scroll';
            return scrolls && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1;
          })
          .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
      );
      expect(scrollers).toEqual([]);
      await screenshot(page, `round3-findings-${width}x${height}`);
      expect(await seriousAxeViolations(page)).toEqual([]);

      await goTo('Library');
      await libraryRow('alpha-report.pdf').waitFor();
      await screenshot(page, `round3-library-${width}x${height}`);
      await libraryRow('alpha-report.pdf').getByRole('button', { name: 'Open alpha-report.pdf' }).click();
      await page.getByRole('tree').getByRole('treeitem').first().waitFor();
      await screenshot(page, `round3-document-${width}x${height}`);
      await goTo('Settings');
      await page.getByTestId('inference-settings').waitFor();
      await screenshot(page, `round3-settings-${width}x${height}`);
      await page.setViewportSize({ width: 1440, height: 900 });
    });
  }
});
