import type { Migration } from '../migrate';

/**
 * The LLM layer's tables: one row per attempt of every call (the UI's LLM
 * panel and benchmarks read it), the response cache, and the per-model token
 * estimate calibration.
 */
export const migration0020Llm: Migration = {
  version: 20,
  name: '0020-llm',
  up(db) {
    db.exec(`
      CREATE TABLE llm_calls (
        id INTEGER PRIMARY KEY,
        -- All attempts of one logical call share it.
        call_id TEXT NOT NULL,
        run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
        document_id INTEGER REFERENCES documents(id) ON DELETE SET NULL,
        chunk_ref TEXT,
        purpose TEXT NOT NULL CHECK (purpose IN ('judge', 'split', 'review', 'extract', 'summary', 'qa', 'embed', 'probe')),
        model TEXT NOT NULL,
        options_json TEXT NOT NULL,
        prompt_hash TEXT NOT NULL,
        estimated_prompt_tokens INTEGER,
        prompt_eval_count INTEGER,
        eval_count INTEGER,
        total_ms REAL,
        load_ms REAL,
        prompt_eval_ms REAL,
        eval_ms REAL,
        done_reason TEXT,
        outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'retried', 'failed', 'cancelled', 'cached')),
        error_code TEXT,
        error_message TEXT,
        attempt INTEGER NOT NULL,
        started_at TEXT NOT NULL,
        finished_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX llm_calls_by_run ON llm_calls(run_id, id);
      CREATE INDEX llm_calls_by_document ON llm_calls(document_id, id);
      CREATE INDEX llm_calls_by_call ON llm_calls(call_id);

      CREATE TABLE llm_cache (
        key TEXT PRIMARY KEY,
        model TEXT NOT NULL,
        purpose TEXT NOT NULL,
        content TEXT NOT NULL,
        created_at TEXT NOT NULL,
        hits INTEGER NOT NULL DEFAULT 0,
        last_hit_at TEXT
      ) STRICT;

      CREATE TABLE llm_token_calibration (
        model TEXT PRIMARY KEY,
        factor REAL NOT NULL,
        samples INTEGER NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
