import type { Migration } from '../migrate';
import { asShipped } from './shippedSql';

// One statement group per table, in the order they shipped in. Their text (its indentation too) is the shipped
// migration's, byte for byte: asShipped joins them back into the one string it executed.
const DOCUMENTS = `
      CREATE TABLE documents (
        id INTEGER PRIMARY KEY,
        sha256 TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('pdf', 'txt', 'md')),
        file_name TEXT NOT NULL,
        file_path TEXT NOT NULL,
        byte_size INTEGER NOT NULL,
        page_count INTEGER NOT NULL,
        canonical_text TEXT NOT NULL,
        metadata_json TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
`;

const PAGES = `
      CREATE TABLE pages (
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        page_number INTEGER NOT NULL,
        start_offset INTEGER NOT NULL,
        end_offset INTEGER NOT NULL,
        has_text_layer INTEGER NOT NULL CHECK (has_text_layer IN (0, 1)),
        PRIMARY KEY (document_id, page_number)
      ) STRICT;
`;

const LINES = `
      -- Rebuilt lines with typography: the input of heading detection and of later re-chunking.
      CREATE TABLE lines (
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        line_index INTEGER NOT NULL,
        start_offset INTEGER NOT NULL,
        end_offset INTEGER NOT NULL,
        page_number INTEGER NOT NULL,
        font_size REAL NOT NULL,
        bold INTEGER NOT NULL CHECK (bold IN (0, 1)),
        markdown_level INTEGER,
        PRIMARY KEY (document_id, line_index)
      ) STRICT;
`;

const OUTLINE_ENTRIES = `
      CREATE TABLE outline_entries (
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        title TEXT NOT NULL,
        level INTEGER NOT NULL,
        page_number INTEGER,
        PRIMARY KEY (document_id, ordinal)
      ) STRICT;
`;

const CHUNK_TREES = `
      -- A document can have several trees (deterministic, LLM-refined, other settings); one is current.
      CREATE TABLE chunk_trees (
        id INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        strategy TEXT NOT NULL,
        params_json TEXT NOT NULL,
        params_hash TEXT NOT NULL,
        is_current INTEGER NOT NULL DEFAULT 0 CHECK (is_current IN (0, 1)),
        created_at TEXT NOT NULL,
        UNIQUE (document_id, params_hash)
      ) STRICT;
      CREATE UNIQUE INDEX chunk_trees_one_current ON chunk_trees(document_id) WHERE is_current = 1;
`;

const CHUNKS = `
      CREATE TABLE chunks (
        tree_id INTEGER NOT NULL REFERENCES chunk_trees(id) ON DELETE CASCADE,
        node_index INTEGER NOT NULL,
        parent_index INTEGER,
        title TEXT NOT NULL,
        level INTEGER NOT NULL,
        path_json TEXT NOT NULL,
        start_offset INTEGER NOT NULL,
        end_offset INTEGER NOT NULL,
        page_start INTEGER NOT NULL,
        page_end INTEGER NOT NULL,
        token_estimate INTEGER NOT NULL,
        origin TEXT NOT NULL CHECK (origin IN ('root', 'outline', 'heading', 'page', 'sentence', 'llm')),
        is_leaf INTEGER NOT NULL CHECK (is_leaf IN (0, 1)),
        overlap_before INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tree_id, node_index)
      ) STRICT;
`;

const RUNS = `
      CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        mode TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'paused', 'cancelled', 'failed', 'done')),
        settings_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT,
        error_code TEXT,
        error_message TEXT
      ) STRICT;
`;

const RUN_INPUTS = `
      -- One row per file given to a run, kept even when the file never became a document (vanished, corrupt).
      CREATE TABLE run_inputs (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        file_path TEXT NOT NULL,
        document_id INTEGER REFERENCES documents(id),
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'paused', 'cancelled', 'failed', 'done')),
        phase TEXT,
        error_code TEXT,
        error_message TEXT,
        warnings_json TEXT NOT NULL DEFAULT '[]',
        PRIMARY KEY (run_id, ordinal)
      ) STRICT;
`;

const RUN_EVENTS = `
      CREATE TABLE run_events (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        level TEXT NOT NULL CHECK (level IN ('info', 'warn', 'error')),
        phase TEXT NOT NULL,
        document_id INTEGER,
        message TEXT NOT NULL,
        data_json TEXT
      ) STRICT;
      CREATE INDEX run_events_by_run ON run_events(run_id, id);
`;

const ID_MENTIONS = `
      CREATE TABLE id_mentions (
        id INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        pattern_name TEXT NOT NULL,
        raw TEXT NOT NULL,
        normalized TEXT NOT NULL,
        start_offset INTEGER NOT NULL,
        end_offset INTEGER NOT NULL,
        page_number INTEGER NOT NULL,
        rules_hash TEXT NOT NULL,
        UNIQUE (document_id, rules_hash, start_offset)
      ) STRICT;
      CREATE INDEX id_mentions_by_normalized ON id_mentions(document_id, normalized);
`;

/**
 * The foundation schema: documents and their pages, outline and chunk trees,
 * runs with per-input state and events, and the rules' ID mentions. Later
 * migrations add LLM calls, split attempts, findings, summaries and Q&A by
 * referencing these tables, not by rewriting them.
 */
export const migration0010Init: Migration = {
  version: 10,
  name: '0010-init',
  up(db) {
    db.exec(asShipped([DOCUMENTS, PAGES, LINES, OUTLINE_ENTRIES, CHUNK_TREES, CHUNKS, RUNS, RUN_INPUTS, RUN_EVENTS, ID_MENTIONS]));
  },
};
