import { describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../../electron/engine/store';
import { loadExtractedDocument } from '../../../electron/engine/store';
import { useTempDir } from '../../helpers/tempDir';
import { databaseWithDocumentAt } from './migrationDb';

const tempDir = useTempDir('audit-m130-');

describe('migration 0130 (OCR)', () => {
  it('keeps documents stored before it as text-layer pages, and marks OCR pages stored after it', () => {
    const db = databaseWithDocumentAt(tempDir(), 70, { kind: 'pdf', pageCount: 2, text: 'abc\n\f\nxyz' });
    db.prepare('INSERT INTO pages (document_id, page_number, start_offset, end_offset, has_text_layer) VALUES (1, 1, 0, 3, 1), (1, 2, 6, 9, 1)').run();
    migrate(db, migrations, 130);
    expect(loadExtractedDocument(db, 1)!.pages.map((p) => p.textSource)).toEqual([undefined, undefined]);

    db.prepare("INSERT INTO ocr_cache (content_hash, recognizer, confidence, lines_json, created_at) VALUES ('h1', 'tesseract', 88.5, '[]', 'now')").run();
    db.prepare("INSERT INTO page_ocr (document_id, page_number, content_hash, confidence) VALUES (1, 2, 'h1', 88.5)").run();
    expect(loadExtractedDocument(db, 1)!.pages[1]).toMatchObject({ textSource: 'ocr', ocrConfidence: 88.5 });
    // A mark must point at a cached reading, and confidences are percentages.
    expect(() => db.prepare("INSERT INTO page_ocr (document_id, page_number, content_hash, confidence) VALUES (1, 1, 'missing', 50)").run()).toThrow(
      /FOREIGN KEY/,
    );
    expect(() =>
      db.prepare("INSERT INTO ocr_cache (content_hash, recognizer, confidence, lines_json, created_at) VALUES ('h2', 't', 140, '[]', 'now')").run(),
    ).toThrow(/CHECK/);
    db.close();
  });
});
