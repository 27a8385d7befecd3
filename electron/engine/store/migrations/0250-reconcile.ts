import type { Migration } from '../migrate';

/**
 * Reconcile a document against a population (issue 41).
 *
 * - populations: a tracker export as imported (its header, and its rows as text cells), kept once per file
 *   content and sheet ('' for CSV), so the app can read it, choose columns and reconcile again without the file.
 * - reconciliations: a tie-out stored whole, as the JSON the exporters and the app read (recomputed from the
 *   stored analysis, the population and the decisions; never edited in place).
 * - tie_out_decisions: the auditor's review of the tie-out, per document and keyed by what identifies a row
 *   (its key, else its title) and a document item (its printed ID, else its title) across re-runs, so a
 *   re-run keeps them: a match confirmed, a match broken, a row matched by hand.
 * - tie_out_notes: notes on a row or an item of the tie-out.
 * Each decision and note is also written to review_trail (document-level entries, field 'tie-out'), the
 * append-only trail the findings' review writes.
 */
export const migration0250Reconcile: Migration = {
  version: 250,
  name: '0250-reconcile',
  up(db) {
    db.exec(`
      CREATE TABLE populations (
        id INTEGER PRIMARY KEY,
        file_name TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('csv', 'xlsx')),
        sheet TEXT NOT NULL DEFAULT '',
        header_row INTEGER NOT NULL CHECK (header_row >= 1),
        columns_json TEXT NOT NULL,
        rows_json TEXT NOT NULL,
        blank_rows INTEGER NOT NULL DEFAULT 0,
        imported_at TEXT NOT NULL,
        UNIQUE (sha256, sheet)
      ) STRICT;

      CREATE TABLE reconciliations (
        id INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        run_id INTEGER NOT NULL,
        population_id INTEGER REFERENCES populations(id) ON DELETE SET NULL,
        result_json TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX reconciliations_by_document ON reconciliations(document_id, id);

      CREATE TABLE tie_out_decisions (
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        row_key TEXT NOT NULL,
        item_key TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('confirmed', 'broken', 'matched')),
        reviewer TEXT NOT NULL CHECK (length(trim(reviewer)) > 0),
        at TEXT NOT NULL,
        PRIMARY KEY (document_id, row_key, item_key)
      ) STRICT;

      CREATE TABLE tie_out_notes (
        id INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        subject TEXT NOT NULL,
        reviewer TEXT NOT NULL CHECK (length(trim(reviewer)) > 0),
        at TEXT NOT NULL,
        text TEXT NOT NULL CHECK (length(trim(text)) > 0)
      ) STRICT;
      CREATE INDEX tie_out_notes_by_subject ON tie_out_notes(document_id, subject, id);
    `);
  },
};
