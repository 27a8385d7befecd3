/**
 * What each migration test starts from: a database file migrated to the
 * version before the migration under test, foreign keys on, holding one
 * document (id 1) for the new tables to refer to.
 */
import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { migrate, migrations } from '../../../electron/engine/store';

export function databaseWithDocumentAt(
  dir: string,
  version: number,
  document: { kind?: 'pdf' | 'txt'; pageCount?: number; text?: string } = {},
): BetterSqlite3.Database {
  const db = new BetterSqlite3(join(dir, `m${version}-${Math.random().toString(36).slice(2)}.sqlite`));
  db.pragma('foreign_keys = ON');
  migrate(db, migrations, version);
  const kind = document.kind ?? 'txt';
  db.prepare(
    "INSERT INTO documents (id, sha256, kind, file_name, file_path, byte_size, page_count, canonical_text, created_at, updated_at) VALUES (1, 'abc', ?, ?, ?, 3, ?, ?, 'now', 'now')",
  ).run(kind, `a.${kind}`, `/a.${kind}`, document.pageCount ?? 1, document.text ?? 'abc');
  return db;
}
