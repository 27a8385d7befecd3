/**
 * Carrying a document's review over to a (re-)run.
 *
 * The run's merged findings are matched to the document's reviewed findings
 * (matching.ts: ID, then evidence position, then title/description
 * similarity). A matched reviewed finding keeps its state, edits and notes,
 * is linked to the run's raw findings and remembers the run it came from;
 * when the model's values differ from the reviewed originals it is marked
 * `changed` (the originals stay; the new values are kept as `latest`) unless
 * nobody touched it yet (state new, no edit, no note): then the originals
 * simply follow the model. Reviewed findings the run no longer reports are
 * marked vanished (never dropped); manual findings never vanish. Merged
 * findings nothing matched become new reviewed findings in state `new`.
 *
 * Idempotent: merged findings whose sources are all linked already are
 * skipped, and a finding already marked for the run is not marked again, so
 * running it twice changes nothing and writes no second trail entry.
 */
import type { Database } from 'better-sqlite3';
import type { MergedFinding } from '../../../shared/findings';
import type { FindingValues } from '../../../shared/review';
import { listMergedFindings } from '../merge';
import { matchFindings, type Assignment, type CandidateMerged, type MatchRule, type ReviewedCandidate, type Span } from './matching';
import {
  appendTrail,
  differingFields,
  ensureReviewDocument,
  getReviewDocument,
  latestAnalyzedRun,
  hasNotes,
  hasSourceLinks,
  insertReviewed,
  invalid,
  keysOf,
  linkedEvidenceSpans,
  linkedFindingIdsOfDocument,
  linkSources,
  listReviewedRows,
  modelValuesOf,
  nowIso,
  originalValues,
  runAnalyzedDocument,
  setCarriedTo,
  setChangedFields,
  setLatestValues,
  setOriginal,
  setReviewDocumentRun,
  setVanished,
  SYSTEM_REVIEWER,
  type ReviewedRow,
} from './store';
import { listDocuments, type ReadDb } from '../store';

export interface CarryOverInput {
  documentId: number;
  /** The run whose links give the reviewed findings' evidence spans; default each finding's latest linked run. */
  fromRunId?: number;
  toRunId: number;
  /** Name in the trail; default the engine's. */
  reviewer?: string;
  now?: string;
  overlapRatio?: number;
}

export interface CarryOverResult {
  documentId: number;
  runId: number;
  fromRunId: number | null;
  matched: { reviewedId: number; mergedIds: number[]; rule: MatchRule }[];
  changed: number[];
  vanished: number[];
  reappeared: number[];
  created: number[];
}

const valuesOfMerged = (m: MergedFinding): FindingValues => ({ title: m.title, severity: m.severity, type: m.type, description: m.description });

function spansOf(db: ReadDb, row: ReviewedRow, runId: number | null): Span[] {
  const spans: Span[] = [];
  if (row.evidence_start !== null && row.evidence_end !== null) spans.push({ start: row.evidence_start, end: row.evidence_end });
  if (runId === null) return spans;
  return [...spans, ...linkedEvidenceSpans(db, row.id, runId)];
}

function untouched(db: ReadDb, row: ReviewedRow): boolean {
  if (row.origin !== 'model' || row.state !== 'new') return false;
  if (row.title_override !== null || row.severity_override !== null || row.type_override !== null || row.description_override !== null) return false;
  return !hasNotes(db, row.id);
}

