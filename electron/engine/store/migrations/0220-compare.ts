import type { Migration } from '../migrate';

/**
 * Re-audit comparison (issue 30). A comparison of an earlier and a later
 * document is stored whole, as the JSON the exporters and the app read (it is
 * recomputed from the stored analyses, never edited in place). The auditor's
 * answer to a candidate pair is kept apart, per pair of documents and keyed by
 * what identifies each finding across re-runs (its printed ID, else its
 * title), so it survives re-analysing either document. The review tables are
 * only read (notes on the earlier finding), not changed.
 */
export const migration0220Compare: Migration = {
  version: 220,
  name: '0220-compare',
  up(db) {
    db.exec(`
      CREATE TABLE comparisons (
        id INTEGER PRIMARY KEY,
        earlier_document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        later_document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        earlier_run_id INTEGER NOT NULL,
        later_run_id INTEGER NOT NULL,
        result_json TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX comparisons_by_documents ON comparisons(earlier_document_id, later_document_id, id);

      CREATE TABLE comparison_decisions (
        earlier_document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        later_document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        earlier_key TEXT NOT NULL,
        later_key TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('confirmed', 'rejected')),
        reviewer TEXT NOT NULL CHECK (length(trim(reviewer)) > 0),
        at TEXT NOT NULL,
        PRIMARY KEY (earlier_document_id, later_document_id, earlier_key, later_key)
      ) STRICT;
    `);
  },
};
