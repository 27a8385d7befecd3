/**
 * PDF worker threads are kept between documents (extractorPool.ts): loading
 * pdf.js in a new thread costs more than reading a typical report. A worker
 * goes back to the pool only after a complete read; after a cancel it is
 * terminated, as it may be mid-page. The pool lends a bounded number of
 * threads over all reads (a run reads the next file ahead).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../shared/errors';
import { ingestFile } from '../../../electron/engine/pdf';
import * as pool from '../../../electron/engine/pdf/extractorPool';
import { makeTextPdf } from '../../fixtures/pdfFactory';
import { useTempDir } from '../../helpers/tempDir';

describe('PDF worker pool', () => {
  const tempDir = useTempDir();

  async function pdfFile(name: string, pages: number): Promise<string> {
    const file = join(tempDir(), name);
    writeFileSync(
      file,
      await makeTextPdf({
        pages: Array.from({ length: pages }, (_, p) => ({ blocks: [{ kind: 'body', lines: [`Page ${p + 1} mentions TOB-ACME-${p + 1}.`] }] })),
      }),
    );
    return file;
  }

  it('reads the next document with the threads of the previous one', async () => {
    const first = await ingestFile(await pdfFile('a.pdf', 70), { workers: 2 });
    const threads = pool.idleThreadIds();
    const second = await ingestFile(await pdfFile('b.pdf', 70), { workers: 2 });
    expect(first.document.text).toContain('TOB-ACME-70');
    expect(second.document.text).toContain('TOB-ACME-70');
    expect(threads).toHaveLength(2);
    expect(pool.idleThreadIds().sort()).toEqual([...threads].sort());
  });

  it('gives back the same thread it was given', async () => {
    const worker = await pool.borrowWorker();
    pool.returnWorker(worker);
    const again = await pool.borrowWorker();
    try {
      expect(again).toBe(worker);
    } finally {
      await pool.discardWorker(again);
    }
  });

  it('lends at most MAX_LENT threads at once: one more borrower waits and gets the first thread given back', async () => {
    const borrowed = await Promise.all(Array.from({ length: pool.MAX_LENT }, () => pool.borrowWorker()));
    let waiter: Worker | undefined;
    const waiting = pool.borrowWorker().then((worker) => (waiter = worker));
    try {
      expect(pool.tryBorrowWorker()).toBeUndefined();
      await new Promise((tick) => setTimeout(tick, 20));
      expect(waiter).toBeUndefined();
      pool.returnWorker(borrowed[0]!);
      expect(await waiting).toBe(borrowed[0]);
      // A discarded thread frees its place too: the next borrower gets a (new) thread at once.
      await pool.discardWorker(borrowed[1]!);
      const next = pool.tryBorrowWorker();
      expect(next).toBeDefined();
      borrowed.push(next!);
    } finally {
      await Promise.all([...borrowed.slice(1), waiter!].map((worker) => pool.discardWorker(worker)));
    }
  });

  it('terminates the threads of a cancelled read, and the next document still reads', async () => {
    const controller = new AbortController();
    const file = await pdfFile('long.pdf', 120);
    const cancelled = ingestFile(file, { workers: 2, signal: controller.signal, onProgress: (done) => done === 5 && controller.abort() });
    await expect(cancelled).rejects.toMatchObject({ code: ErrorCode.CANCELLED });
    // Nothing of the cancelled read is lent again (its threads may be mid-page).
    expect(pool.idleThreadIds()).toEqual([]);
    const next = await ingestFile(await pdfFile('next.pdf', 3), { workers: 2 });
    expect(next.document.pages).toHaveLength(3);
  });
});
