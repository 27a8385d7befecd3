import { createRequire } from 'node:module';

/**
 * Electron's binary cannot be downloaded on every machine (air-gapped
 * workstations, our CI). `require('electron')` returns the binary's path when
 * it is installed and throws "Electron failed to install correctly" when only
 * the npm package is there. Specs that need a real Electron skip with this reason.
 */
export function electronBinary(): { path: string } | { missing: string } {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    if (typeof path === 'string') return { path };
    return { missing: 'the electron package did not return a binary path' };
  } catch (error) {
    return {
      missing: `no Electron binary on this machine (${(error as Error).message.split('\n')[0]}); the engine, CLI and UI are tested without it, these specs run where Electron is installed`,
    };
  }
}
