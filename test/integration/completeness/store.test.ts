import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompletenessVerdict } from '../../../shared/completeness';
import { getCompleteness, saveCompleteness } from '../../../electron/engine/completeness';
import { migrate, migrations, openDatabase } from '../../../electron/engine/store';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir();

function verdict(status: CompletenessVerdict['status'], places: CompletenessVerdict['places'] = []): CompletenessVerdict {
  return {
    status,
    headline: status === 'check' ? `Check these ${places.length} places` : status === 'complete' ? 'Complete' : 'No stated totals to check against',
    places,
    stated: [{ label: 'High', severity: 'High', count: 2, start: 10, end: 16, page: 1, text: 'High 2', source: 'rules' }],
    tallies: [{ severity: 'High', stated: 2, listed: null, found: 1 }],
    statedTotal: 2,
    foundTotal: 1,
    listed: [],
    findingsWithoutEntry: [],
    unreviewedMentions: [],
    failedChunks: [],
    pagesWithoutText: [],
    usedLlm: false,
  };
}

function seed(db: BetterSqlite3.Database): void {
  db.prepare(
    "INSERT INTO documents (id, sha256, kind, file_name, file_path, byte_size, page_count, canonical_text, created_at, updated_at) VALUES (1, 'abc', 'pdf', 'a.pdf', '/a.pdf', 3, 1, 'abc', 'now', 'now')",
  ).run();
  db.prepare("INSERT INTO runs (id, mode, status, settings_json, created_at) VALUES (1, 'full', 'done', '{}', 'now')").run();
}

describe('completeness store (migration 0100)', () => {
  it('0100 adds the verdict table to a database of the previous version, keeping its runs and documents', () => {
    const db = new BetterSqlite3(join(tempDir(), 'm100.sqlite'));
    db.pragma('foreign_keys = ON');
    const index = migrations.findIndex((m) => m.version === 100);
    migrate(db, migrations, migrations[index - 1]!.version);
    seed(db);
    migrate(db, migrations, 100);
    expect(db.prepare('SELECT file_name FROM documents').all()).toEqual([{ file_name: 'a.pdf' }]);
    saveCompleteness(db, { runId: 1, documentId: 1, verdict: verdict('complete'), now: '2026-01-01T00:00:00.000Z' });
    expect(getCompleteness(db, 1, 1)?.status).toBe('complete');
    // The status is checked by the table, not only by the code.
    expect(() =>
      db
        .prepare(
          "INSERT INTO completeness_checks (run_id, document_id, status, headline, place_count, verdict_json, created_at) VALUES (1, 1, 'green', 'x', 0, '{}', 'now')",
        )
        .run(),
    ).toThrow(/CHECK constraint/);
    db.close();
  });

  it('keeps one verdict per run and document: checking again replaces it, and deleting the run removes it', () => {
    const db = openDatabase(join(tempDir(), 'store.sqlite'));
    seed(db);
    expect(getCompleteness(db, 1, 1)).toBeNull();
    saveCompleteness(db, { runId: 1, documentId: 1, verdict: verdict('no-stated-totals'), now: 'a' });
    const places = [{ kind: 'stated-vs-found' as const, page: 1, severity: 'High', message: 'The document states High 2 on page 1; 1 High finding found.' }];
    saveCompleteness(db, { runId: 1, documentId: 1, verdict: verdict('check', places), now: 'b' });
    expect(getCompleteness(db, 1, 1)).toEqual(verdict('check', places));
    expect(db.prepare('SELECT status, headline, place_count, created_at FROM completeness_checks').all()).toEqual([
      { status: 'check', headline: 'Check these 1 places', place_count: 1, created_at: 'b' },
    ]);
    db.prepare('DELETE FROM runs WHERE id = 1').run();
    expect(getCompleteness(db, 1, 1)).toBeNull();
    db.close();
  });
});
