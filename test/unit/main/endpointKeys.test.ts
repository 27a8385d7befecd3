/**
 * The app's file of endpoint API keys (electron/main/endpointKeys.ts) and the decision whether a key may be stored
 * at all (shared/keyStorage.ts). No Electron runs here: safeStorage's cipher is stood in for by a reversible one, and
 * the keychain's state by the facts Electron would report (electron/main/keyStorage.ts reads the real ones). What is
 * checked is this code's own behaviour: only ciphertext on disk, a file readable by its owner only, removal, and
 * refusing to store a key when no keychain protects it (none at all, or Electron's basic_text fallback on Linux).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../shared/errors';
import { envKeyRef, envVariableOf, keyStorageStatus, type KeyStorageFacts } from '../../../shared/keyStorage';
import { createEndpointKeyFile, type KeyCipher } from '../../../electron/main/endpointKeys';

const cipher: KeyCipher = {
  encryptString: (text: string) => Buffer.from([...Buffer.from(text, 'utf8')].map((b) => b ^ 0x5a)),
  decryptString: (data: Buffer) => Buffer.from([...data].map((b) => b ^ 0x5a)).toString('utf8'),
};
const KEYRING: KeyStorageFacts = { platform: 'linux', encryptionAvailable: true, backend: 'gnome_libsecret' };
const storage = (facts: KeyStorageFacts) => () => keyStorageStatus(facts);

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'endpoint-keys-'));
  dirs.push(dir);
  return dir;
};

describe('whether a key typed in Settings may be stored', () => {
  it('stores with a real keychain: a Linux keyring, macOS, Windows', () => {
    for (const backend of ['gnome_libsecret', 'kwallet5', 'kwallet6'])
      expect(keyStorageStatus({ ...KEYRING, backend })).toMatchObject({ protection: 'keychain', canStore: true, backend });
    expect(keyStorageStatus({ platform: 'darwin', encryptionAvailable: true, backend: null })).toMatchObject({ protection: 'keychain', canStore: true });
    expect(keyStorageStatus({ platform: 'win32', encryptionAvailable: true, backend: null })).toMatchObject({ protection: 'keychain', canStore: true });
  });

  it("refuses Electron's basic_text fallback (a built-in password), an undetermined backend, and no encryption at all, saying to use an environment variable", () => {
    const basic = keyStorageStatus({ ...KEYRING, backend: 'basic_text' });
    expect(basic).toMatchObject({ protection: 'basic-text', canStore: false, backend: 'basic_text' });
    expect(basic.message).toMatch(
      /No keyring answers on this computer: Electron would encrypt a key with a password built into it \(its basic_text store\).*environment variable/,
    );
    expect(keyStorageStatus({ ...KEYRING, backend: 'unknown' })).toMatchObject({ protection: 'basic-text', canStore: false });
    const none = keyStorageStatus({ platform: 'darwin', encryptionAvailable: false, backend: null });
    expect(none).toMatchObject({ protection: 'unavailable', canStore: false });
    expect(none.message).toMatch(/never stored in plain text.*environment variable/);
  });

  it('names an environment variable as a key reference, and only a valid variable name', () => {
    expect(envKeyRef('VLLM_KEY')).toBe('env:VLLM_KEY');
    expect(envVariableOf('env:VLLM_KEY')).toBe('VLLM_KEY');
    expect(envKeyRef('1BAD')).toBeNull();
    expect(envKeyRef('A B')).toBeNull();
    expect(envVariableOf('endpoint-abc123')).toBeNull();
    expect(envVariableOf('env:$(rm -rf)')).toBeNull();
  });
});

describe('endpoint API keys in the app', () => {
  it('keeps only ciphertext on disk, readable by its owner only, and gives the keys back decrypted', () => {
    const dir = tempDir();
    const keys = createEndpointKeyFile(dir, cipher, storage(KEYRING));
    expect(keys.set('endpoint-a', 'sk-live-1234567890')).toEqual({ 'endpoint-a': 'sk-live-1234567890' });
    keys.set('endpoint-b', 'sk-other-abcdef');
    const file = join(dir, 'endpoint-keys.json');
    const onDisk = readFileSync(file, 'utf8');
    expect(onDisk).not.toContain('sk-live-1234567890');
    expect(onDisk).not.toContain('sk-other-abcdef');
    expect(Object.keys(JSON.parse(onDisk) as object).sort()).toEqual(['endpoint-a', 'endpoint-b']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A new process (another start of the app) reads them back; an empty key removes one.
    expect(createEndpointKeyFile(dir, cipher, storage(KEYRING)).load()).toEqual({ 'endpoint-a': 'sk-live-1234567890', 'endpoint-b': 'sk-other-abcdef' });
    expect(keys.set('endpoint-a', '')).toEqual({ 'endpoint-b': 'sk-other-abcdef' });
    expect(readFileSync(file, 'utf8')).not.toContain('endpoint-a');
  });

  it.each([
    ['without a keychain', { platform: 'linux', encryptionAvailable: false, backend: 'basic_text' }],
    ["with only Electron's basic_text fallback", { platform: 'linux', encryptionAvailable: true, backend: 'basic_text' }],
  ] as const)('%s, refuses to store a key (no file written) and says what to do', (_label, facts) => {
    const dir = tempDir();
    const keys = createEndpointKeyFile(dir, cipher, storage(facts));
    let error: unknown;
    try {
      keys.set('endpoint-a', 'sk-live-1234567890');
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: ErrorCode.KEY_STORAGE_UNSAFE });
    expect((error as Error).message).toMatch(/environment variable instead/);
    expect(() => readFileSync(join(dir, 'endpoint-keys.json'))).toThrow();
  });
});
