/** Re-audit comparison (issue 30): two versions of a report, their findings paired and labelled, the later one's stated statuses read. */
export {
  compareDocuments,
  findingKeyOf,
  loadSide as loadFindingsOf,
  type CompareInput,
  type Side as DocumentFindings,
  type Item as DocumentFinding,
} from './compareDocuments';
export { pairFindings, areSiblings, agreeEnough, CANDIDATE_SCORE, SAME_EVIDENCE, type PairingItem, type Match, type Candidate } from './pairing';
export {
  readStatedStatus,
  statusCategory,
  statusWordIn,
  withoutTrailingStatus,
  SECTION_CHARS,
  HEADER_CHARS,
  type FindingAnchors,
  type StatusTextView,
} from './statedStatus';
export { saveComparison, getComparison, listComparisons, saveDecision, listDecisions, type ComparisonListing, type StoredDecision } from './store';
export { renderComparison, comparisonMarkdown, comparisonHtml, comparisonCsv, comparisonJson, type CompareFormat } from './exportComparison';
export {
  readStatusesWithModel,
  statusesLeftUnread,
  statusModelFor,
  MODEL_STATUS_NUM_CTX,
  STATUS_CHUNK_REF,
  STATUS_INSTRUCTIONS,
  type ModelStatusOptions,
  type ModelStatusResult,
} from './modelStatus';
