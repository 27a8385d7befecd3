/**
 * Where the desktop app keeps the API keys of inference endpoints, and whether that is safe. Electron's safeStorage
 * encrypts with the operating system's keychain (Keychain, DPAPI, libsecret, KWallet); on Linux without a keyring it
 * still "encrypts", with a password built into Electron (its `basic_text` backend, seen only through
 * `safeStorage.getSelectedStorageBackend()`), which anyone who can read the user's files can undo. Keys are never
 * stored that way: the app says so in Settings and takes the key from an environment variable instead.
 *
 * The decision is here, in plain code the tests call; electron/main/keyStorage.ts only asks Electron its three facts.
 */

/** keychain: stored encrypted by the OS; basic-text: only Electron's fixed password would protect it (refused);
 * unavailable: no encryption at all (refused); session: kept in memory for this session (the browser bridge, tests). */
export type KeyProtection = 'keychain' | 'basic-text' | 'unavailable' | 'session';

export interface KeyStorageStatus {
  protection: KeyProtection;
  /** Whether a key typed in Settings may be stored. */
  canStore: boolean;
  /** Electron's name for the Linux backend (basic_text, gnome_libsecret, kwallet5...), null elsewhere. */
  backend: string | null;
  /** What Settings says about it, and what to do when a key cannot be stored. */
  message: string;
}

/** What Electron reports: `process.platform`, `safeStorage.isEncryptionAvailable()`, and on Linux `getSelectedStorageBackend()`. */
export interface KeyStorageFacts {
  platform: string;
  encryptionAvailable: boolean;
  backend: string | null;
}

const USE_ENVIRONMENT =
  'Give the key in an environment variable instead (below: the app reads it when it needs it and never stores it), or install and unlock a keyring (gnome-keyring, KWallet) and restart the app.';

export function keyStorageStatus(facts: KeyStorageFacts): KeyStorageStatus {
  const backend = facts.platform === 'linux' ? facts.backend : null;
  if (!facts.encryptionAvailable) {
    return {
      protection: 'unavailable',
      canStore: false,
      backend,
      message: `This computer's keychain is not available to the app, so a key typed here cannot be stored safely (it is never stored in plain text). ${USE_ENVIRONMENT}`,
    };
  }
  // "unknown" is what Electron says before it has chosen a backend: not known to be safe, so treated as unsafe.
  if (facts.platform === 'linux' && (backend === null || backend === 'basic_text' || backend === 'unknown')) {
    return {
      protection: 'basic-text',
      canStore: false,
      backend,
      message: `No keyring answers on this computer: Electron would encrypt a key with a password built into it (its basic_text store), which anyone who can read your files can undo, so keys typed here are not stored. ${USE_ENVIRONMENT}`,
    };
  }
  return { protection: 'keychain', canStore: true, backend, message: "A key typed here is encrypted by this computer's keychain and never shown again." };
}

/** The engine host outside Electron (the browser bridge, tests): keys typed in live in its memory until it stops. */
export const SESSION_KEY_STORAGE: KeyStorageStatus = {
  protection: 'session',
  canStore: true,
  backend: null,
  message: 'A key typed here is kept in memory for this session only (no keychain outside the desktop app).',
};

/** An endpoint's `keyRef` naming an environment variable of the app, `env:VLLM_KEY`, instead of a stored key. */
const ENV_PREFIX = 'env:';
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,95}$/;

export function envKeyRef(variable: string): string | null {
  return VARIABLE.test(variable) ? `${ENV_PREFIX}${variable}` : null;
}

/** The variable an `env:` keyRef names; null for a stored key's ref. */
export function envVariableOf(keyRef: string): string | null {
  if (!keyRef.startsWith(ENV_PREFIX)) return null;
  const variable = keyRef.slice(ENV_PREFIX.length);
  return VARIABLE.test(variable) ? variable : null;
}
