/**
 * Compressed page contents. PDF workers inflate Flate streams with zlib's
 * synchronous native inflater (rawExtractor.mjs, SyncDecompressionStream),
 * the in-process path with Node's DecompressionStream: both must read the
 * same text. A page whose compressed content is damaged is left out with a
 * warning naming it, and the rest of the document is read and analysed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv from 'ajv';
import { brotliCompressSync, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../shared/errors';
import { createEngine } from '../../../electron/engine';
import { ingestFile } from '../../../electron/engine/pdf';
import { SyncDecompressionStream } from '../../../electron/engine/pdf/rawExtractor.mjs';
import { openDatabase } from '../../../electron/engine/store';
import { useTempDir } from '../../helpers/tempDir';
import { writeRawPdf, type RawPdfObject } from '../../fixtures/rawPdf';

const linesOf = (page: number) => Array.from({ length: 30 }, (_, i) => `Page ${page} line ${i + 1}: control CR-${page * 100 + i} was not tested.`);

/** A PDF with Flate-compressed page contents; pages listed in `damaged` have their compressed bytes cut at 60%. */
function flatePdf(pageCount: number, damaged: readonly number[] = []): Buffer {
  const fontId = 3 + pageCount * 2;
  const objects: RawPdfObject[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${Array.from({ length: pageCount }, (_, p) => `${3 + p * 2} 0 R`).join(' ')}] /Count ${pageCount} >>`,
  ];
  for (let page = 1; page <= pageCount; page++) {
    const ops = linesOf(page)
      .map((line, i) => `BT /F1 10 Tf 50 ${760 - i * 18} Td (${line}) Tj ET`)
      .join('\n');
    const full = deflateSync(Buffer.from(ops, 'latin1'));
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${fontId} 0 R >> >> /Contents ${4 + (page - 1) * 2} 0 R >>`);
    objects.push({ stream: damaged.includes(page) ? full.subarray(0, Math.floor(full.length * 0.6)) : full, dict: '/Filter /FlateDecode' });
  }
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  return writeRawPdf(objects);
}

