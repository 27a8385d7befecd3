import type { Migration } from '../migrate';

/**
 * Sibling findings kept apart (issue 24): merge_conflicts.kind gains 'title', two findings whose printed titles
 * differ in a distinguishing word ("Unused errors can be removed" / "Unused constants can be removed") that text
 * similarity alone would have joined. SQLite cannot change a CHECK: the table is rebuilt, rows kept.
 */
export const migration0170TitleConflicts: Migration = {
  version: 170,
  name: '0170-title-conflicts',
  up(db) {
    db.exec(`
      CREATE TABLE merge_conflicts_new (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('id', 'number', 'title')),
        key TEXT NOT NULL,
        merged_a INTEGER NOT NULL REFERENCES merged_findings(id) ON DELETE CASCADE,
        merged_b INTEGER NOT NULL REFERENCES merged_findings(id) ON DELETE CASCADE,
        score REAL NOT NULL
      ) STRICT;
      INSERT INTO merge_conflicts_new SELECT id, run_id, document_id, kind, key, merged_a, merged_b, score FROM merge_conflicts;
      DROP TABLE merge_conflicts;
      ALTER TABLE merge_conflicts_new RENAME TO merge_conflicts;
      CREATE INDEX merge_conflicts_by_document ON merge_conflicts(run_id, document_id);
    `);
  },
};
