/**
 * Every SQL statement of the review (tables of migration 0060): the
 * operations, the carry-over and the view call these and hold no SQL
 * themselves. Reads take the read handle (`ReadDb`), so a read cannot write;
 * writes take the connection. Writers here never open their own transaction:
 * callers wrap a change and its trail entry in one.
 */
import type { Database } from 'better-sqlite3';
import { documentExists, type ReadDb } from '../store';
import { AppError, ErrorCode } from '../../../shared/errors';
import type { FindingSource, MatchKind } from '../../../shared/findings';
import {
  EDITABLE_FIELDS,
  type EditableField,
  type FindingValues,
  type ReviewNote,
  type ReviewOrigin,
  type ReviewSource,
  type ReviewState,
  type TrailAction,
  type TrailEntry,
} from '../../../shared/review';

/** The name the engine writes in the trail for changes it makes itself (carry-over). */
export const SYSTEM_REVIEWER = 'engine';

export interface ReviewedRow {
  id: number;
  document_id: number;
  seq: number;
  origin: ReviewOrigin;
  state: ReviewState;
  reject_reason: string | null;
  finding_key: string | null;
  original_title: string;
  original_severity: string;
  original_type: string;
  original_description: string;
  title_override: string | null;
  severity_override: string | null;
  type_override: string | null;
  description_override: string | null;
  evidence_start: number | null;
  evidence_end: number | null;
  evidence_text: string | null;
  evidence_page: number | null;
  run_id: number | null;
  carried_from_run_id: number | null;
  vanished_in_run_id: number | null;
  changed_fields_json: string;
  latest_json: string | null;
  split_from: number | null;
  merged_into: number | null;
  created_at: string;
  updated_at: string;
}

export const nowIso = (): string => new Date().toISOString();

export function label(seq: number): string {
  return `R-${seq}`;
}

export function invalid(message: string, details?: Record<string, unknown>): AppError {
  return new AppError(ErrorCode.INVALID_INPUT, message, details);
}

export function checkReviewer(reviewer: string | undefined): string {
  const name = (reviewer ?? '').trim();
  if (!name) throw invalid('A reviewer name is required for every review change: set it in Settings.');
  return name;
}

export function findReviewed(db: ReadDb, id: number): ReviewedRow | undefined {
  return db.prepare('SELECT * FROM reviewed_findings WHERE id = ?').get(id) as ReviewedRow | undefined;
}

export function getReviewed(db: ReadDb, id: number): ReviewedRow {
  const row = findReviewed(db, id);
  if (!row) throw invalid(`There is no reviewed finding ${id}.`, { reviewedId: id });
  return row;
}

/** A reviewed finding that can still be changed (not merged into another). */
export function getActiveReviewed(db: ReadDb, id: number): ReviewedRow {
  const row = getReviewed(db, id);
  if (row.merged_into !== null) throw invalid(`${label(row.seq)} was merged into another finding; change that one instead.`, { reviewedId: id });
  return row;
}

export function listReviewedRows(db: ReadDb, documentId: number, options: { includeMerged?: boolean } = {}): ReviewedRow[] {
  return db
    .prepare(`SELECT * FROM reviewed_findings WHERE document_id = ? ${options.includeMerged ? '' : 'AND merged_into IS NULL'} ORDER BY seq`)
    .all(documentId) as ReviewedRow[];
}

export function originalValues(row: ReviewedRow): FindingValues {
  return { title: row.original_title, severity: row.original_severity, type: row.original_type, description: row.original_description };
}

export function overrideOf(row: ReviewedRow, field: EditableField): string | null {
  return row[`${field}_override` as const];
}

export function effectiveValues(row: ReviewedRow): FindingValues {
  const o = originalValues(row);
  return {
    title: row.title_override ?? o.title,
    severity: row.severity_override ?? o.severity,
    type: row.type_override ?? o.type,
    description: row.description_override ?? o.description,
  };
}

export function editedFields(row: ReviewedRow): EditableField[] {
  return EDITABLE_FIELDS.filter((f) => overrideOf(row, f) !== null);
}

export function changedFields(row: ReviewedRow): EditableField[] {
  return JSON.parse(row.changed_fields_json) as EditableField[];
}

export function latestValues(row: ReviewedRow): FindingValues | null {
  return row.latest_json === null ? null : (JSON.parse(row.latest_json) as FindingValues);
}

