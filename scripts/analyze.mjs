/**
 * `npm run analyze`: runs the CLI built ahead of time (out/cli/analyze.mjs,
 * see vite.cli.config.ts), so a run starts in plain JavaScript instead of
 * transpiling TypeScript first. The build is made here, once, when it is
 * missing or older than any source it comes from (a fresh checkout, or
 * after an edit): the README's one command keeps working without a separate
 * build step. Checking costs a few milliseconds of file dates.
 *
 * package.json starts it with `--max-semi-space-size=2`: V8's default young
 * generation (up to 3 x 16 MB) is sized for allocation-heavy servers; this
 * process mostly waits for its PDF worker threads and the model, and with 2 MB
 * semi-spaces a 1000-page ingest peaks about 40 MB lower (measured 292 -> 254
 * MB) in the same time. The workers cap their own (extractorPool.ts).
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const outDir = join(root, 'out/cli');
const entry = join(outDir, 'analyze.mjs');
/** Everything the bundle is built from. */
const SOURCES = ['electron', 'shared', 'package.json', 'vite.cli.config.ts'];

/** Newest modification time (ms) under these paths. */
function newestSource(paths) {
  let newest = 0;
  for (const path of paths) {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) continue;
    if (stat.isDirectory()) newest = Math.max(newest, newestSource(readdirSync(path).map((name) => join(path, name))));
    else newest = Math.max(newest, stat.mtimeMs);
  }
  return newest;
}

function buildIsCurrent() {
  const built = statSync(entry, { throwIfNoEntry: false });
  return built !== undefined && built.mtimeMs >= newestSource(SOURCES.map((path) => join(root, path)));
}

/**
 * Builds into a folder of its own, then moves it in place: two runs started at once (or a test run next to a
 * terminal) never see a half-written build, and the last one to finish wins with an equally fresh build.
 */
async function build() {
  process.stderr.write('Building the CLI (once after each change of the sources)...\n');
  const staging = `${outDir}-${process.pid}`;
  try {
    const vite = await import('vite');
    await vite.build({ root, configFile: join(root, 'vite.cli.config.ts'), build: { outDir: staging } });
    rmSync(outDir, { recursive: true, force: true });
    renameSync(staging, outDir);
  } catch (error) {
    // Another run moved its build in between: use that one.
    if (!existsSync(entry)) throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (!buildIsCurrent()) await build();
const { runCli } = await import(pathToFileURL(entry).href);
runCli(process.argv.slice(2));
