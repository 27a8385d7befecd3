// `npm start` and `npm run dev` need Electron's binary, which its installer downloads from GitHub. Where that download
// could not happen (air-gapped workstations, CI: scripts/electronWithoutBinary.mjs keeps `npm ci` green without it),
// say so in one sentence before anything is built, and say what works here instead, rather than compiling for a
// minute and ending with "electron: not found".
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The binary's path, or null with the reason it is missing. */
export function electronBinary() {
  try {
    const path = createRequire(import.meta.url)('electron');
    if (typeof path === 'string' && existsSync(path)) return { path };
    return { missing: `the electron package names a binary that is not there (${path})` };
  } catch (error) {
    return { missing: String(error?.message ?? error).split('\n')[0] };
  }
}

export const NO_ELECTRON_ADVICE =
  "Electron's binary is not installed on this machine (Electron's installer downloads it from GitHub during `npm ci`, and that download did not happen here), so the desktop window cannot open. " +
  'Where Electron installs, run `npm ci` then `npm start`; here, run the same app in a browser: `npm run app:browser` (add `-- --sim` for the demo model), or use the CLI: `npm run analyze -- report.pdf`.';

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const found = electronBinary();
  if ('missing' in found) {
    // Electron's own message ("delete node_modules/electron and try installing again") is left out: reinstalling
    // cannot help where the download is what fails.
    console.error(NO_ELECTRON_ADVICE);
    process.exit(1);
  }
}
