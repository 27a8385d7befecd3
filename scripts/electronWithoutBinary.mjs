// Electron's own install script downloads a ~100 MB binary from GitHub. On
// machines without that access (air-gapped audit workstations, our CI) the
// download fails, and because `electron` is an optional dependency npm then
// removes the package altogether, taking its TypeScript definitions with it.
// The engine, the CLI and the tests never need the binary, but the typecheck
// of electron/main and electron/preload needs `electron.d.ts`, and
// electron-vite reads Electron's version. So when the binary could not be
// installed we unpack the npm package itself (registry only, no binary) and
// leave it without `dist/`: `require('electron')` then fails with Electron's
// own "failed to install correctly" message, which is the truth.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const target = join(root, 'node_modules', 'electron');

if (existsSync(join(target, 'package.json'))) process.exit(0);

const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const version = lock.packages?.['node_modules/electron']?.version;
if (!version) {
  console.warn('[electron] not in package-lock.json; skipping type-only install.');
  process.exit(0);
}
const work = mkdtempSync(join(tmpdir(), 'electron-pkg-'));
try {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const tarball = execFileSync(npm, ['pack', `electron@${version}`, '--silent'], { cwd: work, encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop();
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', join(work, tarball), '-C', target, '--strip-components=1']);
  console.warn(
    `[electron] The Electron ${version} binary could not be downloaded here; installed its package without the binary ` +
      '(types and version only). The CLI, the engine and the tests work; `npm start` needs a machine that can install Electron.',
  );
} catch (error) {
  // Never fail `npm ci` for this: only the typecheck of electron/ needs it.
  console.warn(`[electron] Could not unpack the Electron package without its binary: ${error.message}`);
  rmSync(target, { recursive: true, force: true });
} finally {
  rmSync(work, { recursive: true, force: true });
}
