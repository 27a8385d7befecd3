/**
 * Settings polish from the workspace trial (issue 27), in Chromium through the WebSocket bridge:
 * - row 29: "Settings saved." fades and is gone on a later visit; edits left unsaved are marked on the place;
 * - row 30: every choice in a Settings select is readable whole at 1440 (no "Automatic: read pages without u").
 */
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import { startApp, type AppUnderTest } from './appUnderTest';
import { screenshot } from './browser';
import { SETUP_DEADLINE_MS, poll } from './waits';

describeNeeding([CHROMIUM], 'settings: a save message that fades, an unsaved marker, selects wide enough', () => {
  let app: AppUnderTest;
  let page: Page;
  const goTo = (place: string) =>
    page
      .getByRole('navigation', { name: 'Places' })
      .getByRole('button', { name: new RegExp(`^${place}`) })
      .click();

  beforeAll(async () => {
    app = await startApp({ ollamaSim: {} }, async ({ host }) => {
      await host.invoke('settings.update', { reviewerName: 'A. Auditor' });
    });
    page = app.page;
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  it('shows "Settings saved." after a save, fades it, and never shows it again on a later visit', async () => {
    await goTo('Settings');
    await page.getByLabel('Reviewer name (in reports)').fill('B. Second');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const status = page.getByTestId('settings-actions').getByRole('status');
    await poll(() => status.textContent()).toBe('Settings saved.');
    await goTo('Library');
    await goTo('Settings');
    // Read once on purpose: a poll would let an old "Settings saved." be shown for a while.
    expect(await status.textContent()).toBe('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await poll(() => status.textContent()).toBe('Settings saved.');
    await poll(() => status.textContent()).toBe('');
  });

  it('marks the Settings place while edits are left unsaved elsewhere, and clears it on discard', async () => {
    await page.getByLabel('Reviewer name (in reports)').fill('C. Third');
    await goTo('Library');
    const marker = page.getByRole('navigation', { name: 'Places' }).getByTestId('settings-unsaved');
    await poll(() => marker.isVisible()).toBe(true);
    await poll(() => marker.textContent()).toContain('unsaved');
    await goTo('Settings');
    await page.getByTestId('settings-actions').getByRole('button', { name: 'Discard' }).click();
    await goTo('Library');
    expect(await marker.count()).toBe(0);
  });

  it('every select in Settings is wide enough for each of its choices at 1440', async () => {
    await goTo('Settings');
    await page.getByLabel('Finding extraction').locator('option').first().waitFor({ state: 'attached' });
    await screenshot(page, 'settings-selects-1440');
    const cut = await page.evaluate(() => {
      const canvas = document.createElement('canvas').getContext('2d')!;
      const out: string[] = [];
      for (const select of document.querySelectorAll<HTMLSelectElement>('.settings select')) {
        const style = getComputedStyle(select);
        canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        // The room for text: the box minus its padding and the drop-down arrow (about 24 px in Chromium).
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
        for (const option of select.options) if (canvas.measureText(option.text).width > room) out.push(`${select.id}: ${option.text}`);
      }
      return out;
    });
    expect(cut).toEqual([]);
  });
});
