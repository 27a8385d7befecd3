import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { _electron as electron, type ElectronApplication } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BUILD, describeNeeding, ELECTRON } from '../helpers/requirements';
import { SETUP_DEADLINE_MS } from './waits';

const root = resolve(import.meta.dirname, '../..');

describeNeeding([ELECTRON, BUILD], 'Electron window security and preload contract', () => {
  let app: ElectronApplication;

  beforeAll(async () => {
    app = await electron.launch({ args: [resolve(root, 'out/main/index.js')], cwd: root });
  }, SETUP_DEADLINE_MS);
  afterAll(async () => {
    await app?.close();
  });

  it('runs the renderer sandboxed, isolated and without Node', async () => {
    const page = await app.firstWindow();
    // With context isolation the preload's objects are copies: changing them in the page cannot reach the preload.
    const probe = await page.evaluate(() => {
      const api = (window as unknown as { auditApi: { invoke: (...args: unknown[]) => unknown } }).auditApi;
      let replaced = false;
      try {
        api.invoke = () => 'hijacked';
        replaced = api.invoke() === 'hijacked';
      } catch {
        replaced = false;
      }
      return {
        replaced,
        require: typeof (window as unknown as { require?: unknown }).require,
        module: typeof (window as unknown as { module?: unknown }).module,
      };
    });
    expect(probe).toEqual({ replaced: false, require: 'undefined', module: 'undefined' });
    const sandboxed = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.webContents.getOSProcessId() !== process.pid);
    expect(sandboxed).toBe(true);
  });

  it('exposes only the contract to the renderer, and no Node', async () => {
    const page = await app.firstWindow();
    const surface = await page.evaluate(() => ({
      api: Object.keys((window as unknown as { auditApi: object }).auditApi),
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
    }));
    expect(surface).toEqual({ api: ['invoke', 'onEvent'], require: 'undefined', process: 'undefined' });
    const info = await page.evaluate(() =>
      (window as unknown as { auditApi: { invoke(c: string, i: unknown): Promise<unknown> } }).auditApi.invoke('app.info', {}),
    );
    expect(info).toMatchObject({ ok: true });
    const bad = await page.evaluate(() =>
      (window as unknown as { auditApi: { invoke(c: string, i: unknown): Promise<unknown> } }).auditApi.invoke('app.info', { extra: 1 }),
    );
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const unknown = await page.evaluate(() =>
      (window as unknown as { auditApi: { invoke(c: string, i: unknown): Promise<unknown> } }).auditApi.invoke('fs.read', {}),
    );
    expect(unknown).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('answers every contract command through the utility-process host and pushes events to onEvent', async () => {
    const page = await app.firstWindow();
    const results = await page.evaluate(async () => {
      const api = (window as unknown as { auditApi: { invoke(c: string, i: unknown): Promise<{ ok: boolean }>; onEvent(l: (e: unknown) => void): () => void } })
        .auditApi;
      const unsubscribe = api.onEvent(() => undefined);
      const out = {
        settings: (await api.invoke('settings.get', {})).ok,
        runs: (await api.invoke('runs.list', {})).ok,
        documents: (await api.invoke('documents.list', {})).ok,
        unsubscribe: typeof unsubscribe,
      };
      unsubscribe();
      return out;
    });
    expect(results).toEqual({ settings: true, runs: true, documents: true, unsubscribe: 'function' });
  });

  it('denies navigation away from the app and new windows', async () => {
    const page = await app.firstWindow();
    const before = page.url();
    // Waits for the main process's answer to the navigation, not a fixed time: a listener added after the app's own
    // hears the request once the app has decided on it.
    await app.evaluate(({ BrowserWindow }) => {
      const contents = BrowserWindow.getAllWindows()[0]!.webContents;
      (globalThis as { navigationAsked?: Promise<{ url: string; denied: boolean }> }).navigationAsked = new Promise((resolve) => {
        contents.once('will-navigate', (details) => resolve({ url: details.url, denied: details.defaultPrevented }));
      });
    });
    await page.evaluate(() => {
      window.location.href = 'https://example.com/';
    });
    expect(await app.evaluate(() => (globalThis as { navigationAsked?: Promise<{ url: string; denied: boolean }> }).navigationAsked)).toEqual({
      url: 'https://example.com/',
      denied: true,
    });
    expect(page.url()).toBe(before);
    const opened = await page.evaluate(() => window.open('https://example.com/') === null);
    expect(opened).toBe(true);
  });
});

// Runs everywhere the app is built: a sandboxed preload can require nothing but `electron`.
const preloadBundle = resolve(root, 'out/preload/index.cjs');
describeNeeding([BUILD], 'preload bundle', () => {
  it('requires nothing but electron', () => {
    const requires = [...readFileSync(preloadBundle, 'utf8').matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect(new Set(requires)).toEqual(new Set(['electron']));
  });
});
