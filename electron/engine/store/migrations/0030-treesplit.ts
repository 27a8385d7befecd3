import type { Migration } from '../migrate';

/**
 * The chunking judge's decisions (cached by document content and settings)
 * and every attempt of the LLM tree split (proposal, review, validation
 * errors, diff, outcome, the LLM calls it used), so the UI can show why a
 * node was split the way it was, or why it fell back.
 */
export const migration0030TreeSplit: Migration = {
  version: 30,
  name: '0030-treesplit',
  up(db) {
    db.exec(`
      CREATE TABLE judge_decisions (
        id INTEGER PRIMARY KEY,
        document_sha256 TEXT NOT NULL,
        settings_hash TEXT NOT NULL,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        strategy TEXT NOT NULL CHECK (strategy IN ('outline', 'headings', 'pages', 'sentences', 'llm-tree')),
        params_json TEXT NOT NULL,
        justification TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('llm', 'fallback', 'override', 'disabled')),
        fallback_reason TEXT,
        facts_json TEXT NOT NULL,
        llm_call_ids_json TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX judge_decisions_by_key ON judge_decisions(document_sha256, settings_hash, id);
      CREATE INDEX judge_decisions_by_document ON judge_decisions(document_id, id);

      CREATE TABLE split_attempts (
        id INTEGER PRIMARY KEY,
        run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        node_key TEXT NOT NULL,
        node_path_json TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        chapters_json TEXT NOT NULL,
        review_json TEXT,
        validation_errors_json TEXT NOT NULL DEFAULT '[]',
        diff_json TEXT,
        outcome TEXT NOT NULL CHECK (outcome IN ('accepted', 'validation_failed', 'review_failed', 'invalid_reply', 'fallback')),
        llm_call_ids_json TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX split_attempts_by_document ON split_attempts(document_id, node_key, attempt);
      CREATE INDEX split_attempts_by_run ON split_attempts(run_id, id);
    `);
  },
};
