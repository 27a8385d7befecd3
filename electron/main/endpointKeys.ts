/**
 * API keys of inference endpoints in the desktop app: encrypted with Electron's safeStorage (the operating
 * system's keychain: Keychain, DPAPI, libsecret, KWallet) in `endpoint-keys.json` of the user-data folder, never in
 * the SQLite store and never in plain text, nor with Electron's fixed-password `basic_text` fallback on a Linux
 * without a keyring (shared/keyStorage.ts decides; a key is then refused with what to do instead). Main decrypts
 * them for the engine host, which keeps them in memory only.
 *
 * Electron's safeStorage comes in as `cipher` and the keychain's state as `storage`, so this file runs (and is
 * tested) without Electron; electron/main/keyStorage.ts is the Electron side.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError, ErrorCode } from '../../shared/errors';
import type { KeyStorageStatus } from '../../shared/keyStorage';

export interface EndpointKeyFile {
  /** Every key decrypted (those that no longer decrypt, e.g. another user's file, are left out). */
  load(): Record<string, string>;
  /** Stores (or with an empty key removes) one key; returns all keys decrypted. */
  set(keyRef: string, key: string): Record<string, string>;
}

/** What this file needs of Electron's safeStorage. */
export interface KeyCipher {
  encryptString(text: string): Buffer;
  decryptString(data: Buffer): string;
}

export function createEndpointKeyFile(dir: string, cipher: KeyCipher, storage: () => KeyStorageStatus): EndpointKeyFile {
  const file = join(dir, 'endpoint-keys.json');
  const readEncrypted = (): Record<string, string> => {
    if (!existsSync(file)) return {};
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    } catch {
      return {};
    }
  };
  const decryptAll = (encrypted: Record<string, string>): Record<string, string> => {
    const out: Record<string, string> = {};
    if (storage().protection === 'unavailable') return out;
    for (const [ref, value] of Object.entries(encrypted)) {
      try {
        out[ref] = cipher.decryptString(Buffer.from(value, 'base64'));
      } catch {
        // Not decryptable here: the endpoint's check will say its key is missing.
      }
    }
    return out;
  };
  return {
    load: () => decryptAll(readEncrypted()),
    set(keyRef, key) {
      const encrypted = readEncrypted();
      if (key) {
        const status = storage();
        if (!status.canStore) throw new AppError(ErrorCode.KEY_STORAGE_UNSAFE, status.message, { protection: status.protection, backend: status.backend });
        encrypted[keyRef] = cipher.encryptString(key).toString('base64');
      } else delete encrypted[keyRef];
      const temporary = `${file}.tmp`;
      writeFileSync(temporary, JSON.stringify(encrypted), { mode: 0o600 });
      renameSync(temporary, file);
      return decryptAll(encrypted);
    },
  };
}
