/**
 * What the document prints about itself, read from its text without a model: its lines, the lists and registers of
 * findings it prints (summary-table rows, item lists, stated totals), the IDs, numbers, titles and severities it
 * prints for a finding, where a quote stands in it (grounding), and the words two printed titles are compared by.
 *
 * One floor below the stages that use it: extract, merge and completeness (and compare, reconcile, summary, pipeline)
 * import this module; it imports none of them, only util/, rules/ (the ID patterns) and shared/. A helper belongs
 * here when more than one stage needs the same reading of the document; what one stage decides with it (a
 * finding's merge, the completeness verdict, an extraction prompt) stays in that stage.
 */
export {
  groundEvidence,
  fuzzyFind,
  normalizeForMatch,
  normalizeEvidence,
  evidenceTokens,
  NormalizedViews,
  FUZZY_THRESHOLD,
  MIN_FUZZY_TOKENS,
  FUZZY_WINDOW_FACTOR,
  type GroundingRegions,
  type FuzzyMatch,
  type NormalizedText,
} from './grounding';
export { identifyFinding, comparableId, candidateIds, printedNumberBefore, idOccurrences, ID_WINDOW_CHARS, type FindingIdentity } from './identity';
export { sourceDescription, MAX_DESCRIPTION_CHARS } from './sourceDescription';
export {
  titleLines,
  startsLine,
  headsTitledSection,
  namesTitleOnly,
  sectionOpening,
  fieldSeverity,
  severitiesAsPrinted,
  readAsPrinted,
  asPrinted,
  severityGroupLines,
  headingGroups,
  groupAbove,
  headingBlockId,
  titleHeading,
  headsSection,
  metadataBlockEnd,
  isSeverityWord,
  lineOf,
  printedNowhere,
  OPENING_WINDOW_CHARS,
  type PrintedSeverity,
  type PrintedFields,
  type SeverityGroup,
  type FindingPlaces,
  type TitleLine,
} from './sections';
export { withEveryTitleSighting, rowOwnTitle } from './sightings';
export {
  listsToRead,
  recordedList,
  recordedWithin,
  hiddenSpansOf,
  withHiddenSpans,
  hasVisibleText,
  isHidden,
  rowsWithin,
  rowFinding,
  type ListedRows,
  type HiddenSpan,
  type RecordedList,
} from './listedRows';
export { renderWithPageMarkers } from './pageMarkers';
export { textLines, oneLine, parseCount, COUNT_SOURCE, type TextLine } from './textLines';
export { findStatedTotals, severityLabels } from './statedTotals';
export { findListings, type Listing } from './listedEntries';
export { idFamily, isReferenceId, ownIdFamilies, splitMentions, headingBlockIds } from './idFamily';
export { findItemLists, itemsWithoutFinding, type ItemList, type ListItem, type UncoveredItem } from './itemLists';
export { words, contentWords, bigrams, dice, textSimilarity, STOPWORDS } from './titleWords';
export {
  contentTitle,
  contentTitleOf,
  uniqueTitles,
  distinctTitles,
  titlesDistinct,
  sharedShare,
  distinguishingWords,
  printedTitleTest,
  printedTitleTestSteps,
  ownRowTitles,
  SIBLING_SHARE,
  type ContentTitle,
} from './titles';
