/**
 * Auditor changes to reviewed findings. Each operation runs in ONE
 * transaction with its trail entries: the change and its record commit
 * together or not at all. Model output (findings, merged_findings) is only
 * read; edits are overrides beside the originals.
 */
import type { Database } from 'better-sqlite3';
import { pageAt } from '../../../shared/canonical';
import { EDITABLE_FIELDS, REVIEW_STATES, type EditableField, type FindingValues, type ReviewState } from '../../../shared/review';
import type { PageSpan } from '../../../shared/types';
import { documentText } from '../store';
import {
  appendTrail,
  changedFields,
  checkReviewer,
  effectiveValues,
  getActiveReviewed,
  getReviewed,
  insertReviewed,
  invalid,
  label,
  latestValues,
  linkedFindingIds,
  modelValuesOf,
  nowIso,
  originalValues,
  overrideOf,
  type ReviewedRow,
} from './store';

export interface ChangeBase {
  reviewedId: number;
  /** The reviewer name from the settings. */
  reviewer: string;
  now?: string;
}

/** Sets the review state; `rejected` needs a reason. Setting the same state (and reason) again records nothing. */
export function setState(db: Database, input: ChangeBase & { state: ReviewState; reason?: string }): void {
  const reviewer = checkReviewer(input.reviewer);
  if (!REVIEW_STATES.includes(input.state)) throw invalid(`Unknown review state "${String(input.state)}".`);
  const reason = input.reason?.trim() || null;
  if (input.state === 'rejected' && !reason) throw invalid('Rejecting a finding needs a reason.');
  const now = input.now ?? nowIso();
  db.transaction(() => {
    const row = getActiveReviewed(db, input.reviewedId);
    const newReason = input.state === 'rejected' ? reason : null;
    if (row.state === input.state && row.reject_reason === newReason) return;
    db.prepare('UPDATE reviewed_findings SET state = ?, reject_reason = ?, updated_at = ? WHERE id = ?').run(input.state, newReason, now, row.id);
    if (row.state !== input.state) {
      appendTrail(db, { documentId: row.document_id, reviewedId: row.id, runId: row.run_id, at: now, reviewer, action: 'state', field: 'state', from: row.state, to: input.state, detail: newReason });
    } else {
      appendTrail(db, { documentId: row.document_id, reviewedId: row.id, runId: row.run_id, at: now, reviewer, action: 'state', field: 'reject_reason', from: row.reject_reason, to: newReason });
    }
  })();
}

/**
 * Edits one field. The original model value is kept; `value` equal to the
 * original (or null) removes the edit. The trail records the effective value
 * before and after. An unchanged value records nothing.
 */
export function editField(db: Database, input: ChangeBase & { field: EditableField; value: string | null }): void {
  const reviewer = checkReviewer(input.reviewer);
  if (!EDITABLE_FIELDS.includes(input.field)) throw invalid(`"${String(input.field)}" cannot be edited; editable fields: ${EDITABLE_FIELDS.join(', ')}.`);
  const value = input.value === null ? null : input.field === 'description' ? input.value.trim() : input.value.trim().replace(/\s+/g, ' ');
  if (value !== null && value.length === 0 && input.field !== 'description') throw invalid(`The ${input.field} cannot be empty.`);
  const now = input.now ?? nowIso();
  db.transaction(() => {
    const row = getActiveReviewed(db, input.reviewedId);
    const original = originalValues(row)[input.field];
    const before = effectiveValues(row)[input.field];
    const override = value === null || value === original ? null : value;
    if (override === overrideOf(row, input.field)) return;
    db.prepare(`UPDATE reviewed_findings SET ${input.field}_override = ?, updated_at = ? WHERE id = ?`).run(override, now, row.id);
    appendTrail(db, {
      documentId: row.document_id,
      reviewedId: row.id,
      runId: row.run_id,
      at: now,
      reviewer,
      action: 'edit',
      field: input.field,
      from: before,
      to: override ?? original,
      detail: override === null ? 'edit removed: back to the model value' : null,
    });
  })();
}

