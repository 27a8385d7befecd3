/**
 * PDF from the report HTML with headless Chromium (CLI and tests). The
 * desktop app prints the same HTML with Electron's printToPDF instead and
 * passes that as the engine's `renderPdf`; this module never imports electron.
 *
 * The page is loaded with JavaScript disabled and every network request
 * refused: the HTML is self-contained, and nothing in a document can make the
 * printer fetch or run anything.
 */
import { existsSync } from 'node:fs';
import { AppError, ErrorCode } from '../../../shared/errors';
import { throwIfAborted } from '../util';

export interface PdfOptions {
  /** Chromium or Chrome executable; default: CHROMIUM_PATH, then the usual install places. */
  executablePath?: string;
  /** Shown left in the footer, next to the page numbers (plain text, escaped). */
  footerLabel?: string;
  /** Stops the browser when aborted. */
  signal?: AbortSignal;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const COMMON_PATHS: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/snap/bin/chromium',
    '/usr/bin/microsoft-edge',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
  ],
  win32: [
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
    'C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe',
  ],
};

export const INSTALL_HINT =
  'Install Chromium or Google Chrome (Debian/Ubuntu: sudo apt-get install chromium; macOS and Windows: install Google Chrome), ' +
  'or set CHROMIUM_PATH to a Chrome or Chromium executable. The Markdown and HTML reports need no browser: export one of those and print it.';

/** Where the browser is, or a clear error listing what was tried. */
export function findChromium(explicit?: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const tried: string[] = [];
  for (const candidate of [explicit, env.CHROMIUM_PATH]) {
    if (!candidate) continue;
    if (existsSync(candidate)) return candidate;
    tried.push(candidate);
  }
  for (const candidate of COMMON_PATHS[platform] ?? []) {
    if (existsSync(candidate)) return candidate;
    tried.push(candidate);
  }
  throw new AppError(ErrorCode.PDF_RENDERER_MISSING, `A PDF report needs Chromium or Chrome, and none was found. ${INSTALL_HINT}`, { what: 'chromium', tried });
}

interface ChromiumLike {
  launch(options: { executablePath: string; args: string[]; headless: boolean }): Promise<BrowserLike>;
}
interface BrowserLike {
  newContext(options: { javaScriptEnabled: boolean; offline: boolean }): Promise<ContextLike>;
  close(): Promise<void>;
}
interface ContextLike {
  route(url: string, handler: (route: { abort(): Promise<void> }) => Promise<void>): Promise<void>;
  newPage(): Promise<PageLike>;
}
interface PageLike {
  setContent(html: string, options: { waitUntil: 'load' }): Promise<void>;
  emulateMedia(options: { media: 'print' }): Promise<void>;
  pdf(options: Record<string, unknown>): Promise<Buffer>;
}

async function loadChromium(): Promise<ChromiumLike> {
  // A development dependency of the CLI: kept out of the app bundle (the app prints with Electron).
  const name = 'playwright-core';
  try {
    const mod = (await import(/* @vite-ignore */ name)) as { chromium: ChromiumLike };
    return mod.chromium;
  } catch (error) {
    throw new AppError(
      ErrorCode.PDF_RENDERER_MISSING,
      `A PDF report needs the playwright-core package to drive Chromium, and it is not installed (npm install playwright-core). ${INSTALL_HINT}`,
      { what: 'playwright-core' },
      { cause: error },
    );
  }
}

function footer(label: string): string {
  const safe = label.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return (
    '<div style="font: 8px system-ui, sans-serif; color: #555; width: 100%; padding: 0 14mm; display: flex; justify-content: space-between;">' +
    `<span>${safe}</span><span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>`
  );
}

/** Prints the report HTML to PDF bytes (A4, backgrounds on, page numbers in the footer). */
export async function renderPdfWithChromium(html: string, options: PdfOptions = {}): Promise<Buffer> {
  const executablePath = findChromium(options.executablePath);
  const chromium = await loadChromium();
  throwIfAborted(options.signal);
  let browser: BrowserLike;
  try {
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  } catch (error) {
    throw new AppError(
      ErrorCode.PDF_RENDERER_MISSING,
      `Chromium at ${executablePath} could not start (${(error as Error).message.split('\n')[0]}). ${INSTALL_HINT}`,
      { what: 'chromium', executablePath },
      { cause: error },
    );
  }
  const onAbort = () => void browser.close();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
    await context.route('**/*', (route) => route.abort());
    const page = await context.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    await page.emulateMedia({ media: 'print' });
    const pdf = await page.pdf({
      format: 'A4',
      printBackground: true,
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      footerTemplate: footer(options.footerLabel ?? 'Audit report'),
      margin: { top: '16mm', bottom: '18mm', left: '14mm', right: '14mm' },
      preferCSSPageSize: false,
    });
    throwIfAborted(options.signal);
    return Buffer.from(pdf);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await browser.close().catch(() => undefined);
  }
}
