/**
 * Reading a document's review: what the findings view shows and what the
 * reports export. These functions only read: they work on a store opened
 * read-only and never change a row (they take the read handle, ReadDb).
 * Carrying the review over to a re-run is the explicit write step
 * `syncReview` (carryOver.ts), called by the runner when a document finishes
 * and by the host before it shows a review (a store whose runs predate that
 * step catches up there).
 */
import { DEFAULT_PROFILE, rankSeverity, type ExtractionProfile } from '../../../shared/findings';
import type { FieldEdit, ReviewCounters, ReviewedFinding, ReviewExportFinding, ReviewSummary, ReviewView } from '../../../shared/review';
import type { ReadDb } from '../store';
import {
  absorbedByDocument,
  absorbedInto,
  changedFields,
  editedFields,
  effectiveValues,
  findReviewed,
  getReviewDocument,
  label,
  lastHumanChange,
  latestValues,
  listNotes,
  listReviewedRows,
  loadSources,
  originalValues,
  reviewIdsByMergedId,
  runDocumentIds,
  type ReviewedRow,
} from './store';

export interface ReviewReadOptions {
  /** Profile for ranking edited severities (default DEFAULT_PROFILE). */
  profile?: ExtractionProfile;
}

/** `absorbedIds`: the findings merged into this one, when the caller read them for the whole document at once. */
function toReviewed(db: ReadDb, row: ReviewedRow, profile: ExtractionProfile, absorbedIds?: number[]): ReviewedFinding {
  const effective = effectiveValues(row);
  const sources = row.run_id === null ? [] : loadSources(db, row.id, row.run_id);
  const manual =
    row.origin === 'manual' && row.evidence_start !== null && row.evidence_end !== null
      ? { start: row.evidence_start, end: row.evidence_end, text: row.evidence_text ?? '', page: row.evidence_page ?? 1, match: 'exact' as const }
      : null;
  const main = sources.find((s) => s.isMain) ?? sources.find((s) => s.grounded) ?? sources[0];
  const rank = rankSeverity(profile, effective.severity);
  const last = lastHumanChange(db, row.id);
  const absorbed = absorbedIds ?? absorbedInto(db, row.id);
  return {
    id: row.id,
    documentId: row.document_id,
    seq: row.seq,
    label: label(row.seq),
    origin: row.origin,
    state: row.state,
    rejectReason: row.reject_reason,
    findingKey: row.finding_key,
    effective,
    original: originalValues(row),
    edited: editedFields(row),
    severityRank: rank.rank,
    severityCanonical: rank.canonical,
    runId: row.run_id,
    mergedIds: [...new Set(sources.map((s) => s.mergedId).filter((id): id is number => id !== null))],
    sources,
    manualEvidence: manual,
    mainPage: manual?.page ?? main?.page ?? null,
    grounded: manual !== null || sources.some((s) => s.grounded),
    carriedFromRunId: row.carried_from_run_id,
    changedFields: changedFields(row),
    latestModel: latestValues(row),
    vanished: row.vanished_in_run_id !== null,
    vanishedInRunId: row.vanished_in_run_id,
    notes: listNotes(db, row.id),
    absorbedIds: absorbed,
    splitFromId: row.split_from,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastChange: last ? { reviewer: last.reviewer, at: last.at, action: last.action } : null,
  };
}

function position(f: ReviewedFinding): number {
  const start = f.manualEvidence?.start ?? f.sources.find((s) => s.isMain)?.evidenceStart ?? f.sources[0]?.evidenceStart ?? 1e9;
  return (f.mainPage ?? 1e9) * 1e9 + start;
}

export function countReview(findings: readonly ReviewedFinding[]): ReviewCounters {
  const c: ReviewCounters = { total: 0, new: 0, confirmed: 0, rejected: 0, needsFollowUp: 0, open: 0, leftToReview: 0, changed: 0, vanished: 0, manual: 0 };
  for (const f of findings) {
    c.total++;
    if (f.state === 'new') c.new++;
    else if (f.state === 'confirmed') c.confirmed++;
    else if (f.state === 'rejected') c.rejected++;
    else c.needsFollowUp++;
    if (f.state === 'new' || f.state === 'needs_follow_up') c.open++;
    if (f.state === 'new' || f.changedFields.length > 0) c.leftToReview++;
    if (f.changedFields.length > 0) c.changed++;
    if (f.vanished) c.vanished++;
    if (f.origin === 'manual') c.manual++;
  }
  return c;
}

