/**
 * scripts/nativeAbi.mjs: a better-sqlite3 build is trusted for Electron only when the binary itself registers
 * Electron's ABI. With `nodedir=/usr` in a user's .npmrc the "Electron" build came out for Node and was stamped for
 * Electron; it would have been reused. Real binaries: this Node's own better-sqlite3 build, and copies whose
 * registration symbol names another ABI.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without type declarations
import { abiOfBinary, electronAbi, wrongBuild } from '../../../scripts/nativeAbi.mjs';
import { useTempDir } from '../../helpers/tempDir';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-native-abi-');
const nodeBuild = join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
const ELECTRON = (createRequire(import.meta.url)(join(root, 'package-lock.json')) as { packages: Record<string, { version: string }> }).packages[
  'node_modules/electron'
]!.version;

/** This Node's build with its registration symbol renamed to another ABI (same length, so the file stays a whole module). */
function buildFor(abi: number): string {
  const file = join(tempDir(), `better_sqlite3-${abi}.node`);
  const bytes = readFileSync(nodeBuild).toString('latin1');
  const own = `node_register_module_v${process.versions.modules}`;
  const other = `node_register_module_v${abi}`;
  expect(other.length).toBe(own.length);
  writeFileSync(file, Buffer.from(bytes.replaceAll(own, other), 'latin1'));
  return file;
}

describe('the ABI a native build is for', () => {
  it('reads the ABI a real build registers', () => {
    expect(abiOfBinary(nodeBuild)).toBe(Number(process.versions.modules));
  });

  it("refuses a build for this Node's ABI as the Electron build, whatever its stamp says", () => {
    const copy = join(tempDir(), 'better_sqlite3.node');
    copyFileSync(nodeBuild, copy);
    expect(wrongBuild(copy, ELECTRON)).toMatch(new RegExp(`built for (this Node's )?ABI ${process.versions.modules}`));
  });

  it("accepts a build that registers Electron's ABI, and refuses one for another Electron", () => {
    const wanted = electronAbi(ELECTRON);
    expect(wanted).toBeGreaterThan(Number(process.versions.modules));
    expect(wrongBuild(buildFor(wanted), ELECTRON)).toBeNull();
    expect(wrongBuild(buildFor(wanted - 3), ELECTRON)).toContain(`needs ABI ${wanted}`);
  });

  it('refuses a file that is no module at all', () => {
    const file = join(tempDir(), 'not-a-module.node');
    writeFileSync(file, 'hello');
    expect(wrongBuild(file, ELECTRON)).toContain('registers no ABI');
  });
});
