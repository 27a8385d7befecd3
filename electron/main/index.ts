/**
 * Electron main process: one hardened window, the engine in a utility process
 * (off the UI thread), and IPC handlers that check their sender and parse
 * their input against the shared contract before forwarding it to the host.
 * Main only brokers: commands go to the host, host events go to the window.
 */
import { app, BrowserWindow, dialog, ipcMain, safeStorage, shell, utilityProcess, type UtilityProcess } from 'electron';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { COMMAND_NAMES, commands, EVENT_CHANNEL, ipcChannel, type ExportResult, type HostEvent } from '../../shared/contract';
import { AppError, ErrorCode, fail, ok, toErrorInfo, type Result } from '../../shared/errors';
import type { HostToMain, MainToHost } from '../host/messages';
import { printReportPdf } from './printPdf';
import { hardenSession, hardenWebContents, isTrustedSender } from './security';
import { createRevealer } from './revealReports';
import { createEndpointKeyFile, type EndpointKeyFile } from './endpointKeys';
import { electronKeyStorage } from './keyStorage';
import { writeOutputFile } from '../engine/util';

const revealer = createRevealer();

/** `reports.reveal`: opens or shows a file an export produced in this session; anything else is refused. */
async function reveal(input: { path: string; action: 'open' | 'show' }): Promise<Result<unknown>> {
  const path = revealer.allowed(input.path);
  if (!path || !existsSync(path))
    return fail(new AppError(ErrorCode.INVALID_INPUT, 'Only a report exported in this session can be opened from here. Export it again.'));
  if (input.action === 'show') {
    shell.showItemInFolder(path);
    return { ok: true, data: { done: true, message: `Shown in its folder: ${path}` } };
  }
  const problem = await shell.openPath(path);
  return problem
    ? fail(new AppError(ErrorCode.INTERNAL, `The report is at ${path} but could not be opened: ${problem}`))
    : { ok: true, data: { done: true, message: `Opened ${path}` } };
}

const rendererUrl = process.env.ELECTRON_RENDERER_URL ?? pathToFileURL(join(import.meta.dirname, '../renderer/index.html')).toString();

let host: UtilityProcess | undefined;
let nextId = 1;
const pending = new Map<number, (result: Result<unknown>) => void>();

function hostConfig() {
  // The native module rebuilt for Electron's ABI lives apart from the Node build, so `npm test` still works after `npm start`.
  // Packaged apps get an Electron build from electron-builder's npmRebuild instead, so the option is only set when the file exists.
  const nativeBinding = process.env.OFFLINE_AUDIT_SQLITE_BINDING ?? join(app.getAppPath(), 'build/native/electron/better_sqlite3.node');
  return { dataDir: app.getPath('userData'), appVersion: app.getVersion(), ...(existsSync(nativeBinding) ? { nativeBinding } : {}) };
}

let keyFile: EndpointKeyFile | undefined;
/** Endpoint keys live with main (safeStorage); the engine host gets them decrypted over its private port, never on disk. */
function endpointKeys(): EndpointKeyFile {
  keyFile ??= createEndpointKeyFile(app.getPath('userData'), safeStorage, electronKeyStorage);
  return keyFile;
}

/** `endpoints.setKey`: encrypted and stored here, then the host's in-memory copy replaced. */
function setEndpointKey(input: { keyRef: string; key: string }): Result<unknown> {
  try {
    const keys = endpointKeys().set(input.keyRef, input.key);
    send({ type: 'keys', keys });
    return ok({ keyRef: input.keyRef, stored: input.key !== '' });
  } catch (error) {
    return fail(error);
  }
}

function startHost(): UtilityProcess {
  const child = utilityProcess.fork(join(import.meta.dirname, 'host.js'), [], {
    serviceName: 'Offline Audit engine',
    env: { ...process.env, OFFLINE_AUDIT_HOST_CONFIG: JSON.stringify(hostConfig()) },
  });
  child.postMessage({ type: 'keys', keys: endpointKeys().load() } satisfies MainToHost);
  child.on('message', (message: HostToMain) => {
    if (message.type === 'result') {
      pending.get(message.id)?.(message.result);
      pending.delete(message.id);
    } else if (message.type === 'event') {
      broadcast(message.event);
    } else if (message.type === 'print-pdf') {
      void printReportPdf(message.html, message.footerLabel).then(
        (pdf) => child.postMessage({ type: 'pdf-result', id: message.id, ok: true, base64: pdf.toString('base64') } satisfies MainToHost),
        (error: unknown) =>
          child.postMessage({
            type: 'pdf-result',
            id: message.id,
            ok: false,
            error: {
              ...toErrorInfo(error),
              code: ErrorCode.PDF_RENDERER_MISSING,
              message: `Electron could not print the PDF report (${(error as Error).message}). Export the HTML report and print it instead.`,
            },
          } satisfies MainToHost),
      );
    }
  });
  child.on('exit', (code) => {
    for (const resolve of pending.values())
      resolve(fail(new AppError(ErrorCode.INTERNAL, `The engine stopped unexpectedly (exit code ${code}). Restart the app; runs resume where they stopped.`)));
    pending.clear();
    if (host === child) host = undefined;
  });
  return child;
}