export function carryOverReview(db: Database, input: CarryOverInput): CarryOverResult {
  const reviewer = input.reviewer?.trim() || SYSTEM_REVIEWER;
  const now = input.now ?? nowIso();
  const { documentId, toRunId } = input;
  return db.transaction((): CarryOverResult => {
    ensureReviewDocument(db, documentId, now);
    if (!runAnalyzedDocument(db, toRunId, documentId))
      throw invalid(`Run ${toRunId} has not analysed document ${documentId}; there is nothing to carry the review over to.`, { runId: toRunId, documentId });
    const previousRun = getReviewDocument(db, documentId)!.run_id;
    const fromRunId = input.fromRunId ?? (previousRun !== toRunId ? previousRun : null);
    const result: CarryOverResult = { documentId, runId: toRunId, fromRunId, matched: [], changed: [], vanished: [], reappeared: [], created: [] };
    const merged = listMergedFindings(db, toRunId, documentId);
    const rows = listReviewedRows(db, documentId);
    const match = matchRun(db, input, rows, merged);
    const step: CarryStep = { db, documentId, toRunId, now, reviewer, result, mergedById: new Map(merged.map((m) => [m.id, m])) };

    const byReviewed = new Map<number, Assignment[]>();
    for (const a of match.assignments) byReviewed.set(a.reviewedId, [...(byReviewed.get(a.reviewedId) ?? []), a]);
    for (const row of rows) {
      const assignments = byReviewed.get(row.id);
      if (assignments) carryMatched(step, row, assignments);
      else if (row.origin !== 'manual' && !hasSourceLinks(db, row.id, toRunId) && row.vanished_in_run_id !== toRunId) {
        setVanished(db, row.id, toRunId, now);
        trailOf(step, row.id)({ action: 'vanished', detail: `run ${toRunId} no longer reports it` });
        result.vanished.push(row.id);
      }
    }
    for (const mergedId of match.unmatchedMerged) createFromMerged(step, step.mergedById.get(mergedId)!);
    setReviewDocumentRun(db, documentId, toRunId, now);
    return result;
  })();
}

/** What every step of one carry-over shares: the run it carries to, when and by whom, and what it did so far. */
interface CarryStep {
  db: Database;
  documentId: number;
  toRunId: number;
  now: string;
  reviewer: string;
  result: CarryOverResult;
  mergedById: Map<number, MergedFinding>;
}

/** The reviewed findings matched to the run's merged findings not linked to a reviewed finding yet (a partial re-link after a re-merge). */
function matchRun(db: Database, input: CarryOverInput, rows: readonly ReviewedRow[], merged: readonly MergedFinding[]) {
  const linkedInRun = linkedFindingIdsOfDocument(db, input.toRunId, input.documentId);
  const pending = merged.filter((m) => m.sources.length === 0 || m.sources.some((s) => !linkedInRun.has(s.findingId)));
  const candidates: ReviewedCandidate[] = rows.map((row) => {
    const spanRun = input.fromRunId !== undefined && hasSourceLinks(db, row.id, input.fromRunId) ? input.fromRunId : row.run_id;
    return {
      id: row.id,
      keys: keysOf(db, row),
      title: row.original_title,
      description: row.original_description,
      spans: spansOf(db, row, spanRun),
      splitFrom: row.split_from,
    };
  });
  const candidateMerged: CandidateMerged[] = pending.map((m) => ({
    id: m.id,
    findingKey: m.findingKey,
    title: m.title,
    description: m.description,
    // Only the sources not linked yet (a partial re-link after a re-merge).
    sources: m.sources.filter((s) => !linkedInRun.has(s.findingId)).map((s) => ({ findingId: s.findingId, start: s.evidenceStart, end: s.evidenceEnd })),
  }));
  return matchFindings(candidates, candidateMerged, input.overlapRatio === undefined ? {} : { overlapRatio: input.overlapRatio });
}

/** The review trail of one reviewed finding, written for this carry-over. */
function trailOf(step: CarryStep, reviewedId: number) {
  return (e: Omit<Parameters<typeof appendTrail>[1], 'documentId' | 'reviewedId' | 'at' | 'reviewer'>) =>
    appendTrail(step.db, { documentId: step.documentId, reviewedId, at: step.now, reviewer: step.reviewer, runId: step.toRunId, ...e });
}

/**
 * A reviewed finding the run reports again: linked to its new sources and carried to the run. The model's latest values
 * replace an untouched finding's; a reviewed one keeps the auditor's and is marked changed where the model now differs.
 */
