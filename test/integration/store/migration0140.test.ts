import { describe, expect, it } from 'vitest';
import { migrate } from '../../../electron/engine/store/migrate';
import { migrations } from '../../../electron/engine/store/migrations';
import { useTempDir } from '../../helpers/tempDir';
import { databaseWithDocumentAt } from './migrationDb';

const tempDir = useTempDir('audit-m140-');

describe('migration 0140-retrieval', () => {
  it('adds the retrieval tables to a database with documents, keeping them, and the FTS index answers BM25 queries', () => {
    const db = databaseWithDocumentAt(tempDir(), 70);
    migrate(db, migrations, 140);
    expect(db.prepare('SELECT file_name FROM documents').all()).toEqual([{ file_name: 'a.txt' }]);
    const unit = db
      .prepare(
        `INSERT INTO retrieval_units (document_id, kind, source_key, title, path_json, start_offset, end_offset, page_start, page_end, content_hash, indexed_at)
         VALUES (1, 'chunk', '1:1', 'Backups', '[]', 0, 3, 1, 1, 'h', 'now')`,
      )
      .run().lastInsertRowid;
    db.prepare('INSERT INTO retrieval_fts (rowid, title, body) VALUES (?, ?, ?)').run(unit, 'Backups', 'Nightly backups are kept for 35 days.');
    // Porter stemming: "backup" finds "backups".
    expect(db.prepare("SELECT rowid FROM retrieval_fts WHERE retrieval_fts MATCH 'backup' ORDER BY bm25(retrieval_fts)").all()).toEqual([
      { rowid: Number(unit) },
    ]);
    const conversation = db
      .prepare("INSERT INTO conversations (scope, title, created_at, updated_at) VALUES ('library', 'q', 'now', 'now')")
      .run().lastInsertRowid;
    db.prepare("INSERT INTO conversation_messages (conversation_id, ordinal, role, text, created_at) VALUES (?, 1, 'user', 'q', 'now')").run(conversation);
    // A document conversation needs its document; a library one must not name one.
    expect(() => db.prepare("INSERT INTO conversations (scope, title, created_at, updated_at) VALUES ('document', 'q', 'now', 'now')").run()).toThrow(/CHECK/);
    // Deleting a document takes its units and conversations with it.
    db.prepare("INSERT INTO conversations (scope, scope_document_id, title, created_at, updated_at) VALUES ('document', 1, 'q', 'now', 'now')").run();
    db.prepare('DELETE FROM documents WHERE id = 1').run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM retrieval_units').get()).toEqual({ n: 0 });
    expect(db.prepare("SELECT COUNT(*) AS n FROM conversations WHERE scope = 'document'").get()).toEqual({ n: 0 });
    expect(db.pragma('user_version', { simple: true })).toBe(140);
    db.close();
  });
});
