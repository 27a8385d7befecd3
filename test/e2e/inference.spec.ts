/**
 * Settings › Inference (issue 29) in Chromium through the WebSocket bridge against a real engine host and an
 * OpenAI-compatible simulator over HTTP: an endpoint added and checked live, its key stored (never echoed back
 * nor saved in the settings), a refused key and the plain-http warning shown, and the list saved to the host.
 */
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppSettings } from '../../shared/contract';
import { plantedReport, plantedResponder } from '../fixtures/plantedFindings';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import type { SimChatRequest } from '../ollama-sim/index';
import { startOpenAiSim, type OpenAiSim } from '../ollama-sim/openai';
import { startApp, type AppUnderTest } from './appUnderTest';
import { dropFiles } from './browser';
import { poll } from './waits';
import { plantedPdf } from './plantedPipeline';

describeNeeding([CHROMIUM], 'Settings › Inference', () => {
  let app: AppUnderTest;
  let page: Page;
  let sim: OpenAiSim;
  const section = () => page.getByTestId('inference-settings');
  const saved = async () => ((await app.server.host.invoke('settings.get', {})) as { ok: true; data: AppSettings }).data;

  beforeAll(async () => {
    // A llama-server: it tells its slots at /props.
    sim = await startOpenAiSim({ apiKey: 'sk-ui-right', contextLength: 24576, props: true, slots: 2 });
    app = await startApp({ ollamaSim: true });
    page = app.page;
  }, 300_000);

  const pool: OpenAiSim[] = [];
  afterAll(async () => {
    await app?.close();
    await sim?.close();
    for (const s of pool) await s.close();
  });

  it('adds an OpenAI-compatible endpoint, checks it live, stores its key and saves the list', async () => {
    await page
      .getByRole('navigation', { name: 'Places' })
      .getByRole('button', { name: /^Settings/ })
      .click();
    await section().waitFor();
    await section().getByRole('button', { name: 'Add an endpoint' }).click();
    const endpoint = section().getByTestId('endpoint').first();
    const status = endpoint.getByTestId('endpoint-status');
    // A new endpoint starts empty and calm (trial 2026-11-28 row 17): no address filled in for the user, no red error before input.
    expect(await endpoint.getByLabel('URL').inputValue()).toBe('');
    await expect.poll(() => status.textContent()).toBe('Enter the server’s URL to check it.');
    expect(await endpoint.getByRole('alert').count()).toBe(0);
    await endpoint.getByLabel('URL').fill(sim.baseUrl);
    await endpoint.getByLabel('Files at once').fill('3');
    // No key yet: the server refuses, and the page says so in words, its code behind Details.
    await poll(() => status.locator('.error-note__message').textContent()).toMatch(/refused the API key/);
    expect(await status.locator('.error-note').getAttribute('data-code')).toBe('LLM_UNAUTHORIZED');
    expect(await status.locator('.error-note details').getAttribute('open')).toBeNull();

    // A key typed and not stored yet is the one Check uses, and the page says it is not kept yet.
    await endpoint.getByLabel(/^API key/).fill('sk-ui-right');
    await endpoint.getByRole('button', { name: 'Check again' }).click();
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/Answers: \d+ models/);
    expect(await endpoint.getByTestId('endpoint-typed-key').textContent()).toBe(
      'Checked with the key typed above. It is not kept until you press Store the key.',
    );
    expect(await endpoint.getByLabel(/^API key/).inputValue()).toBe('sk-ui-right');

    await endpoint.getByRole('button', { name: 'Store the key' }).click();
    // Checked again with the stored key: the note on the typed key goes.
    await poll(() => endpoint.getByTestId('endpoint-typed-key').count()).toBe(0);
    await poll(async () => endpoint.getByTestId('endpoint-status').textContent()).toMatch(/Answers: \d+ models .*context 24576 tokens/);
    await poll(() => endpoint.getByTestId('endpoint-status').textContent()).toMatch(/; 2 slots\./);
    // Three files at once on a server with two slots: the page says to match them.
    await poll(() => endpoint.getByTestId('endpoint-slots-hint').textContent()).toBe('The server runs 2 requests at once: set Files at once to 2.');
    await poll(() => endpoint.getByLabel(/^API key/).inputValue()).toBe('');
    await poll(() => endpoint.textContent()).toContain('(one is stored)');
    expect(await endpoint.getByTestId('endpoint-warning').count()).toBe(0);

    await page.getByRole('button', { name: /^Save/ }).first().click();
    await poll(async () => (await saved()).endpoints.length).toBe(1);
    const stored = (await saved()).endpoints[0]!;
    expect(stored).toMatchObject({ kind: 'openai', url: sim.baseUrl, concurrency: 3 });
    expect(stored.keyRef).toMatch(/^endpoint-/);
    expect(JSON.stringify(await saved())).not.toContain('sk-ui-right');
  });

  it('warns before documents go over plain http to another machine', async () => {
    await section().getByRole('button', { name: 'Add an endpoint' }).click();
    const second = section().getByTestId('endpoint').nth(1);
    await second.getByLabel('URL').fill('http://gpu-box.invalid:8000/v1');
    await poll(() => second.getByTestId('endpoint-warning').textContent()).toMatch(/unencrypted over plain http to gpu-box\.invalid:8000/);
    await poll(async () => second.getByTestId('endpoint-status').locator('.error-note').getAttribute('data-code')).toBe('ENDPOINT_UNREACHABLE');
  });

  it('with a pool, the run card and the status bar say which endpoint each file in flight is on', async () => {
    const report = plantedReport();
    const answer = plantedResponder(report);
    // Slow enough replies that both files are seen in flight at once.
    const slow = async (req: SimChatRequest) => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      return answer(req);
    };
    for (let i = 0; i < 2; i++) pool.push(await startOpenAiSim({ responder: slow, contextLength: 16384 }));
    const update = await app.server.host.invoke('settings.update', {
      strategy: 'pages',
      useJudge: false,
      endpoints: pool.map((s, i) => ({ kind: 'openai', url: s.baseUrl, concurrency: 1, label: `GPU box ${i + 1}` })),
    });
    expect(update.ok).toBe(true);
    await page
      .getByRole('navigation', { name: 'Places' })
      .getByRole('button', { name: /^Library/ })
      .click();
    const second = { ...report, pageTexts: report.pageTexts.map((text) => `${text}\nSecond copy of the report.`) };
    await dropFiles(page, [
      { name: 'first.pdf', bytes: await plantedPdf(report) },
      { name: 'second.pdf', bytes: await plantedPdf(second) },
    ]);
    await page.locator('[data-testid^="run-"][data-status="running"]').first().waitFor();
    // One moment of the window: each running file's row on the run card with its endpoint, and the status bar.
    const read = () =>
      page.evaluate(() => ({
        rows: [...document.querySelectorAll('[data-testid="run-input"][data-status="running"]')]
          .map((li) => `${li.getAttribute('data-file')} ${li.querySelector('[data-testid="run-input-endpoint"]')?.textContent ?? '(no endpoint)'}`)
          .sort(),
        bar: document.querySelector('[data-testid="status-run"]')?.textContent ?? '',
      }));
    let seen = await read();
    await poll(async () => (seen = await read()).rows.map((row) => row.replace(/^\S+ /, '')).sort(), { interval: 100 }).toEqual([
      'on GPU box 1',
      'on GPU box 2',
    ]);
    // The two files are on the two endpoints, and the status bar says the same of each.
    expect(seen.rows.map((row) => row.split(' ')[0]).sort()).toEqual(['first.pdf', 'second.pdf']);
    for (const row of seen.rows) expect(seen.bar).toContain(row);
    await page.locator('[data-testid^="run-"][data-status="done"]').first().waitFor({ timeout: 60_000 });
    expect(pool.every((s) => s.counters.completed > 0)).toBe(true);
  }, 120_000);
});
