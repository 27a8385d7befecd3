/**
 * Auditor review of merged findings: the types the engine (electron/engine/review),
 * the UI and the report exporters share.
 *
 * A reviewed finding is keyed by a stable review id per DOCUMENT (not per run):
 * re-running a document carries the review over to the new run's merged
 * findings. Model output is never overwritten: the model's values the review is
 * based on are kept as `original`, the auditor's edits as overrides, and
 * `effective` = edit ?? original. Every change is one entry of an append-only
 * trail (who, when, what, from, to).
 */
import type { FindingSource, MatchKind } from './findings';

export const REVIEW_STATES = ['new', 'confirmed', 'rejected', 'needs_follow_up'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const EDITABLE_FIELDS = ['title', 'severity', 'type', 'description'] as const;
export type EditableField = (typeof EDITABLE_FIELDS)[number];

/** model: from a merged finding; manual: added by the auditor; split: sources moved out of another reviewed finding. */
export type ReviewOrigin = 'model' | 'manual' | 'split';

export interface FindingValues {
  title: string;
  severity: string;
  type: string;
  description: string;
}

export type TrailAction =
  /** a reviewed finding was created (from a run, by a split or by hand) */
  | 'create'
  | 'state'
  | 'edit'
  | 'note'
  | 'split'
  | 'merge'
  /** a re-run's finding was matched to this reviewed finding (field = null) or, for an untouched finding, its model values refreshed (field set) */
  | 'carry-over'
  /** the re-run reports different model values than the reviewed originals (field set) */
  | 'changed'
  /** the re-run no longer reports it */
  | 'vanished'
  /** a re-run reports it again after it had vanished */
  | 'reappeared'
  /** the auditor adopted the re-run's changed model values as the new originals */
  | 'acknowledge';

export interface TrailEntry {
  id: number;
  documentId: number;
  /** null for document-level entries. */
  reviewedId: number | null;
  runId: number | null;
  /** ISO time. */
  at: string;
  reviewer: string;
  action: TrailAction;
  field: string | null;
  from: string | null;
  to: string | null;
  /** Free text: the rejection reason, the note, the rule a match used... */
  detail: string | null;
}

export interface ReviewNote {
  id: number;
  reviewedId: number;
  reviewer: string;
  at: string;
  text: string;
}

/** A source of a reviewed finding in the run it is linked to. */
export interface ReviewSource extends FindingSource {
  runId: number;
  /** The merged finding of that run the source is in (null if the merge of that run no longer has it). */
  mergedId: number | null;
}

/** Evidence of a manual finding: a slice of the canonical text, grounded by construction. */
export interface ManualEvidence {
  start: number;
  end: number;
  text: string;
  page: number;
  match: MatchKind;
}

export interface ReviewedFinding {
  /** Stable review id (per document, survives re-runs). */
  id: number;
  documentId: number;
  /** 1, 2, 3... per document, in creation order; `label` is "R-<seq>". */
  seq: number;
  label: string;
  origin: ReviewOrigin;
  state: ReviewState;
  /** Set when rejected. */
  rejectReason: string | null;
  /** Normalised finding ID (null when none). */
  findingKey: string | null;
  /** What the auditor sees and exports: the edit when there is one, else the original. */
  effective: FindingValues;
  /** The model's values the review is based on (never overwritten by an edit). */
  original: FindingValues;
  /** Fields with an auditor edit. */
  edited: EditableField[];
  /** Profile rank of the effective severity (0 = highest). */
  severityRank: number;
  severityCanonical: string | null;
  /** The run the finding is linked to (the latest run that reported it); null for a manual finding never matched. */
  runId: number | null;
  /** Merged findings of `runId` that hold its sources. */
  mergedIds: number[];
  sources: ReviewSource[];
  manualEvidence: ManualEvidence | null;
  /** Page of the main source (or the manual evidence). */
  mainPage: number | null;
  grounded: boolean;
  /** Carried over from an earlier run (the run it came from), else null. */
  carriedFromRunId: number | null;
  /** The latest run's model values differ from `original` in these fields (until acknowledged). */
  changedFields: EditableField[];
  /** The latest run's model values (null for manual findings). */
  latestModel: FindingValues | null;
  /** The latest run no longer reports it: shown, never dropped. */
  vanished: boolean;
  vanishedInRunId: number | null;
  notes: ReviewNote[];
  /** Reviewed findings merged into this one. */
  absorbedIds: number[];
  splitFromId: number | null;
  createdAt: string;
  updatedAt: string;
  /** Who made the last change and when (from the trail). */
  lastChange: { reviewer: string; at: string; action: TrailAction } | null;
}

export interface ReviewCounters {
  total: number;
  new: number;
  confirmed: number;
  rejected: number;
  needsFollowUp: number;
  /** new + needs follow-up. */
  open: number;
  /** State `new`, or changed by a re-run and not yet acknowledged: what the auditor still has to look at. */
  leftToReview: number;
  changed: number;
  vanished: number;
  manual: number;
}

export interface ReviewView {
  documentId: number;
  /** The run the review is linked to (null when the document has no analysed run yet). */
  runId: number | null;
  /** Document order (main page, evidence position). */
  findings: ReviewedFinding[];
  counters: ReviewCounters;
}

export interface FieldEdit {
  field: EditableField;
  original: string;
  effective: string;
}

/** One finding as a report carries its review. */
export interface ReviewExportFinding {
  reviewId: number;
  label: string;
  origin: ReviewOrigin;
  state: ReviewState;
  rejectReason: string | null;
  findingKey: string | null;
  effective: FindingValues;
  original: FindingValues;
  edits: FieldEdit[];
  notes: { reviewer: string; at: string; text: string }[];
  /** Reviewer and time of the last change an auditor made (null when only the engine has touched it). */
  lastReviewer: string | null;
  lastChangedAt: string | null;
  mainPage: number | null;
  grounded: boolean;
  changedFields: EditableField[];
  vanished: boolean;
  /** Merged findings of the review's run that this finding stands for. */
  mergedIds: number[];
}

export interface ReviewSummary {
  documentId: number;
  runId: number | null;
  /** confirmed + rejected + needsFollowUp + notReviewed = total; open = notReviewed + needsFollowUp (not a state of its own). */
  counts: { total: number; confirmed: number; rejected: number; needsFollowUp: number; notReviewed: number; open: number; vanished: number };
  /** All findings, or only confirmed ones when asked. */
  findings: ReviewExportFinding[];
  confirmedOnly: boolean;
}

/** A model a run used, with the digest Ollama listed for it (null when the run did not log it). */
export interface RunModel {
  stage: string;
  name: string;
  digest: string | null;
}