/** Several fields at once (one trail entry per changed field, one transaction). */
export function editFields(db: Database, input: ChangeBase & { values: Partial<Record<EditableField, string | null>> }): void {
  db.transaction(() => {
    for (const field of EDITABLE_FIELDS) {
      const value = input.values[field];
      if (value !== undefined) editField(db, { reviewedId: input.reviewedId, reviewer: input.reviewer, field, value, ...(input.now ? { now: input.now } : {}) });
    }
  })();
}

export function addNote(db: Database, input: ChangeBase & { text: string }): { noteId: number } {
  const reviewer = checkReviewer(input.reviewer);
  const text = input.text.trim();
  if (!text) throw invalid('A note cannot be empty.');
  const now = input.now ?? nowIso();
  return db.transaction(() => {
    const row = getActiveReviewed(db, input.reviewedId);
    const noteId = Number(db.prepare('INSERT INTO review_notes (reviewed_id, reviewer, at, text) VALUES (?, ?, ?, ?)').run(row.id, reviewer, now, text).lastInsertRowid);
    db.prepare('UPDATE reviewed_findings SET updated_at = ? WHERE id = ?').run(now, row.id);
    appendTrail(db, { documentId: row.document_id, reviewedId: row.id, runId: row.run_id, at: now, reviewer, action: 'note', field: 'notes', to: text, detail: `note ${noteId}` });
    return { noteId };
  })();
}

/**
 * Adopts the re-run's changed model values as the new originals (the auditor
 * has seen the change); edits stay. One trail entry per field.
 */
export function acknowledgeChanges(db: Database, input: ChangeBase): void {
  const reviewer = checkReviewer(input.reviewer);
  const now = input.now ?? nowIso();
  db.transaction(() => {
    const row = getActiveReviewed(db, input.reviewedId);
    const fields = changedFields(row);
    const latest = latestValues(row);
    if (fields.length === 0 || !latest) return;
    const original = originalValues(row);
    for (const f of fields) {
      db.prepare(`UPDATE reviewed_findings SET original_${f} = ? WHERE id = ?`).run(latest[f], row.id);
      appendTrail(db, { documentId: row.document_id, reviewedId: row.id, runId: row.run_id, at: now, reviewer, action: 'acknowledge', field: f, from: original[f], to: latest[f] });
    }
    db.prepare("UPDATE reviewed_findings SET changed_fields_json = '[]', updated_at = ? WHERE id = ?").run(now, row.id);
  })();
}

/**
 * Moves the chosen sources (raw finding ids of the finding's linked run) out
 * into a new reviewed finding (origin 'split', state 'new'); at least one
 * source stays. Every source stays linked to exactly one of the two.
 */
export function splitMerged(db: Database, input: ChangeBase & { findingIds: readonly number[] }): { reviewedId: number } {
  const reviewer = checkReviewer(input.reviewer);
  const now = input.now ?? nowIso();
  return db.transaction(() => {
    const row = getActiveReviewed(db, input.reviewedId);
    if (row.run_id === null) throw invalid(`${label(row.seq)} has no model sources to split.`);
    const current = linkedFindingIds(db, row.id, row.run_id);
    const moving = [...new Set(input.findingIds)];
    if (moving.length === 0) throw invalid('Choose the sources to split out.');
    const unknown = moving.filter((id) => !current.includes(id));
    if (unknown.length > 0) throw invalid(`Sources ${unknown.join(', ')} are not sources of ${label(row.seq)}.`, { unknown });
    if (moving.length === current.length) throw invalid('At least one source must stay with the finding; split out fewer sources.');
    const model = modelValuesOf(db, row.run_id, moving)!;
    const created = insertReviewed(db, {
      documentId: row.document_id,
      origin: 'split',
      findingKey: model.findingKey,
      values: model.values,
      latest: model.values,
      runId: row.run_id,
      splitFrom: row.id,
      now,
    });
    const marks = moving.map(() => '?').join(', ');
    db.prepare(`UPDATE review_sources SET reviewed_id = ? WHERE reviewed_id = ? AND run_id = ? AND finding_id IN (${marks})`).run(created.id, row.id, row.run_id, ...moving);
    db.prepare('UPDATE reviewed_findings SET updated_at = ? WHERE id = ?').run(now, row.id);
    const remaining = current.filter((id) => !moving.includes(id));
    appendTrail(db, {
      documentId: row.document_id,
      reviewedId: row.id,
      runId: row.run_id,
      at: now,
      reviewer,
      action: 'split',
      field: 'sources',
      from: JSON.stringify(current),
      to: JSON.stringify(remaining),
      detail: `sources ${moving.join(', ')} moved to ${label(created.seq)}`,
    });
    appendTrail(db, {
      documentId: row.document_id,
      reviewedId: created.id,
      runId: row.run_id,
      at: now,
      reviewer,
      action: 'create',
      field: 'sources',
      to: JSON.stringify(moving),
      detail: `split from ${label(row.seq)}`,
    });
    return { reviewedId: created.id };
  })();
}

