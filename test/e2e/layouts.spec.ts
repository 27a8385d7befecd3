/**
 * Every width (issue 27): the library, the findings queue with a finding open and the document view with its
 * chunk tree, at 1024x700 and 800x600, in Chromium through the WebSocket bridge with the demo model. Nothing
 * scrolls sideways (the page or any panel inside it), every row's actions are on screen, the sidebar folds to
 * icons at 800, chunk titles and finding titles get the width (the table of all findings too), and a queue row's
 * page stays whole beside a long document name's picker. Screenshots go to test-results/screenshots/layout-*.png.
 */
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoResponder } from '../ollama-sim/demoResponder';
import { startApp, type AppUnderTest } from './appUnderTest';
import { screenshot, seriousAxeViolations } from './browser';
import { SETUP_DEADLINE_MS, poll, resizedTo } from './waits';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';

/** Elements that scroll sideways (content wider than the box, and the box lets it scroll), the page included. */
async function sidewaysScrollers(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const el of [document.documentElement, ...document.querySelectorAll<HTMLElement>('body *')]) {
      const style = getComputedStyle(el);
      const scrolls = el === document.documentElement || style.overflowX === 'auto' || style.overflowX === 'scroll';
      if (scrolls && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)
        found.push(`${el.tagName.toLowerCase()}.${el.className || el.getAttribute('data-testid') || ''} (${el.scrollWidth} > ${el.clientWidth})`);
    }
    return found;
  });
}

/** Elements whose right edge is past the window (cut off). */
async function pastTheRightEdge(page: Page, selector: string): Promise<number> {
  return page.locator(selector).evaluateAll((els) => els.filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1).length);
}

