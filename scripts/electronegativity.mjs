#!/usr/bin/env node
/**
 * Electron security scan (npm run security:electron; CI runs it after the build).
 *
 * Runs @doyensec/electronegativity OFFLINE over our Electron code (electron/: main, preload, host, engine) and
 * the renderer (renderer/: index.html with its CSP, React code), scanned together so the global checks
 * (navigation limits, permission handler, CSP) see the main process and the page at once. Writes CSV and
 * SARIF to test-results/electronegativity/, prints every finding, and exits 1 when any has HIGH severity.
 *
 * Excluded, precisely:
 *   - AvailableSecurityFixesGlobalCheck: downloads Electron's release list from GitHub on every run; offline it
 *     fails (and the version is pinned by package-lock anyway). Nothing else is excluded.
 * The Electron version is given (-e) because the binary is not installed on CI machines.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import Papa from 'papaparse';

const root = resolve(import.meta.dirname, '..');
const ELECTRON_VERSION = process.env.ELECTRONEGATIVITY_ELECTRON_VERSION ?? '38.8.6';
const EXCLUDED_CHECKS = ['AvailableSecurityFixesGlobalCheck'];
const SCANNED = ['electron', 'renderer'];
const outDir = join(root, 'test-results/electronegativity');

const require = createRequire(import.meta.url);
const pkgPath = require.resolve('@doyensec/electronegativity/package.json');
const bin = join(dirname(pkgPath), JSON.parse(readFileSync(pkgPath, 'utf8')).bin.electronegativity);

function run(input, output) {
  const args = [bin, '-i', input, '-e', ELECTRON_VERSION, '-x', EXCLUDED_CHECKS.join(','), '-o', output, '-r', '-v', 'false'];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolvePromise(log) : reject(new Error(`electronegativity exited with ${code}:\n${log}`))));
  });
}

// One folder holding both trees (copies: the tool does not follow symlinks reliably), without build output.
const scanDir = mkdtempSync(join(tmpdir(), 'electronegativity-'));
try {
  for (const dir of SCANNED)
    cpSync(join(root, dir), join(scanDir, dir), { recursive: true, filter: (src) => !/[\\/](node_modules|out|dist)([\\/]|$)/.test(src.slice(root.length)) });
  mkdirSync(outDir, { recursive: true });
  const csvPath = join(outDir, 'electronegativity.csv');
  const sarifPath = join(outDir, 'electronegativity.sarif');
  await Promise.all([run(scanDir, csvPath), run(scanDir, sarifPath)]);

  const parsed = Papa.parse(readFileSync(csvPath, 'utf8').trim(), { header: true, skipEmptyLines: true, transformHeader: (h) => h.trim() });
  const findings = parsed.data.map((row) => ({
    id: row.issue?.trim(),
    severity: row.severity?.trim().toUpperCase(),
    confidence: row.confidence?.trim(),
    file: row.filename?.trim(),
    location: row.location?.trim(),
    description: row.description?.trim(),
  }));
  const order = { HIGH: 0, MEDIUM: 1, LOW: 2, INFORMATIONAL: 3 };
  findings.sort((a, b) => (order[a.severity] ?? 9) - (order[b.severity] ?? 9) || a.id.localeCompare(b.id));
  console.log(
    `electronegativity (Electron ${ELECTRON_VERSION}) over ${SCANNED.join(', ')}: ${findings.length} finding(s); excluded: ${EXCLUDED_CHECKS.join(', ')}`,
  );
  for (const f of findings) console.log(`  ${f.severity.padEnd(13)} ${f.id.padEnd(40)} ${f.file}:${f.location}  ${f.description} (${f.confidence})`);
  console.log(`Reports: ${csvPath}, ${sarifPath}`);
  const high = findings.filter((f) => f.severity === 'HIGH');
  if (high.length > 0) {
    console.error(`${high.length} finding(s) of HIGH severity: fix them (or, for a proven false positive, exclude that check here with the reason).`);
    process.exitCode = 1;
  } else console.log('No finding of HIGH severity.');
} finally {
  rmSync(scanDir, { recursive: true, force: true });
}