/** The document's reviewed findings in document order, with counters. */
export function getReviewView(db: ReadDb, documentId: number, options: ReviewReadOptions = {}): ReviewView {
  const runId = getReviewDocument(db, documentId)?.run_id ?? null;
  const profile = options.profile ?? DEFAULT_PROFILE;
  const absorbed = absorbedByDocument(db, documentId);
  const findings = listReviewedRows(db, documentId)
    .map((row) => toReviewed(db, row, profile, absorbed.get(row.id) ?? []))
    .sort((a, b) => position(a) - position(b) || a.seq - b.seq);
  return { documentId, runId, findings, counters: countReview(findings) };
}

/** One reviewed finding (merged ones included: merged_into shows in the trail). */
export function getReviewedFinding(db: ReadDb, reviewedId: number, options: { profile?: ExtractionProfile } = {}): ReviewedFinding | undefined {
  const row = findReviewed(db, reviewedId);
  return row && toReviewed(db, row, options.profile ?? DEFAULT_PROFILE);
}

export function toExportFinding(f: ReviewedFinding): ReviewExportFinding {
  const edits: FieldEdit[] = f.edited.map((field) => ({ field, original: f.original[field], effective: f.effective[field] }));
  return {
    reviewId: f.id,
    label: f.label,
    origin: f.origin,
    state: f.state,
    rejectReason: f.rejectReason,
    findingKey: f.findingKey,
    effective: f.effective,
    original: f.original,
    edits,
    notes: f.notes.map((n) => ({ reviewer: n.reviewer, at: n.at, text: n.text })),
    lastReviewer: f.lastChange?.reviewer ?? null,
    lastChangedAt: f.lastChange?.at ?? null,
    mainPage: f.mainPage,
    grounded: f.grounded,
    changedFields: f.changedFields,
    vanished: f.vanished,
    mergedIds: f.mergedIds,
  };
}

export interface ReviewSummaryOptions extends ReviewReadOptions {
  /** List confirmed findings only (the counts still cover every finding). */
  confirmedOnly?: boolean;
}

/** A document's review as a report carries it: counts and, per finding, state, edits, notes, last reviewer and time. */
export function getReviewSummary(db: ReadDb, documentId: number, options: ReviewSummaryOptions = {}): ReviewSummary {
  const view = getReviewView(db, documentId, options);
  const c = view.counters;
  const findings = view.findings.filter((f) => !options.confirmedOnly || f.state === 'confirmed').map(toExportFinding);
  return {
    documentId,
    runId: view.runId,
    counts: {
      total: c.total,
      confirmed: c.confirmed,
      rejected: c.rejected,
      needsFollowUp: c.needsFollowUp,
      notReviewed: c.new,
      open: c.open,
      vanished: c.vanished,
    },
    findings,
    confirmedOnly: options.confirmedOnly === true,
  };
}

export interface RunReview {
  runId: number;
  documents: ReviewSummary[];
  /** Merged finding id (of this run) -> the review ids that stand for it (several after a split). */
  byMergedId: Map<number, number[]>;
  /** Review id -> its export entry (every document of the run). */
  byReviewId: Map<number, ReviewExportFinding>;
}

/**
 * The review of every document a run analysed, for a report of that run, as
 * stored: the runner carried each document's review over when the document
 * finished, so a review is linked to this run or (after a re-run) a newer one,
 * and is reported as it is. A read: exporting a report writes nothing.
 */
export function getRunReview(db: ReadDb, runId: number, options: ReviewSummaryOptions = {}): RunReview {
  const documentIds = runDocumentIds(db, runId);
  const documents: ReviewSummary[] = [];
  const byReviewId = new Map<number, ReviewExportFinding>();
  for (const documentId of documentIds) {
    const summary = getReviewSummary(db, documentId, options);
    documents.push(summary);
    // Index every finding, also when the report lists confirmed ones only.
    for (const f of getReviewView(db, documentId, options).findings) byReviewId.set(f.id, toExportFinding(f));
  }
  const byMergedId = reviewIdsByMergedId(db, runId);
  return { runId, documents, byMergedId, byReviewId };
}
