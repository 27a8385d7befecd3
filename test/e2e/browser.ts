/**
 * Shared by the UI specs and the UI bench: a fresh renderer build (so a spec
 * never tests a stale out/renderer) and Debian's Chromium launched the way
 * these machines need it.
 */
import react from '@vitejs/plugin-react';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import { build } from 'vite';
import { chromiumPath } from '../helpers/chromium';

const root = resolve(import.meta.dirname, '../..');
export const screenshotDir = join(root, 'test-results/screenshots');

/**
 * The deadline for a state to be painted, for Playwright's waits and the specs' polls alike (./waits.ts): far
 * above what a loaded 2-core machine needs (a few seconds), far below a test's own timeout (vitest.config.ts: 60 s).
 */
export const UI_DEADLINE_MS = 30_000;

/** Builds renderer/ into a temp folder with the app's own vite settings. */
export async function buildRenderer(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'audit-renderer-'));
  await build({ root: join(root, 'renderer'), base: './', plugins: [react()], logLevel: 'error', build: { outDir, emptyOutDir: true, minify: false } });
  return outDir;
}

/** The Chromium of test/helpers/requirements.ts (callers run only where CHROMIUM is available). */
export async function launchChromium(): Promise<Browser> {
  const found = chromiumPath();
  if ('missing' in found) throw new Error(found.missing);
  return chromium.launch({
    executablePath: found.path,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

/** Chromium on the app served by the bridge, with page errors logged, once the shell has rendered. */
export async function openApp(appUrl: string): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  // Every Playwright wait (waitFor, waitForSelector, a locator's read of an element yet to appear) has the UI deadline.
  page.setDefaultTimeout(UI_DEADLINE_MS);
  page.on('pageerror', (error) => console.error('[page error]', error.message));
  await page.goto(appUrl);
  await page.getByRole('heading', { name: 'Offline Audit' }).waitFor();
  return { browser, page };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe-core's serious and critical violations on the current page. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => JSON.stringify(n.target)) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** A file a test drops on the window: its name, bytes and type (a PDF unless said otherwise). */
export interface DroppedFile {
  name: string;
  bytes: Uint8Array;
  type?: string;
}

/** Dispatches a real drag-over and drop with File objects on the app's drop zone, as a user dragging files from the desktop does. */
export async function dropFiles(page: Page, files: readonly DroppedFile[]): Promise<void> {
  const list = files.map((file) => ({ name: file.name, type: file.type ?? 'application/pdf', base64: Buffer.from(file.bytes).toString('base64') }));
  await page.evaluate((dropped) => {
    const transfer = new DataTransfer();
    for (const f of dropped) transfer.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
    const zone = document.querySelector('[data-testid="dropzone"]')!;
    zone.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: transfer }));
    zone.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }));
  }, list);
}
