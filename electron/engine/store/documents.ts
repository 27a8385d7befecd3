import type { Database } from 'better-sqlite3';
import type { ReadDb } from './db';
import type { DocumentKind, DocumentLine, ExtractedDocument, OutlineEntry, PageSpan } from '../../../shared/types';

export interface StoredDocument {
  id: number;
  sha256: string;
  kind: DocumentKind;
  fileName: string;
  filePath: string;
  byteSize: number;
  pageCount: number;
  metadata: Record<string, string>;
  createdAt: string;
}

interface DocumentRow {
  id: number;
  sha256: string;
  kind: DocumentKind;
  file_name: string;
  file_path: string;
  byte_size: number;
  page_count: number;
  metadata_json: string;
  created_at: string;
}

const toDocument = (row: DocumentRow): StoredDocument => ({
  id: row.id,
  sha256: row.sha256,
  kind: row.kind,
  fileName: row.file_name,
  filePath: row.file_path,
  byteSize: row.byte_size,
  pageCount: row.page_count,
  metadata: JSON.parse(row.metadata_json) as Record<string, string>,
  createdAt: row.created_at,
});

const DOCUMENT_COLUMNS = 'id, sha256, kind, file_name, file_path, byte_size, page_count, metadata_json, created_at';

export function findDocumentBySha(db: ReadDb, sha256: string): StoredDocument | undefined {
  const row = db.prepare(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE sha256 = ?`).get(sha256) as DocumentRow | undefined;
  return row && toDocument(row);
}

export function getDocument(db: ReadDb, id: number): StoredDocument | undefined {
  const row = db.prepare(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = ?`).get(id) as DocumentRow | undefined;
  return row && toDocument(row);
}

export function listDocuments(db: ReadDb): StoredDocument[] {
  return (db.prepare(`SELECT ${DOCUMENT_COLUMNS} FROM documents ORDER BY id`).all() as DocumentRow[]).map(toDocument);
}

/**
 * Stores an ingested document with its pages, lines and outline in one
 * transaction. Content is identified by sha256: importing the same bytes again
 * (even under another name) returns the stored document instead of a copy.
 */
