import type { Migration } from '../migrate';

/**
 * Auditor review over merged findings (electron/engine/review). Model output
 * (findings, merged_findings) is never written: the review lives beside it.
 *
 * - reviewed_findings: one row per reviewed finding, keyed by a stable id per
 *   document (not per run); the model values the review is based on
 *   (original_*) next to the auditor's overrides (*_override, NULL = not
 *   edited); state (rejected needs a reason); carry-over markers.
 * - review_sources: which raw findings of which run a reviewed finding stands
 *   for (a raw finding belongs to at most one reviewed finding per run). Raw
 *   finding ids survive a re-merge of the run, merged ids do not.
 * - review_notes, review_documents (the run a document's review is linked to).
 * - review_trail: append-only (triggers refuse UPDATE and DELETE); no foreign
 *   keys, so no cascade can ever try to rewrite it.
 */
export const migration0060Review: Migration = {
  version: 60,
  name: '0060-review',
  up(db) {
    db.exec(`
      CREATE TABLE review_documents (
        document_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
        run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
        next_seq INTEGER NOT NULL DEFAULT 1,
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE reviewed_findings (
        id INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        origin TEXT NOT NULL CHECK (origin IN ('model', 'manual', 'split')),
        state TEXT NOT NULL DEFAULT 'new' CHECK (state IN ('new', 'confirmed', 'rejected', 'needs_follow_up')),
        reject_reason TEXT,
        finding_key TEXT,
        original_title TEXT NOT NULL,
        original_severity TEXT NOT NULL,
        original_type TEXT NOT NULL,
        original_description TEXT NOT NULL,
        title_override TEXT,
        severity_override TEXT,
        type_override TEXT,
        description_override TEXT,
        -- Manual findings: a slice of the canonical text.
        evidence_start INTEGER,
        evidence_end INTEGER,
        evidence_text TEXT,
        evidence_page INTEGER,
        -- The latest run that reported it.
        run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
        carried_from_run_id INTEGER,
        vanished_in_run_id INTEGER,
        changed_fields_json TEXT NOT NULL DEFAULT '[]',
        latest_json TEXT,
        split_from INTEGER REFERENCES reviewed_findings(id) ON DELETE CASCADE,
        merged_into INTEGER REFERENCES reviewed_findings(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (document_id, seq),
        CHECK (state <> 'rejected' OR (reject_reason IS NOT NULL AND length(trim(reject_reason)) > 0)),
        CHECK (origin <> 'manual' OR (evidence_start IS NOT NULL AND evidence_end > evidence_start AND evidence_text IS NOT NULL))
      ) STRICT;
      CREATE INDEX reviewed_findings_by_document ON reviewed_findings(document_id, merged_into);

      CREATE TABLE review_sources (
        reviewed_id INTEGER NOT NULL REFERENCES reviewed_findings(id) ON DELETE CASCADE,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        finding_id INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,
        PRIMARY KEY (run_id, finding_id)
      ) STRICT;
      CREATE INDEX review_sources_by_reviewed ON review_sources(reviewed_id, run_id);

      CREATE TABLE review_notes (
        id INTEGER PRIMARY KEY,
        reviewed_id INTEGER NOT NULL REFERENCES reviewed_findings(id) ON DELETE CASCADE,
        reviewer TEXT NOT NULL,
        at TEXT NOT NULL,
        text TEXT NOT NULL CHECK (length(trim(text)) > 0)
      ) STRICT;
      CREATE INDEX review_notes_by_reviewed ON review_notes(reviewed_id);

      CREATE TABLE review_trail (
        id INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL,
        reviewed_id INTEGER,
        run_id INTEGER,
        at TEXT NOT NULL,
        reviewer TEXT NOT NULL CHECK (length(trim(reviewer)) > 0),
        action TEXT NOT NULL CHECK (action IN ('create', 'state', 'edit', 'note', 'split', 'merge', 'carry-over', 'changed', 'vanished', 'reappeared', 'acknowledge')),
        field TEXT,
        from_value TEXT,
        to_value TEXT,
        detail TEXT
      ) STRICT;
      CREATE INDEX review_trail_by_document ON review_trail(document_id, id);
      CREATE INDEX review_trail_by_reviewed ON review_trail(reviewed_id, id);
      CREATE TRIGGER review_trail_no_update BEFORE UPDATE ON review_trail
        BEGIN SELECT RAISE(ABORT, 'review_trail is append-only'); END;
      CREATE TRIGGER review_trail_no_delete BEFORE DELETE ON review_trail
        BEGIN SELECT RAISE(ABORT, 'review_trail is append-only'); END;
    `);
  },
};
