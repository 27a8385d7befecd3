import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../shared/errors';
import { migrate, migrations, openDatabase } from '../../../electron/engine/store';
import { useTempDir } from '../../helpers/tempDir';
import { databaseWithDocumentAt } from './migrationDb';

const tempDir = useTempDir();
const latest = migrations.at(-1)!.version;

describe('migrations', () => {
  it('bring a new database to the latest version with WAL and foreign keys on', () => {
    const db = openDatabase(join(tempDir(), 'a.sqlite'));
    expect(db.pragma('user_version', { simple: true })).toBe(latest);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all() as { name: string; sql: string }[];
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['documents', 'pages', 'lines', 'chunk_trees', 'chunks', 'runs', 'run_inputs', 'run_events', 'id_mentions']),
    );
    // Virtual tables (the FTS5 index of 0140) and the shadow tables SQLite makes for them cannot be STRICT.
    const virtual = tables.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
    const own = tables.filter((t) => !virtual.some((v) => t.name === v || t.name.startsWith(`${v}_`)));
    for (const table of own) expect(table.sql, table.name).toMatch(/STRICT\s*$/);
    db.close();
  });

  it('refuse a database written by a newer version, without changing it', () => {
    const file = join(tempDir(), 'newer.sqlite');
    const raw = new BetterSqlite3(file);
    raw.pragma(`user_version = ${latest + 10}`);
    raw.close();
    expect(() => openDatabase(file)).toThrowError(expect.objectContaining({ code: ErrorCode.DB_TOO_NEW }));
    const again = new BetterSqlite3(file);
    expect(again.pragma('user_version', { simple: true })).toBe(latest + 10);
    again.close();
  });

  it('are idempotent: reopening applies nothing twice', () => {
    const file = join(tempDir(), 'twice.sqlite');
    openDatabase(file).close();
    const db = openDatabase(file);
    expect(migrate(db, migrations)).toBe(latest);
    db.close();
  });

  // Each migration: migrate to the version before it, insert data, migrate, check the data survived.
  for (const [i, migration] of migrations.entries()) {
    it(`${migration.name} keeps data written at the previous version`, () => {
      const db = new BetterSqlite3(join(tempDir(), `m${migration.version}.sqlite`));
      db.pragma('foreign_keys = ON');
      const previous = i === 0 ? 0 : migrations[i - 1]!.version;
      migrate(db, migrations, previous);
      expect(db.pragma('user_version', { simple: true })).toBe(previous);
      if (previous >= 10) {
        db.prepare(
          "INSERT INTO documents (sha256, kind, file_name, file_path, byte_size, page_count, canonical_text, created_at, updated_at) VALUES ('abc', 'txt', 'a.txt', '/a.txt', 3, 1, 'abc', 'now', 'now')",
        ).run();
      }
      migrate(db, migrations, migration.version);
      expect(db.pragma('user_version', { simple: true })).toBe(migration.version);
      if (previous >= 10) expect(db.prepare('SELECT canonical_text FROM documents').get()).toEqual({ canonical_text: 'abc' });
      db.close();
    });
  }

  it('0070 gives pages stored before it no read error, and stores one for a damaged page', () => {
    const db = databaseWithDocumentAt(tempDir(), 60, { kind: 'pdf', pageCount: 2 });
    db.prepare('INSERT INTO pages (document_id, page_number, start_offset, end_offset, has_text_layer) VALUES (1, 1, 0, 3, 1)').run();
    migrate(db, migrations, 70);
    db.prepare(
      "INSERT INTO pages (document_id, page_number, start_offset, end_offset, has_text_layer, read_error) VALUES (1, 2, 3, 3, 0, 'Bad encoding in flate stream')",
    ).run();
    expect(db.prepare('SELECT page_number, read_error FROM pages ORDER BY page_number').all()).toEqual([
      { page_number: 1, read_error: null },
      { page_number: 2, read_error: 'Bad encoding in flate stream' },
    ]);
    db.close();
  });

  it('roll back a migration that fails, leaving the version unchanged', () => {
    const db = new BetterSqlite3(':memory:');
    const broken = [
      ...migrations,
      { version: latest + 10, name: 'broken', up: (d: BetterSqlite3.Database) => d.exec('CREATE TABLE x (a INTEGER) STRICT; INSERT INTO nope VALUES (1);') },
    ];
    expect(() => migrate(db, broken)).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(latest);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'x'").get()).toBeUndefined();
    db.close();
  });
});