function carryMatched(step: CarryStep, row: ReviewedRow, assignments: readonly Assignment[]): void {
  const { db, toRunId, now, result } = step;
  const trail = trailOf(step, row.id);
  for (const a of assignments) linkSources(db, row.id, toRunId, a.sourceIds);
  result.matched.push({ reviewedId: row.id, mergedIds: assignments.map((a) => a.mergedId), rule: assignments[0]!.rule });
  if (row.run_id === toRunId && row.vanished_in_run_id === null) return; // already carried over to this run
  const wasVanished = row.vanished_in_run_id !== null;
  const ruleOrder: Record<MatchRule, number> = { id: 0, position: 1, similarity: 2 };
  const whole = assignments
    .filter((a) => a.whole)
    .sort((a, b) => ruleOrder[a.rule] - ruleOrder[b.rule] || b.sourceIds.length - a.sourceIds.length || a.mergedId - b.mergedId)[0];
  const latest = whole
    ? valuesOfMerged(step.mergedById.get(whole.mergedId)!)
    : modelValuesOf(
        db,
        toRunId,
        assignments.flatMap((a) => a.sourceIds),
      )?.values;
  const carriedFrom = row.run_id !== null && row.run_id !== toRunId ? row.run_id : row.carried_from_run_id;
  setCarriedTo(db, row.id, { runId: toRunId, carriedFromRunId: carriedFrom, now });
  trail({
    action: wasVanished ? 'reappeared' : 'carry-over',
    from: row.run_id === null ? null : String(row.run_id),
    to: String(toRunId),
    detail: `${assignments[0]!.rule} match to merged finding ${assignments.map((a) => a.mergedId).join(', ')}`,
  });
  if (wasVanished) result.reappeared.push(row.id);
  if (!latest) return;
  setLatestValues(db, row.id, latest);
  if (row.origin === 'manual') return;
  const original = originalValues(row);
  const fields = differingFields(original, latest);
  if (fields.length === 0) {
    setChangedFields(db, row.id, []);
  } else if (untouched(db, row)) {
    for (const f of fields) {
      setOriginal(db, row.id, f, latest[f]);
      trail({ action: 'carry-over', field: f, from: original[f], to: latest[f], detail: 'not reviewed yet: follows the model' });
    }
    setChangedFields(db, row.id, []);
  } else {
    setChangedFields(db, row.id, fields);
    for (const f of fields) trail({ action: 'changed', field: f, from: original[f], to: latest[f] });
    result.changed.push(row.id);
  }
}

/** A merged finding no reviewed finding stands for: a new reviewed finding, linked to its sources. */
function createFromMerged(step: CarryStep, m: MergedFinding): void {
  const { db, documentId, toRunId, now } = step;
  const values = valuesOfMerged(m);
  const created = insertReviewed(db, { documentId, origin: 'model', findingKey: m.findingKey, values, latest: values, runId: toRunId, now });
  linkSources(
    db,
    created.id,
    toRunId,
    m.sources.map((s) => s.findingId),
  );
  trailOf(step, created.id)({ action: 'create', to: values.title, detail: `merged finding ${m.id} of run ${toRunId}` });
  step.result.created.push(created.id);
}

/**
 * The write step of the review: carries it over to the newest run that
 * analysed the document, if that run is newer than the review's run.
 * Returns what the carry-over did, or undefined when the review was current
 * (so callers may call it freely).
 */
export function carryOverToLatest(db: Database, documentId: number, now?: string): CarryOverResult | undefined {
  const latest = latestAnalyzedRun(db, documentId);
  const current = getReviewDocument(db, documentId)?.run_id ?? null;
  if (latest === undefined || (current !== null && latest <= current)) return undefined;
  return carryOverReview(db, { documentId, toRunId: latest, ...(now ? { now } : {}) });
}

/**
 * Every document's review carried over to its newest analysed run: the catch-up a host runs once when it opens a
 * store, for runs that finished before the runner carried reviews over itself. After it, showing a review only reads.
 */
export function carryOverEveryDocument(db: Database, now?: string): CarryOverResult[] {
  const carried: CarryOverResult[] = [];
  for (const { id } of listDocuments(db)) {
    const result = carryOverToLatest(db, id, now);
    if (result) carried.push(result);
  }
  return carried;
}

/** `carryOverToLatest`, returning the review's run afterwards. */
export function syncReview(db: Database, documentId: number, now?: string): number | null {
  return carryOverToLatest(db, documentId, now)?.runId ?? getReviewDocument(db, documentId)?.run_id ?? null;
}