/** Every source link of a reviewed finding (all runs), as "<run_id>:<finding_id>". */
function sourceLinks(db: Database, reviewedId: number): string[] {
  return (db.prepare('SELECT run_id, finding_id FROM review_sources WHERE reviewed_id = ? ORDER BY run_id, finding_id').all(reviewedId) as { run_id: number; finding_id: number }[]).map(
    (r) => `${r.run_id}:${r.finding_id}`,
  );
}

/**
 * The two trail entries of a merge or of its undo: the kept finding's
 * sources before and after (action `merge`, or `split` when taken back), and
 * the absorbed finding's merged_into.
 */
function trailMergePair(
  db: Database,
  keep: ReviewedRow,
  absorb: ReviewedRow,
  e: { reviewer: string; at: string; action: 'merge' | 'split'; sources: { from: string[]; to: string[]; detail: string }; mergedInto: { from: string | null; to: string | null; detail: string } },
): void {
  const common = { documentId: keep.document_id, at: e.at, reviewer: e.reviewer };
  appendTrail(db, { ...common, reviewedId: keep.id, runId: keep.run_id, action: e.action, field: 'sources', from: JSON.stringify(e.sources.from), to: JSON.stringify(e.sources.to), detail: e.sources.detail });
  appendTrail(db, { ...common, reviewedId: absorb.id, runId: absorb.run_id, action: 'merge', field: 'merged_into', from: e.mergedInto.from, to: e.mergedInto.to, detail: e.mergedInto.detail });
}

/**
 * Merges `absorbId` into `keepId`: every source link (all runs) and note of
 * the absorbed finding moves to the kept one; the absorbed row stays, marked
 * merged_into, with its own edits and state readable. The kept finding keeps
 * its state and values.
 */
