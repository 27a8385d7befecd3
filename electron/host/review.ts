/**
 * The review commands of the host: the reviewer name comes from the settings
 * (a change without one is refused with a sentence that says where to set it),
 * every change goes through the engine's review operations (one transaction
 * with its trail entry), and each answers with the document's fresh view so
 * the window redraws from one source.
 */
import type { EvidenceContext, IdConflict, ParsedInput, ReviewIdentity, ReviewViewResult } from '../../shared/contract';
import { idLabel, idOriginOf } from '../../shared/findings';
import { AppError, ErrorCode } from '../../shared/errors';
import type { ReviewedFinding } from '../../shared/review';
import { listMergeConflicts, listMergedFindings } from '../engine/merge';
import { contextWords } from '../engine/report';
import {
  acknowledgeChanges,
  addManualFinding,
  addNote,
  editFields,
  getReviewedFinding,
  getReviewView,
  listTrail,
  mergeReviewed,
  removeNote,
  setState,
  splitMerged,
  undoSplit,
  unmergeReviewed,
} from '../engine/review';
import { documentText, type Database } from '../engine/store';
import { readSettings } from './settings';

export const REVIEWER_MISSING_MESSAGE = 'Set your reviewer name in Settings before reviewing: every review change is recorded with who made it.';

/** The reviewer name from the settings, or a clear refusal. */
export function reviewerFrom(db: Database): string {
  const name = readSettings(db).reviewerName.trim();
  if (!name) throw new AppError(ErrorCode.REVIEWER_NAME_MISSING, REVIEWER_MISSING_MESSAGE, { setting: 'reviewerName' });
  return name;
}

const CONTEXT_CHARS = 240;

function contextOf(f: ReviewedFinding, text: string): EvidenceContext | null {
  const main = f.sources.find((s) => s.isMain && s.grounded) ?? f.sources.find((s) => s.grounded);
  const span = f.manualEvidence
    ? { start: f.manualEvidence.start, end: f.manualEvidence.end, page: f.manualEvidence.page }
    : main && main.evidenceStart !== null && main.evidenceEnd !== null
      ? { start: main.evidenceStart, end: main.evidenceEnd, page: main.page }
      : null;
  if (!span || span.end > text.length || span.start >= span.end) return null;
  return {
    page: span.page,
    before: contextWords(text.slice(Math.max(0, span.start - CONTEXT_CHARS), span.start), 'before', 16),
    text: text.slice(span.start, span.end),
    after: contextWords(text.slice(span.end, span.end + CONTEXT_CHARS), 'after', 16),
  };
}

/**
 * Each reviewed finding's ID from the merged findings it stands for (the one
 * the document prints wins over the model's label), and the merge conflicts
 * of those: other findings the document gives the same ID or number.
 */
function identitiesOf(db: Database, documentId: number, findings: readonly ReviewedFinding[]): Record<number, ReviewIdentity> {
  const runs = [...new Set(findings.map((f) => f.runId).filter((r): r is number => r !== null))];
  const merged = new Map(runs.flatMap((run) => listMergedFindings(db, run, documentId)).map((m) => [m.id, m]));
  const conflicts = runs.flatMap((run) => listMergeConflicts(db, run, documentId));
  const holder = new Map(findings.flatMap((f) => f.mergedIds.map((id) => [id, f] as const)));
  const identity: Record<number, ReviewIdentity> = {};
  for (const f of findings) {
    const own = f.mergedIds.map((id) => merged.get(id)).filter((m) => m !== undefined);
    const shown = own.find((m) => idOriginOf(m) === 'document') ?? own[0];
    identity[f.id] = {
      idLabel: shown ? idLabel(shown) : (f.findingKey ?? '—'),
      idOrigin: shown ? idOriginOf(shown) : f.findingKey ? 'document' : 'none',
      conflicts: conflicts.flatMap((c): IdConflict[] => {
        const mine = c.mergedIds.filter((id) => f.mergedIds.includes(id));
        if (mine.length !== 1) return [];
        const otherId = c.mergedIds[0] === mine[0] ? c.mergedIds[1] : c.mergedIds[0];
        const other = holder.get(otherId);
        return [
          {
            kind: c.kind,
            key: c.key,
            otherTitle: other?.effective.title ?? merged.get(otherId)?.title ?? '',
            ...(other ? { otherReviewedId: other.id, otherLabel: other.label } : {}),
          },
        ];
      }),
    };
  }
  return identity;
}

