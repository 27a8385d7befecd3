// Which ABI a native module (.node) was built for, read from the module itself, so that a build is stamped with what
// was really built and a wrong build is never reused. A module compiled against V8's C++ API (better-sqlite3 is)
// exports `node_register_module_v<ABI>`: 115 for Node 20, 139 for Electron 38. The ABI a runtime needs is Node's
// `process.versions.modules`, or, for Electron, node-abi's table (getAbi(version, 'electron')).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The ABI number a .node file registers for, or null when it names none (an N-API module, or not a module). */
export function abiOfBinary(file) {
  const found = /node_register_module_v(\d+)/.exec(readFileSync(file).toString('latin1'));
  return found ? Number(found[1]) : null;
}

/** Electron's ABI from node-abi (installed with the build tools), or null when node-abi cannot be found or knows it not. */
export function electronAbi(electronVersion) {
  try {
    const abi = createRequire(import.meta.url)('node-abi').getAbi(electronVersion, 'electron');
    return Number(abi);
  } catch {
    return null;
  }
}

/**
 * Null when `file` is a build of better-sqlite3 for this Electron; otherwise why not, in a sentence. A build for Node's
 * ABI is refused even when Electron's is unknown: that is what a `nodedir` setting in .npmrc silently produces.
 */
export function wrongBuild(file, electronVersion, nodeAbi = Number(process.versions.modules)) {
  const built = abiOfBinary(file);
  const wanted = electronAbi(electronVersion);
  if (built === null) return `${file} registers no ABI: it is not a build of better-sqlite3`;
  if (wanted !== null && built !== wanted)
    return `${file} was built for ABI ${built}, but Electron ${electronVersion} needs ABI ${wanted}${built === nodeAbi ? ` (${built} is this Node's own)` : ''}`;
  if (wanted === null && built === nodeAbi) return `${file} was built for this Node's ABI ${built}, not for Electron ${electronVersion}`;
  return null;
}
