import type { HostEvent } from '../../shared/contract';
import type { KeyStorageStatus } from '../../shared/keyStorage';
import type { HostKeyStore } from './endpointKeys';
import type { Engine, EngineDeps, Logger } from '../engine';
import type { Database } from '../engine/store';
import type { HostProviders, ReadModels } from './readModels';
import type { RunControl } from './runControl';

/** What every domain's handler module is given: build a module as `(ctx: HostContext) => HandlerModule`. */
export interface HostContext {
  db: Database;
  engine: Engine;
  now: () => Date;
  appVersion: string;
  /** App data folder (the user-data folder in the desktop app): the database, imports, exports and the log. */
  dataDir: string;
  dbPath: string;
  /** The log file every error with a stack goes to; null when logging is off. */
  logPath: string | null;
  log: Logger;
  env: Record<string, string | undefined>;
  /** API keys of inference endpoints, by keyRef (memory only; see endpointKeys.ts). */
  keys: HostKeyStore;
  /** Whether a key typed in Settings may be stored here (the desktop app's main answers for itself). */
  keyStorage: KeyStorageStatus;
  runs: RunControl;
  views: ReadModels;
  providers: HostProviders;
  emit(event: HostEvent): void;
  renderPdf?: EngineDeps['renderPdf'];
}