/** Drives the stream exactly as pdf.js's asyncGetBytesFromDecompressionStream does. */
async function inflateLikePdfJs(format: string, bytes: Uint8Array): Promise<Buffer> {
  const { readable, writable } = new SyncDecompressionStream(format);
  const writer = writable.getWriter();
  await writer.ready;
  void writer.write(bytes).then(async () => {
    await writer.ready;
    await writer.close();
  });
  const chunks: Uint8Array[] = [];
  for await (const chunk of readable) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('SyncDecompressionStream', () => {
  const text = Buffer.from(linesOf(1).join('\n'));

  it('inflates deflate and brotli data as pdf.js reads it', async () => {
    expect((await inflateLikePdfJs('deflate', deflateSync(text))).equals(text)).toBe(true);
    expect((await inflateLikePdfJs('brotli', brotliCompressSync(text))).equals(text)).toBe(true);
  });

  it('fails where pdf.js must fall back to its own inflater: unknown formats and damaged data', async () => {
    expect(() => new SyncDecompressionStream('lzw')).toThrow(TypeError);
    await expect(inflateLikePdfJs('deflate', deflateSync(text).subarray(0, 40))).rejects.toThrow();
  });
});

describe('compressed page contents', () => {
  const tempDir = useTempDir();

  it('reads compressed pages the same in a worker as in-process', async () => {
    const file = join(tempDir(), 'flate.pdf');
    writeFileSync(file, flatePdf(3));
    const inWorker = await ingestFile(file, { workers: 1 });
    const inProcess = await ingestFile(file, { workers: 0 });
    expect(inWorker.document.text).toContain(linesOf(2).join('\n'));
    expect(inWorker.document.text).toBe(inProcess.document.text);
    expect(inWorker.warnings).toEqual([]);
  });

  it('leaves out a damaged page with a warning naming it, in a worker and in-process alike', async () => {
    const file = join(tempDir(), 'damaged.pdf');
    writeFileSync(file, flatePdf(3, [2]));
    for (const workers of [1, 0]) {
      const { document, warnings } = await ingestFile(file, { workers });
      const [first, second, third] = document.pages;
      expect(document.text.slice(first!.start, first!.end)).toBe(linesOf(1).join('\n'));
      expect(second!.start).toBe(second!.end);
      expect(second!.readError).toMatch(/flate/i);
      expect(document.text.slice(third!.start, third!.end)).toBe(linesOf(3).join('\n'));
      // Unreadable, not "scanned": the page is named once, under its own code.
      expect(warnings).toEqual([
        {
          code: ErrorCode.PDF_PAGE_UNREADABLE,
          message: expect.stringMatching(/^Page 2 of "damaged\.pdf" could not be read \(.+\), so its text is missing/) as string,
          pages: [2],
        },
      ]);
    }
  });

  it('analyses the readable pages of a damaged document, and warns again when the stored document is reused', async () => {
    const dir = tempDir();
    const file = join(dir, 'damaged.pdf');
    writeFileSync(file, flatePdf(3, [2]));
    const db = openDatabase(join(dir, 'store.sqlite'));
    try {
      const engine = createEngine({ db, appVersion: 'test' });
      const first = await engine.analyze([file], { mode: 'rules-only' });
      const again = await engine.analyze([file], { mode: 'rules-only' });
      for (const outcome of [first, again]) {
        expect(outcome.inputs[0]!.status).toBe('done');
        expect(outcome.inputs[0]!.warnings.map((w) => [w.code, w.details?.pages])).toEqual([[ErrorCode.PDF_PAGE_UNREADABLE, [2]]]);
      }
      expect(again.inputs[0]!.warnings[0]!.message).toBe(first.inputs[0]!.warnings[0]!.message);
      // The ID mentions of pages 1 and 3 are all there.
      const pages = (
        db.prepare('SELECT DISTINCT page_number AS page FROM id_mentions WHERE document_id = ? ORDER BY page').all(first.inputs[0]!.documentId) as {
          page: number;
        }[]
      ).map((r) => r.page);
      expect(pages).toEqual([1, 3]);
      // The report lists the page as unreadable, with its reason, and not as a scan.
      const markdown = engine.markdownReport(again.run.id);
      expect(markdown).toMatch(/### Pages without a text layer \(0\)\n\nNone\./);
      expect(markdown).toMatch(/### Unreadable pages \(1\)\n\n.*damaged.*\n\n- Page 2: .*flate/i);
      const html = (await engine.exportReport(again.run.id, 'html')) as string;
      expect(html).toMatch(/<h3>Unreadable pages \(1\)<\/h3>[\s\S]*<li>Page 2: [^<]*flate/i);
      const json = JSON.parse((await engine.exportReport(again.run.id, 'json')) as string) as {
        inputs: { document: { unreadablePages: unknown; pagesWithoutText: unknown } }[];
      };
      const ajv = new Ajv({ allErrors: true, strict: true });
      const validate = ajv.compile(JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../docs/report.schema.json'), 'utf8')) as object);
      expect(validate(json), ajv.errorsText(validate.errors)).toBe(true);
      expect(json.inputs[0]!.document.pagesWithoutText).toEqual([]);
      expect(json.inputs[0]!.document.unreadablePages).toEqual([{ page: 2, reason: expect.stringMatching(/flate/i) as string }]);
    } finally {
      db.close();
    }
  });

  it('fails a document none of whose pages can be read, with PDF_CORRUPT and what to do', async () => {
    const dir = tempDir();
    const file = join(dir, 'ruined.pdf');
    writeFileSync(file, flatePdf(2, [1, 2]));
    const db = openDatabase(join(dir, 'store.sqlite'));
    try {
      const outcome = await createEngine({ db, appVersion: 'test' }).analyze([file], { mode: 'rules-only' });
      expect(outcome.inputs[0]!.status).toBe('failed');
      expect(outcome.inputs[0]!.error).toMatchObject({
        code: ErrorCode.PDF_CORRUPT,
        message: expect.stringContaining('No page of this PDF could be read') as string,
      });
    } finally {
      db.close();
    }
  });
});
