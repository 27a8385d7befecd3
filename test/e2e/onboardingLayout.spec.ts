/**
 * Onboarding layout from the workspace trial (issue 27, row 38), in Chromium through the WebSocket bridge:
 * "Try a sample document" sits on the middle of its sentence's line (not on the baseline, taller than the line),
 * beside its step mark, and the empty Recent runs panel says what comes after a run.
 */
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import { startApp, type AppUnderTest } from './appUnderTest';
import { screenshot, seriousAxeViolations } from './browser';
import { SETUP_DEADLINE_MS, poll } from './waits';

describeNeeding([CHROMIUM], 'onboarding: the sample button aligned with its step, a next step where runs will be', () => {
  let app: AppUnderTest;
  let page: Page;

  beforeAll(async () => {
    app = await startApp({ ollamaSim: {} });
    page = app.page;
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  it('centres the sample button on its sentence and its step mark', async () => {
    const step = page.getByTestId('onboarding').locator('li.step', { hasText: 'Try it.' }).locator('> div');
    await step.waitFor();
    const middle = async (box: Promise<{ y: number; height: number } | null>) => {
      const b = (await box)!;
      return b.y + b.height / 2;
    };
    const offsets = async () => {
      const button = await middle(step.getByRole('button', { name: 'Try a sample document' }).boundingBox());
      const words = await middle(step.locator('strong').boundingBox());
      const mark = await middle(page.getByTestId('onboarding').locator('li.step', { hasText: 'Try it.' }).locator('.step__mark').boundingBox());
      return { words: Math.abs(button - words) <= 1, mark: Math.abs(button - mark) <= 2 };
    };
    // Measured once the server check has answered: it re-renders the welcome right after it first appears.
    await poll(() => page.getByTestId('onboarding').textContent()).toContain('Found Ollama');
    await poll(offsets).toEqual({ words: true, mark: true });
    await poll(() => page.getByTestId('runs-next-step').textContent()).toContain('Findings lists what it found');
    await screenshot(page, 'onboarding-aligned-1440');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
