import type { Migration } from '../migrate';

/**
 * Finding identity from the document (issue: merge only on IDs the document prints).
 * - findings.printed_number / merged_findings.printed_number: the sequence or section number printed before
 *   the finding's title ("7", "3.2"); findings.finding_key now holds only an ID the document prints for the
 *   finding (rows written before keep what they had).
 * - merge_decisions.reason gains 'same-number' (SQLite cannot change a CHECK: the table is rebuilt, rows kept).
 * - merge_conflicts: two merged findings that share a printed ID or number but clearly disagree, kept apart
 *   for the auditor instead of silently joined. Replaced with the document's merge (cascade).
 */
export const migration0080FindingIdentity: Migration = {
  version: 80,
  name: '0080-finding-identity',
  up(db) {
    db.exec(`
      ALTER TABLE findings ADD COLUMN printed_number TEXT;
      ALTER TABLE merged_findings ADD COLUMN printed_number TEXT;
      CREATE TABLE merge_conflicts (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('id', 'number')),
        key TEXT NOT NULL,
        merged_a INTEGER NOT NULL REFERENCES merged_findings(id) ON DELETE CASCADE,
        merged_b INTEGER NOT NULL REFERENCES merged_findings(id) ON DELETE CASCADE,
        score REAL NOT NULL
      ) STRICT;
      CREATE INDEX merge_conflicts_by_document ON merge_conflicts(run_id, document_id);

      CREATE TABLE merge_decisions_new (
        id INTEGER PRIMARY KEY,
        merged_id INTEGER NOT NULL REFERENCES merged_findings(id) ON DELETE CASCADE,
        kept_finding_id INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,
        absorbed_finding_id INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,
        reason TEXT NOT NULL CHECK (reason IN ('same-id', 'same-number', 'similar-text', 'boundary-overlap')),
        score REAL NOT NULL,
        undone_at TEXT
      ) STRICT;
      INSERT INTO merge_decisions_new SELECT id, merged_id, kept_finding_id, absorbed_finding_id, reason, score, undone_at FROM merge_decisions;
      DROP TABLE merge_decisions;
      ALTER TABLE merge_decisions_new RENAME TO merge_decisions;
      CREATE INDEX merge_decisions_by_merged ON merge_decisions(merged_id);
    `);
  },
};
