import type { Migration } from '../migrate';

/**
 * Undo of a review merge (issue 16). A merge moves the absorbed finding's
 * source links and notes onto the kept finding and may move the kept
 * finding's run; what it moved is kept here, one row per absorbed finding,
 * so the merge can be taken back exactly (the trail records both the merge
 * and its undo). The row goes when the merge is undone.
 */
export const migration0150ReviewUndo: Migration = {
  version: 150,
  name: '0150-review-undo',
  up(db) {
    db.exec(`
      CREATE TABLE review_merge_undo (
        absorb_id INTEGER PRIMARY KEY REFERENCES reviewed_findings(id) ON DELETE CASCADE,
        keep_id INTEGER NOT NULL REFERENCES reviewed_findings(id) ON DELETE CASCADE,
        -- "<run_id>:<finding_id>" of every source link the merge moved.
        links_json TEXT NOT NULL,
        note_ids_json TEXT NOT NULL,
        -- The kept finding's run before the merge, and the run the merge gave it (NULL = unchanged).
        keep_run_id_before INTEGER,
        keep_vanished_before INTEGER,
        keep_run_id_after INTEGER,
        at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
