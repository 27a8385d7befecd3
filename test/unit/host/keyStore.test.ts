/** The host's endpoint keys (electron/host/endpointKeys.ts): stored ones by their ref, `env:NAME` from the environment, read when needed. */
import { describe, expect, it } from 'vitest';
import { createMemoryKeyStore } from '../../../electron/host/endpointKeys';

describe('endpoint keys in the engine host', () => {
  it('gives a stored key by its ref, and an env: ref from the environment as it is now, never stored', () => {
    const env: Record<string, string | undefined> = { VLLM_KEY: 'sk-env-1' };
    const keys = createMemoryKeyStore({ 'endpoint-a': 'sk-stored' }, env);
    expect(keys.get('endpoint-a')).toBe('sk-stored');
    expect(keys.get('env:VLLM_KEY')).toBe('sk-env-1');
    env.VLLM_KEY = 'sk-env-2';
    expect(keys.get('env:VLLM_KEY')).toBe('sk-env-2');
    expect(keys.get('env:UNSET_KEY')).toBeUndefined();
    // Replacing the stored keys (main's decrypted set) leaves the environment's alone.
    keys.replace({});
    expect(keys.get('endpoint-a')).toBeUndefined();
    expect(keys.get('env:VLLM_KEY')).toBe('sk-env-2');
  });
});
