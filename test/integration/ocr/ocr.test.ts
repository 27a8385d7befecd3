/**
 * OCR through the engine with the real recognizer (tesseract.js, bundled
 * English data, no network): PDFs whose pages are only images of known text
 * are read back with word accuracy above WORD_ACCURACY, consistent page
 * offsets, ID mentions on the right pages and a chunk tree; pages are marked
 * 'ocr' with their confidence and word boxes; OCR is cancellable and resumes
 * from its per-page cache; an encrypted scan is rendered with its password.
 * Kept to a few pages: OCR costs seconds per page on a shared machine (more
 * pages are measured by `BENCH_ONLY=ocr npm run bench`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../shared/errors';
import type { ProgressEvent } from '../../../shared/types';
import { createEngine } from '../../../electron/engine';
import { createTesseractRecognizer, loadPageOcrWords, type PageRecognizer } from '../../../electron/engine/ocr';
import { getCurrentTree, loadChunks, loadExtractedDocument, loadMentions, openDatabase, type Database } from '../../../electron/engine/store';
import { writeFixture } from '../../fixtures/pdfFactory';
import { makeScannedPdf, pageText, scannedLetterPages, wordAccuracy } from '../../fixtures/scanFactory';
import { useTempDir } from '../../helpers/tempDir';
import { expectConsistentOffsets } from '../pdf/offsets';

/** Clean 200 dpi images of 12 pt text: tesseract reads nearly every word; below this something is broken. */
const WORD_ACCURACY = 0.9;
const tempDir = useTempDir('audit-ocr-');
const letter = scannedLetterPages();
const dbs: Database[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

function counting(inner: PageRecognizer): PageRecognizer & { calls: number } {
  const wrapper = {
    id: inner.id,
    calls: 0,
    recognize: (...args: Parameters<PageRecognizer['recognize']>) => {
      wrapper.calls++;
      return inner.recognize(...args);
    },
    close: () => inner.close(),
  };
  return wrapper;
}

function setup(dir: string, recognizer: PageRecognizer = createTesseractRecognizer()) {
  const db = openDatabase(join(dir, 'store.sqlite'));
  dbs.push(db);
  const engine = createEngine({ db, appVersion: 'test', createRecognizer: () => recognizer });
  return { db, engine };
}

describe('OCR of scanned pages (tesseract.js, offline)', () => {
  it('reads image-only pages into the canonical text: accuracy, offsets, mentions, tree, marks and word boxes', { timeout: 240_000 }, async () => {
    const dir = tempDir();
    const file = writeFixture(join(dir, 'scanned-letter.pdf'), await makeScannedPdf([...letter, { lines: [] }]));
    const { db, engine } = setup(dir);
    const events: ProgressEvent[] = [];
    const outcome = await engine.analyze([file], { mode: 'rules-only' }, { onProgress: (event) => events.push(event) });

    expect(outcome.inputs[0]).toMatchObject({ status: 'done', error: null });
    const documentId = outcome.inputs[0]!.documentId!;
    const doc = loadExtractedDocument(db, documentId)!;
    expectConsistentOffsets(doc);
    letter.forEach((page, index) => {
      const span = doc.pages[index]!;
      const read = doc.text.slice(span.start, span.end);
      expect(wordAccuracy(pageText(page), read), `page ${index + 1}: ${read}`).toBeGreaterThanOrEqual(WORD_ACCURACY);
      expect(span).toMatchObject({ hasTextLayer: true, textSource: 'ocr' });
      expect(span.ocrConfidence).toBeGreaterThan(70);
    });
    // The blank page was looked at (no words), not sent to the recognizer, and is listed as having no text.
    expect(doc.pages[2]).toMatchObject({ hasTextLayer: false, textSource: 'ocr' });
    expect(doc.pages[2]!.ocrConfidence).toBeUndefined();
    expect(outcome.inputs[0]!.warnings).toContainEqual(
      expect.objectContaining({
        code: ErrorCode.PDF_NO_TEXT_LAYER,
        message: expect.stringContaining('Page 3 has only pictures or nothing on it (OCR found no words)'),
        details: { pages: [3], picturesOnly: true },
      }),
    );

    const mentions = loadMentions(db, documentId).map((m) => [m.normalized, m.page]);
    expect(mentions).toEqual(
      expect.arrayContaining([
        ['TOB-ACME-007', 1],
        ['TOB-ACME-008', 2],
      ]),
    );
    const tree = loadChunks(db, getCurrentTree(db, documentId)!.id);
    const leaves = tree.filter((node) => node.isLeaf);
    expect(leaves.length).toBeGreaterThan(0);
    expect(leaves[0]!.start).toBe(0);
    expect(Math.max(...leaves.map((leaf) => leaf.pageEnd))).toBeGreaterThanOrEqual(2);

    // Word boxes for a page viewer: page fractions, and offsets that slice the canonical text to the word.
    const words = loadPageOcrWords(db, documentId, doc.pages[0]!);
    expect(words.length).toBeGreaterThan(40);
    for (const word of words) {
      expect(doc.text.slice(word.start, word.end)).toBe(word.text);
      expect(word.box.every((v) => v >= 0 && v <= 1)).toBe(true);
      expect(word.box[2]).toBeGreaterThan(word.box[0]);
    }
    // The heading is at the top of the page, the ID further down.
    const heading = words.find((w) => w.text === 'Bank')!;
    const id = words.find((w) => w.text.includes('TOB-ACME-007'))!;
    expect(heading.box[1]).toBeLessThan(id.box[1]);
    // OCR is a phase of its own, page by page: before each page (which one is being read) and after it.
    const ocrEvents = events.filter((event) => event.phase === 'ocr');
    expect(ocrEvents.map((event) => [event.current, event.total])).toEqual([
      [0, 3],
      [1, 3],
      [1, 3],
      [2, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(ocrEvents[2]!.message).toBe('file 1 of 1: OCR page 2 of 3: reading page 2');
    expect(ocrEvents[3]!.message).toBe('file 1 of 1: OCR page 2 of 3: page 2 read');
    expect(events.findIndex((event) => event.phase === 'ocr')).toBeGreaterThan(events.findIndex((event) => event.phase === 'ingest'));
  });

  it(
    'stops when cancelled, resumes from the per-page cache, opens an encrypted scan with its password; off leaves scans unread',
    { timeout: 240_000 },
    async () => {
      const dir = tempDir();
      const file = writeFixture(join(dir, 'scan.pdf'), await makeScannedPdf(letter));
      const recognizer = counting(createTesseractRecognizer());
      const { db, engine } = setup(dir, recognizer);

      const abort = new AbortController();
      const first = await engine.analyze(
        [file],
        { mode: 'rules-only' },
        { signal: abort.signal, onProgress: (event) => /OCR page 1 of 2: page 1 read/.test(event.message) && abort.abort() },
      );
      expect(first.run.status).toBe('cancelled');
      expect(recognizer.calls).toBe(1);
      // The input says where it stopped: in the OCR phase.
      expect(first.inputs[0]).toMatchObject({ status: 'cancelled', phase: 'ocr' });

      const events: string[] = [];
      const resumed = await engine.resume(first.run.id, { onProgress: (event) => events.push(event.message) });
      expect(resumed.inputs[0]).toMatchObject({ status: 'done' });
      // Page 1 came from the cache; only page 2 was recognized.
      expect(recognizer.calls).toBe(2);
      expect(events.some((message) => /OCR page 1 of 2: page 1 from the cache/.test(message))).toBe(true);

      if (existsSync('/usr/bin/qpdf')) {
        const locked = join(dir, 'scan-locked.pdf');
        execFileSync('/usr/bin/qpdf', ['--encrypt', 'scan-pw', 'owner', '256', '--', file, locked]);
        const unlocked = await engine.analyze([locked], { mode: 'rules-only' }, { password: () => 'scan-pw' });
        expect(unlocked.inputs[0]).toMatchObject({ status: 'done' });
        // Rendered with the password to the same pixels: every page from the cache.
        expect(recognizer.calls).toBe(2);
        expect(loadExtractedDocument(db, unlocked.inputs[0]!.documentId!)!.pages.map((p) => p.textSource)).toEqual(['ocr', 'ocr']);
      }

      const other = writeFixture(join(dir, 'scan-off.pdf'), await makeScannedPdf(letter, { title: 'Another scan' }));
      const off = await engine.analyze([other], { mode: 'rules-only', ocr: 'off' });
      expect(off.inputs[0]).toMatchObject({ status: 'failed', error: { code: ErrorCode.PDF_NO_TEXT_LAYER, message: expect.stringContaining('OCR is off') } });
      expect(recognizer.calls).toBe(2);
    },
  );
});
