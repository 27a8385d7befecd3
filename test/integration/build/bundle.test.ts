/**
 * The built app (out/, made by `npm run build`, which .ci/run does before the
 * tests) must find every file it loads by URL at run time. The PDF worker is
 * the case that once broke: host.js started `./rawExtractor.mjs`, which the
 * build did not emit, so the packaged app silently fell back to parsing on
 * one thread.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { expect, it } from 'vitest';
import { makeTextPdf } from '../../fixtures/pdfFactory';
import { BUILD, describeNeeding } from '../../helpers/requirements';

const outMain = resolve(import.meta.dirname, '../../../out/main');

describeNeeding([BUILD], 'built main bundle', () => {
  it('has a file for every `new URL("./…", import.meta.url)` the bundle loads', () => {
    const missing: string[] = [];
    let references = 0;
    for (const name of readdirSync(outMain).filter((file) => /\.(m?js)$/.test(file))) {
      const code = readFileSync(join(outMain, name), 'utf8');
      for (const match of code.matchAll(/new URL\(\s*["'](\.\/[^"']+)["']\s*,\s*import\.meta\.url\s*\)/g)) {
        references++;
        if (!existsSync(join(outMain, match[1]!))) missing.push(`${name} -> ${match[1]}`);
      }
    }
    expect(references).toBeGreaterThan(0);
    expect(missing).toEqual([]);
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