export function mergeReviewed(db: Database, input: { keepId: number; absorbId: number; reviewer: string; now?: string; because?: string }): void {
  const reviewer = checkReviewer(input.reviewer);
  const now = input.now ?? nowIso();
  if (input.keepId === input.absorbId) throw invalid('Choose two different findings to merge.');
  db.transaction(() => {
    const keep = getActiveReviewed(db, input.keepId);
    const absorb = getActiveReviewed(db, input.absorbId);
    if (keep.document_id !== absorb.document_id) throw invalid('Only findings of the same document can be merged.');
    const before = sourceLinks(db, keep.id);
    const moved = sourceLinks(db, absorb.id);
    const movedNotes = (db.prepare('SELECT id FROM review_notes WHERE reviewed_id = ? ORDER BY id').all(absorb.id) as { id: number }[]).map((n) => n.id);
    db.prepare('UPDATE review_sources SET reviewed_id = ? WHERE reviewed_id = ?').run(keep.id, absorb.id);
    db.prepare('UPDATE review_notes SET reviewed_id = ? WHERE reviewed_id = ?').run(keep.id, absorb.id);
    db.prepare('UPDATE reviewed_findings SET merged_into = ?, updated_at = ? WHERE id = ?').run(keep.id, now, absorb.id);
    // A kept finding that vanished takes the absorbed one's newer run, so its sources show.
    const takesRun = absorb.run_id !== null && (keep.run_id === null || absorb.run_id > keep.run_id);
    if (takesRun) {
      db.prepare('UPDATE reviewed_findings SET run_id = ?, vanished_in_run_id = ? WHERE id = ?').run(absorb.run_id, absorb.vanished_in_run_id, keep.id);
    }
    // What moved, so the merge can be taken back exactly (unmergeReviewed).
    db.prepare(
      'INSERT OR REPLACE INTO review_merge_undo (absorb_id, keep_id, links_json, note_ids_json, keep_run_id_before, keep_vanished_before, keep_run_id_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(absorb.id, keep.id, JSON.stringify(moved), JSON.stringify(movedNotes), keep.run_id, keep.vanished_in_run_id, takesRun ? absorb.run_id : null, now);
    db.prepare('UPDATE reviewed_findings SET updated_at = ? WHERE id = ?').run(now, keep.id);
    const absorbed = effectiveValues(absorb);
    const because = input.because ? ` (${input.because})` : '';
    trailMergePair(db, keep, absorb, {
      reviewer,
      at: now,
      action: 'merge',
      sources: { from: before, to: [...before, ...moved], detail: `${label(absorb.seq)} (${absorb.state}: ${absorbed.title}) merged into this finding${because}` },
      mergedInto: { from: null, to: label(keep.seq), detail: `merged into ${label(keep.seq)}${because}` },
    });
  })();
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

/**
 * Takes a merge back: the source links and notes the merge moved go back to
 * the absorbed finding, which is listed again with its own state and edits;
 * the kept finding gets its run back unless a re-run has moved it since.
 * Both findings' trails record the undo (the merge entries stay).
 */
export function unmergeReviewed(db: Database, input: { absorbId: number; reviewer: string; now?: string }): { keepId: number } {
  const reviewer = checkReviewer(input.reviewer);
  const now = input.now ?? nowIso();
  return db.transaction(() => {
    const absorb = getReviewed(db, input.absorbId);
    const undo = db.prepare('SELECT * FROM review_merge_undo WHERE absorb_id = ?').get(absorb.id) as MergeUndoRow | undefined;
    if (absorb.merged_into === null || !undo || undo.keep_id !== absorb.merged_into) {
      throw invalid(`${label(absorb.seq)} is not merged into another finding: there is no merge to undo.`, { reviewedId: absorb.id });
    }
    const keep = getActiveReviewed(db, undo.keep_id);
    const before = sourceLinks(db, keep.id);
    const back = (JSON.parse(undo.links_json) as string[]).filter((link) => before.includes(link));
    const moveLink = db.prepare('UPDATE review_sources SET reviewed_id = ? WHERE reviewed_id = ? AND run_id = ? AND finding_id = ?');
    for (const link of back) {
      const [runId, findingId] = link.split(':').map(Number);
      moveLink.run(absorb.id, keep.id, runId, findingId);
    }
    const moveNote = db.prepare('UPDATE review_notes SET reviewed_id = ? WHERE reviewed_id = ? AND id = ?');
    for (const noteId of JSON.parse(undo.note_ids_json) as number[]) moveNote.run(absorb.id, keep.id, noteId);
    db.prepare('UPDATE reviewed_findings SET merged_into = NULL, updated_at = ? WHERE id = ?').run(now, absorb.id);
    if (undo.keep_run_id_after !== null && keep.run_id === undo.keep_run_id_after) {
      db.prepare('UPDATE reviewed_findings SET run_id = ?, vanished_in_run_id = ? WHERE id = ?').run(undo.keep_run_id_before, undo.keep_vanished_before, keep.id);
    }
    db.prepare('UPDATE reviewed_findings SET updated_at = ? WHERE id = ?').run(now, keep.id);
    db.prepare('DELETE FROM review_merge_undo WHERE absorb_id = ?').run(absorb.id);
    trailMergePair(db, keep, absorb, {
      reviewer,
      at: now,
      action: 'split',
      sources: { from: before, to: before.filter((link) => !back.includes(link)), detail: `merge undone: ${label(absorb.seq)} taken out again` },
      mergedInto: { from: label(keep.seq), to: null, detail: `merge into ${label(keep.seq)} undone` },
    });
    return { keepId: keep.id };
  })();
}

/**
 * Takes a split back: the finding split out merges into the finding it was
 * split from (its sources and notes go back; it stays readable, marked merged).
 */
export function undoSplit(db: Database, input: ChangeBase): { keepId: number } {
  return db.transaction(() => {
    const row = getActiveReviewed(db, input.reviewedId);
    if (row.origin !== 'split' || row.split_from === null) throw invalid(`${label(row.seq)} was not split out of another finding: there is no split to undo.`, { reviewedId: row.id });
    mergeReviewed(db, { keepId: row.split_from, absorbId: row.id, reviewer: input.reviewer, ...(input.now ? { now: input.now } : {}), because: 'split undone' });
    return { keepId: row.split_from };
  })();
}

/** Takes a note back: the note goes from the finding, its text stays in the trail (added, then removed). */
export function removeNote(db: Database, input: { noteId: number; reviewer: string; now?: string }): { reviewedId: number } {
  const reviewer = checkReviewer(input.reviewer);
  const now = input.now ?? nowIso();
  return db.transaction(() => {
    const note = db.prepare('SELECT id, reviewed_id, text FROM review_notes WHERE id = ?').get(input.noteId) as { id: number; reviewed_id: number; text: string } | undefined;
    if (!note) throw invalid(`There is no note ${input.noteId}; it may have been removed already. Reload the review.`, { noteId: input.noteId });
    const row = getActiveReviewed(db, note.reviewed_id);
    db.prepare('DELETE FROM review_notes WHERE id = ?').run(note.id);
    db.prepare('UPDATE reviewed_findings SET updated_at = ? WHERE id = ?').run(now, row.id);
    appendTrail(db, { documentId: row.document_id, reviewedId: row.id, runId: row.run_id, at: now, reviewer, action: 'note', field: 'notes', from: note.text, to: null, detail: `note ${note.id} removed` });
    return { reviewedId: row.id };
  })();
}

export interface ManualFindingInput {
  documentId: number;
  /** [start, end) in the document's canonical text (the chunk view's selection). */
  start: number;
  end: number;
  title: string;
  severity: string;
  type: string;
  description: string;
  reviewer: string;
  now?: string;
}

/**
 * A finding the model missed. Its evidence is the canonical-text slice (outer
 * whitespace trimmed), so it is grounded by construction; the page comes from
 * the offset. Origin 'manual', state 'new'.
 */
export function addManualFinding(db: Database, input: ManualFindingInput): { reviewedId: number } {
  const reviewer = checkReviewer(input.reviewer);
  const title = input.title.trim().replace(/\s+/g, ' ');
  if (!title) throw invalid('A finding needs a title.');
  const now = input.now ?? nowIso();
  return db.transaction(() => {
    const text = documentText(db, input.documentId);
    if (text === undefined) throw invalid(`There is no document ${input.documentId}.`, { documentId: input.documentId });
    if (!Number.isInteger(input.start) || !Number.isInteger(input.end) || input.start < 0 || input.end > text.length || input.end <= input.start) {
      throw invalid(`The selection ${input.start}-${input.end} is not inside the document (0-${text.length}).`);
    }
    let start = input.start;
    let end = input.end;
    while (start < end && /\s/.test(text[start]!)) start++;
    while (end > start && /\s/.test(text[end - 1]!)) end--;
    if (end <= start) throw invalid('The selection holds no text.');
    const pages = (
      db.prepare('SELECT page_number, start_offset, end_offset, has_text_layer FROM pages WHERE document_id = ? ORDER BY page_number').all(input.documentId) as {
        page_number: number;
        start_offset: number;
        end_offset: number;
        has_text_layer: number;
      }[]
    ).map((p): PageSpan => ({ pageNumber: p.page_number, start: p.start_offset, end: p.end_offset, hasTextLayer: p.has_text_layer === 1 }));
    const evidence = { start, end, text: text.slice(start, end), page: pageAt(pages, start) };
    const values: FindingValues = { title, severity: input.severity.trim(), type: input.type.trim(), description: input.description.trim() };
    const created = insertReviewed(db, { documentId: input.documentId, origin: 'manual', findingKey: null, values, latest: null, runId: null, evidence, now });
    appendTrail(db, {
      documentId: input.documentId,
      reviewedId: created.id,
      at: now,
      reviewer,
      action: 'create',
      field: 'evidence',
      to: `${start}-${end} (page ${evidence.page})`,
      detail: `manual finding: ${title}`,
    });
    return { reviewedId: created.id };
  })();
}
