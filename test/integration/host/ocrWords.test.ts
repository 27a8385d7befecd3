/** OCR commands through the engine host: the words OCR read on a scanned page (page viewer) and a document's OCR pages (document view). */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DocumentHealth, OcrPageInfo, OcrWordBox, RunView } from '../../../shared/contract';
import { createEngineHost } from '../../../electron/host/engineHost';
import { openDatabase } from '../../../electron/engine/store/db';
import { makeTextPdf, sampleReportSpec, writeFixture } from '../../fixtures/pdfFactory';
import { makeScannedPdf, scannedLetterPages } from '../../fixtures/scanFactory';
import { useTempDir } from '../../helpers/tempDir';
import { call } from '../../helpers/host';

const tempDir = useTempDir('audit-host-ocr-');

describe('pages.ocrWords', () => {
  it(
    'serves the OCR words of a scanned page with boxes and offsets; none for a text page; a clear error for a missing page',
    { timeout: 240_000 },
    async () => {
      const dir = tempDir();
      const scan = writeFixture(join(dir, 'scan.pdf'), await makeScannedPdf(scannedLetterPages().slice(0, 1)));
      const text = writeFixture(join(dir, 'text.pdf'), await makeTextPdf(sampleReportSpec()));
      const host = createEngineHost({ dataDir: dir, appVersion: 't' });
      await call(host, 'settings.update', { analysisMode: 'rules-only' });
      const { runId } = await call<{ runId: number }>(host, 'runs.start', { files: [scan, text] });
      await host.idle();
      const run = (await call<RunView[]>(host, 'runs.list')).find((r) => r.id === runId)!;
      const [scanned, typed] = run.inputs.map((input) => input.documentId!);

      const words = await call<OcrWordBox[]>(host, 'pages.ocrWords', { documentId: scanned, pageNumber: 1 });
      expect(words.map((w) => w.text)).toEqual(expect.arrayContaining(['Bank', 'Confirmation', 'TOB-ACME-007:']));
      const chunk = await call<{ text: string; start: number }>(host, 'chunk.text', { documentId: scanned, nodeIndex: 0 });
      for (const word of words) {
        expect(chunk.text.slice(word.start - chunk.start, word.end - chunk.start)).toBe(word.text);
        expect(word.box[0]).toBeLessThan(word.box[2]);
        expect(word.box.every((v) => v >= 0 && v <= 1)).toBe(true);
      }
      expect(await call<OcrWordBox[]>(host, 'pages.ocrWords', { documentId: typed, pageNumber: 1 })).toEqual([]);
      expect(await host.invoke('pages.ocrWords', { documentId: scanned, pageNumber: 9 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });

      // The document view's list: the scanned page with its confidence (a clean scan is not low), nothing for a text PDF.
      const ocrPages = await call<OcrPageInfo[]>(host, 'documents.ocrPages', { documentId: scanned });
      expect(ocrPages).toEqual([{ page: 1, confidence: expect.any(Number), low: false, hasText: true }]);
      expect(ocrPages[0]!.confidence).toBeGreaterThanOrEqual(70);
      expect(await call<OcrPageInfo[]>(host, 'documents.ocrPages', { documentId: typed })).toEqual([]);
      // A poorly read page (confidence below 70%) is flagged low.
      const db = openDatabase(join(dir, 'audit.sqlite'));
      db.prepare('UPDATE page_ocr SET confidence = 55.5 WHERE document_id = ?').run(scanned);
      db.close();
      expect(await call<OcrPageInfo[]>(host, 'documents.ocrPages', { documentId: scanned })).toEqual([{ page: 1, confidence: 55.5, low: true, hasText: true }]);
      expect(await call<DocumentHealth>(host, 'documents.health', { documentId: scanned })).toMatchObject({ pagesWithoutText: [], picturePages: [] });

      // A page OCR read with some confidence but too few letters to be text (a logo on a back cover) holds only
      // pictures: the document view, the health note and the completeness panel all call it that, never a loss or a
      // low-confidence read (the trial's sigp-lido said "7 places" in the library and "8" in the document view).
      const logo = openDatabase(join(dir, 'audit.sqlite'));
      logo.prepare('UPDATE pages SET has_text_layer = 0 WHERE document_id = ? AND page_number = 1').run(scanned);
      logo.close();
      expect(await call<OcrPageInfo[]>(host, 'documents.ocrPages', { documentId: scanned })).toEqual([
        { page: 1, confidence: 55.5, low: false, hasText: false },
      ]);
      expect(await call<DocumentHealth>(host, 'documents.health', { documentId: scanned })).toMatchObject({ pagesWithoutText: [], picturePages: [1] });
      await host.close();
    },
  );
});
