/**
 * The auditor's review of a tie-out: confirm a match, break it (the row and
 * the item go back to the exceptions and are never matched to each other
 * again), match a row to an item by hand, take a decision back, or note why
 * (a ticket deferred to the next release, a finding tracked elsewhere).
 * Decisions are kept per document under what identifies the row and the item
 * across re-runs, so a re-run keeps them; each one is also an entry of the
 * review trail the findings' review writes (document-level, field
 * "tie-out"), in the same transaction.
 */
import type { Database } from 'better-sqlite3';
import { AppError, ErrorCode } from '../../../shared/errors';
import type { TieOutAction } from '../../../shared/reconcile';
import { appendTrail, checkReviewer } from '../review';
import { itemSubject, rowSubject } from './reconcileDocument';
import { deletePairingsOf, deleteTieOutDecision, findTieOutDecision, insertTieOutNote, upsertTieOutDecision, type TieOutDecision } from './store';

export interface TieOutChange {
  documentId: number;
  action: TieOutAction;
  /** The row (its rowKey in the reconciliation). */
  rowKey?: string;
  /** The document item (its key in the reconciliation). */
  itemKey?: string;
  /** The note's text, or why a match was broken. */
  text?: string;
  /** Who (the reviewer name of the settings) and when. */
  reviewer: string;
  at: string;
  /** Words for the trail: which population, which row, which item. */
  label?: string;
}

const DECISION_OF: Partial<Record<TieOutAction, TieOutDecision>> = { confirm: 'confirmed', break: 'broken', match: 'matched' };

function needs(value: string | undefined, what: string): string {
  if (value === undefined || value.trim() === '') throw new AppError(ErrorCode.INVALID_INPUT, `A tie-out ${what} is needed for this action.`);
  return value;
}

/** Records one review action on a tie-out and its trail entry, in one transaction. */
export function reviewTieOut(db: Database, change: TieOutChange): void {
  const reviewer = checkReviewer(change.reviewer);
  const trail = (action: 'state' | 'note', from: string | null, to: string | null, detail: string) =>
    appendTrail(db, { documentId: change.documentId, reviewedId: null, at: change.at, reviewer, action, field: 'tie-out', from, to, detail });
  const label = change.label ? `${change.label}: ` : '';
  db.transaction(() => {
    if (change.action === 'note') {
      const text = needs(change.text, 'note');
      const subject = change.rowKey !== undefined ? rowSubject(change.rowKey) : itemSubject(needs(change.itemKey, 'row or item'));
      insertTieOutNote(db, change.documentId, { subject, reviewer, at: change.at, text: text.trim() });
      trail('note', null, null, `${label}${subject}: ${text.trim()}`);
      return;
    }
    const rowKey = needs(change.rowKey, 'row');
    const itemKey = needs(change.itemKey, 'item');
    const before = findTieOutDecision(db, change.documentId, rowKey, itemKey) ?? null;
    const pairText = `${label}row ${rowKey} ↔ ${itemKey}`;
    if (change.action === 'undo') {
      deleteTieOutDecision(db, change.documentId, rowKey, itemKey);
      trail('state', before, null, `${pairText} (taken back)`);
      return;
    }
    const decision = DECISION_OF[change.action]!;
    // A confirmation or a match by hand ties the row to this item alone; a break only unties this pair.
    if (decision !== 'broken') deletePairingsOf(db, change.documentId, rowKey, itemKey);
    upsertTieOutDecision(db, change.documentId, { rowKey, itemKey, decision, reviewer, at: change.at });
    if (decision === 'broken' && change.text?.trim())
      insertTieOutNote(db, change.documentId, { subject: rowSubject(rowKey), reviewer, at: change.at, text: change.text.trim() });
    trail('state', before, decision, change.text?.trim() ? `${pairText}: ${change.text.trim()}` : pairText);
  })();
}