export function differingFields(a: FindingValues, b: FindingValues): EditableField[] {
  return EDITABLE_FIELDS.filter((f) => a[f] !== b[f]);
}

export interface DocumentReviewRow {
  document_id: number;
  run_id: number | null;
  next_seq: number;
  updated_at: string;
}

export function getReviewDocument(db: ReadDb, documentId: number): DocumentReviewRow | undefined {
  return db.prepare('SELECT * FROM review_documents WHERE document_id = ?').get(documentId) as DocumentReviewRow | undefined;
}

export function ensureReviewDocument(db: Database, documentId: number, now: string): DocumentReviewRow {
  const existing = getReviewDocument(db, documentId);
  if (existing) return existing;
  if (!documentExists(db, documentId)) throw invalid(`There is no document ${documentId}.`, { documentId });
  db.prepare('INSERT INTO review_documents (document_id, run_id, next_seq, updated_at) VALUES (?, NULL, 1, ?)').run(documentId, now);
  return getReviewDocument(db, documentId)!;
}

export function nextSeq(db: Database, documentId: number, now: string): number {
  const doc = ensureReviewDocument(db, documentId, now);
  db.prepare('UPDATE review_documents SET next_seq = next_seq + 1, updated_at = ? WHERE document_id = ?').run(now, documentId);
  return doc.next_seq;
}

export interface NewReviewed {
  documentId: number;
  origin: ReviewOrigin;
  findingKey: string | null;
  values: FindingValues;
  runId: number | null;
  latest: FindingValues | null;
  splitFrom?: number | null;
  evidence?: { start: number; end: number; text: string; page: number } | null;
  now: string;
}