describeNeeding([CHROMIUM], 'layouts at 1024 and 800 wide', () => {
  let app: AppUnderTest;
  let page: Page;
  const goTo = (place: string) =>
    page
      .getByRole('navigation', { name: 'Places' })
      .getByRole('button', { name: new RegExp(`^${place}`) })
      .click();

  beforeAll(async () => {
    app = await startApp({ ollamaSim: { responder: demoResponder } }, async ({ host }) => {
      await host.invoke('settings.update', { reviewerName: 'A. Auditor', strategy: 'headings', useJudge: false });
      const sample = await host.invoke('documents.sample', {});
      if (!sample.ok) throw new Error(sample.error.message);
      const { bytes } = sample.data as { bytes: string };
      // A long file name, as real ones are, next to the sample.
      // Its own bytes (a trailing PDF comment), or the import would take it for the sample already stored.
      const longNamed = Buffer.concat([Buffer.from(bytes, 'base64'), Buffer.from('\n% another copy\n')]).toString('base64');
      await host.invoke('documents.import', {
        files: [
          { name: 'sample-audit-report.pdf', bytes },
          { name: 'quarterly-security-assessment-of-the-document-portal-2025.pdf', bytes: longNamed },
        ],
      });
      await host.idle();
    });
    page = app.page;
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  for (const [width, height] of [
    [1024, 700],
    [800, 600],
  ] as const) {
    it(`reflows at ${width}x${height}: no sideways scrolling, actions on screen, titles with room`, async () => {
      // Each view is measured once it is drawn whole at this width, never after a guessed pause.
      await resizedTo(page, { width, height });
      await goTo('Library');
      // The library has nothing more to load than its two documents' rows.
      await poll(() => page.getByTestId('library').locator('tr[data-document]').count()).toBe(2);
      expect(await sidewaysScrollers(page)).toEqual([]);
      expect(await pastTheRightEdge(page, '[data-testid="library"] button')).toBe(0);
      const sidebar = await page.locator('.sidebar').boundingBox();
      if (width <= 800) expect(sidebar!.width).toBeLessThanOrEqual(72);
      await screenshot(page, `layout-library-${width}`);
      expect(await seriousAxeViolations(page)).toEqual([]);

      await goTo('Findings');
      // The document with the long name: the picker holding it must not push the queue sideways.
      await page
        .locator('.queue__head')
        .getByRole('combobox', { name: /^Document/ })
        .selectOption({ label: 'quarterly-security-assessment-of-the-document-portal-2025.pdf' });
      await poll(() => page.locator('#review-title').textContent()).toBe('Findings in quarterly-security-assessment-of-the-document-portal-2025.pdf');
      const firstOption = page.getByRole('listbox', { name: 'Findings to review' }).getByRole('option').first();
      await firstOption.waitFor();
      await page.getByTestId('review-detail').waitFor();
      // A confirmed finding carries the widest state badge of the queue's first line.
      await page
        .getByTestId('review-detail')
        .getByRole('button', { name: /^Confirm/ })
        .click();
      await poll(() => firstOption.locator('[data-state]').first().getAttribute('data-state')).toBe('confirmed');
      // The detail drawn whole: its quote found in the text, and its source page drawn (at the width of its pane).
      await page.getByTestId('review-detail').getByTestId('surrounding-text').waitFor();
      await page.getByTestId('review-detail').locator('[data-testid="pdf-page"][data-rendered="true"]').waitFor();
      expect(await sidewaysScrollers(page)).toEqual([]);
      // The queue's titles are not cut to a word or two, and each row's place ("R-1 · p. 1") is whole inside its row.
      const title = firstOption.locator('.review-item__title');
      expect(await title.count()).toBe(1);
      expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      const [item, where] = await Promise.all([firstOption.boundingBox(), firstOption.locator('.review-item__where').boundingBox()]);
      expect(where!.x + where!.width).toBeLessThanOrEqual(item!.x + item!.width + 1);
      await screenshot(page, `layout-findings-${width}`);
      expect(await seriousAxeViolations(page)).toEqual([]);

      // The table of all findings: no sideways scrolling, and the title column keeps a real share of the row.
      await page.getByRole('button', { name: 'Table of all findings' }).click();
      const head = page.getByTestId('findings-table').locator('.findings-row--head');
      await head.waitFor();
      // Drawn whole: the findings' rows and the unreviewed mentions of the document (its analysis loaded).
      await page.getByTestId('findings-table').locator('[role="row"]:not(.findings-row--head)').first().waitFor();
      await poll(() => page.getByTestId('unreviewed-section').textContent()).toContain('IDs the rules found in');
      expect(await sidewaysScrollers(page)).toEqual([]);
      const [headBox, titleHead] = await Promise.all([head.boundingBox(), head.getByRole('columnheader', { name: /^Title/ }).boundingBox()]);
      expect(titleHead!.width).toBeGreaterThanOrEqual(headBox!.width * 0.25);
      await screenshot(page, `layout-findings-table-${width}`);
      await page.getByRole('button', { name: 'Triage queue' }).click();

      await goTo('Library');
      await page.getByRole('button', { name: 'Open sample-audit-report.pdf' }).first().click();
      const tree = page.getByRole('tree');
      // Drawn whole: the tree's rows, and beside it the analysis, the completeness verdict and the ID mentions.
      await tree.locator('.tree-row').nth(1).waitFor();
      await page.getByTestId('analysis').getByTestId('chunk-counts').waitFor();
      await page.getByTestId('completeness').getByTestId('completeness-headline').waitFor();
      await page.getByTestId('mentions').getByTestId('mention').first().waitFor();
      expect(await sidewaysScrollers(page)).toEqual([]);
      // Chunk titles get most of the row: at least half of it.
      const [row, name] = await Promise.all([
        tree.locator('.tree-row').nth(1).boundingBox(),
        tree.locator('.tree-row').nth(1).locator('.tree-row__title').boundingBox(),
      ]);
      expect(name!.width).toBeGreaterThanOrEqual(row!.width * 0.5);
      // The document picker stays inside its pane (its longest file name would set its width).
      const picker = await page
        .getByRole('combobox', { name: /^Document/ })
        .first()
        .boundingBox();
      const pane = await tree.boundingBox();
      expect(picker!.x + picker!.width).toBeLessThanOrEqual(pane!.x + pane!.width + 1);
      await screenshot(page, `layout-document-${width}`);
      expect(await seriousAxeViolations(page)).toEqual([]);
    });
  }
});
