/**
 * The re-audit comparison commands of the host (issue 30): compare the stored
 * analyses of two documents, and record the auditor's answer to a candidate
 * pair (with the reviewer name from the settings) before comparing again.
 */
import type { Comparison } from '../../shared/compare';
import type { ParsedInput } from '../../shared/contract';
import { compareDocuments, saveComparison, saveDecision } from '../engine/compare';
import type { Database } from '../engine/store';
import { reviewerFrom } from './review';

export function compareHandlers(db: Database, now: () => Date) {
  const compareAndStore = (earlierDocumentId: number, laterDocumentId: number, mode: 'auto' | 'rules-only' | undefined): Comparison => {
    const comparison = compareDocuments(db, { earlierDocumentId, laterDocumentId, ...(mode ? { mode } : {}), now: now().toISOString() });
    return { ...comparison, id: saveComparison(db, comparison) };
  };
  return {
    'compare.run': ({ earlierDocumentId, laterDocumentId, mode }: ParsedInput<'compare.run'>): Comparison => compareAndStore(earlierDocumentId, laterDocumentId, mode),
    'compare.decide': (input: ParsedInput<'compare.decide'>): Comparison => {
      saveDecision(db, { ...input, reviewer: reviewerFrom(db), at: now().toISOString() });
      return compareAndStore(input.earlierDocumentId, input.laterDocumentId, input.mode);
    },
  };
}
