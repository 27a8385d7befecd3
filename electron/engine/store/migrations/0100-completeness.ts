import type { Migration } from '../migrate';

/**
 * completeness_checks: one verdict per run and document (issue 19), written
 * right after the merge. The verdict's parts (stated counts with their
 * offsets, listed entries and their findings, places to check) are read
 * together and never queried one by one, so they are kept as one JSON value;
 * status and place count are columns so a run overview can sort and filter.
 */
export const migration0100Completeness: Migration = {
  version: 100,
  name: '0100-completeness',
  up(db) {
    db.exec(`
      CREATE TABLE completeness_checks (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('complete', 'check', 'no-stated-totals')),
        headline TEXT NOT NULL,
        place_count INTEGER NOT NULL,
        verdict_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (run_id, document_id)
      ) STRICT;
    `);
  },
};
