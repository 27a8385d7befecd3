/** Merge: one finding per real finding (by ID, overlapping evidence, similar text), and the unreviewed-ID cross-check. */
export { mergeFindings, unreviewedMentions, type MergeOptions, type MergeResult } from './mergeFindings';
export { compareFindings, textSimilarity, bigrams, dice, words, contentWords, TITLE_THRESHOLD, TEXT_THRESHOLD, MIN_SUBSET_WORDS, type Similarity, type Comparable } from './similarity';
export { saveMergeResult, listMergedFindings, listMergeDecisions, type StoredMergeDecision } from './store';