function broadcast(event: HostEvent): void {
  for (const window of BrowserWindow.getAllWindows()) {
    if (!window.isDestroyed()) window.webContents.send(EVENT_CHANNEL, event);
  }
}

function send(message: MainToHost): void {
  host ??= startHost();
  host.postMessage(message);
}

function registerHandlers(): void {
  for (const command of COMMAND_NAMES) {
    ipcMain.handle(ipcChannel(command), (event, input: unknown): Promise<Result<unknown>> | Result<unknown> => {
      if (!isTrustedSender(event, rendererUrl)) return fail(new AppError(ErrorCode.INVALID_INPUT, 'Request from an unknown frame was refused.'));
      const parsed = commands[command].input.safeParse(input ?? {});
      if (!parsed.success) return fail(new AppError(ErrorCode.INVALID_INPUT, `Invalid input for ${command}: ${parsed.error.message}`));
      if (command === 'reports.reveal') return reveal(parsed.data as { path: string; action: 'open' | 'show' });
      if (command === 'endpoints.setKey') return setEndpointKey(parsed.data as { keyRef: string; key: string });
      // Only main can ask Electron whether the keychain is real (not basic_text on a Linux without a keyring).
      if (command === 'endpoints.keyStorage') return ok(electronKeyStorage());
      const forwarded = new Promise<Result<unknown>>((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        send({ type: 'invoke', id, command, input: parsed.data });
      });
      const exported =
        command === 'reports.export' && (parsed.data as { saveAs?: boolean }).saveAs ? forwarded.then((result) => saveCopy(event.sender, result)) : forwarded;
      if (command !== 'reports.export') return exported;
      return exported.then((result) => {
        if (result.ok) revealer.remember(result.data as ExportResult);
        return result;
      });
    });
  }
}

/** `reports.export` with `saveAs`: the host wrote the report to its exports folder; main asks where to save a copy. */
async function saveCopy(sender: Electron.WebContents, result: Result<unknown>): Promise<Result<unknown>> {
  if (!result.ok) return result;
  const exported = result.data as ExportResult;
  const window = BrowserWindow.fromWebContents(sender);
  const options = {
    title: 'Save the audit report',
    defaultPath: join(app.getPath('documents'), exported.fileName),
    filters: [{ name: exported.format.toUpperCase(), extensions: [exported.format] }],
  };
  const choice = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
  if (choice.canceled || !choice.filePath) return { ok: true, data: { ...exported, savedTo: null } };
  try {
    // Never through a link planted at the chosen name, never half-written (writeOutputFile).
    writeOutputFile(choice.filePath, readFileSync(exported.path));
  } catch (error) {
    const info = toErrorInfo(error);
    return fail(new AppError(info.code, `The report is in ${exported.path}, but it could not be copied to ${choice.filePath}: ${info.message}`));
  }
  return { ok: true, data: { ...exported, savedTo: choice.filePath } };
}

async function createWindow(): Promise<void> {
  const window = new BrowserWindow({
    width: 1280,
    height: 840,
    show: false,
    // Written out here, not built by a helper: electronegativity (npm run security:electron) checks this literal.
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      // Middle-click would open links in new windows (denied anyway by the window-open handler).
      disableBlinkFeatures: 'Auxclick',
      spellcheck: false,
    },
  });
  hardenWebContents(window.webContents, rendererUrl);
  window.once('ready-to-show', () => window.show());
  await window.loadURL(rendererUrl);
}

app.enableSandbox();
app.whenReady().then(async () => {
  hardenSession();
  host = startHost();
  registerHandlers();
  await createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void createWindow();
  });
});
app.on('window-all-closed', () => {
  // The host pauses running runs (resumable) and closes the database before it exits.
  host?.postMessage({ type: 'shutdown' } satisfies MainToHost);
  if (process.platform !== 'darwin') app.quit();
});
