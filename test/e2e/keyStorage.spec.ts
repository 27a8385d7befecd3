/**
 * Settings › Inference on a computer where no keyring keeps an API key safely (Linux without one: Electron's
 * safeStorage falls back to `basic_text`, a password built into Electron; security probe 2026-11-28, row 56). The
 * page says so, stores no typed key, and takes the key from an environment variable of the app instead, which the
 * live check then uses. Chromium through the WebSocket bridge; the host is told what Electron would report.
 */
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppSettings } from '../../shared/contract';
import { keyStorageStatus } from '../../shared/keyStorage';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import { startOpenAiSim, type OpenAiSim } from '../ollama-sim/openai';
import { startApp, type AppUnderTest } from './appUnderTest';

const VARIABLE = 'OFFLINE_AUDIT_E2E_ENDPOINT_KEY';

describeNeeding([CHROMIUM], 'Settings › Inference without a keyring', () => {
  let app: AppUnderTest;
  let page: Page;
  let sim: OpenAiSim;
  const section = () => page.getByTestId('inference-settings');
  const saved = async () => ((await app.server.host.invoke('settings.get', {})) as { ok: true; data: AppSettings }).data;

  beforeAll(async () => {
    sim = await startOpenAiSim({ apiKey: 'sk-from-env' });
    // The app's own environment (the host runs in this process here; in the desktop app, the engine's utility process).
    process.env[VARIABLE] = 'sk-from-env';
    app = await startApp({ ollamaSim: true, keyStorage: keyStorageStatus({ platform: 'linux', encryptionAvailable: true, backend: 'basic_text' }) });
    page = app.page;
  }, 300_000);

  afterAll(async () => {
    delete process.env[VARIABLE];
    await app?.close();
    await sim?.close();
  });

  it('says no keyring keeps the key, stores none, and reads it from an environment variable instead', async () => {
    await page
      .getByRole('navigation', { name: 'Places' })
      .getByRole('button', { name: /^Settings/ })
      .click();
    await section().waitFor();
    await expect
      .poll(
        () =>
          section()
            .getByTestId('key-storage-warning')
            .textContent()
            .catch(() => ''),
        { timeout: 10_000 },
      )
      .toMatch(/No keyring answers on this computer: .*basic_text.*environment variable/);

    await section().getByRole('button', { name: 'Add an endpoint' }).click();
    const endpoint = section().getByTestId('endpoint').first();
    await endpoint.getByLabel('URL').fill(sim.baseUrl);
    await expect.poll(async () => endpoint.getByTestId('endpoint-status').textContent(), { timeout: 15_000 }).toMatch(/LLM_UNAUTHORIZED/);
    // A typed key cannot be stored: the field and its button are off, and the host refuses one anyway.
    expect(await endpoint.getByLabel(/^API key/).isDisabled()).toBe(true);
    expect(await endpoint.getByRole('button', { name: 'Store the key' }).isDisabled()).toBe(true);
    expect(await app.server.host.invoke('endpoints.setKey', { keyRef: 'endpoint-x', key: 'sk-typed' })).toMatchObject({
      ok: false,
      error: { code: 'KEY_STORAGE_UNSAFE' },
    });

    await endpoint.getByLabel('Or read the key from an environment variable').fill(VARIABLE);
    await endpoint.getByRole('button', { name: 'Use this variable' }).click();
    expect(await endpoint.getByTestId('endpoint-key-variable').textContent()).toContain(`read from the environment variable ${VARIABLE}`);
    await expect.poll(async () => endpoint.getByTestId('endpoint-status').textContent(), { timeout: 15_000 }).toMatch(/Answers: \d+ model/);

    await page.getByRole('button', { name: /^Save/ }).first().click();
    await expect.poll(async () => (await saved()).endpoints[0]?.keyRef, { timeout: 10_000 }).toBe(`env:${VARIABLE}`);
    expect(JSON.stringify(await saved())).not.toContain('sk-from-env');
  });
});
