import type { Migration } from '../migrate';
import { asShipped } from './shippedSql';

// One statement group per table, in the order they shipped in. Their text (its indentation too) is the shipped
// migration's, byte for byte: asShipped joins them back into the one string it executed.
const CHUNK_RESULTS = `
      CREATE TABLE chunk_results (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        tree_id INTEGER NOT NULL REFERENCES chunk_trees(id) ON DELETE CASCADE,
        node_index INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        error_code TEXT,
        error_message TEXT,
        summary TEXT,
        finding_count INTEGER NOT NULL DEFAULT 0,
        llm_calls INTEGER NOT NULL DEFAULT 0,
        -- llm_calls.call_id of the successful calls, JSON array.
        call_ids_json TEXT NOT NULL DEFAULT '[]',
        pieces INTEGER NOT NULL DEFAULT 1,
        started_at TEXT,
        finished_at TEXT,
        PRIMARY KEY (run_id, document_id, node_index)
      ) STRICT;
`;

const FINDINGS = `
      CREATE TABLE findings (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        tree_id INTEGER NOT NULL REFERENCES chunk_trees(id) ON DELETE CASCADE,
        node_index INTEGER NOT NULL,
        ordinal INTEGER NOT NULL,
        reported_id TEXT,
        finding_key TEXT,
        type TEXT NOT NULL,
        title TEXT NOT NULL,
        severity TEXT NOT NULL,
        severity_canonical TEXT,
        severity_rank INTEGER NOT NULL,
        description TEXT NOT NULL,
        evidence TEXT NOT NULL,
        reported_page INTEGER,
        grounding TEXT NOT NULL CHECK (grounding IN ('grounded', 'ungrounded')),
        match TEXT CHECK (match IN ('exact', 'normalized', 'fuzzy')),
        score REAL,
        evidence_start INTEGER,
        evidence_end INTEGER,
        -- Grounded page, else the reported page.
        page INTEGER,
        in_context_only INTEGER NOT NULL DEFAULT 0 CHECK (in_context_only IN (0, 1)),
        created_at TEXT NOT NULL,
        UNIQUE (run_id, document_id, node_index, ordinal)
      ) STRICT;
      CREATE INDEX findings_by_document ON findings(run_id, document_id, node_index);
      CREATE INDEX findings_by_key ON findings(run_id, document_id, finding_key);
`;

const MERGED_FINDINGS = `
      CREATE TABLE merged_findings (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        finding_key TEXT,
        title TEXT NOT NULL,
        type TEXT NOT NULL,
        severity TEXT NOT NULL,
        severity_canonical TEXT,
        severity_rank INTEGER NOT NULL,
        description TEXT NOT NULL,
        main_page INTEGER,
        main_finding_id INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,
        grounded INTEGER NOT NULL CHECK (grounded IN (0, 1)),
        source_count INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (run_id, document_id, ordinal)
      ) STRICT;
`;

const MERGED_FINDING_SOURCES = `
      CREATE TABLE merged_finding_sources (
        merged_id INTEGER NOT NULL REFERENCES merged_findings(id) ON DELETE CASCADE,
        finding_id INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,
        is_main INTEGER NOT NULL CHECK (is_main IN (0, 1)),
        PRIMARY KEY (merged_id, finding_id)
      ) STRICT;
      CREATE INDEX merged_finding_sources_by_finding ON merged_finding_sources(finding_id);
`;

const MERGE_DECISIONS = `
      CREATE TABLE merge_decisions (
        id INTEGER PRIMARY KEY,
        merged_id INTEGER NOT NULL REFERENCES merged_findings(id) ON DELETE CASCADE,
        kept_finding_id INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,
        absorbed_finding_id INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,
        reason TEXT NOT NULL CHECK (reason IN ('same-id', 'similar-text', 'boundary-overlap')),
        score REAL NOT NULL,
        -- Set when the auditor undoes the decision (UI, later).
        undone_at TEXT
      ) STRICT;
      CREATE INDEX merge_decisions_by_merged ON merge_decisions(merged_id);
`;

const SUMMARIES = `
      CREATE TABLE summaries (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        -- 0 = the document summary; intermediate map outputs may be kept at their level (1, 2...).
        level INTEGER NOT NULL,
        ordinal INTEGER NOT NULL DEFAULT 0,
        text TEXT NOT NULL,
        chunk_count INTEGER NOT NULL,
        levels INTEGER NOT NULL,
        model TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (run_id, document_id, level, ordinal)
      ) STRICT;
`;

/**
 * Findings extraction: per-chunk results (the resume point of a run), raw
 * findings as each chunk reported them (grounded or not), merged findings with
 * their sources and the merge decisions (so the UI can show and undo them),
 * and document summaries. A chunk's findings and its `done` mark are written
 * in one transaction (extract/store.ts commitChunkResult).
 */
export const migration0040Findings: Migration = {
  version: 40,
  name: '0040-findings',
  up(db) {
    db.exec(asShipped([CHUNK_RESULTS, FINDINGS, MERGED_FINDINGS, MERGED_FINDING_SOURCES, MERGE_DECISIONS, SUMMARIES]));
  },
};
