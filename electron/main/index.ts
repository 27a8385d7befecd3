/**
 * Electron main process: one hardened window, IPC handlers that check their
 * sender and parse their input against the shared contract. The full desktop
 * app (engine in a utility process, progress, views) is built on this.
 */
import { app, BrowserWindow, ipcMain } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { commands, ipcChannel, type CommandName, type CommandOutputs } from '../../shared/contract';
import { AppError, ErrorCode, fail, ok, type Result } from '../../shared/errors';
import { listDocuments, openDatabase, type Database } from '../engine/store';
import { hardenSession, hardenWebContents, isTrustedSender, secureWebPreferences } from './security';

const rendererUrl = process.env.ELECTRON_RENDERER_URL ?? pathToFileURL(join(import.meta.dirname, '../renderer/index.html')).toString();

let db: Database | undefined;

function database(): Database {
  // The native module rebuilt for Electron's ABI lives apart from the Node build, so `npm test` still works after `npm start`.
  // Packaged apps get an Electron build from electron-builder's npmRebuild instead, so the option is only set when the file exists.
  const nativeBinding = process.env.OFFLINE_AUDIT_SQLITE_BINDING ?? join(app.getAppPath(), 'build/native/electron/better_sqlite3.node');
  db ??= openDatabase(join(app.getPath('userData'), 'audit.sqlite'), existsSync(nativeBinding) ? { nativeBinding } : {});
  return db;
}

const handlers: { [C in CommandName]: () => CommandOutputs[C] } = {
  'app.info': () => ({ version: app.getVersion(), dataDir: app.getPath('userData') }),
  'documents.list': () => listDocuments(database()).map((d) => ({ id: d.id, fileName: d.fileName, pageCount: d.pageCount, sha256: d.sha256 })),
};

function registerHandlers(): void {
  for (const command of Object.keys(commands) as CommandName[]) {
    ipcMain.handle(ipcChannel(command), (event, input: unknown): Result<unknown> => {
      if (!isTrustedSender(event, rendererUrl)) return fail(new AppError(ErrorCode.INVALID_INPUT, 'Request from an unknown frame was refused.'));
      const parsed = commands[command].input.safeParse(input ?? {});
      if (!parsed.success) return fail(new AppError(ErrorCode.INVALID_INPUT, `Invalid input for ${command}: ${parsed.error.message}`));
      try {
        return ok(handlers[command]());
      } catch (error) {
        return fail(error);
      }
    });
  }
}

async function createWindow(): Promise<void> {
  const window = new BrowserWindow({
    width: 1280,
    height: 840,
    show: false,
    webPreferences: secureWebPreferences(join(import.meta.dirname, '../preload/index.cjs')),
  });
  hardenWebContents(window.webContents, rendererUrl);
  window.once('ready-to-show', () => window.show());
  await window.loadURL(rendererUrl);
}

app.enableSandbox();
app.whenReady().then(async () => {
  hardenSession();
  registerHandlers();
  await createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void createWindow();
  });
});
app.on('window-all-closed', () => {
  db?.close();
  if (process.platform !== 'darwin') app.quit();
});
