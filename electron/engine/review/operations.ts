/**
 * Auditor changes to reviewed findings. Each operation runs in ONE
 * transaction with its trail entries: the change and its record commit
 * together or not at all. Model output (findings, merged_findings) is only
 * read; edits are overrides beside the originals.
 */
import type { Database } from 'better-sqlite3';
import { pageAt } from '../../../shared/canonical';
import { EDITABLE_FIELDS, REVIEW_STATES, type EditableField, type FindingValues, type ReviewState } from '../../../shared/review';
import { documentPageSpans, documentText } from '../store';
import {
  appendTrail,
  trailOf,
  changedFields,
  checkReviewer,
  deleteMergeUndo,
  deleteNote,
  effectiveValues,
  findMergeUndo,
  findNote,
  getActiveReviewed,
  getReviewed,
  insertNote,
  insertReviewed,
  invalid,
  label,
  latestValues,
  linkedFindingIds,
  modelValuesOf,
  moveAllLinksAndNotes,
  moveLinksAndNotes,
  moveSourceLinks,
  noteIdsOf,
  nowIso,
  originalValues,
  overrideOf,
  saveMergeUndo,
  setChangedFields,
  setMergedInto,
  setOriginal,
  setOverride,
  setReviewState,
  setRunOf,
  sourceLinks,
  touchReviewed,
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
    setReviewState(db, row.id, input.state, newReason, now);
    if (row.state !== input.state) {
      appendTrail(db, {
        ...trailOf(row, now, reviewer),
        action: 'state',
        field: 'state',
        from: row.state,
        to: input.state,
        detail: newReason,
      });
    } else {
      appendTrail(db, {
        ...trailOf(row, now, reviewer),
        action: 'state',
        field: 'reject_reason',
        from: row.reject_reason,
        to: newReason,
      });
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
    setOverride(db, row.id, input.field, override, now);
    appendTrail(db, {
      ...trailOf(row, now, reviewer),
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
      if (value !== undefined)
        editField(db, { reviewedId: input.reviewedId, reviewer: input.reviewer, field, value, ...(input.now ? { now: input.now } : {}) });
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
    const noteId = insertNote(db, { reviewedId: row.id, reviewer, at: now, text });
    touchReviewed(db, row.id, now);
    appendTrail(db, {
      ...trailOf(row, now, reviewer),
      action: 'note',
      field: 'notes',
      to: text,
      detail: `note ${noteId}`,
    });
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
      setOriginal(db, row.id, f, latest[f]);
      appendTrail(db, {
        ...trailOf(row, now, reviewer),
        action: 'acknowledge',
        field: f,
        from: original[f],
        to: latest[f],
      });
    }
    setChangedFields(db, row.id, [], now);
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
    moveSourceLinks(db, { fromId: row.id, toId: created.id, runId: row.run_id, findingIds: moving });
    touchReviewed(db, row.id, now);
    const remaining = current.filter((id) => !moving.includes(id));
    appendTrail(db, {
      ...trailOf(row, now, reviewer),
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

/**
 * The two trail entries of a merge or of its undo: the kept finding's
 * sources before and after (action `merge`, or `split` when taken back), and
 * the absorbed finding's merged_into.
 */
function trailMergePair(
  db: Database,
  keep: ReviewedRow,
  absorb: ReviewedRow,
  e: {
    reviewer: string;
    at: string;
    action: 'merge' | 'split';
    sources: { from: string[]; to: string[]; detail: string };
    mergedInto: { from: string | null; to: string | null; detail: string };
  },
): void {
  const common = { documentId: keep.document_id, at: e.at, reviewer: e.reviewer };
  appendTrail(db, {
    ...common,
    reviewedId: keep.id,
    runId: keep.run_id,
    action: e.action,
    field: 'sources',
    from: JSON.stringify(e.sources.from),
    to: JSON.stringify(e.sources.to),
    detail: e.sources.detail,
  });
  appendTrail(db, {
    ...common,
    reviewedId: absorb.id,
    runId: absorb.run_id,
    action: 'merge',
    field: 'merged_into',
    from: e.mergedInto.from,
    to: e.mergedInto.to,
    detail: e.mergedInto.detail,
  });
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
    const movedNotes = noteIdsOf(db, absorb.id);
    moveAllLinksAndNotes(db, absorb.id, keep.id);
    setMergedInto(db, absorb.id, keep.id, now);
    // A kept finding that vanished takes the absorbed one's newer run, so its sources show.
    const takesRun = absorb.run_id !== null && (keep.run_id === null || absorb.run_id > keep.run_id);
    if (takesRun) {
      setRunOf(db, keep.id, absorb.run_id, absorb.vanished_in_run_id);
    }
    // What moved, so the merge can be taken back exactly (unmergeReviewed).
    saveMergeUndo(
      db,
      {
        absorbId: absorb.id,
        keepId: keep.id,
        links: moved,
        noteIds: movedNotes,
        keepRunIdBefore: keep.run_id,
        keepVanishedBefore: keep.vanished_in_run_id,
        keepRunIdAfter: takesRun ? absorb.run_id : null,
      },
      now,
    );
    touchReviewed(db, keep.id, now);
    const absorbed = effectiveValues(absorb);
    const because = input.because ? ` (${input.because})` : '';
    trailMergePair(db, keep, absorb, {
      reviewer,
      at: now,
      action: 'merge',
      sources: {
        from: before,
        to: [...before, ...moved],
        detail: `${label(absorb.seq)} (${absorb.state}: ${absorbed.title}) merged into this finding${because}`,
      },
      mergedInto: { from: null, to: label(keep.seq), detail: `merged into ${label(keep.seq)}${because}` },
    });
  })();
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
    const undo = findMergeUndo(db, absorb.id);
    if (absorb.merged_into === null || !undo || undo.keepId !== absorb.merged_into) {
      throw invalid(`${label(absorb.seq)} is not merged into another finding: there is no merge to undo.`, { reviewedId: absorb.id });
    }
    const keep = getActiveReviewed(db, undo.keepId);
    const before = sourceLinks(db, keep.id);
    const back = undo.links.filter((link) => before.includes(link));
    moveLinksAndNotes(db, { fromId: keep.id, toId: absorb.id, links: back, noteIds: undo.noteIds });
    setMergedInto(db, absorb.id, null, now);
    if (undo.keepRunIdAfter !== null && keep.run_id === undo.keepRunIdAfter) setRunOf(db, keep.id, undo.keepRunIdBefore, undo.keepVanishedBefore);
    touchReviewed(db, keep.id, now);
    deleteMergeUndo(db, absorb.id);
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
    if (row.origin !== 'split' || row.split_from === null)
      throw invalid(`${label(row.seq)} was not split out of another finding: there is no split to undo.`, { reviewedId: row.id });
    mergeReviewed(db, {
      keepId: row.split_from,
      absorbId: row.id,
      reviewer: input.reviewer,
      ...(input.now ? { now: input.now } : {}),
      because: 'split undone',
    });
    return { keepId: row.split_from };
  })();
}

/** Takes a note back: the note goes from the finding, its text stays in the trail (added, then removed). */
export function removeNote(db: Database, input: { noteId: number; reviewer: string; now?: string }): { reviewedId: number } {
  const reviewer = checkReviewer(input.reviewer);
  const now = input.now ?? nowIso();
  return db.transaction(() => {
    const note = findNote(db, input.noteId);
    if (!note) throw invalid(`There is no note ${input.noteId}; it may have been removed already. Reload the review.`, { noteId: input.noteId });
    const row = getActiveReviewed(db, note.reviewedId);
    deleteNote(db, note.id);
    touchReviewed(db, row.id, now);
    appendTrail(db, {
      ...trailOf(row, now, reviewer),
      action: 'note',
      field: 'notes',
      from: note.text,
      to: null,
      detail: `note ${note.id} removed`,
    });
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
    const evidence = { start, end, text: text.slice(start, end), page: pageAt(documentPageSpans(db, input.documentId), start) };
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
