/**
 * `npm start` where Electron's binary is missing (it is downloaded from GitHub at install time, which air-gapped
 * workstations and CI cannot do) says so in one sentence, with what works here instead, before anything is built:
 * not a minute of compiling ending in "electron: not found". ELECTRON_OVERRIDE_DIST_PATH (read by the electron
 * package itself) points at an empty folder, so this runs the same on a machine where Electron is installed.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { npmRunArgs, packageScripts } from '../../helpers/npmRun';
import { useTempDir } from '../../helpers/tempDir';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-npm-start-');

for (const script of ['start', 'dev']) {
  it(`npm run ${script} without an Electron binary: one sentence saying what to do, nothing built, exit 1`, () => {
    const [command, args] = npmRunArgs(script);
    const result = spawnSync(command, args, { cwd: root, env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: tempDir() }, encoding: 'utf8', timeout: 120_000 });
    expect(result.status, result.stderr).toBe(1);
    const said = `${result.stdout}${result.stderr}`;
    expect(said).toContain("Electron's binary is not installed on this machine");
    // What to do: where Electron installs, and here (the browser bridge and the CLI, both real scripts).
    expect(said).toContain('run `npm ci` then `npm start`');
    expect(said).toContain('`npm run app:browser`');
    expect(packageScripts['app:browser']).toContain('bridgeServer.ts');
    expect(said).toContain('`npm run analyze -- report.pdf`');
    // Electron's own advice cannot help where the download is what fails.
    expect(said).not.toContain('try installing again');
    // Stopped before the native build and the compile.
    expect(said).not.toMatch(/Building better-sqlite3|vite v\d|electron: not found/);
  });
}
