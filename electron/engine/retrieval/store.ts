/**
 * Every SQL statement of retrieval: the index's units and its FTS5 table, the
 * sqlite-vec vector spaces, the retrieval judge's decisions, conversations,
 * and the few document facts retrieval reads. Plain functions of the
 * connection with explicit row mappers; the other files of the module hold
 * the logic and call these (README, Layout: all SQL lives in store modules).
 * Reads take the read handle (ReadDb), writes the connection.
 * Table names of vector spaces are ours (`retrieval_vec_<id>`), never user text.
 */
import type { Database } from 'better-sqlite3';
import type { ReadDb } from '../store';
import type { AskAnswer, ConversationSummary, StoredConversation } from '../../../shared/retrieval';

// ---- documents (what retrieval reads of them) ----

export function countDocuments(db: ReadDb): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM documents').get() as { n: number }).n;
}

/** The newest document stored under this path or file name. */
export function findDocumentByPathOrName(db: ReadDb, path: string, fileName: string): number | undefined {
  return (
    db.prepare('SELECT id FROM documents WHERE file_path = ? OR file_name = ? ORDER BY id DESC LIMIT 1').get(path, fileName) as { id: number } | undefined
  )?.id;
}

export function listDocumentFiles(db: ReadDb): { documentId: number; fileName: string; filePath: string }[] {
  const rows = db.prepare('SELECT id, file_name, file_path FROM documents ORDER BY id').all() as { id: number; file_name: string; file_path: string }[];
  return rows.map((r) => ({ documentId: r.id, fileName: r.file_name, filePath: r.file_path }));
}

export function listDocumentIds(db: ReadDb): number[] {
  return (db.prepare('SELECT id FROM documents ORDER BY id').all() as { id: number }[]).map((r) => r.id);
}

export function documentFileName(db: ReadDb, documentId: number): string | undefined {
  return (db.prepare('SELECT file_name FROM documents WHERE id = ?').get(documentId) as { file_name: string } | undefined)?.file_name;
}

/** A merged finding of the document's latest run that has any, with its main finding's evidence and chunk. */
export interface FindingUnitRow {
  id: number;
  title: string;
  findingKey: string | null;
  severity: string;
  description: string;
  mainPage: number | null;
  evidence: string;
  treeId: number;
  nodeIndex: number;
  start: number;
  end: number;
  pageStart: number;
  pageEnd: number;
  path: string[];
}

export function latestMergedFindingsWithChunks(db: ReadDb, documentId: number): FindingUnitRow[] {
  const rows = db
    .prepare(
      `SELECT m.id, m.title, m.finding_key, m.severity, m.description, m.main_page, f.evidence, f.tree_id, f.node_index, c.start_offset, c.end_offset, c.page_start, c.page_end, c.path_json
         FROM merged_findings m
         JOIN findings f ON f.id = m.main_finding_id
         JOIN chunks c ON c.tree_id = f.tree_id AND c.node_index = f.node_index
        WHERE m.document_id = ? AND m.run_id = (SELECT MAX(run_id) FROM merged_findings WHERE document_id = ?)
        ORDER BY m.ordinal`,
    )
    .all(documentId, documentId) as {
    id: number;
    title: string;
    finding_key: string | null;
    severity: string;
    description: string;
    main_page: number | null;
    evidence: string;
    tree_id: number;
    node_index: number;
    start_offset: number;
    end_offset: number;
    page_start: number;
    page_end: number;
    path_json: string;
  }[];
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    findingKey: r.finding_key,
    severity: r.severity,
    description: r.description,
    mainPage: r.main_page,
    evidence: r.evidence,
    treeId: r.tree_id,
    nodeIndex: r.node_index,
    start: r.start_offset,
    end: r.end_offset,
    pageStart: r.page_start,
    pageEnd: r.page_end,
    path: JSON.parse(r.path_json) as string[],
  }));
}

// ---- units and the FTS5 table ----

/** A unit as the index stores it (the indexed words live in the FTS table). */
/**
 * A retrieval unit, the one shape of it: a leaf of the chunk tree or a merged finding, where it sits in its
 * document (title path, offsets, pages) and the hash of the words it is indexed with. The variants below add
 * only what their side has.
 */
