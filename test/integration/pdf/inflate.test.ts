/**
 * PDF workers inflate Flate streams with zlib's synchronous native inflater
 * (rawExtractor.mjs, SyncDecompressionStream) instead of Node's thread-pool
 * DecompressionStream, which the in-process path still uses. Both must read
 * the same text, and a damaged stream must end the same way on both paths
 * (pdf.js's own inflater decides).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors';
import { ingestFile } from '../../../electron/engine/pdf';
import { SyncDecompressionStream } from '../../../electron/engine/pdf/rawExtractor.mjs';
import { useTempDir } from '../../helpers/tempDir';

const LINES = Array.from({ length: 40 }, (_, i) => `Line ${i + 1}: the control CR-${100 + i} was not tested in period ${i + 1}.`);

/** A one-page PDF whose content stream is Flate-compressed; `damage` cuts the compressed bytes to that share. */
function flatePdf(damage = 1): Buffer {
  const ops = LINES.map((line, i) => `BT /F1 10 Tf 50 ${760 - i * 18} Td (${line}) Tj ET`).join('\n');
  const full = deflateSync(Buffer.from(ops, 'latin1'));
  const stream = full.subarray(0, Math.floor(full.length * damage));
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    null, // the content stream, written as bytes below
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  const push = (buffer: Buffer) => {
    parts.push(buffer);
    length += buffer.length;
  };
  objects.forEach((body, index) => {
    offsets.push(length);
    if (body === null) {
      push(Buffer.from(`${index + 1} 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`));
      push(stream);
      push(Buffer.from('\nendstream\nendobj\n'));
    } else {
      push(Buffer.from(`${index + 1} 0 obj\n${body}\nendobj\n`));
    }
  });
  const xref = length;
  push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`));
  push(Buffer.from(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`));
  return Buffer.concat(parts);
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
  const text = Buffer.from(LINES.join('\n'));

  it('inflates deflate and brotli data as pdf.js reads it', async () => {
    expect((await inflateLikePdfJs('deflate', deflateSync(text))).equals(text)).toBe(true);
    expect((await inflateLikePdfJs('brotli', brotliCompressSync(text))).equals(text)).toBe(true);
  });

  it('fails where pdf.js must fall back to its own inflater: unknown formats and damaged data', async () => {
    expect(() => new SyncDecompressionStream('lzw')).toThrow(TypeError);
    const damaged = deflateSync(text).subarray(0, 40);
    await expect(inflateLikePdfJs('deflate', damaged)).rejects.toThrow();
  });
});

describe('Flate streams in PDF workers', () => {
  const tempDir = useTempDir();

  it('reads a compressed page the same in a worker as in-process', async () => {
    const file = join(tempDir(), 'flate.pdf');
    writeFileSync(file, flatePdf());
    const inWorker = await ingestFile(file, { workers: 1 });
    const inProcess = await ingestFile(file, { workers: 0 });
    expect(inWorker.document.text.split('\n')).toEqual(LINES);
    expect(inWorker.document.text).toBe(inProcess.document.text);
  });

  it('reports a damaged compressed stream the same way in a worker as in-process', async () => {
    const file = join(tempDir(), 'damaged.pdf');
    writeFileSync(file, flatePdf(0.6));
    // zlib refuses the cut stream, so pdf.js's own inflater decides, exactly as on the in-process path.
    const failure = (workers: number) => ingestFile(file, { workers }).then(() => null, (error: unknown) => error as AppError);
    const [inWorker, inProcess] = [await failure(1), await failure(0)];
    expect(inWorker).toBeInstanceOf(AppError);
    expect(inWorker?.code).toBe(ErrorCode.PDF_CORRUPT);
    expect(inWorker?.message).toContain('page 1 failed');
    expect(inProcess?.code).toBe(inWorker?.code);
    expect(inProcess?.message).toBe(inWorker?.message);
  });
});
