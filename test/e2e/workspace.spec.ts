/**
 * The auditor's workspace (issue 16) in Chromium through the WebSocket bridge, against a real engine
 * and the demo model (`bridgeServer --sim`: findings read from the document's own text):
 * first-run onboarding and the sample document, the status bar, the triage queue beside the source
 * page drawn with pdf.js (quote highlighted, section named, surrounding text), unreviewed ID mentions
 * that open their place, undo of a review action with the trail keeping both, severity chosen from the
 * profile's scale, Back from the document view, a drop while Ollama is down answered at once, and
 * "Done with problems" in the run, the library and the document view. Screenshots at 1440x900 and
 * 1024x700 go to test-results/screenshots/ (the README's come from there).
 */
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTextPdf, proseLines, truncate } from '../fixtures/pdfFactory';
import { demoResponder } from '../ollama-sim/demoResponder';
import type { BridgeServer } from './bridgeServer';
import { startApp, type AppUnderTest } from './appUnderTest';
import { dropFiles, screenshot, seriousAxeViolations } from './browser';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import { SETUP_DEADLINE_MS, laidOut, poll, resizedTo } from './waits';

/** A report whose pages 2 and 3 have no text layer (scanned), with one finding on page 1. */
async function partlyScannedPdf(): Promise<Uint8Array> {
  const text = (lines: string[]) => ({ blocks: [{ kind: 'body' as const, lines }] });
  return makeTextPdf({
    title: 'Scanned',
    pages: [
      text(['4.1 OPS-77 Backups are never restored', 'Severity: High', 'Nobody has restored a backup of the ledger database since 2021.']),
      { blocks: [] },
      { blocks: [] },
      text(['5 Conclusion', 'The remaining controls work as designed and were tested.']),
    ],
  });
}

/** Four pages, one finding each: with one chunk per page, findings arrive one page at a time. */
async function fourFindingsPdf(): Promise<Uint8Array> {
  return makeTextPdf({
    title: 'Live',
    pages: [1, 2, 3, 4].map((n) => ({
      blocks: [
        {
          kind: 'body' as const,
          lines: [
            `3.${n} LIVE-00${n} Control number ${n} is not tested`,
            'Severity: Medium',
            `Control number ${n} was not tested during the period under review at all.`,
            ...proseLines(4, n),
          ],
        },
      ],
    })),
  });
}