export interface RetrievalUnit {
  kind: 'chunk' | 'finding';
  documentId: number;
  treeId: number | null;
  nodeIndex: number | null;
  mergedFindingId: number | null;
  title: string;
  path: string[];
  start: number;
  end: number;
  pageStart: number;
  pageEnd: number;
  contentHash: string;
}

/** A unit as the index holds it (a retrieval_units row). */
export type StoredUnit = RetrievalUnit & { id: number };

/** A unit as the document holds it now (units.ts desiredUnits): its key among the document's units, and the words to index (FTS body, embedding input). */
export type UnitSource = RetrievalUnit & { sourceKey: string; body: string };

interface UnitRow {
  id: number;
  document_id: number;
  kind: 'chunk' | 'finding';
  tree_id: number | null;
  node_index: number | null;
  merged_finding_id: number | null;
  title: string;
  path_json: string;
  start_offset: number;
  end_offset: number;
  page_start: number;
  page_end: number;
  content_hash: string;
}

const UNIT_COLUMNS =
  'id, document_id, kind, tree_id, node_index, merged_finding_id, title, path_json, start_offset, end_offset, page_start, page_end, content_hash';

const toUnit = (r: UnitRow): StoredUnit => ({
  id: r.id,
  documentId: r.document_id,
  kind: r.kind,
  treeId: r.tree_id,
  nodeIndex: r.node_index,
  mergedFindingId: r.merged_finding_id,
  title: r.title,
  path: JSON.parse(r.path_json) as string[],
  start: r.start_offset,
  end: r.end_offset,
  pageStart: r.page_start,
  pageEnd: r.page_end,
  contentHash: r.content_hash,
});

