/**
 * API keys of inference endpoints in the desktop app: encrypted with Electron's safeStorage (the operating
 * system's keychain: Keychain, DPAPI, libsecret) in `endpoint-keys.json` of the user-data folder, never in the
 * SQLite store and never in plain text. Main decrypts them for the engine host, which keeps them in memory only.
 */
import { safeStorage } from 'electron';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError, ErrorCode } from '../../shared/errors';

export interface EndpointKeyFile {
  /** Every key decrypted (those that no longer decrypt, e.g. another user's file, are left out). */
  load(): Record<string, string>;
  /** Stores (or with an empty key removes) one key; returns all keys decrypted. */
  set(keyRef: string, key: string): Record<string, string>;
}

export function createEndpointKeyFile(dir: string): EndpointKeyFile {
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
    if (!safeStorage.isEncryptionAvailable()) return out;
    for (const [ref, value] of Object.entries(encrypted)) {
      try {
        out[ref] = safeStorage.decryptString(Buffer.from(value, 'base64'));
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
        if (!safeStorage.isEncryptionAvailable()) {
          throw new AppError(
            ErrorCode.ENDPOINT_INVALID,
            "This computer's keychain is not available to the app, so the API key cannot be stored safely (it is never stored in plain text). On Linux, install and unlock a keyring (gnome-keyring or KWallet), or use the command line with key-env.",
          );
        }
        encrypted[keyRef] = safeStorage.encryptString(key).toString('base64');
      } else delete encrypted[keyRef];
      const temporary = `${file}.tmp`;
      writeFileSync(temporary, JSON.stringify(encrypted), { mode: 0o600 });
      renameSync(temporary, file);
      return decryptAll(encrypted);
    },
  };
}
