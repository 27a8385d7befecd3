/**
 * The Electron side of key storage: the three facts shared/keyStorage.ts decides from. `getSelectedStorageBackend`
 * exists on Linux only, and is the one way to see that safeStorage fell back to `basic_text` (a password built
 * into Electron) because no keyring answers.
 */
import { safeStorage } from 'electron';
import { keyStorageStatus, type KeyStorageStatus } from '../../shared/keyStorage';

export function electronKeyStorage(): KeyStorageStatus {
  const linux = process.platform === 'linux';
  return keyStorageStatus({
    platform: process.platform,
    encryptionAvailable: safeStorage.isEncryptionAvailable(),
    backend: linux ? safeStorage.getSelectedStorageBackend() : null,
  });
}
