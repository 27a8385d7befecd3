import type { Migration } from '../migrate';

/**
 * Ask the documents (retrieval/): the search units (leaf chunks of a
 * document's current tree, and merged findings with their evidence), their
 * FTS5 index (BM25), which units are embedded by which model (the vectors
 * themselves live in sqlite-vec tables created at run time, one per model
 * and dimension, because vec0 needs the extension loaded), the retrieval
 * judge's decisions (cached like the chunking judge's), and conversations
 * with their messages per library or document.
 */
export const migration0140Retrieval: Migration = {
  version: 140,
  name: '0140-retrieval',
  up(db) {
    db.exec(`
      CREATE TABLE retrieval_units (
        id INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('chunk', 'finding')),
        -- 'chunk': "<tree_id>:<node_index>"; 'finding': "merged:<merged_findings.id>".
        source_key TEXT NOT NULL,
        tree_id INTEGER,
        node_index INTEGER,
        merged_finding_id INTEGER,
        title TEXT NOT NULL,
        path_json TEXT NOT NULL,
        start_offset INTEGER NOT NULL,
        end_offset INTEGER NOT NULL,
        page_start INTEGER NOT NULL,
        page_end INTEGER NOT NULL,
        -- Hash of the indexed text: a changed unit is re-indexed, an unchanged one is skipped.
        content_hash TEXT NOT NULL,
        indexed_at TEXT NOT NULL,
        UNIQUE (document_id, kind, source_key)
      ) STRICT;
      CREATE INDEX retrieval_units_by_tree ON retrieval_units(tree_id, node_index);

      -- rowid = retrieval_units.id. Porter stemming so "overflows" finds "overflow".
      CREATE VIRTUAL TABLE retrieval_fts USING fts5(title, body, tokenize = 'porter unicode61 remove_diacritics 2');

      CREATE TABLE retrieval_vector_spaces (
        id INTEGER PRIMARY KEY,
        model TEXT NOT NULL UNIQUE,
        dimension INTEGER NOT NULL,
        table_name TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      ) STRICT;

      -- Which unit is embedded in which space, from which text: the resume point of indexing.
      CREATE TABLE retrieval_embeddings (
        unit_id INTEGER NOT NULL REFERENCES retrieval_units(id) ON DELETE CASCADE,
        space_id INTEGER NOT NULL REFERENCES retrieval_vector_spaces(id) ON DELETE CASCADE,
        content_hash TEXT NOT NULL,
        call_id TEXT,
        embedded_at TEXT NOT NULL,
        PRIMARY KEY (unit_id, space_id)
      ) STRICT;

      CREATE TABLE retrieval_judge_decisions (
        id INTEGER PRIMARY KEY,
        -- Hash of question, round query, candidates (ids and text), model and prompt version.
        cache_key TEXT NOT NULL,
        question TEXT NOT NULL,
        round INTEGER NOT NULL,
        query TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('llm', 'cached', 'fallback')),
        refined_query TEXT,
        relevant_json TEXT NOT NULL,
        ranked_json TEXT NOT NULL,
        needs_more INTEGER NOT NULL CHECK (needs_more IN (0, 1)),
        justification TEXT NOT NULL,
        fallback_reason TEXT,
        call_id TEXT,
        model TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX retrieval_judge_by_key ON retrieval_judge_decisions(cache_key);

      CREATE TABLE conversations (
        id INTEGER PRIMARY KEY,
        -- 'library' (all documents) or 'document' (scope_document_id).
        scope TEXT NOT NULL CHECK (scope IN ('library', 'document')),
        scope_document_id INTEGER REFERENCES documents(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        CHECK ((scope = 'library') = (scope_document_id IS NULL))
      ) STRICT;

      CREATE TABLE conversation_messages (
        id INTEGER PRIMARY KEY,
        conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
        text TEXT NOT NULL,
        -- The assistant's full answer (citations, judge steps, notes) as JSON; NULL for questions.
        answer_json TEXT,
        created_at TEXT NOT NULL,
        UNIQUE (conversation_id, ordinal)
      ) STRICT;
    `);
  },
};