export function saveDocument(db: Database, doc: ExtractedDocument, now: string): { document: StoredDocument; reused: boolean } {
  return db.transaction(() => {
    const existing = findDocumentBySha(db, doc.sha256);
    if (existing) return { document: existing, reused: true };
    const { lastInsertRowid } = db
      .prepare(
        `INSERT INTO documents (sha256, kind, file_name, file_path, byte_size, page_count, canonical_text, metadata_json, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(doc.sha256, doc.kind, doc.fileName, doc.filePath, doc.byteSize, doc.pageCount, doc.text, JSON.stringify(doc.metadata), now, now);
    const documentId = Number(lastInsertRowid);
    const insertPage = db.prepare(
      'INSERT INTO pages (document_id, page_number, start_offset, end_offset, has_text_layer, read_error) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const page of doc.pages) insertPage.run(documentId, page.pageNumber, page.start, page.end, page.hasTextLayer ? 1 : 0, page.readError ?? null);
    insertLines(db, documentId, doc.lines);
    const insertOutline = db.prepare('INSERT INTO outline_entries (document_id, ordinal, title, level, page_number) VALUES (?, ?, ?, ?, ?)');
    doc.outline.forEach((entry, ordinal) => insertOutline.run(documentId, ordinal, entry.title, entry.level, entry.page));
    return { document: getDocument(db, documentId)!, reused: false };
  })();
}

const LINE_COLUMNS = '(document_id, line_index, start_offset, end_offset, page_number, font_size, bold, markdown_level)';
const LINE_VALUES = '(?, ?, ?, ?, ?, ?, ?, ?)';
/** Lines go in LINES_PER_INSERT rows per statement: a long document has tens of thousands, and each run() has a fixed cost. */
const LINES_PER_INSERT = 64;

function insertLines(db: Database, documentId: number, lines: readonly DocumentLine[]): void {
  const batch = db.prepare(`INSERT INTO lines ${LINE_COLUMNS} VALUES ${Array(LINES_PER_INSERT).fill(LINE_VALUES).join(', ')}`);
  const single = db.prepare(`INSERT INTO lines ${LINE_COLUMNS} VALUES ${LINE_VALUES}`);
  const values = (line: DocumentLine, index: number) => [
    documentId,
    index,
    line.start,
    line.end,
    line.page,
    line.fontSize,
    line.bold ? 1 : 0,
    line.markdownLevel ?? null,
  ];
  let index = 0;
  for (; index + LINES_PER_INSERT <= lines.length; index += LINES_PER_INSERT) {
    const params: unknown[] = [];
    for (let k = index; k < index + LINES_PER_INSERT; k++) params.push(...values(lines[k]!, k));
    batch.run(params);
  }
  for (; index < lines.length; index++) single.run(values(lines[index]!, index));
}

interface PageRow {
  page_number: number;
  start_offset: number;
  end_offset: number;
  has_text_layer: number;
  read_error: string | null;
}

/** Rebuilds the ExtractedDocument a stored document was made from, so later stages never re-read the PDF. */
export function loadExtractedDocument(db: ReadDb, id: number): ExtractedDocument | undefined {
  const stored = getDocument(db, id);
  if (!stored) return undefined;
  const text = documentText(db, id)!;
  const pages = (
    db
      .prepare(
        `SELECT p.page_number, p.start_offset, p.end_offset, p.has_text_layer, p.read_error, o.page_number AS ocr_page, o.confidence AS ocr_confidence
         FROM pages p LEFT JOIN page_ocr o ON o.document_id = p.document_id AND o.page_number = p.page_number
         WHERE p.document_id = ? ORDER BY p.page_number`,
      )
      .all(id) as (PageRow & { ocr_page: number | null; ocr_confidence: number | null })[]
  ).map((row): PageSpan => {
    const page: PageSpan = { pageNumber: row.page_number, start: row.start_offset, end: row.end_offset, hasTextLayer: row.has_text_layer === 1 };
    if (row.read_error !== null) page.readError = row.read_error;
    // Pages read by OCR (page_ocr, migration 0130) carry their source and confidence.
    if (row.ocr_page !== null) page.textSource = 'ocr';
    if (row.ocr_confidence !== null) page.ocrConfidence = row.ocr_confidence;
    return page;
  });
  const lines = (
    db
      .prepare('SELECT start_offset, end_offset, page_number, font_size, bold, markdown_level FROM lines WHERE document_id = ? ORDER BY line_index')
      .all(id) as { start_offset: number; end_offset: number; page_number: number; font_size: number; bold: number; markdown_level: number | null }[]
  ).map((row): DocumentLine => {
    const line: DocumentLine = { start: row.start_offset, end: row.end_offset, page: row.page_number, fontSize: row.font_size, bold: row.bold === 1 };
    if (row.markdown_level !== null) line.markdownLevel = row.markdown_level;
    return line;
  });
  const outline = (
    db.prepare('SELECT title, level, page_number FROM outline_entries WHERE document_id = ? ORDER BY ordinal').all(id) as {
      title: string;
      level: number;
      page_number: number | null;
    }[]
  ).map((row): OutlineEntry => ({ title: row.title, level: row.level, page: row.page_number }));
  return {
    kind: stored.kind,
    fileName: stored.fileName,
    filePath: stored.filePath,
    sha256: stored.sha256,
    byteSize: stored.byteSize,
    pageCount: stored.pageCount,
    text,
    pages,
    lines,
    outline,
    metadata: stored.metadata,
  };
}

/** Pages with no text layer (scanned); pages that could not be read at all are listed by unreadablePages instead. */
export function pagesWithoutTextLayer(db: ReadDb, documentId: number): number[] {
  return (
    db.prepare('SELECT page_number FROM pages WHERE document_id = ? AND has_text_layer = 0 AND read_error IS NULL ORDER BY page_number').all(documentId) as {
      page_number: number;
    }[]
  ).map((row) => row.page_number);
}

/** Pages pdf.js could not read (damaged content), with its reason: their text is missing from the analysis. */
export function unreadablePages(db: ReadDb, documentId: number): { page: number; reason: string }[] {
  return (
    db.prepare('SELECT page_number, read_error FROM pages WHERE document_id = ? AND read_error IS NOT NULL ORDER BY page_number').all(documentId) as {
      page_number: number;
      read_error: string;
    }[]
  ).map((row) => ({ page: row.page_number, reason: row.read_error }));
}

/** A document's pages as offsets into its canonical text (no OCR or read-error detail: loadExtractedDocument has those). */
export function documentPageSpans(db: ReadDb, documentId: number): PageSpan[] {
  const rows = db
    .prepare('SELECT page_number, start_offset, end_offset, has_text_layer FROM pages WHERE document_id = ? ORDER BY page_number')
    .all(documentId) as {
    page_number: number;
    start_offset: number;
    end_offset: number;
    has_text_layer: number;
  }[];
  return rows.map((p) => ({ pageNumber: p.page_number, start: p.start_offset, end: p.end_offset, hasTextLayer: p.has_text_layer === 1 }));
}

export function documentExists(db: ReadDb, id: number): boolean {
  return db.prepare('SELECT 1 FROM documents WHERE id = ?').get(id) !== undefined;
}

/** A document's canonical text alone (without its pages and lines), or undefined when there is no such document. */
export function documentText(db: ReadDb, id: number): string | undefined {
  const row = db.prepare('SELECT canonical_text FROM documents WHERE id = ?').get(id) as { canonical_text: string } | undefined;
  return row?.canonical_text;
}