describeNeeding([CHROMIUM], 'the auditor’s workspace with the demo model', () => {
  let server: BridgeServer;
  /** Extraction replies wait this long (the live-progress test watches a run mid-way). */
  let extractDelayMs = 0;
  let app: AppUnderTest;
  let page: Page;
  const axe: Record<string, unknown[]> = {};
  const goTo = (place: string) =>
    page
      .getByRole('navigation', { name: 'Places' })
      .getByRole('button', { name: new RegExp(`^${place}`) })
      .click();
  const queue = () => page.getByRole('listbox', { name: 'Findings to review' });
  const detail = () => page.getByTestId('review-detail');

  beforeAll(async () => {
    app = await startApp(
      {
        // The demo model answers chunk by chunk, and the spec watches findings arrive as each chunk finishes.
        unitTokens: 1,
        ollamaSim: {
          responder: async (req) => {
            if (extractDelayMs > 0 && JSON.stringify(req.format ?? '').includes('"findings"'))
              await new Promise((resolve) => setTimeout(resolve, extractDelayMs));
            return demoResponder(req);
          },
        },
      },
      ({ host }) => host.invoke('settings.update', { reviewerName: 'A. Auditor', strategy: 'headings', useJudge: false }).then(() => undefined),
    );
    ({ server, page } = app);
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  it('greets a first-time user: Ollama found, the automatic model named, and a sample document to try', async () => {
    const onboarding = page.getByTestId('onboarding');
    await poll(() => onboarding.textContent()).toContain('The analysis will use qwen3:8b (simulator, not a language model) (chosen automatically)');
    // The bridge's Ollama is the project's simulator: every place that names a model says so (shared/simulator.ts).
    await poll(() => onboarding.textContent()).toContain("(Offline Audit's Ollama simulator, not a language model)");
    const status = page.getByTestId('status-ollama');
    await poll(() => status.getAttribute('data-reachable')).toBe('true');
    await poll(() => page.getByTestId('status-model').textContent()).toBe('Model: Automatic → qwen3:8b (simulator, not a language model)');
    await poll(() => status.textContent()).toContain("(Offline Audit's Ollama simulator)");
    await screenshot(page, 'workspace-first-run-1440');
    axe.firstRun = await seriousAxeViolations(page);

    await onboarding.getByRole('button', { name: 'Try a sample document' }).click();
    // The sample ends on its first finding, beside its source page, as the welcome promises.
    await poll(() => page.getByTestId('review-detail').textContent()).toContain('SAMPLE-001');
    await poll(() => page.locator('.place[aria-current="page"]').textContent()).toContain('Findings');
    // The review keys work at once: the queue has the focus, so the first j or c acts without a click first (trial row 13).
    await poll(() => queue().evaluate((el) => el === document.activeElement)).toBe(true);
    await screenshot(page, 'workspace-sample-first-finding-1440');
    await goTo('Library');
    const run = page.getByTestId('run-1');
    await page.waitForSelector('[data-testid="run-1"][data-status="done"]');
    await poll(() => run.locator('.badge').first().textContent()).toContain('Done');
    // The sample's CR-2041 is an ID mention no finding carries: its completeness verdict asks to check it, and the badge says so.
    await poll(() => run.getByTestId('run-problems').textContent()).toBe('Done: check the result: 1 place to check.');
    const row = page.getByTestId('library').locator('tr[data-document="sample-audit-report.pdf"]');
    await poll(() => row.locator('td').nth(2).textContent()).toBe('3');
    expect(await page.getByTestId('onboarding').count()).toBe(0);
    await screenshot(page, 'workspace-library-1440');
  });

  it('triages the findings beside the source page: the PDF page drawn with the quote highlighted, named by page and section', async () => {
    await goTo('Findings');
    await queue().getByRole('option').first().waitFor();
    await poll(() => queue().getByRole('option').count()).toBe(3);
    await poll(() => queue().getByRole('option').first().textContent()).toContain('SAMPLE-001');
    const place = detail().getByTestId('source-place');
    await poll(() => place.locator('h3').first().textContent()).toBe('Page 1 · 2.1 SAMPLE-001 Passwords are stored with an outdated hash');
    await poll(() => place.getByTestId('surrounding-text').locator('mark').textContent()).toBe(
      'The portal stores user passwords as unsalted SHA-1 hashes in the accounts table.',
    );
    await poll(() => place.getByTestId('surrounding-text').textContent()).toContain('Recommendation: hash passwords with Argon2id');
    const pdfPage = place.getByTestId('pdf-page');
    // The drawn page read at one moment: its ink, its first highlight and its canvas (the pane may change width and
    // the page be drawn again, which clears the canvas until it is done).
    const drawing = () =>
      pdfPage.evaluate((el) => {
        if (el.getAttribute('data-rendered') !== 'true') return null;
        const canvas = el.querySelector('canvas')!;
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let ink = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i]! < 128) ink++;
        const { y, height } = canvas.getBoundingClientRect();
        const first = el.querySelector('[data-testid="pdf-highlight"]')?.getBoundingClientRect();
        return {
          ink,
          highlights: Number(el.getAttribute('data-highlights')),
          canvas: { y, height },
          first: first ? { y: first.y, height: first.height } : null,
        };
      });
    const seen: { drawn: Awaited<ReturnType<typeof drawing>> } = { drawn: null };
    await poll(async () => (seen.drawn = await drawing()) !== null).toBe(true);
    const { ink, highlights, canvas, first } = seen.drawn!;
    expect(highlights).toBeGreaterThan(0);
    // The canvas has ink: pdf.js drew the page (a blank canvas would be all white).
    expect(ink).toBeGreaterThan(500);
    // The highlight sits on the drawn page, inside the canvas.
    expect(first!.y).toBeGreaterThan(canvas.y);
    expect(first!.y + first!.height).toBeLessThan(canvas.y + canvas.height / 2);
    await screenshot(page, 'workspace-findings-1440');
    axe.findings = await seriousAxeViolations(page);

    // Made narrower from the keyboard, the detail draws the page again, and the page is never shown as drawn with an
    // earlier drawing's size (its highlights placed for the old canvas): every moment is recorded in the page.
    await pdfPage.evaluate((el) => {
      const seen = { stale: [] as string[], redrawn: false };
      const check = () => {
        const canvasWidth = el.querySelector('canvas')!.style.width;
        if (el.getAttribute('data-rendered') !== 'true') seen.redrawn = true;
        else if (canvasWidth !== el.style.width) seen.stale.push(`page drawn ${el.style.width} wide on a canvas of ${canvasWidth}`);
      };
      const observer = new MutationObserver(check);
      observer.observe(el, { subtree: true, attributes: true });
      Object.assign(window, { redraw: seen, redrawObserver: observer });
    });
    const separator = page.getByRole('separator', { name: 'Resize the finding detail' });
    const widthBefore = await separator.getAttribute('aria-valuenow');
    await separator.focus();
    await page.keyboard.press('ArrowRight');
    await poll(() => separator.getAttribute('aria-valuenow')).toBe(String(Number(widthBefore) - 40));
    await laidOut(page);
    await page.waitForSelector('[data-testid="pdf-page"][data-rendered="true"]');
    const redraw = await page.evaluate(() => {
      const { redraw: seen, redrawObserver } = window as unknown as { redraw: { stale: string[]; redrawn: boolean }; redrawObserver: MutationObserver };
      redrawObserver.disconnect();
      return seen;
    });
    expect(redraw).toEqual({ stale: [], redrawn: true });
    await page.keyboard.press('ArrowLeft');
    await poll(() => separator.getAttribute('aria-valuenow')).toBe(widthBefore);

    await resizedTo(page, { width: 1024, height: 700 });
    // At 1024 px the queue and the detail are side by side, each on screen.
    const [queueBox, detailBox] = await Promise.all([queue().boundingBox(), detail().boundingBox()]);
    expect(queueBox!.x + queueBox!.width).toBeLessThanOrEqual(detailBox!.x);
    expect(detailBox!.y).toBeLessThan(700);
    await page.waitForSelector('[data-testid="pdf-page"][data-rendered="true"]');
    await screenshot(page, 'workspace-findings-1024');
    axe.findings1024 = await seriousAxeViolations(page);
    await resizedTo(page, { width: 1440, height: 900 });
  });

  it('opens an unreviewed ID mention at its place, and comes back to the finding', async () => {
    const chip = page.getByTestId('unreviewed-section').getByRole('button', { name: /CR-2041/ });
    await chip.click();
    const mention = page.getByTestId('mention-detail');
    await poll(() => mention.getByTestId('surrounding-text').locator('mark').textContent()).toBe('CR-2041');
    await poll(() => mention.locator('.source-place h3').textContent()).toBe('Page 1 · 1 Introduction');
    await mention.getByRole('button', { name: '← Back to the finding' }).click();
    await detail().waitFor();
  });

  it('undoes a confirmation: the state goes back and the trail keeps both changes', async () => {
    await queue().focus();
    await page.keyboard.press('Home');
    await poll(() => queue().getByRole('option').first().getAttribute('aria-selected')).toBe('true');
    const id = await detail().getAttribute('data-review-id');
    await page.keyboard.press('c');
    await poll(() => detail().getAttribute('data-state')).toBe('confirmed');
    const undo = page.getByTestId('undo-bar');
    await poll(() => undo.textContent()).toMatch(/R-\d+ marked confirmed/);
    await page.keyboard.press('Control+z');
    await poll(() => detail().getAttribute('data-state')).toBe('new');
    await poll(() => detail().getAttribute('data-review-id')).toBe(id);
    await poll(() => undo.count()).toBe(0);
    await detail().getByTestId('review-trail').locator('summary').click();
    const rows = detail().getByTestId('review-trail').locator('tr[data-action="state"]');
    await poll(() => rows.count()).toBe(2);
    await poll(() => rows.nth(0).textContent()).toContain('Confirmed');
    await poll(() => rows.nth(1).locator('td').nth(4).textContent()).toBe('New');
  });

  it('chooses severity from the profile’s scale when editing, and undoes the edit', async () => {
    await queue().focus();
    await page.keyboard.press('e');
    const form = page.getByRole('form', { name: 'Edit the finding' });
    const severity = form.getByLabel(/^Severity/);
    await poll(() => severity.evaluate((s: HTMLSelectElement) => [...s.options].map((o) => o.value))).toEqual([
      'Critical',
      'High',
      'Medium',
      'Low',
      'Informational',
    ]);
    await severity.selectOption('Critical');
    await form.getByRole('button', { name: 'Save edits' }).click();
    await poll(() => detail().getByTestId('review-values').locator('tr[data-field="severity"] td.effective').textContent()).toBe('Critical');
    await page.getByTestId('undo-bar').getByRole('button', { name: 'Undo' }).click();
    await poll(() => detail().getByTestId('review-values').locator('tr[data-field="severity"] td.effective').textContent()).toBe('same');
  });

  it('opens the place in the document view and goes Back to the finding', async () => {
    await detail().getByRole('button', { name: 'Open this place in the document' }).click();
    await page.getByTestId('chunk-text').waitFor();
    await page.getByRole('button', { name: '← Back to the finding' }).click();
    await detail().waitFor();
    await poll(() => page.locator('.place[aria-current="page"]').textContent()).toContain('Findings');
  });

  it('says "Done with problems" in the run, the library and the document view when a file failed and pages had no text', async () => {
    await goTo('Library');
    const scanned = await partlyScannedPdf();
    await dropFiles(page, [
      { name: 'partly-scanned.pdf', bytes: scanned },
      { name: 'broken.pdf', bytes: truncate(scanned, 0.4) },
    ]);
    await page.waitForSelector('[data-testid="run-2"][data-status="done"]');
    const run = page.getByTestId('run-2');
    await poll(() => run.locator('.run__header .badge').textContent()).toContain('Done with problems');
    // OCR read the two empty pages and found no words: that is noted quietly, never a problem of the audit.
    await poll(() => run.getByTestId('run-problems').textContent()).toBe('Done with problems: 1 file failed.');
    await poll(() => run.locator('li[data-file="partly-scanned.pdf"] p[data-code="PDF_NO_TEXT_LAYER"]').textContent()).toBe(
      'Pages 2-3 have only pictures or nothing on them (OCR found no words).',
    );
    const row = page.getByTestId('library').locator('tr[data-document="partly-scanned.pdf"]');
    await poll(() => row.locator('td').nth(1).textContent()).toContain('Pages 2-3 have only pictures or nothing on them (OCR found no words).');
    expect(await row.locator('td').nth(1).textContent()).not.toContain('Done with problems');
    await screenshot(page, 'workspace-done-with-problems-1440');
    axe.library = await seriousAxeViolations(page);

    await row.getByRole('button', { name: 'Open partly-scanned.pdf' }).click();
    const note = page.getByTestId('picture-pages');
    await poll(() => note.textContent()).toBe('Pages 2-3 have only pictures or nothing on them (OCR found no words).');
    expect(await page.getByTestId('document-problems').count()).toBe(0);
    // The Completeness panel says it in the same quiet sentence, and never lists those pages as a place to check.
    const completeness = page.getByTestId('completeness');
    await poll(() => completeness.getByTestId('completeness-pictures').textContent()).toBe(
      'Pages 2-3 have only pictures or nothing on them (OCR found no words).',
    );
    expect(await completeness.locator('li[data-kind="pages-without-text"]').count()).toBe(0);
    expect(await completeness.getByTestId('completeness-headline').textContent()).not.toMatch(/^Check/);
    await screenshot(page, 'workspace-document-1440');
    axe.document = await seriousAxeViolations(page);
  });

  it('shows findings as the chunks finish, with the run, its elapsed time and whole-run ETA in the status bar', async () => {
    await server.host.invoke('settings.update', { strategy: 'pages' });
    extractDelayMs = 1200;
    await goTo('Library');
    await dropFiles(page, [{ name: 'four-findings.pdf', bytes: await fourFindingsPdf() }]);
    await page.waitForSelector('[data-testid="run-3"][data-status="running"]');
    // The library counts what the run has found so far, not a stale 0.
    const soFar = page.getByTestId('library').locator('tr[data-document="four-findings.pdf"]').getByTestId('findings-so-far');
    await poll(() => soFar.textContent()).toMatch(/^[1-3] so far$/);
    await goTo('Findings');
    await page
      .locator('.queue__head')
      .getByRole('combobox', { name: /^Document/ })
      .selectOption({ label: 'four-findings.pdf' });
    // Findings of the parts already analysed show while the run still works on the others.
    const arriving = page.getByTestId('arriving-finding');
    // Counted at the moment they show (read again later, the run may have finished its last part).
    const arrived = { count: 0 };
    await poll(async () => (arrived.count = await arriving.count())).toBeGreaterThan(0);
    expect(arrived.count).toBeLessThan(4);
    await poll(() => arriving.first().textContent()).toContain('LIVE-001');
    expect(await server.host.invoke('runs.list', {})).toMatchObject({ ok: true, data: [{ id: 3, status: 'running' }, {}, {}] });
    const status = page.getByTestId('status-run');
    await poll(() => status.textContent()).toMatch(/^Run #3 · four-findings\.pdf · \d+% · \d+ findings? so far · \d+ s elapsed/);
    await poll(() => status.textContent()).toMatch(/about \d+ s left$/);
    // One count: the status bar's "N findings so far" is the number the Arriving list shows (trial, not judged: the
    // status bar said 4 while the Findings view said 0).
    const counts = async () => [
      /(\d+) findings? so far/.exec((await status.textContent()) ?? '')?.[1],
      /\((\d+)\)/.exec((await page.locator('#arriving-title').textContent()) ?? '')?.[1],
    ];
    await poll(async () => ((c) => c[0] !== undefined && c[0] === c[1])(await counts())).toBe(true);
    await screenshot(page, 'workspace-live-run-1440');
    await poll(() => queue().getByRole('option').count()).toBe(4);
    await poll(() => page.getByTestId('arriving').count()).toBe(0);
    extractDelayMs = 0;
    await page.waitForSelector('[data-testid="status-run"]:has-text("No run in progress")');
  });

  it('offers models by capability with "Automatic → qwen3:8b", and keeps unsaved settings while the user looks elsewhere', async () => {
    await goTo('Settings');
    const extract = page.getByLabel('Finding extraction');
    await poll(() => extract.locator('option').first().textContent()).toBe('Automatic → qwen3:8b');
    const chatOptions = await extract.locator('option').allTextContents();
    const embedOptions = await page.getByLabel('Embeddings').locator('option').allTextContents();
    expect(chatOptions.some((o) => /embed/.test(o))).toBe(false);
    expect(chatOptions).toContain('qwen3:8b');
    expect(embedOptions.length).toBeGreaterThan(1);
    expect(embedOptions.slice(1).every((o) => /embed/.test(o))).toBe(true);

    await page.getByLabel('Reviewer name (in reports)').fill('B. Second');
    const actions = page.getByTestId('settings-actions');
    await poll(() => actions.textContent()).toContain('Unsaved changes');
    // The save bar stays in view however long the pane is.
    const bar = await actions.boundingBox();
    expect(bar!.y + bar!.height).toBeLessThanOrEqual(900);
    await screenshot(page, 'workspace-settings-1440');
    await goTo('Library');
    await goTo('Settings');
    await poll(() => page.getByLabel('Reviewer name (in reports)').inputValue()).toBe('B. Second');
    await actions.getByRole('button', { name: 'Discard' }).click();
    await poll(() => page.getByLabel('Reviewer name (in reports)').inputValue()).toBe('A. Auditor');
    expect(await actions.textContent()).not.toContain('Unsaved changes');
  });

  it('answers a drop at once when Ollama is down, with what to do, and the status bar says so', async () => {
    await server.host.invoke('settings.update', { ollamaHost: 'http://127.0.0.1:9' });
    await goTo('Library');
    await dropFiles(page, [{ name: 'later.pdf', bytes: await partlyScannedPdf() }]);
    const down = page.getByTestId('drop-ollama-down');
    await down.waitFor();
    await poll(() => down.textContent()).toContain('ollama serve');
    await poll(() => page.getByTestId('status-ollama').getAttribute('data-reachable')).toBe('false');
    await poll(() => page.getByTestId('status-ollama').textContent()).toContain('Ollama not reachable at http://127.0.0.1:9');
    // The run stops on it too, with the sentence first (commands as code, not backticks) and its code behind Details.
    await page.waitForSelector('[data-testid="run-4"][data-status="failed"]');
    const runError = page.getByTestId('run-4').getByTestId('run-error');
    await poll(() => runError.locator('.error-note__message code').allTextContents()).toContain('ollama serve');
    expect(await runError.locator('.error-note__message').textContent()).not.toContain('`');
    expect(await runError.locator('details').getAttribute('open')).toBeNull();
    await resizedTo(page, { width: 1024, height: 700 });
    await screenshot(page, 'workspace-ollama-down-1024');
    await resizedTo(page, { width: 1440, height: 900 });
    await server.host.invoke('settings.update', { ollamaHost: server.sim!.url });
  });

  it('has no serious or critical axe-core violation (colour contrast included) in any of these views', () => {
    expect(axe).toEqual({ firstRun: [], findings: [], findings1024: [], library: [], document: [] });
  });
});
