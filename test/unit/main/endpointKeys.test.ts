/**
 * The app's file of endpoint API keys (electron/main/endpointKeys.ts). No Electron runs here, so the operating
 * system's keychain is stood in for by a reversible cipher in the shape of Electron's safeStorage: what is checked is
 * this module's own behaviour with it (only ciphertext on disk, a file readable by its owner only, removal, and
 * refusing to store a key when no keychain is available rather than writing it in plain text).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../../shared/errors';

const keychain = vi.hoisted(() => ({ available: true }));
vi.mock('electron', () => ({
  safeStorage: {
    isEncryptionAvailable: () => keychain.available,
    encryptString: (text: string) => Buffer.from([...Buffer.from(text, 'utf8')].map((b) => b ^ 0x5a)),
    decryptString: (data: Buffer) => Buffer.from([...data].map((b) => b ^ 0x5a)).toString('utf8'),
  },
}));

const { createEndpointKeyFile } = await import('../../../electron/main/endpointKeys');

const dirs: string[] = [];
afterEach(() => {
  keychain.available = true;
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'endpoint-keys-'));
  dirs.push(dir);
  return dir;
};

describe('endpoint API keys in the app', () => {
  it('keeps only ciphertext on disk, readable by its owner only, and gives the keys back decrypted', () => {
    const dir = tempDir();
    const keys = createEndpointKeyFile(dir);
    expect(keys.set('endpoint-a', 'sk-live-1234567890')).toEqual({ 'endpoint-a': 'sk-live-1234567890' });
    keys.set('endpoint-b', 'sk-other-abcdef');
    const file = join(dir, 'endpoint-keys.json');
    const onDisk = readFileSync(file, 'utf8');
    expect(onDisk).not.toContain('sk-live-1234567890');
    expect(onDisk).not.toContain('sk-other-abcdef');
    expect(Object.keys(JSON.parse(onDisk) as object).sort()).toEqual(['endpoint-a', 'endpoint-b']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A new process (another start of the app) reads them back; an empty key removes one.
    expect(createEndpointKeyFile(dir).load()).toEqual({ 'endpoint-a': 'sk-live-1234567890', 'endpoint-b': 'sk-other-abcdef' });
    expect(keys.set('endpoint-a', '')).toEqual({ 'endpoint-b': 'sk-other-abcdef' });
    expect(readFileSync(file, 'utf8')).not.toContain('endpoint-a');
  });

  it('without a keychain, refuses to store a key (never plain text) and says what to do', () => {
    const dir = tempDir();
    keychain.available = false;
    const keys = createEndpointKeyFile(dir);
    let error: unknown;
    try {
      keys.set('endpoint-a', 'sk-live-1234567890');
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: ErrorCode.ENDPOINT_INVALID });
    expect((error as Error).message).toMatch(/keyring .* or use the command line with key-env/);
    expect(() => readFileSync(join(dir, 'endpoint-keys.json'))).toThrow();
  });
});