export function reviewView(db: Database, documentId: number): ReviewViewResult {
  const text = documentText(db, documentId);
  if (text === undefined) throw new AppError(ErrorCode.INVALID_INPUT, `There is no document ${documentId}. Refresh the library.`);
  // A pure read: the runner carries a review over as each document finishes, and the host caught up older stores when
  // it opened them (carryOverEveryDocument).
  const view = getReviewView(db, documentId);
  const context: Record<number, EvidenceContext | null> = {};
  for (const f of view.findings) context[f.id] = contextOf(f, text);
  return { ...view, context, identity: identitiesOf(db, documentId, view.findings) };
}

function documentOf(db: Database, reviewedId: number): number {
  const f = getReviewedFinding(db, reviewedId);
  if (!f) throw new AppError(ErrorCode.INVALID_INPUT, `There is no reviewed finding ${reviewedId}. Reload the review.`, { reviewedId });
  return f.documentId;
}

export interface ReviewHandlers {
  'review.get': (input: ParsedInput<'review.get'>) => ReviewViewResult;
  'review.setState': (input: ParsedInput<'review.setState'>) => ReviewViewResult;
  'review.edit': (input: ParsedInput<'review.edit'>) => ReviewViewResult;
  'review.note': (input: ParsedInput<'review.note'>) => ReviewViewResult & { noteId: number };
  'review.acknowledge': (input: ParsedInput<'review.acknowledge'>) => ReviewViewResult;
  'review.split': (input: ParsedInput<'review.split'>) => ReviewViewResult & { createdId: number };
  'review.merge': (input: ParsedInput<'review.merge'>) => ReviewViewResult;
  'review.addManual': (input: ParsedInput<'review.addManual'>) => ReviewViewResult & { createdId: number };
  'review.removeNote': (input: ParsedInput<'review.removeNote'>) => ReviewViewResult;
  'review.undoSplit': (input: ParsedInput<'review.undoSplit'>) => ReviewViewResult;
  'review.unmerge': (input: ParsedInput<'review.unmerge'>) => ReviewViewResult;
  'review.trail': (input: ParsedInput<'review.trail'>) => ReturnType<typeof listTrail>;
}

export function reviewHandlers(db: Database, now: () => Date): ReviewHandlers {
  const iso = () => now().toISOString();
  const change = (reviewedId: number, apply: (reviewer: string, at: string) => void): ReviewViewResult => {
    const reviewer = reviewerFrom(db);
    const documentId = documentOf(db, reviewedId);
    apply(reviewer, iso());
    return reviewView(db, documentId);
  };
  return {
    'review.get': ({ documentId }) => reviewView(db, documentId),
    'review.setState': ({ reviewedId, state, reason }) =>
      change(reviewedId, (reviewer, at) => setState(db, { reviewedId, reviewer, state, ...(reason !== undefined ? { reason } : {}), now: at })),
    'review.edit': ({ reviewedId, values }) => change(reviewedId, (reviewer, at) => editFields(db, { reviewedId, reviewer, values, now: at })),
    'review.note': ({ reviewedId, text }) => {
      let noteId = 0;
      const view = change(reviewedId, (reviewer, at) => {
        noteId = addNote(db, { reviewedId, reviewer, text, now: at }).noteId;
      });
      return { ...view, noteId };
    },
    'review.removeNote': ({ noteId }) => {
      const reviewer = reviewerFrom(db);
      const { reviewedId } = removeNote(db, { noteId, reviewer, now: iso() });
      return reviewView(db, documentOf(db, reviewedId));
    },
    'review.undoSplit': ({ reviewedId }) => change(reviewedId, (reviewer, at) => void undoSplit(db, { reviewedId, reviewer, now: at })),
    'review.unmerge': ({ absorbId }) => change(absorbId, (reviewer, at) => void unmergeReviewed(db, { absorbId, reviewer, now: at })),
    'review.acknowledge': ({ reviewedId }) => change(reviewedId, (reviewer, at) => acknowledgeChanges(db, { reviewedId, reviewer, now: at })),
    'review.split': ({ reviewedId, findingIds }) => {
      let createdId = 0;
      const view = change(reviewedId, (reviewer, at) => {
        createdId = splitMerged(db, { reviewedId, reviewer, findingIds, now: at }).reviewedId;
      });
      return { ...view, createdId };
    },
    'review.merge': ({ keepId, absorbId }) => change(keepId, (reviewer, at) => mergeReviewed(db, { keepId, absorbId, reviewer, now: at })),
    'review.addManual': (input) => {
      const reviewer = reviewerFrom(db);
      const { reviewedId } = addManualFinding(db, { ...input, reviewer, now: iso() });
      return { ...reviewView(db, input.documentId), createdId: reviewedId };
    },
    'review.trail': (input) => listTrail(db, 'reviewedId' in input ? { reviewedId: input.reviewedId } : { documentId: input.documentId }),
  };
}
