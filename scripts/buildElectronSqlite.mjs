// better-sqlite3 is a native module: the build in node_modules targets Node's
// ABI (CLI, tests). Electron needs its own build. We compile a second copy for
// Electron into build/native/electron/ and the app loads it through
// better-sqlite3's `nativeBinding` option, so `npm test` keeps working after
// `npm start` (no in-place electron-rebuild that would break Node).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { wrongBuild } from './nativeAbi.mjs';

const root = resolve(import.meta.dirname, '..');
const target = join(root, 'build/native/electron/better_sqlite3.node');
const electronPkg = join(root, 'node_modules/electron/package.json');
if (!existsSync(electronPkg)) {
  console.error('Electron is not installed; nothing to build.');
  process.exit(1);
}
const electronVersion = JSON.parse(readFileSync(electronPkg, 'utf8')).version;
// The stamp says which Electron the build in build/native/electron is for; it is trusted only when the binary itself
// registers the ABI that Electron needs (scripts/nativeAbi.mjs): a build stamped for Electron but compiled against
// Node's headers would otherwise be reused and crash the app at its first query.
const stamp = join(root, 'build/native/electron/version');
if (existsSync(target) && existsSync(stamp) && readFileSync(stamp, 'utf8') === electronVersion) {
  const wrong = wrongBuild(target, electronVersion);
  if (wrong === null) process.exit(0);
  console.log(`Rebuilding: ${wrong}.`);
}

const work = join(root, 'build/native/electron-src');
rmSync(work, { recursive: true, force: true });
cpSync(join(root, 'node_modules/better-sqlite3'), work, { recursive: true, filter: (src) => !src.includes(`${join('better-sqlite3', 'build')}`) });
console.log(`Building better-sqlite3 for Electron ${electronVersion} (needs Electron's headers from electronjs.org)...`);
// A `nodedir` in the user's .npmrc (npm passes it on as npm_config_nodedir) makes node-gyp compile against those
// headers, Node's, whatever --target says: leave it out, so the headers are Electron's.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.toLowerCase() !== 'npm_config_nodedir'));
execFileSync(
  process.platform === 'win32' ? 'npx.cmd' : 'npx',
  ['node-gyp', 'rebuild', '--release', `--target=${electronVersion}`, `--arch=${process.arch}`, '--dist-url=https://electronjs.org/headers'],
  { cwd: work, stdio: 'inherit', env },
);
const built = join(work, 'build/Release/better_sqlite3.node');
const wrong = wrongBuild(built, electronVersion);
if (wrong !== null) {
  rmSync(work, { recursive: true, force: true });
  console.error(
    `The build of better-sqlite3 for Electron came out wrong: ${wrong}. Check npm's nodedir and target settings (npm config get nodedir), then run npm run native:electron again.`,
  );
  process.exit(1);
}
mkdirSync(join(root, 'build/native/electron'), { recursive: true });
cpSync(built, target);
writeFileSync(stamp, electronVersion);
rmSync(work, { recursive: true, force: true });
console.log(`Wrote ${target}`);
