/**
 * Entry of Electron's utility process: hosts the engine off the UI thread and
 * talks to main over `process.parentPort`. No `electron` import: the port is
 * a property Electron puts on `process`, typed here by hand.
 *
 * A utility process has no windows, so it cannot print: a PDF report's HTML
 * goes to main (`print-pdf`), which prints it with Electron's printToPDF in a
 * hidden, sandboxed window with JavaScript off, and sends the bytes back.
 */
import { AppError, ErrorCode } from '../../shared/errors';
import { createEngineHost } from './engineHost';
import { createMemoryKeyStore } from './endpointKeys';
import type { HostToMain, MainToHost } from './messages';

interface ParentPort {
  on(event: 'message', listener: (message: { data: MainToHost }) => void): void;
  postMessage(message: HostToMain): void;
}

const port = (process as unknown as { parentPort?: ParentPort }).parentPort;
if (!port) throw new Error('utilityEntry runs only inside an Electron utility process');

const PRINT_TIMEOUT_MS = 120_000;
let nextPrintId = 1;
const printing = new Map<number, { resolve: (pdf: Buffer) => void; reject: (error: Error) => void; timer: ReturnType<typeof setTimeout> }>();

function printInMain(html: string, meta: { footerLabel: string }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const id = nextPrintId++;
    const timer = setTimeout(() => {
      printing.delete(id);
      reject(
        new AppError(ErrorCode.PDF_RENDERER_MISSING, 'Printing the PDF report took too long. Export the HTML report and print it from a browser instead.'),
      );
    }, PRINT_TIMEOUT_MS);
    printing.set(id, { resolve, reject, timer });
    port!.postMessage({ type: 'print-pdf', id, html, footerLabel: meta.footerLabel });
  });
}

const config = JSON.parse(process.env.OFFLINE_AUDIT_HOST_CONFIG ?? '{}') as { dataDir: string; appVersion: string; nativeBinding?: string };
const keys = createMemoryKeyStore();
const host = createEngineHost({
  keys,
  dataDir: config.dataDir,
  appVersion: config.appVersion,
  ...(config.nativeBinding ? { nativeBinding: config.nativeBinding } : {}),
  renderPdf: printInMain,
});

host.onEvent((event) => port.postMessage({ type: 'event', event }));
port.on('message', ({ data }) => {
  if (data.type === 'invoke') {
    void host.invoke(data.command, data.input).then((result) => port.postMessage({ type: 'result', id: data.id, result }));
  } else if (data.type === 'pdf-result') {
    const job = printing.get(data.id);
    if (!job) return;
    printing.delete(data.id);
    clearTimeout(job.timer);
    if (data.ok) job.resolve(Buffer.from(data.base64, 'base64'));
    else job.reject(new AppError(data.error.code, data.error.message, data.error.details));
  } else if (data.type === 'keys') {
    keys.replace(data.keys);
  } else if (data.type === 'shutdown') {
    void host.close().then(() => process.exit(0));
  }
});
port.postMessage({ type: 'ready' });
