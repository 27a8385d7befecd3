/** OCR rows (migration 0130): the per-image cache and which pages of a stored document were read by OCR. */
import type { PageSpan } from '../../../shared/types';
import type { Database, ReadDb } from '../store';
import type { OcrLine, OcrPageText, PageBox } from './types';

export function getCachedOcr(db: ReadDb, contentHash: string): OcrPageText | undefined {
  const row = db.prepare('SELECT confidence, lines_json FROM ocr_cache WHERE content_hash = ?').get(contentHash) as
    | { confidence: number | null; lines_json: string }
    | undefined;
  return row && { lines: JSON.parse(row.lines_json) as OcrLine[], confidence: row.confidence };
}

/** Committed on its own as soon as a page is read: an interrupted OCR loses at most the page in flight. */
export function saveCachedOcr(db: Database, contentHash: string, recognizer: string, text: OcrPageText, now: string): void {
  db.prepare('INSERT OR IGNORE INTO ocr_cache (content_hash, recognizer, confidence, lines_json, created_at) VALUES (?, ?, ?, ?, ?)').run(
    contentHash,
    recognizer,
    text.confidence,
    JSON.stringify(text.lines),
    now,
  );
}

export interface PageOcrMark {
  pageNumber: number;
  contentHash: string;
  confidence: number | null;
}

export function savePageOcr(db: Database, documentId: number, marks: readonly PageOcrMark[]): void {
  const insert = db.prepare('INSERT OR REPLACE INTO page_ocr (document_id, page_number, content_hash, confidence) VALUES (?, ?, ?, ?)');
  for (const mark of marks) insert.run(documentId, mark.pageNumber, mark.contentHash, mark.confidence);
}

/** One OCR word of a stored page, for a page viewer: its box on the page and where it is in the canonical text. */
export interface OcrWordView {
  text: string;
  confidence: number;
  /** Page fractions [x0, y0, x1, y1], origin top-left. */
  box: PageBox;
  /** [start, end) in the document's canonical text. */
  start: number;
  end: number;
}

/**
 * The OCR words of one page with their boxes and canonical offsets (empty for
 * a page not read by OCR). A page's OCR text is its lines joined with '\n' and
 * each line its words joined with ' ', so offsets follow from the order.
 */
export function loadPageOcrWords(db: ReadDb, documentId: number, page: PageSpan): OcrWordView[] {
  const row = db
    .prepare('SELECT c.lines_json FROM page_ocr o JOIN ocr_cache c ON c.content_hash = o.content_hash WHERE o.document_id = ? AND o.page_number = ?')
    .get(documentId, page.pageNumber) as { lines_json: string } | undefined;
  if (!row) return [];
  const words: OcrWordView[] = [];
  let offset = page.start;
  for (const line of JSON.parse(row.lines_json) as OcrLine[]) {
    for (const word of line.words) {
      words.push({ text: word.text, confidence: word.confidence, box: word.box, start: offset, end: offset + word.text.length });
      offset += word.text.length + 1;
    }
  }
  return words;
}

/**
 * A stored document's OCR pages in page order, with their mean confidence (null: OCR read no words) and whether
 * OCR gave the page text to analyse: a logo or a stray mark can be read with some confidence yet leave too few
 * letters to count as text, and such a page holds only pictures just like a page with no words at all.
 */
export function listOcrPages(db: ReadDb, documentId: number): { page: number; confidence: number | null; hasText: boolean }[] {
  const rows = db
    .prepare(
      `SELECT o.page_number AS page, o.confidence, COALESCE(p.has_text_layer, 0) AS has_text
         FROM page_ocr o LEFT JOIN pages p ON p.document_id = o.document_id AND p.page_number = o.page_number
        WHERE o.document_id = ? ORDER BY o.page_number`,
    )
    .all(documentId) as { page: number; confidence: number | null; has_text: number }[];
  return rows.map((row) => ({ page: row.page, confidence: row.confidence, hasText: row.has_text === 1 }));
}
