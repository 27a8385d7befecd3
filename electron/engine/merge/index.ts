/** Merge: one finding per real finding (by document-printed ID or number, overlapping evidence, similar text), the conflicts kept apart, and the unreviewed-ID cross-check. */
export { mergeFindings, mergeFindingsInSlices, unreviewedMentions, agree, type MergeOptions, type MergeResult } from './mergeFindings';
export { compareFindings, TITLE_THRESHOLD, TEXT_THRESHOLD, MIN_SUBSET_WORDS, type Similarity, type Comparable } from './similarity';
export {
  saveMergeResult,
  documentHasMergedFindings,
  listMergedFindings,
  listMergeDecisions,
  listMergeConflicts,
  latestMergedRuns,
  type StoredMergeDecision,
} from './store';
