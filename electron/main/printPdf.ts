/**
 * PDF reports in the desktop app: the engine (in the utility process, which
 * has no windows) hands the report HTML to main, which prints it with
 * Electron's printToPDF. The HTML is loaded in a hidden window that is
 * sandboxed, has JavaScript and every Node feature off, lives in its own
 * in-memory session that refuses every request but the page itself, and can
 * neither navigate nor open windows. It is destroyed after each print.
 */
import { BrowserWindow, session } from 'electron';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const PARTITION = 'report-print';
/** The report files being printed: the only URLs the print session loads. */
const printing = new Set<string>();
let printSessionReady: Electron.Session | null = null;

function printSession(): Electron.Session {
  if (printSessionReady) return printSessionReady;
  const ses = session.fromPartition(PARTITION, { cache: false });
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  // The HTML is self-contained: nothing but the report file itself may load.
  ses.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !printing.has(details.url) }));
  printSessionReady = ses;
  return ses;
}

function footerTemplate(label: string): string {
  const safe = label.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return (
    '<div style="font: 8px system-ui, sans-serif; color: #555; width: 100%; padding: 0 14mm; display: flex; justify-content: space-between;">' +
    `<span>${safe}</span><span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>`
  );
}

/** Prints self-contained report HTML to PDF bytes (A4, backgrounds, page numbers in the footer). */
export async function printReportPdf(html: string, footerLabel: string): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'audit-print-'));
  const file = join(dir, 'report.html');
  writeFileSync(file, html, 'utf8');
  const url = pathToFileURL(file).toString();
  printing.add(url);
  const window = new BrowserWindow({
    show: false,
    width: 1000,
    height: 1400,
    webPreferences: {
      session: printSession(),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      javascript: false,
      // No middle-click navigation out of the report either (electronegativity AUXCLICK_JS_CHECK).
      disableBlinkFeatures: 'Auxclick',
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      spellcheck: false,
    },
  });
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
  try {
    await window.loadURL(url);
    const pdf = await window.webContents.printToPDF({
      pageSize: 'A4',
      printBackground: true,
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      footerTemplate: footerTemplate(footerLabel),
      // Inches: 16 mm top, 18 mm bottom, 14 mm sides, as the headless Chromium path.
      margins: { top: 0.63, bottom: 0.71, left: 0.55, right: 0.55 },
      preferCSSPageSize: false,
    });
    return Buffer.from(pdf);
  } finally {
    printing.delete(url);
    window.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
