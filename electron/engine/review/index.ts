/**
 * Auditor review over merged findings (issue 8): states, field edits beside
 * the model originals, notes, split/merge, manual findings, carry-over to
 * re-runs, an append-only trail, and the summary reports carry.
 */
export {
  setState,
  editField,
  editFields,
  addNote,
  acknowledgeChanges,
  splitMerged,
  mergeReviewed,
  unmergeReviewed,
  undoSplit,
  removeNote,
  addManualFinding,
  type ChangeBase,
  type ManualFindingInput,
} from './operations';
export { carryOverReview, carryOverToLatest, carryOverEveryDocument, syncReview, type CarryOverInput, type CarryOverResult } from './carryOver';
export {
  getReviewView,
  getReviewedFinding,
  getReviewSummary,
  getRunReview,
  countReview,
  toExportFinding,
  type ReviewReadOptions,
  type ReviewSummaryOptions,
  type RunReview,
} from './view';
export { appendTrail, checkReviewer, latestAnalyzedRun, listTrail, runAnalyzedDocument, SYSTEM_REVIEWER, type TrailInput } from './store';
export {
  matchFindings,
  spanOverlap,
  type Assignment,
  type CandidateMerged,
  type CandidateSource,
  type MatchResult,
  type MatchRule,
  type ReviewedCandidate,
  type Span,
} from './matching';
export { getRunModels, type RunModels } from './runModels';
