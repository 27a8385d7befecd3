import type { Migration } from '../migrate';

/**
 * OCR (issue 18).
 * - ocr_cache: what OCR read on one rendered page, keyed by the hash of the
 *   page image and the recognizer (engine, version, languages). Each page is
 *   committed as soon as it is read, so an interrupted OCR resumes at the
 *   first page not yet read, and the same scan in another file (or a
 *   re-import) costs nothing. `lines_json`: [{ text, box, words: [{ text,
 *   confidence, box }] }], boxes as page fractions [x0, y0, x1, y1].
 * - page_ocr: which pages of a stored document have OCR text (source 'ocr'),
 *   with their mean confidence and the cache entry holding their word boxes.
 *   Pages without a row have their text from the PDF's text layer.
 */
export const migration0130Ocr: Migration = {
  version: 130,
  name: '0130-ocr',
  up(db) {
    db.exec(`
      CREATE TABLE ocr_cache (
        content_hash TEXT PRIMARY KEY,
        recognizer TEXT NOT NULL,
        confidence REAL CHECK (confidence IS NULL OR (confidence >= 0 AND confidence <= 100)),
        lines_json TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE TABLE page_ocr (
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        page_number INTEGER NOT NULL CHECK (page_number >= 1),
        content_hash TEXT NOT NULL REFERENCES ocr_cache(content_hash),
        confidence REAL CHECK (confidence IS NULL OR (confidence >= 0 AND confidence <= 100)),
        PRIMARY KEY (document_id, page_number)
      ) STRICT;
    `);
  },
};
