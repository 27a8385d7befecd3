/**
 * API keys of inference endpoints, by reference (`keyRef`), for the engine's KeySource. The host holds them in
 * memory only. In the desktop app main keeps them encrypted with Electron's safeStorage in a file of their own
 * (never in the SQLite store) and hands the decrypted ones to this process over its private port; in the browser
 * bridge and the tests they live for the session only. A keyRef `env:NAME` is the environment variable NAME of this
 * process, read when the key is needed and never stored: the way to give a key where no keyring keeps it safely
 * (shared/keyStorage.ts).
 */
import { envVariableOf } from '../../shared/keyStorage';

export interface HostKeyStore {
  get(keyRef: string): string | undefined;
  /** An empty key removes it. */
  set(keyRef: string, key: string): void;
  /** Everything main decrypted at start or after a change. */
  replace(keys: Record<string, string>): void;
}

export function createMemoryKeyStore(initial: Record<string, string> = {}, env: Record<string, string | undefined> = process.env): HostKeyStore {
  const keys = new Map(Object.entries(initial));
  return {
    get(keyRef) {
      const variable = envVariableOf(keyRef);
      return variable === null ? keys.get(keyRef) : env[variable] || undefined;
    },
    set(keyRef, key) {
      if (key) keys.set(keyRef, key);
      else keys.delete(keyRef);
    },
    replace(next) {
      keys.clear();
      for (const [ref, key] of Object.entries(next)) keys.set(ref, key);
    },
  };
}
