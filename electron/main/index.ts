/**
 * Electron main process: one hardened window, the engine in a utility process
 * (off the UI thread), and IPC handlers that check their sender and parse
 * their input against the shared contract before forwarding it to the host.
 * Main only brokers: commands go to the host, host events go to the window.
 */
import { app, BrowserWindow, ipcMain, utilityProcess, type UtilityProcess } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { COMMAND_NAMES, commands, EVENT_CHANNEL, ipcChannel, type HostEvent } from '../../shared/contract';
import { AppError, ErrorCode, fail, type Result } from '../../shared/errors';
import type { HostToMain, MainToHost } from '../host/messages';
import { hardenSession, hardenWebContents, isTrustedSender } from './security';

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

function startHost(): UtilityProcess {
  const child = utilityProcess.fork(join(import.meta.dirname, 'host.js'), [], {
    serviceName: 'Offline Audit engine',
    env: { ...process.env, OFFLINE_AUDIT_HOST_CONFIG: JSON.stringify(hostConfig()) },
  });
  child.on('message', (message: HostToMain) => {
    if (message.type === 'result') {
      pending.get(message.id)?.(message.result);
      pending.delete(message.id);
    } else if (message.type === 'event') {
      broadcast(message.event);
    }
  });
  child.on('exit', (code) => {
    for (const resolve of pending.values()) resolve(fail(new AppError(ErrorCode.INTERNAL, `The engine stopped unexpectedly (exit code ${code}). Restart the app; runs resume where they stopped.`)));
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
      return new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        send({ type: 'invoke', id, command, input: parsed.data });
      });
    });
  }
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
