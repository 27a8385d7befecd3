/**
 * Auditor review in the desktop UI through the WebSocket bridge, against a
 * real engine and the full pipeline (planted report, Ollama simulator):
 * a change is refused until a reviewer name is set; then three findings are
 * reviewed with the keyboard only (confirm one, reject one with a reason,
 * edit one's title), a manual finding is added from a text selection, and
 * the Export control writes md, json and csv whose review fields are read
 * back (confirmedOnly leaves only confirmed findings). Screenshots of the
 * review view go to test-results/screenshots/.
 */
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BridgeServer } from './bridgeServer';
import { startApp, type AppUnderTest } from './appUnderTest';
import { screenshot, seriousAxeViolations } from './browser';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import { plantedPdf, scriptedModel } from './plantedPipeline';
import { SETUP_DEADLINE_MS, poll } from './waits';
import { REPORT_JSON_VERSION } from '../../electron/engine/report';

describeNeeding([CHROMIUM], 'review findings with the keyboard and export the review', () => {
  let server: BridgeServer;
  let app: AppUnderTest;
  let page: Page;
  const reviewed: { confirmed?: string; rejected?: string; edited?: string } = {};

  const list = () => page.getByRole('listbox', { name: 'Findings to review' });
  const activeTitle = async () => (await page.getByTestId('review-detail').getAttribute('data-review-id')) ?? '';
  /** Home in the queue, then the finding it selected: the queue's first, once it is the one shown. */
  const home = async () => {
    await list().focus();
    await page.keyboard.press('Home');
    await poll(() => list().getByRole('option').first().getAttribute('aria-selected')).toBe('true');
    return activeTitle();
  };
  const exportFile = async (format: string, confirmedOnly: boolean): Promise<string> => {
    const form = page.getByTestId('export-document');
    await form.getByLabel('Format').selectOption(format);
    const box = form.getByLabel('Confirmed findings only');
    if ((await box.isChecked()) !== confirmedOnly) await box.click();
    const before = await form.getByTestId('export-result').getAttribute('data-path');
    await form.getByRole('button', { name: 'Export this document' }).click();
    await poll(() => form.getByTestId('export-result').getAttribute('data-path')).not.toBe(before);
    const path = (await form.getByTestId('export-result').getAttribute('data-path'))!;
    expect(path.endsWith(`.${format}`)).toBe(true);
    await poll(() => form.getByTestId('export-result').textContent()).toContain(path);
    return readFileSync(path, 'utf8');
  };

  beforeAll(async () => {
    // The scripted model answers from the planted truth page by page: one chunk per extraction call.
    app = await startApp({ unitTokens: 1, ollamaSim: { responder: scriptedModel().responder } }, async ({ host }) => {
      await host.invoke('settings.update', { strategy: 'pages', useJudge: false });
      const bytes = Buffer.from(await plantedPdf()).toString('base64');
      await host.invoke('documents.import', { files: [{ name: 'planted-report.pdf', bytes }] });
      await host.idle();
    });
    ({ server, page } = app);
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  it('asks for the reviewer name where the first review key is pressed, then applies the action', async () => {
    await page.getByRole('navigation', { name: 'Places' }).getByRole('button', { name: 'Findings', exact: true }).click();
    await list().getByRole('option').first().waitFor();
    const first = await home();
    await page.keyboard.press('c');
    const prompt = page.getByTestId('reviewer-name-prompt');
    await prompt.waitFor();
    // Nothing changed yet, and no far-away red line: the question is beside the finding.
    expect(await list().locator('[data-state="confirmed"]').count()).toBe(0);
    expect(await page.getByTestId('review-error').count()).toBe(0);
    const name = prompt.getByLabel('Your name');
    // The field has the focus: the user types the name at once.
    expect(await name.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('A. Auditor');
    await page.keyboard.press('Enter');
    await poll(() => list().locator(`[data-review-id="${first}"]`).getAttribute('data-state')).toBe('confirmed');
    expect(await prompt.count()).toBe(0);
    expect(await server.host.invoke('settings.get', {})).toMatchObject({ ok: true, data: { reviewerName: 'A. Auditor' } });
    // The keys work again at once: the focus is back on the queue, not on the page (trial 2026-11-28 row 13).
    await expect.poll(() => list().evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('j');
    await expect.poll(activeTitle).not.toBe(first);
    await page.keyboard.press('k');
    await expect.poll(activeTitle).toBe(first);
    // Back to new, so the next test starts from the same queue.
    await list().focus();
    await page.keyboard.press('u');
    await poll(() => list().locator(`[data-review-id="${first}"]`).getAttribute('data-state')).toBe('new');
  });

  it('reviews three findings with the keyboard: confirm, reject with a reason, edit a title; counters follow', async () => {
    const counters = page.getByTestId('review-counters');
    const left = Number(await counters.getAttribute('data-left'));
    reviewed.confirmed = await home();
    await page.keyboard.press('c');
    await poll(() => list().locator(`[data-review-id="${reviewed.confirmed}"]`).getAttribute('data-state')).toBe('confirmed');

    await page.keyboard.press('j');
    await poll(activeTitle).not.toBe(reviewed.confirmed);
    reviewed.rejected = await activeTitle();
    await page.keyboard.press('r');
    const reason = page.getByLabel('Reason for rejecting');
    await reason.waitFor();
    await page.keyboard.type('Duplicate of the summary table row');
    await page.keyboard.press('Enter');
    await poll(() => list().locator(`[data-review-id="${reviewed.rejected}"]`).getAttribute('data-state')).toBe('rejected');
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('listbox');

    await page.keyboard.press('ArrowDown');
    await poll(activeTitle).not.toBe(reviewed.rejected);
    reviewed.edited = await activeTitle();
    await page.keyboard.press('e');
    const title = page.getByRole('form', { name: 'Edit the finding' }).getByLabel(/^Title/);
    await title.waitFor();
    await title.fill('Edited by the auditor: SQL injection confirmed in export');
    await page.keyboard.press('Enter');
    const values = page.getByTestId('review-values');
    await poll(() => values.locator('tr[data-field="title"] td.effective').textContent()).toBe('Edited by the auditor: SQL injection confirmed in export');
    expect(await values.locator('tr[data-field="title"] td.original').textContent()).not.toBe('Edited by the auditor: SQL injection confirmed in export');
    await page.keyboard.press('n');
    await page.getByRole('form', { name: 'Add a note' }).getByLabel('Note').fill('Checked with the ticket owner.');
    await page.keyboard.press('Enter');
    await page.getByTestId('review-notes').waitFor();
    // This finding is stated in two places: the source page steps from one to the other.
    const place = page.getByTestId('review-detail').getByTestId('source-place');
    await poll(() => place.getByTestId('place-counter').textContent()).toBe('1 of 2: main source');
    await place.getByRole('button', { name: 'Next →' }).click();
    await poll(() => place.getByTestId('place-counter').textContent()).toBe('2 of 2: also stated here');
    await page.waitForSelector('[data-testid="pdf-page"][data-rendered="true"][data-highlights]:not([data-highlights="0"])');
    await place.getByRole('button', { name: '← Previous' }).click();
    await poll(() => place.getByTestId('place-counter').textContent()).toBe('1 of 2: main source');
    await list().focus();

    await poll(() => counters.getAttribute('data-left').then(Number)).toBe(left - 2);
    await poll(() => counters.textContent()).toMatch(/1 confirmed · 1 rejected/);
    await page.getByTestId('review-trail').locator('summary').click();
    await page.getByTestId('review-trail').locator('tr[data-action="edit"]').waitFor();
    await screenshot(page, 'review-keyboard');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('undoes a note, a split and a merge: each finding comes back as it was, and the trail keeps both', async () => {
    const detail = page.getByTestId('review-detail');
    const undoButton = page.getByTestId('undo-bar').getByRole('button', { name: 'Undo' });
    const count = await list().getByRole('option').count();
    const id = await activeTitle();
    const notes = detail.getByTestId('review-notes');
    await list().focus();
    await page.keyboard.press('n');
    await page.getByRole('form', { name: 'Add a note' }).getByLabel('Note').fill('Typed on the wrong finding.');
    await page.keyboard.press('Enter');
    await poll(() => notes.textContent()).toContain('Typed on the wrong finding.');
    await poll(() => page.getByTestId('undo-bar').textContent()).toMatch(/Note added to R-\d+/);
    await page.keyboard.press('Control+z');
    await poll(() => notes.textContent()).not.toContain('Typed on the wrong finding.');
    await poll(() => notes.textContent()).toContain('Checked with the ticket owner.');
    // Every undo says what it took back; the changes before it can still be taken back, one at a time.
    await poll(() => page.getByTestId('undone').textContent()).toMatch(/^Undone: Note added to R-\d+$/);
    // (the step before: the note of the test above, "Checked with the ticket owner.")
    await poll(() => page.getByTestId('undo-bar').textContent()).toMatch(/^Note added to R-\d+\.Undo$/);

    // Split one of its two sources out, then undo: one finding again, with both sources.
    const tools = detail.locator('details.review-tools');
    await tools.locator('summary').click();
    await tools.getByRole('checkbox').first().check();
    await tools.getByRole('button', { name: 'Split out 1 source' }).click();
    await poll(() => list().getByRole('option').count()).toBe(count + 1);
    await poll(() => page.getByTestId('undo-bar').textContent()).toMatch(/R-\d+ split out of R-\d+/);
    await undoButton.click();
    await poll(() => list().getByRole('option').count()).toBe(count);
    await poll(activeTitle).toBe(id);
    // Both sightings quote the same words: one place, the other folded as its repeat (trial 2026-11-28 row 21).
    await poll(() => detail.getByRole('heading', { name: /^Sources/ }).textContent()).toBe('Sources (1, +1 repeat)');

    // Merge the confirmed finding into this one, then undo: it is listed again, still confirmed.
    if ((await tools.getAttribute('open')) === null) await tools.locator('summary').click();
    await tools.getByLabel('Merge into this finding').selectOption(reviewed.confirmed!);
    await tools.getByRole('button', { name: 'Merge' }).click();
    await poll(() => list().getByRole('option').count()).toBe(count - 1);
    expect(await list().locator(`[data-review-id="${reviewed.confirmed}"]`).count()).toBe(0);
    await undoButton.click();
    await poll(() => list().getByRole('option').count()).toBe(count);
    await poll(() => list().locator(`[data-review-id="${reviewed.confirmed}"]`).getAttribute('data-state')).toBe('confirmed');
    await list().locator(`[data-review-id="${id}"]`).click();
    await poll(activeTitle).toBe(id);
    await poll(() => detail.getByRole('heading', { name: /^Sources/ }).textContent()).toBe('Sources (1, +1 repeat)');

    const trail = detail.getByTestId('review-trail');
    // Still open from the test above: it reloads after every change.
    if ((await trail.getAttribute('open')) === null) await trail.locator('summary').click();
    const actions = () => trail.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')).slice(-6));
    // Note added and removed, split and merged back, merged and taken out again: six entries after the edit.
    await poll(actions).toEqual(['note', 'note', 'split', 'merge', 'merge', 'split']);
    await poll(() => trail.locator('tbody tr').last().textContent()).toContain('merge undone');
  });

  it('asks once before confirming an ungrounded finding: c shows the warning, c again confirms', async () => {
    const ungrounded = list()
      .getByRole('group', { name: /^Not grounded/ })
      .getByRole('option')
      .first();
    await ungrounded.click();
    const id = await ungrounded.getAttribute('data-review-id');
    await poll(activeTitle).toBe(id);
    await page.keyboard.press('c');
    const ask = page.getByTestId('confirm-ungrounded');
    await ask.waitFor();
    await poll(() => ask.textContent()).toContain('not found in the document');
    expect(await ungrounded.getAttribute('data-state')).toBe('new');
    await list().focus();
    await page.keyboard.press('c');
    await poll(() => ungrounded.getAttribute('data-state')).toBe('confirmed');
    expect(await ask.count()).toBe(0);
    // Undo takes it back; the export below counts only the three reviewed above.
    await page.getByTestId('undo-bar').getByRole('button', { name: 'Undo' }).click();
    await poll(() => ungrounded.getAttribute('data-state')).toBe('new');
  });

  it('adds a finding the model missed from a selection in the chunk view, grounded by construction', async () => {
    // Back to the first (grounded) finding; its evidence opens the chunk to select in.
    await home();
    await page.getByRole('button', { name: 'Open this place in the document' }).click();
    const body = page.getByTestId('chunk-text-body');
    await body.waitFor();
    // Select a phrase of the rendered chunk text with the mouse-equivalent DOM selection, then release.
    const phrase = await body.evaluate((pre) => {
      const text = pre.textContent ?? '';
      const start = text.indexOf('Severity');
      const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
      let offset = 0;
      const range = document.createRange();
      let node: Node | null;
      while ((node = walker.nextNode())) {
        const len = node.textContent!.length;
        if (offset + len > start) {
          range.setStart(node, start - offset);
          range.setEnd(node, Math.min(len, start - offset + 'Severity'.length + 6));
          break;
        }
        offset += len;
      }
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      pre.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }));
      return range.toString();
    });
    await page.getByRole('button', { name: 'Add a finding from the selection' }).click();
    const form = page.getByTestId('manual-finding-form');
    await form.getByLabel('Title').fill('Severity wording is ambiguous');
    await form.getByRole('button', { name: 'Add finding' }).click();
    const detail = page.getByTestId('review-detail');
    await poll(() => detail.locator('h2').textContent()).toContain('Severity wording is ambiguous');
    await poll(() => detail.getByTestId('surrounding-text').locator('mark').textContent()).toBe(phrase.trim());
    await poll(() => detail.textContent()).toContain('added by hand');
    await list().focus();
    await page.keyboard.press('c');
    await poll(() => detail.getAttribute('data-state')).toBe('confirmed');
    await screenshot(page, 'review-manual-finding');
  });

  it('exports md, json and csv through the Export control with the review fields; confirmed only leaves confirmed findings', async () => {
    const md = await exportFile('md', false);
    expect(md).toMatch(/### Review \(2 confirmed, 1 rejected/);
    expect(md).toContain('Duplicate of the summary table row');
    expect(md).toContain('last change by A. Auditor');
    expect(md).toMatch(/Edited title: model “.+” → auditor “Edited by the auditor: SQL injection confirmed in export”/);
    expect(md).toContain('Checked with the ticket owner.');

    const json = JSON.parse(await exportFile('json', false)) as {
      version: number;
      run: { models: { name: string; digest: string | null }[] };
      inputs: {
        document: {
          review: {
            counts: { confirmed: number; rejected: number };
            findings: {
              reviewId: number;
              state: string;
              rejectReason: string | null;
              edits: { field: string; effective: string }[];
              lastReviewer: string | null;
              origin: string;
            }[];
          };
        };
      }[];
    };
    expect(json.version).toBe(REPORT_JSON_VERSION);
    expect(json.run.models.length).toBeGreaterThan(0);
    const review = json.inputs[0]!.document.review;
    expect(review.counts).toMatchObject({ confirmed: 2, rejected: 1 });
    const byId = (id: string | undefined) => review.findings.find((r) => String(r.reviewId) === id)!;
    expect(byId(reviewed.confirmed)).toMatchObject({ state: 'confirmed', lastReviewer: 'A. Auditor' });
    expect(byId(reviewed.rejected)).toMatchObject({ state: 'rejected', rejectReason: 'Duplicate of the summary table row' });
    expect(byId(reviewed.edited).edits).toEqual([
      expect.objectContaining({ field: 'title', effective: 'Edited by the auditor: SQL injection confirmed in export' }),
    ]);

    const csv = Papa.parse<Record<string, string>>(await exportFile('csv', false), { header: true, skipEmptyLines: true });
    expect(csv.errors).toEqual([]);
    expect(csv.data.find((r) => r.review_state === 'rejected')!.reject_reason).toBe('Duplicate of the summary table row');
    expect(csv.data.find((r) => r.title === 'Edited by the auditor: SQL injection confirmed in export')!.edits).toMatch(
      /^title: ".+" -> "Edited by the auditor/,
    );
    expect(csv.data.find((r) => r.origin === 'manual')).toMatchObject({ title: 'Severity wording is ambiguous', review_state: 'confirmed' });

    const confirmed = JSON.parse(await exportFile('json', true)) as {
      confirmedOnly: boolean;
      inputs: { document: { findings: { review: { state: string }[] }[]; review: { findings: { state: string }[] } } }[];
    };
    expect(confirmed.confirmedOnly).toBe(true);
    const doc = confirmed.inputs[0]!.document;
    expect(doc.findings.length).toBe(1);
    expect(doc.findings.every((f) => f.review.some((r) => r.state === 'confirmed'))).toBe(true);
    expect(doc.review.findings.map((r) => r.state)).toEqual(['confirmed', 'confirmed']);
    const confirmedCsv = Papa.parse<Record<string, string>>(await exportFile('csv', true), { header: true, skipEmptyLines: true });
    expect(confirmedCsv.data.map((r) => r.review_state)).toEqual(['confirmed', 'confirmed']);
    await page.getByTestId('export-document').scrollIntoViewIfNeeded();
    await screenshot(page, 'review-export');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
