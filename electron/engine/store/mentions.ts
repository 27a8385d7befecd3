import type { Database } from 'better-sqlite3';
import type { ReadDb } from './db';
import type { IdMention } from '../../../shared/types';

/**
 * Replaces a document's mentions found with one rule set (identified by its
 * hash) in one transaction: re-running with the same rules is idempotent, and
 * mentions from other rule sets are kept for comparison.
 */
export function saveMentions(db: Database, documentId: number, rulesHash: string, mentions: readonly IdMention[]): void {
  db.transaction(() => {
    db.prepare('DELETE FROM id_mentions WHERE document_id = ? AND rules_hash = ?').run(documentId, rulesHash);
    const insert = db.prepare(
      `INSERT INTO id_mentions (document_id, pattern_name, raw, normalized, start_offset, end_offset, page_number, rules_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const m of mentions) insert.run(documentId, m.patternName, m.raw, m.normalized, m.start, m.end, m.page, rulesHash);
  })();
}

export function loadMentions(db: ReadDb, documentId: number, rulesHash?: string): IdMention[] {
  const rows = (
    rulesHash === undefined
      ? db.prepare('SELECT * FROM id_mentions WHERE document_id = ? ORDER BY start_offset').all(documentId)
      : db.prepare('SELECT * FROM id_mentions WHERE document_id = ? AND rules_hash = ? ORDER BY start_offset').all(documentId, rulesHash)
  ) as { pattern_name: string; raw: string; normalized: string; start_offset: number; end_offset: number; page_number: number }[];
  return rows.map((row) => ({
    patternName: row.pattern_name,
    raw: row.raw,
    normalized: row.normalized,
    start: row.start_offset,
    end: row.end_offset,
    page: row.page_number,
  }));
}