export function insertReviewed(db: Database, input: NewReviewed): { id: number; seq: number } {
  const seq = nextSeq(db, input.documentId, input.now);
  const v = input.values;
  const id = Number(
    db
      .prepare(
        `INSERT INTO reviewed_findings (document_id, seq, origin, state, finding_key, original_title, original_severity, original_type,
           original_description, evidence_start, evidence_end, evidence_text, evidence_page, run_id, latest_json, split_from, created_at, updated_at)
         VALUES (?, ?, ?, 'new', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        input.documentId,
        seq,
        input.origin,
        input.findingKey,
        v.title,
        v.severity,
        v.type,
        v.description,
        input.evidence?.start ?? null,
        input.evidence?.end ?? null,
        input.evidence?.text ?? null,
        input.evidence?.page ?? null,
        input.runId,
        input.latest === null ? null : JSON.stringify(input.latest),
        input.splitFrom ?? null,
        input.now,
        input.now,
      ).lastInsertRowid,
  );
  return { id, seq };
}

export function linkSources(db: Database, reviewedId: number, runId: number, findingIds: readonly number[]): void {
  const insert = db.prepare('INSERT INTO review_sources (reviewed_id, run_id, finding_id) VALUES (?, ?, ?) ON CONFLICT (run_id, finding_id) DO NOTHING');
  for (const f of findingIds) insert.run(reviewedId, runId, f);
}

export function linkedFindingIds(db: ReadDb, reviewedId: number, runId: number): number[] {
  return (
    db.prepare('SELECT finding_id FROM review_sources WHERE reviewed_id = ? AND run_id = ? ORDER BY finding_id').all(reviewedId, runId) as {
      finding_id: number;
    }[]
  ).map((r) => r.finding_id);
}

/** Normalised IDs a reviewed finding answers to: its own and those of every raw finding it stands for, in any run. */
export function keysOf(db: ReadDb, row: ReviewedRow): string[] {
  const keys = new Set<string>();
  if (row.finding_key) keys.add(row.finding_key);
  for (const r of db
    .prepare(
      'SELECT DISTINCT f.finding_key FROM review_sources rs JOIN findings f ON f.id = rs.finding_id WHERE rs.reviewed_id = ? AND f.finding_key IS NOT NULL',
    )
    .all(row.id) as { finding_key: string }[])
    keys.add(r.finding_key);
  return [...keys];
}

interface SourceRow {
  run_id: number;
  finding_id: number;
  node_index: number;
  reported_id: string | null;
  title: string;
  evidence: string;
  evidence_start: number | null;
  evidence_end: number | null;
  page: number | null;
  reported_page: number | null;
  grounding: 'grounded' | 'ungrounded';
  match: MatchKind | null;
  in_context_only: number;
  merged_id: number | null;
  is_main: number | null;
}

/** The sources of a reviewed finding in one run, with the merged finding of that run each is in. */
export function loadSources(db: ReadDb, reviewedId: number, runId: number): ReviewSource[] {
  const rows = db
    .prepare(
      `SELECT rs.run_id, f.id AS finding_id, f.node_index, f.reported_id, f.title, f.evidence, f.evidence_start, f.evidence_end, f.page, f.reported_page,
              f.grounding, f.match, f.in_context_only, mf.id AS merged_id, mfs.is_main
       FROM review_sources rs
       JOIN findings f ON f.id = rs.finding_id
       LEFT JOIN merged_finding_sources mfs ON mfs.finding_id = f.id
       LEFT JOIN merged_findings mf ON mf.id = mfs.merged_id AND mf.run_id = rs.run_id
       WHERE rs.reviewed_id = ? AND rs.run_id = ?`,
    )
    .all(reviewedId, runId) as SourceRow[];
  const seen = new Set<number>();
  const out: ReviewSource[] = [];
  for (const r of rows) {
    if (seen.has(r.finding_id)) continue;
    seen.add(r.finding_id);
    const source: FindingSource = {
      findingId: r.finding_id,
      nodeIndex: r.node_index,
      page: r.page ?? r.reported_page,
      title: r.title,
      evidence: r.evidence,
      evidenceStart: r.evidence_start,
      evidenceEnd: r.evidence_end,
      grounded: r.grounding === 'grounded',
      match: r.match,
      inContextOnly: r.in_context_only === 1,
      isMain: r.is_main === 1,
      modelId: r.reported_id,
    };
    out.push({ ...source, runId: r.run_id, mergedId: r.merged_id });
  }
  return out.sort((a, b) => (a.evidenceStart ?? Infinity) - (b.evidenceStart ?? Infinity) || a.findingId - b.findingId);
}

export function listNotes(db: ReadDb, reviewedId: number): ReviewNote[] {
  return (
    db.prepare('SELECT id, reviewed_id, reviewer, at, text FROM review_notes WHERE reviewed_id = ? ORDER BY id').all(reviewedId) as {
      id: number;
      reviewed_id: number;
      reviewer: string;
      at: string;
      text: string;
    }[]
  ).map((r) => ({ id: r.id, reviewedId: r.reviewed_id, reviewer: r.reviewer, at: r.at, text: r.text }));
}

export interface TrailInput {
  documentId: number;
  reviewedId: number | null;
  runId?: number | null;
  at: string;
  reviewer: string;
  action: TrailAction;
  field?: string | null;
  from?: string | null;
  to?: string | null;
  detail?: string | null;
}

/** The trail fields every change to one reviewed finding shares: which finding, of which document and run, when and by whom. */
export function trailOf(row: ReviewedRow, at: string, reviewer: string): Pick<TrailInput, 'documentId' | 'reviewedId' | 'runId' | 'at' | 'reviewer'> {
  return { documentId: row.document_id, reviewedId: row.id, runId: row.run_id, at, reviewer };
}

export function appendTrail(db: Database, e: TrailInput): void {
  db.prepare(
    'INSERT INTO review_trail (document_id, reviewed_id, run_id, at, reviewer, action, field, from_value, to_value, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(e.documentId, e.reviewedId, e.runId ?? null, e.at, e.reviewer, e.action, e.field ?? null, e.from ?? null, e.to ?? null, e.detail ?? null);
}

interface TrailRow {
  id: number;
  document_id: number;
  reviewed_id: number | null;
  run_id: number | null;
  at: string;
  reviewer: string;
  action: TrailAction;
  field: string | null;
  from_value: string | null;
  to_value: string | null;
  detail: string | null;
}

const toTrail = (r: TrailRow): TrailEntry => ({
  id: r.id,
  documentId: r.document_id,
  reviewedId: r.reviewed_id,
  runId: r.run_id,
  at: r.at,
  reviewer: r.reviewer,
  action: r.action,
  field: r.field,
  from: r.from_value,
  to: r.to_value,
  detail: r.detail,
});

/** The trail of a document, or of one reviewed finding, oldest first. */
export function listTrail(db: ReadDb, filter: { documentId?: number; reviewedId?: number }): TrailEntry[] {
  if (filter.reviewedId !== undefined) {
    return (db.prepare('SELECT * FROM review_trail WHERE reviewed_id = ? ORDER BY id').all(filter.reviewedId) as TrailRow[]).map(toTrail);
  }
  if (filter.documentId !== undefined) {
    return (db.prepare('SELECT * FROM review_trail WHERE document_id = ? ORDER BY id').all(filter.documentId) as TrailRow[]).map(toTrail);
  }
  throw invalid('listTrail needs a documentId or a reviewedId.');
}

/** The last change an auditor (not the engine) made to a reviewed finding. */
export function lastHumanChange(db: ReadDb, reviewedId: number): TrailEntry | undefined {
  const row = db.prepare('SELECT * FROM review_trail WHERE reviewed_id = ? AND reviewer <> ? ORDER BY id DESC LIMIT 1').get(reviewedId, SYSTEM_REVIEWER) as
    | TrailRow
    | undefined;
  return row && toTrail(row);
}

interface ValueRow {
  title: string;
  severity: string;
  type: string;
  description: string;
  finding_key: string | null;
}

/**
 * The model's values for a set of raw findings of one run: those of the merged
 * finding whose main source is among them, else of the strongest raw finding
 * (grounded in its own chunk first, then the most text), as merge picks its main.
 */
export function modelValuesOf(db: ReadDb, runId: number, findingIds: readonly number[]): { values: FindingValues; findingKey: string | null } | undefined {
  if (findingIds.length === 0) return undefined;
  const marks = findingIds.map(() => '?').join(', ');
  const merged = db
    .prepare(
      `SELECT title, severity, type, description, finding_key FROM merged_findings WHERE run_id = ? AND main_finding_id IN (${marks}) ORDER BY ordinal LIMIT 1`,
    )
    .get(runId, ...findingIds) as ValueRow | undefined;
  const raw =
    merged ??
    (db
      .prepare(
        `SELECT title, severity, type, description, finding_key FROM findings WHERE id IN (${marks})
         ORDER BY (grounding = 'grounded') DESC, in_context_only ASC, length(description) + length(evidence) DESC, id ASC LIMIT 1`,
      )
      .get(...findingIds) as ValueRow | undefined);
  if (!raw) return undefined;
  return { values: { title: raw.title, severity: raw.severity, type: raw.type, description: raw.description }, findingKey: raw.finding_key };
}

/** The reviewed findings merged into this one, in order. */
export function absorbedInto(db: ReadDb, reviewedId: number): number[] {
  return (db.prepare('SELECT id FROM reviewed_findings WHERE merged_into = ? ORDER BY seq').all(reviewedId) as { id: number }[]).map((r) => r.id);
}

/** For a whole document at once: reviewed finding -> the ones merged into it (asked per finding, each question scans the document's rows). */
export function absorbedByDocument(db: ReadDb, documentId: number): Map<number, number[]> {
  const absorbed = new Map<number, number[]>();
  for (const r of db
    .prepare('SELECT id, merged_into FROM reviewed_findings WHERE document_id = ? AND merged_into IS NOT NULL ORDER BY seq')
    .all(documentId) as { id: number; merged_into: number }[]) {
    absorbed.set(r.merged_into, [...(absorbed.get(r.merged_into) ?? []), r.id]);
  }
  return absorbed;
}

/** The documents a run took as inputs, in input order. */
export function runDocumentIds(db: ReadDb, runId: number): number[] {
  return (
    db.prepare('SELECT DISTINCT document_id FROM run_inputs WHERE run_id = ? AND document_id IS NOT NULL ORDER BY ordinal').all(runId) as {
      document_id: number;
    }[]
  ).map((r) => r.document_id);
}

/** Merged finding (of this run) -> the review ids that stand for it. */
export function reviewIdsByMergedId(db: ReadDb, runId: number): Map<number, number[]> {
  const byMergedId = new Map<number, number[]>();
  const rows = db
    .prepare(
      `SELECT DISTINCT mfs.merged_id, rs.reviewed_id FROM review_sources rs
       JOIN merged_finding_sources mfs ON mfs.finding_id = rs.finding_id
       JOIN merged_findings mf ON mf.id = mfs.merged_id AND mf.run_id = rs.run_id
       WHERE rs.run_id = ? ORDER BY mfs.merged_id, rs.reviewed_id`,
    )
    .all(runId) as { merged_id: number; reviewed_id: number }[];
  for (const r of rows) byMergedId.set(r.merged_id, [...(byMergedId.get(r.merged_id) ?? []), r.reviewed_id]);
  return byMergedId;
}

/** The data of a run's info events, oldest first (the model plan is among them). */
export function runInfoEventData(db: ReadDb, runId: number): unknown[] {
  return (
    db.prepare("SELECT data_json FROM run_events WHERE run_id = ? AND level = 'info' AND data_json IS NOT NULL ORDER BY id").all(runId) as {
      data_json: string;
    }[]
  ).map((e) => JSON.parse(e.data_json) as unknown);
}

/** Every (purpose, model) a run called, the load probe aside. */
export function runCalledModels(db: ReadDb, runId: number): { purpose: string; model: string }[] {
  return db.prepare("SELECT DISTINCT purpose, model FROM llm_calls WHERE run_id = ? AND purpose <> 'probe' ORDER BY purpose, model").all(runId) as {
    purpose: string;
    model: string;
  }[];
}

// ---- the carry-over's reads ----

/** True when the run analysed the document (at least one chunk done). */
export function runAnalyzedDocument(db: ReadDb, runId: number, documentId: number): boolean {
  return db.prepare("SELECT 1 FROM chunk_results WHERE run_id = ? AND document_id = ? AND status = 'done' LIMIT 1").get(runId, documentId) !== undefined;
}

/** The newest run that finished its pipeline for the document (merge included); undefined when none. */
export function latestAnalyzedRun(db: ReadDb, documentId: number): number | undefined {
  const row = db
    .prepare(
      `SELECT MAX(ri.run_id) AS run_id FROM run_inputs ri
       WHERE ri.document_id = ? AND ri.phase = 'done'
         AND EXISTS (SELECT 1 FROM chunk_results c WHERE c.run_id = ri.run_id AND c.document_id = ri.document_id AND c.status = 'done')`,
    )
    .get(documentId) as { run_id: number | null };
  return row.run_id ?? undefined;
}

/** Evidence spans of the raw findings a reviewed finding is linked to in one run. */
export function linkedEvidenceSpans(db: ReadDb, reviewedId: number, runId: number): { start: number; end: number }[] {
  const rows = db
    .prepare(
      `SELECT f.evidence_start, f.evidence_end FROM review_sources rs JOIN findings f ON f.id = rs.finding_id
       WHERE rs.reviewed_id = ? AND rs.run_id = ? AND f.evidence_start IS NOT NULL AND f.evidence_end IS NOT NULL`,
    )
    .all(reviewedId, runId) as { evidence_start: number; evidence_end: number }[];
  return rows.map((r) => ({ start: r.evidence_start, end: r.evidence_end }));
}

export function hasSourceLinks(db: ReadDb, reviewedId: number, runId: number): boolean {
  return db.prepare('SELECT 1 FROM review_sources WHERE reviewed_id = ? AND run_id = ? LIMIT 1').get(reviewedId, runId) !== undefined;
}

export function hasNotes(db: ReadDb, reviewedId: number): boolean {
  return db.prepare('SELECT 1 FROM review_notes WHERE reviewed_id = ? LIMIT 1').get(reviewedId) !== undefined;
}

/** Raw findings of a run already linked to one of the document's reviewed findings. */
export function linkedFindingIdsOfDocument(db: ReadDb, runId: number, documentId: number): Set<number> {
  const rows = db
    .prepare('SELECT rs.finding_id FROM review_sources rs JOIN reviewed_findings r ON r.id = rs.reviewed_id WHERE rs.run_id = ? AND r.document_id = ?')
    .all(runId, documentId) as { finding_id: number }[];
  return new Set(rows.map((r) => r.finding_id));
}

// ---- the operations' reads ----

/** Every source link of a reviewed finding (all runs), as "<run_id>:<finding_id>". */
export function sourceLinks(db: ReadDb, reviewedId: number): string[] {
  return (
    db.prepare('SELECT run_id, finding_id FROM review_sources WHERE reviewed_id = ? ORDER BY run_id, finding_id').all(reviewedId) as {
      run_id: number;
      finding_id: number;
    }[]
  ).map((r) => `${r.run_id}:${r.finding_id}`);
}

export function noteIdsOf(db: ReadDb, reviewedId: number): number[] {
  return (db.prepare('SELECT id FROM review_notes WHERE reviewed_id = ? ORDER BY id').all(reviewedId) as { id: number }[]).map((n) => n.id);
}

export function findNote(db: ReadDb, noteId: number): { id: number; reviewedId: number; text: string } | undefined {
  const row = db.prepare('SELECT id, reviewed_id, text FROM review_notes WHERE id = ?').get(noteId) as
    | { id: number; reviewed_id: number; text: string }
    | undefined;
  return row && { id: row.id, reviewedId: row.reviewed_id, text: row.text };
}

/** What a merge moved, so it can be taken back exactly. */
export interface MergeUndo {
  absorbId: number;
  keepId: number;
  /** Source links as "<run_id>:<finding_id>". */
  links: string[];
  noteIds: number[];
  keepRunIdBefore: number | null;
  keepVanishedBefore: number | null;
  /** The run the kept finding took from the absorbed one; null when it kept its own. */
  keepRunIdAfter: number | null;
}

interface MergeUndoRow {
  absorb_id: number;
  keep_id: number;
  links_json: string;
  note_ids_json: string;
  keep_run_id_before: number | null;
  keep_vanished_before: number | null;
  keep_run_id_after: number | null;
}

export function findMergeUndo(db: ReadDb, absorbId: number): MergeUndo | undefined {
  const row = db.prepare('SELECT * FROM review_merge_undo WHERE absorb_id = ?').get(absorbId) as MergeUndoRow | undefined;
  return (
    row && {
      absorbId: row.absorb_id,
      keepId: row.keep_id,
      links: JSON.parse(row.links_json) as string[],
      noteIds: JSON.parse(row.note_ids_json) as number[],
      keepRunIdBefore: row.keep_run_id_before,
      keepVanishedBefore: row.keep_vanished_before,
      keepRunIdAfter: row.keep_run_id_after,
    }
  );
}

// ---- writes of a reviewed finding ----

export function touchReviewed(db: Database, reviewedId: number, now: string): void {
  db.prepare('UPDATE reviewed_findings SET updated_at = ? WHERE id = ?').run(now, reviewedId);
}

export function setReviewState(db: Database, reviewedId: number, state: ReviewState, rejectReason: string | null, now: string): void {
  db.prepare('UPDATE reviewed_findings SET state = ?, reject_reason = ?, updated_at = ? WHERE id = ?').run(state, rejectReason, now, reviewedId);
}

/** Sets (or, with null, removes) the auditor's value of one field. */
export function setOverride(db: Database, reviewedId: number, field: EditableField, value: string | null, now: string): void {
  db.prepare(`UPDATE reviewed_findings SET ${overrideColumn(field)} = ?, updated_at = ? WHERE id = ?`).run(value, now, reviewedId);
}

/** Replaces the model's original value of one field (a change acknowledged, or an untouched finding following the model). */
export function setOriginal(db: Database, reviewedId: number, field: EditableField, value: string): void {
  db.prepare(`UPDATE reviewed_findings SET ${originalColumn(field)} = ? WHERE id = ?`).run(value, reviewedId);
}

/** The fields whose model value changed since the auditor saw them; `now` also marks the finding updated. */
export function setChangedFields(db: Database, reviewedId: number, fields: readonly EditableField[], now?: string): void {
  if (now === undefined) db.prepare('UPDATE reviewed_findings SET changed_fields_json = ? WHERE id = ?').run(JSON.stringify(fields), reviewedId);
  else db.prepare('UPDATE reviewed_findings SET changed_fields_json = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(fields), now, reviewedId);
}

export function setLatestValues(db: Database, reviewedId: number, latest: FindingValues): void {
  db.prepare('UPDATE reviewed_findings SET latest_json = ? WHERE id = ?').run(JSON.stringify(latest), reviewedId);
}

/** Links the finding to a run (it reports it, so it is not vanished), remembering the run it came from. */
export function setCarriedTo(db: Database, reviewedId: number, link: { runId: number; carriedFromRunId: number | null; now: string }): void {
  db.prepare('UPDATE reviewed_findings SET run_id = ?, carried_from_run_id = ?, vanished_in_run_id = NULL, updated_at = ? WHERE id = ?').run(
    link.runId,
    link.carriedFromRunId,
    link.now,
    reviewedId,
  );
}

export function setVanished(db: Database, reviewedId: number, runId: number, now: string): void {
  db.prepare('UPDATE reviewed_findings SET vanished_in_run_id = ?, updated_at = ? WHERE id = ?').run(runId, now, reviewedId);
}

/** The run a finding shows its sources from, and where it vanished (a merge moves them; its undo puts them back). */
export function setRunOf(db: Database, reviewedId: number, runId: number | null, vanishedInRunId: number | null): void {
  db.prepare('UPDATE reviewed_findings SET run_id = ?, vanished_in_run_id = ? WHERE id = ?').run(runId, vanishedInRunId, reviewedId);
}

export function setMergedInto(db: Database, reviewedId: number, keepId: number | null, now: string): void {
  db.prepare('UPDATE reviewed_findings SET merged_into = ?, updated_at = ? WHERE id = ?').run(keepId, now, reviewedId);
}

export function setReviewDocumentRun(db: Database, documentId: number, runId: number, now: string): void {
  db.prepare('UPDATE review_documents SET run_id = ?, updated_at = ? WHERE document_id = ?').run(runId, now, documentId);
}

// ---- writes of source links, notes and merges ----

/** Moves some of a finding's links in one run to another finding. */
export function moveSourceLinks(db: Database, move: { fromId: number; toId: number; runId: number; findingIds: readonly number[] }): void {
  const marks = move.findingIds.map(() => '?').join(', ');
  db.prepare(`UPDATE review_sources SET reviewed_id = ? WHERE reviewed_id = ? AND run_id = ? AND finding_id IN (${marks})`).run(
    move.toId,
    move.fromId,
    move.runId,
    ...move.findingIds,
  );
}

/** Moves every link (all runs) and every note of a finding to another. */
export function moveAllLinksAndNotes(db: Database, fromId: number, toId: number): void {
  db.prepare('UPDATE review_sources SET reviewed_id = ? WHERE reviewed_id = ?').run(toId, fromId);
  db.prepare('UPDATE review_notes SET reviewed_id = ? WHERE reviewed_id = ?').run(toId, fromId);
}

/** Moves the given links ("<run_id>:<finding_id>") and notes from one finding to another. */
export function moveLinksAndNotes(db: Database, move: { fromId: number; toId: number; links: readonly string[]; noteIds: readonly number[] }): void {
  const moveLink = db.prepare('UPDATE review_sources SET reviewed_id = ? WHERE reviewed_id = ? AND run_id = ? AND finding_id = ?');
  for (const link of move.links) {
    const [runId, findingId] = link.split(':').map(Number);
    moveLink.run(move.toId, move.fromId, runId, findingId);
  }
  const moveNote = db.prepare('UPDATE review_notes SET reviewed_id = ? WHERE reviewed_id = ? AND id = ?');
  for (const noteId of move.noteIds) moveNote.run(move.toId, move.fromId, noteId);
}

export function insertNote(db: Database, note: { reviewedId: number; reviewer: string; at: string; text: string }): number {
  return Number(
    db.prepare('INSERT INTO review_notes (reviewed_id, reviewer, at, text) VALUES (?, ?, ?, ?)').run(note.reviewedId, note.reviewer, note.at, note.text)
      .lastInsertRowid,
  );
}

export function deleteNote(db: Database, noteId: number): void {
  db.prepare('DELETE FROM review_notes WHERE id = ?').run(noteId);
}

export function saveMergeUndo(db: Database, undo: MergeUndo, at: string): void {
  db.prepare(
    'INSERT OR REPLACE INTO review_merge_undo (absorb_id, keep_id, links_json, note_ids_json, keep_run_id_before, keep_vanished_before, keep_run_id_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(
    undo.absorbId,
    undo.keepId,
    JSON.stringify(undo.links),
    JSON.stringify(undo.noteIds),
    undo.keepRunIdBefore,
    undo.keepVanishedBefore,
    undo.keepRunIdAfter,
    at,
  );
}

export function deleteMergeUndo(db: Database, absorbId: number): void {
  db.prepare('DELETE FROM review_merge_undo WHERE absorb_id = ?').run(absorbId);
}

/** Column names come from the closed list of editable fields, never from input. */
function overrideColumn(field: EditableField): string {
  if (!EDITABLE_FIELDS.includes(field)) throw invalid(`"${String(field)}" is not an editable field.`);
  return `${field}_override`;
}

function originalColumn(field: EditableField): string {
  if (!EDITABLE_FIELDS.includes(field)) throw invalid(`"${String(field)}" is not an editable field.`);
  return `original_${field}`;
}
