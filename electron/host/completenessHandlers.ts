/**
 * The completeness command of the host (issue 19): a document's verdict as the
 * pipeline stored it, from its latest checked run or the run asked for.
 */
import type { CompletenessView, ParsedInput } from '../../shared/contract';
import { AppError, ErrorCode } from '../../shared/errors';
import { getCompleteness, latestCompleteness } from '../engine/completeness';
import { documentExists, type Database } from '../engine/store';

export function completenessHandlers(db: Database) {
  return {
    'completeness.get': async ({ documentId, runId }: ParsedInput<'completeness.get'>): Promise<CompletenessView> => {
      if (!documentExists(db, documentId)) {
        throw new AppError(ErrorCode.INVALID_INPUT, `There is no document ${documentId}. Refresh the library.`);
      }
      if (runId === undefined) return { documentId, ...latestCompleteness(db, documentId) };
      const verdict = getCompleteness(db, runId, documentId);
      return { documentId, runId: verdict ? runId : null, verdict };
    },
  };
}
