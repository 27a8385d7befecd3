/**
 * Settings › Inference (issue 29) in Chromium through the WebSocket bridge against a real engine host and an
 * OpenAI-compatible simulator over HTTP: an endpoint added and checked live, its key stored (never echoed back
 * nor saved in the settings), a refused key and the plain-http warning shown, and the list saved to the host.
 */
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppSettings } from '../../shared/contract';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import { startOpenAiSim, type OpenAiSim } from '../ollama-sim/openai';
import { startApp, type AppUnderTest } from './appUnderTest';

describeNeeding([CHROMIUM], 'Settings › Inference', () => {
  let app: AppUnderTest;
  let page: Page;
  let sim: OpenAiSim;
  const section = () => page.getByTestId('inference-settings');
  const saved = async () => ((await app.server.host.invoke('settings.get', {})) as { ok: true; data: AppSettings }).data;

  beforeAll(async () => {
    sim = await startOpenAiSim({ apiKey: 'sk-ui-right', contextLength: 24576 });
    app = await startApp({ ollamaSim: true });
    page = app.page;
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    await sim?.close();
  });

  it('adds an OpenAI-compatible endpoint, checks it live, stores its key and saves the list', async () => {
    await page.getByRole('navigation', { name: 'Places' }).getByRole('button', { name: /^Settings/ }).click();
    await section().waitFor();
    await section().getByRole('button', { name: 'Add an endpoint' }).click();
    const endpoint = section().getByTestId('endpoint').first();
    await endpoint.getByLabel('URL').fill(sim.baseUrl);
    await endpoint.getByLabel('Files at once').fill('3');
    // No key yet: the server refuses, and the page says so in words.
    await expect.poll(async () => endpoint.getByTestId('endpoint-status').textContent(), { timeout: 15_000 }).toMatch(/LLM_UNAUTHORIZED: .*refused the API key/);

    await endpoint.getByLabel(/^API key/).fill('sk-ui-right');
    await endpoint.getByRole('button', { name: 'Store the key' }).click();
    await expect.poll(async () => endpoint.getByTestId('endpoint-status').textContent(), { timeout: 15_000 }).toMatch(/Answers: \d+ models .*context 24576 tokens/);
    expect(await endpoint.getByLabel(/^API key/).inputValue()).toBe('');
    expect(await endpoint.textContent()).toContain('(one is stored)');
    expect(await endpoint.getByTestId('endpoint-warning').count()).toBe(0);

    await page.getByRole('button', { name: /^Save/ }).first().click();
    await expect.poll(async () => (await saved()).endpoints.length, { timeout: 10_000 }).toBe(1);
    const stored = (await saved()).endpoints[0]!;
    expect(stored).toMatchObject({ kind: 'openai', url: sim.baseUrl, concurrency: 3 });
    expect(stored.keyRef).toMatch(/^endpoint-/);
    expect(JSON.stringify(await saved())).not.toContain('sk-ui-right');
  });

  it('warns before documents go over plain http to another machine', async () => {
    await section().getByRole('button', { name: 'Add an endpoint' }).click();
    const second = section().getByTestId('endpoint').nth(1);
    await second.getByLabel('URL').fill('http://gpu-box.invalid:8000/v1');
    expect(await second.getByTestId('endpoint-warning').textContent()).toMatch(/unencrypted over plain http to gpu-box\.invalid:8000/);
    await expect.poll(async () => second.getByTestId('endpoint-status').textContent(), { timeout: 15_000 }).toMatch(/ENDPOINT_UNREACHABLE/);
  });
});
