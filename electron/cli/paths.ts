import { homedir } from 'node:os';
import { join } from 'node:path';
import { LOG_FILE } from '../engine';

export const PRODUCT_NAME = 'Offline Audit';
export const DATABASE_FILE = 'audit.sqlite';
export const LOG_FOLDER = 'logs';

/**
 * The same folder Electron's `app.getPath('userData')` gives the desktop app,
 * so the CLI and the app share one store by default.
 */
export function userDataDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), PRODUCT_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', PRODUCT_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), PRODUCT_NAME);
}

export function defaultDatabasePath(): string {
  return join(userDataDir(), DATABASE_FILE);
}

/** The log the CLI writes (the desktop app writes the same file name under the same folder). */
export function defaultLogPath(): string {
  return join(userDataDir(), LOG_FOLDER, LOG_FILE);
}
