/**
 * The built app (out/, made by `npm run build`, which .ci/run does before the
 * tests) must find every file it loads by URL at run time. The PDF worker is
 * the case that once broke: host.js started `./rawExtractor.mjs`, which the
 * build did not emit, so the packaged app silently fell back to parsing on
 * one thread. The CLI is built the same way (out/cli, vite.cli.config.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { expect, it } from 'vitest';
import { makeTextPdf } from '../../fixtures/pdfFactory';
import { BUILD, describeNeeding } from '../../helpers/requirements';

const outMain = resolve(import.meta.dirname, '../../../out/main');
const outCli = resolve(import.meta.dirname, '../../../out/cli');

/** `new URL("./…", import.meta.url)` references in the bundles of a folder whose file is missing. */
function missingUrlTargets(dir: string): { references: number; missing: string[] } {
  const missing: string[] = [];
  let references = 0;
  for (const name of readdirSync(dir).filter((file) => /\.(m?js)$/.test(file))) {
    const code = readFileSync(join(dir, name), 'utf8');
    for (const match of code.matchAll(/new URL\(\s*["'](\.\/[^"']+)["']\s*,\s*import\.meta\.url\s*\)/g)) {
      references++;
      if (!existsSync(join(dir, match[1]!))) missing.push(`${name} -> ${match[1]}`);
    }
  }
  return { references, missing };
}

describeNeeding([BUILD], 'built main bundle', () => {
  it.each([
    ['out/main', outMain],
    ['out/cli', outCli],
  ])('%s has a file for every `new URL("./…", import.meta.url)` it loads', (_label, dir) => {
    const { references, missing } = missingUrlTargets(dir);
    expect(references).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });

  it('the built CLI ingests a PDF with its own worker', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-cli-build-'));
    try {
      const pdf = join(dir, 'one.pdf');
      writeFileSync(pdf, await makeTextPdf({ pages: [{ blocks: [{ kind: 'body', lines: ['Finding TOB-ACME-7 is on this page.'] }] }] }));
      const result = spawnSync(process.execPath, [join(outCli, 'analyze.mjs'), pdf, '--rules-only', '--db', join(dir, 'a.sqlite'), '--out', join(dir, 'r.md')], { encoding: 'utf8' });
      expect(result.stdout).toContain(`${pdf}: done`);
      expect(result.status).toBe(0);
      expect(readFileSync(join(dir, 'r.md'), 'utf8')).toContain('TOB-ACME-7');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('starts the built PDF worker and reads a page with it', async () => {
    const bytes = await makeTextPdf({ pages: [{ blocks: [{ kind: 'body', lines: ['Finding TOB-ACME-7 is on this page.'] }] }] });
    const worker = new Worker(join(outMain, 'rawExtractor.mjs'), { workerData: { role: 'pdf-raw-extractor' }, execArgv: [] });
    worker.postMessage({ type: 'open', data: bytes, readInfo: true });
    try {
      const messages: { type: string; info?: { pageCount: number }; page?: { items: { str: string }[] } }[] = [];
      await new Promise<void>((done, fail) => {
        worker.on('error', fail);
        worker.on('message', (message: (typeof messages)[number]) => {
          messages.push(message);
          if (message.type === 'ready') worker.postMessage({ pageNumber: 1 });
          else done();
        });
      });
      expect(messages[0]).toMatchObject({ type: 'ready', info: { pageCount: 1 } });
      expect(messages[1]?.type).toBe('page');
      expect(messages[1]?.page?.items.map((item) => item.str).join('')).toContain('TOB-ACME-7');
    } finally {
      await worker.terminate();
    }
  });
});