export function selectUnits(db: ReadDb, ids: readonly number[]): StoredUnit[] {
  if (ids.length === 0) return [];
  return (db.prepare(`SELECT ${UNIT_COLUMNS} FROM retrieval_units WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as UnitRow[]).map(
    toUnit,
  );
}

/** The chunk unit right before (`before`) or after a node of a tree. */
export function adjacentChunkUnit(db: ReadDb, treeId: number, nodeIndex: number, side: 'before' | 'after'): StoredUnit | undefined {
  const row = db
    .prepare(
      side === 'before'
        ? `SELECT ${UNIT_COLUMNS} FROM retrieval_units WHERE tree_id = ? AND kind = 'chunk' AND node_index < ? ORDER BY node_index DESC LIMIT 1`
        : `SELECT ${UNIT_COLUMNS} FROM retrieval_units WHERE tree_id = ? AND kind = 'chunk' AND node_index > ? ORDER BY node_index ASC LIMIT 1`,
    )
    .get(treeId, nodeIndex) as UnitRow | undefined;
  return row && toUnit(row);
}

/** A unit's indexed title and words, from the FTS table. */
export function unitIndexedText(db: ReadDb): (unitId: number) => { title: string; body: string } | undefined {
  const statement = db.prepare('SELECT title, body FROM retrieval_fts WHERE rowid = ?');
  return (unitId) => statement.get(BigInt(unitId)) as { title: string; body: string } | undefined;
}

/** BM25 over the FTS table (title weighted 2, body 1), best first, optionally among some documents' units. */
export function bm25Matches(db: ReadDb, expression: string, depth: number, documentIds?: readonly number[]): { unitId: number; bm25: number }[] {
  const scoped = documentIds !== undefined;
  const rows = db
    .prepare(
      `SELECT f.rowid AS unitId, bm25(retrieval_fts, 2.0, 1.0) AS bm25
         FROM retrieval_fts f ${scoped ? 'JOIN retrieval_units u ON u.id = f.rowid' : ''}
        WHERE retrieval_fts MATCH ? ${scoped ? 'AND u.document_id IN (SELECT value FROM json_each(?))' : ''}
        ORDER BY bm25 LIMIT ?`,
    )
    .all(...(scoped ? [expression, JSON.stringify(documentIds), depth] : [expression, depth])) as { unitId: number; bm25: number }[];
  return rows.map((r) => ({ unitId: Number(r.unitId), bm25: r.bm25 }));
}

export interface IndexedUnitKey {
  id: number;
  kind: string;
  sourceKey: string;
  contentHash: string;
}

export function indexedUnitKeys(db: ReadDb, documentId: number): IndexedUnitKey[] {
  const rows = db.prepare('SELECT id, kind, source_key, content_hash FROM retrieval_units WHERE document_id = ?').all(documentId) as {
    id: number;
    kind: string;
    source_key: string;
    content_hash: string;
  }[];
  return rows.map((r) => ({ id: r.id, kind: r.kind, sourceKey: r.source_key, contentHash: r.content_hash }));
}

/** What a unit is written with: its source and the FTS title, without the words' hash check (the caller decides). */
export type UnitWrite = UnitSource & { ftsTitle: string };

/** Writers for one lexical sync (prepared once): insert, update (the unit's old embedding marks go), delete. */
export function unitWriter(db: Database, now: string) {
  const insert = db.prepare(
    `INSERT INTO retrieval_units (document_id, kind, source_key, tree_id, node_index, merged_finding_id, title, path_json, start_offset, end_offset, page_start, page_end, content_hash, indexed_at)
     VALUES (@documentId, @kind, @sourceKey, @treeId, @nodeIndex, @mergedFindingId, @title, @pathJson, @start, @end, @pageStart, @pageEnd, @contentHash, @now)`,
  );
  const update = db.prepare(
    `UPDATE retrieval_units SET title = @title, path_json = @pathJson, start_offset = @start, end_offset = @end, page_start = @pageStart, page_end = @pageEnd,
            content_hash = @contentHash, indexed_at = @now WHERE id = @id`,
  );
  const putFts = db.prepare('INSERT INTO retrieval_fts (rowid, title, body) VALUES (?, ?, ?)');
  const delFts = db.prepare('DELETE FROM retrieval_fts WHERE rowid = ?');
  const delEmbeddings = db.prepare('DELETE FROM retrieval_embeddings WHERE unit_id = ?');
  const delUnit = db.prepare('DELETE FROM retrieval_units WHERE id = ?');
  const params = (u: UnitWrite) => ({
    documentId: u.documentId,
    kind: u.kind,
    sourceKey: u.sourceKey,
    treeId: u.treeId,
    nodeIndex: u.nodeIndex,
    mergedFindingId: u.mergedFindingId,
    title: u.title,
    pathJson: JSON.stringify(u.path),
    start: u.start,
    end: u.end,
    pageStart: u.pageStart,
    pageEnd: u.pageEnd,
    contentHash: u.contentHash,
    now,
  });
  return {
    insert(u: UnitWrite): number {
      const id = Number(insert.run(params(u)).lastInsertRowid);
      putFts.run(BigInt(id), u.ftsTitle, u.body);
      return id;
    },
    /** New words for a unit: its embedding marks describe the old text and go too (its vectors are the caller's). */
    update(id: number, u: UnitWrite): void {
      update.run({ ...params(u), id });
      delFts.run(BigInt(id));
      putFts.run(BigInt(id), u.ftsTitle, u.body);
      delEmbeddings.run(id);
    },
    remove(id: number): void {
      delFts.run(BigInt(id));
      delUnit.run(id);
    },
  };
}

export interface UnitToEmbed {
  id: number;
  title: string;
  path: string[];
  contentHash: string;
  documentId: number;
}

/** Units of these documents without an embedding of their current words in this space (all of them when there is no space yet). */
export function unitsWithoutEmbedding(db: ReadDb, documentIds: readonly number[], spaceId: number | undefined): UnitToEmbed[] {
  const rows = db
    .prepare(
      `SELECT u.id, u.title, u.path_json, u.content_hash, u.document_id
         FROM retrieval_units u
        WHERE u.document_id IN (SELECT value FROM json_each(?))
          AND NOT EXISTS (SELECT 1 FROM retrieval_embeddings e WHERE e.unit_id = u.id AND e.space_id = ? AND e.content_hash = u.content_hash)
        ORDER BY u.document_id, u.id`,
    )
    .all(JSON.stringify(documentIds), spaceId ?? -1) as { id: number; title: string; path_json: string; content_hash: string; document_id: number }[];
  return rows.map((r) => ({ id: r.id, title: r.title, path: JSON.parse(r.path_json) as string[], contentHash: r.content_hash, documentId: r.document_id }));
}

/** Marks units as embedded in a space (for their current words' hash). */
export function embeddingMarker(db: Database): (unitId: number, spaceId: number, contentHash: string, callId: string, at: string) => void {
  const mark = db.prepare('INSERT OR REPLACE INTO retrieval_embeddings (unit_id, space_id, content_hash, call_id, embedded_at) VALUES (?, ?, ?, ?, ?)');
  return (unitId, spaceId, contentHash, callId, at) => void mark.run(unitId, spaceId, contentHash, callId, at);
}

// ---- vector spaces (sqlite-vec; the extension must be loaded on the connection) ----

export interface VectorSpace {
  id: number;
  model: string;
  dimension: number;
  tableName: string;
}

export function selectVectorSpace(db: ReadDb, model: string): VectorSpace | undefined {
  const row = db.prepare('SELECT id, model, dimension, table_name FROM retrieval_vector_spaces WHERE model = ?').get(model) as
    | { id: number; model: string; dimension: number; table_name: string }
    | undefined;
  return row && { id: row.id, model: row.model, dimension: row.dimension, tableName: row.table_name };
}

export function vectorTableNames(db: ReadDb): string[] {
  return (db.prepare('SELECT table_name FROM retrieval_vector_spaces').all() as { table_name: string }[]).map((r) => r.table_name);
}

/** A new space and its vec0 table, partitioned by document (a question about a few documents scans only their vectors). */
export function createVectorSpace(db: Database, model: string, dimension: number, now: string): VectorSpace {
  const id = Number(
    db.prepare("INSERT INTO retrieval_vector_spaces (model, dimension, table_name, created_at) VALUES (?, ?, '', ?)").run(model, dimension, now)
      .lastInsertRowid,
  );
  const tableName = `retrieval_vec_${id}`;
  db.exec(`CREATE VIRTUAL TABLE ${tableName} USING vec0(document_id integer partition key, embedding float[${dimension}] distance_metric=cosine)`);
  db.prepare('UPDATE retrieval_vector_spaces SET table_name = ? WHERE id = ?').run(tableName, id);
  return { id, model, dimension, tableName };
}

export function dropVectorSpace(db: Database, space: VectorSpace): void {
  db.exec(`DROP TABLE IF EXISTS ${space.tableName}`);
  db.prepare('DELETE FROM retrieval_vector_spaces WHERE id = ?').run(space.id);
}

export function replaceVector(db: Database, space: VectorSpace, unitId: number, documentId: number, vector: Float32Array): void {
  db.prepare(`DELETE FROM ${space.tableName} WHERE rowid = ?`).run(BigInt(unitId));
  db.prepare(`INSERT INTO ${space.tableName} (rowid, document_id, embedding) VALUES (?, ?, ?)`).run(BigInt(unitId), BigInt(documentId), vector);
}

export function deleteVectorRows(db: Database, tableName: string, unitIds: readonly number[]): void {
  const del = db.prepare(`DELETE FROM ${tableName} WHERE rowid = ?`);
  for (const id of unitIds) del.run(BigInt(id));
}

/** KNN in a space, nearest first, optionally in one document's partition. */
export function knn(db: ReadDb, space: VectorSpace, query: Float32Array, k: number, documentId?: number): { unitId: number; distance: number }[] {
  const rows =
    documentId === undefined
      ? (db.prepare(`SELECT rowid, distance FROM ${space.tableName} WHERE embedding MATCH ? AND k = ? ORDER BY distance`).all(query, k) as {
          rowid: number;
          distance: number;
        }[])
      : (db
          .prepare(`SELECT rowid, distance FROM ${space.tableName} WHERE embedding MATCH ? AND k = ? AND document_id = ? ORDER BY distance`)
          .all(query, k, BigInt(documentId)) as {
          rowid: number;
          distance: number;
        }[]);
  return rows.map((r) => ({ unitId: Number(r.rowid), distance: r.distance }));
}

// ---- the retrieval judge's decisions ----

export interface JudgeDecisionWrite {
  cacheKey: string;
  question: string;
  round: number;
  query: string;
  source: string;
  refinedQuery: string | null;
  keptUnitIds: readonly number[];
  needsMore: boolean;
  justification: string;
  fallbackReason: string | null;
  callId: string | null;
  model: string;
  at: string;
}

export function insertJudgeDecision(db: Database, d: JudgeDecisionWrite): void {
  db.prepare(
    `INSERT INTO retrieval_judge_decisions (cache_key, question, round, query, source, refined_query, relevant_json, ranked_json, needs_more, justification, fallback_reason, call_id, model, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    d.cacheKey,
    d.question,
    d.round,
    d.query,
    d.source,
    d.refinedQuery,
    JSON.stringify(d.keptUnitIds),
    JSON.stringify(d.keptUnitIds),
    d.needsMore ? 1 : 0,
    d.justification,
    d.fallbackReason,
    d.callId,
    d.model,
    d.at,
  );
}

/** The newest decision the model made for this cache key. */
export function cachedModelDecision(
  db: Database,
  cacheKey: string,
): { refinedQuery: string | null; keptUnitIds: number[]; needsMore: boolean; justification: string; callId: string | null } | undefined {
  const row = db
    .prepare(
      "SELECT refined_query, ranked_json, needs_more, justification, call_id FROM retrieval_judge_decisions WHERE cache_key = ? AND source = 'llm' ORDER BY id DESC LIMIT 1",
    )
    .get(cacheKey) as { refined_query: string | null; ranked_json: string; needs_more: number; justification: string; call_id: string | null } | undefined;
  return (
    row && {
      refinedQuery: row.refined_query,
      keptUnitIds: JSON.parse(row.ranked_json) as number[],
      needsMore: row.needs_more === 1,
      justification: row.justification,
      callId: row.call_id,
    }
  );
}

// ---- conversations (migration 0140) ----

export function insertConversation(db: Database, scope: 'library' | 'document', documentId: number | null, title: string, now: string): number {
  return Number(
    db
      .prepare('INSERT INTO conversations (scope, scope_document_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
      .run(scope, documentId, title, now, now).lastInsertRowid,
  );
}

export function conversationExists(db: ReadDb, conversationId: number): boolean {
  return db.prepare('SELECT 1 FROM conversations WHERE id = ?').get(conversationId) !== undefined;
}

/** A question and its answer as the next two messages; the conversation's time moves on. */
export function insertExchange(db: Database, conversationId: number, question: string, answer: AskAnswer, now: string): void {
  const next = (
    db.prepare('SELECT COALESCE(MAX(ordinal), 0) + 1 AS n FROM conversation_messages WHERE conversation_id = ?').get(conversationId) as { n: number }
  ).n;
  const insert = db.prepare('INSERT INTO conversation_messages (conversation_id, ordinal, role, text, answer_json, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  insert.run(conversationId, next, 'user', question, null, now);
  insert.run(conversationId, next + 1, 'assistant', answer.text, JSON.stringify(answer), now);
  db.prepare('UPDATE conversations SET updated_at = ? WHERE id = ?').run(now, conversationId);
}

export function selectConversationSummaries(db: ReadDb, filter: { documentId?: number; scope?: 'library' | 'document' }): ConversationSummary[] {
  const rows = db
    .prepare(
      `SELECT c.id, c.scope, c.scope_document_id, c.title, c.updated_at, (SELECT COUNT(*) FROM conversation_messages m WHERE m.conversation_id = c.id) AS n
         FROM conversations c
        WHERE (@scope IS NULL OR c.scope = @scope) AND (@documentId IS NULL OR c.scope_document_id = @documentId)
        ORDER BY c.updated_at DESC, c.id DESC`,
    )
    .all({ scope: filter.scope ?? null, documentId: filter.documentId ?? null }) as {
    id: number;
    scope: 'library' | 'document';
    scope_document_id: number | null;
    title: string;
    updated_at: string;
    n: number;
  }[];
  return rows.map((r) => ({ id: r.id, scope: r.scope, documentId: r.scope_document_id, title: r.title, messageCount: r.n, updatedAt: r.updated_at }));
}

export function selectConversationMessages(db: ReadDb, conversationId: number): StoredConversation['messages'] {
  const rows = db
    .prepare('SELECT id, role, text, answer_json, created_at FROM conversation_messages WHERE conversation_id = ? ORDER BY ordinal')
    .all(conversationId) as { id: number; role: 'user' | 'assistant'; text: string; answer_json: string | null; created_at: string }[];
  return rows.map((r) => ({
    id: r.id,
    role: r.role,
    text: r.text,
    answer: r.answer_json ? (JSON.parse(r.answer_json) as AskAnswer) : null,
    createdAt: r.created_at,
  }));
}
