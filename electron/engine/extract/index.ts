/**
 * Findings extraction: one call per unit of consecutive leaf chunks (findings + a summary),
 * grounding of every quote, and the chunk-result/finding repository.
 */
export {
  extractChunk,
  groundReply,
  effectivePage,
  previousTailFor,
  locateTail,
  splitPoint,
  type ExtractDeps,
  type ExtractChunkInput,
  type ExtractChunkResult,
  type ExtractionCallSettings,
} from './extractChunk';
export { groundFinding } from './groundFinding';
export { identifyFinding, comparableId, candidateIds, printedNumberBefore, idOccurrences, ID_WINDOW_CHARS, type FindingIdentity } from './identity';
export { parsePrintedLine, groundPrintedLine, wordShare, type PrintedLine } from './printedEntries';
export {
  groundEvidence,
  fuzzyFind,
  normalizeForMatch,
  normalizeEvidence,
  evidenceTokens,
  FUZZY_THRESHOLD,
  MIN_FUZZY_TOKENS,
  FUZZY_WINDOW_FACTOR,
  type GroundingRegions,
  type FuzzyMatch,
  type NormalizedText,
} from './grounding';
export {
  PROMPT_VERSION,
  extractionReplySchema,
  quotedFindingSchema,
  PRINTED_LINE_SHAPE,
  extractionInstructions,
  buildExtractionMessages,
  recordedBlock,
  buildFollowUpMessages,
  renderWithPageMarkers,
  buildSummaryMessages,
  renderSummaryParts,
  SUMMARY_MAP_SENTENCES,
  SUMMARY_REDUCE_SENTENCES,
  EXTRACTION_TASK,
  type ExtractionReply,
  type ExtractionPromptInput,
} from './prompts';
export * from './store';
export { planExtractionReplyTokens, planSummaryReplyTokens, SOURCE_TOKENS_PER_FINDING, REPLY_TOKENS_PER_FINDING, PRINTED_LINE_TOKENS, MIN_EXTRACTION_REPLY_TOKENS } from './replyBudget';
export { packUnits, leafOfFinding, expectedFindingsByLeaf, expectedReplyTokens, type ExtractionUnit, type ReplyPlan } from './units';
export { withEveryTitleSighting, rowOwnTitle } from './sightings';
export { askForUncoveredMentions, uncoveredMentions, unnamedSections, excerptsAround, FOLLOW_UP_BATCH, type FollowUpInput, type FollowUpBatch, type UnnamedSection } from './followUp';
export { listsToRead, recordedList, recordedWithin, hiddenSpansOf, withHiddenSpans, hasVisibleText, isHidden, rowsWithin, rowFinding, type ListedRows, type HiddenSpan, type RecordedList } from './listedRows';
export { recordedDetail, standsFor } from './recordedDetails';
export { titleLines, startsLine, headsTitledSection, namesTitleOnly, sectionOpening, fieldSeverity, severitiesAsPrinted, readAsPrinted, asPrinted, severityGroupLines, headingGroups, groupAbove, headingBlockId, titleHeading, headsSection, metadataBlockEnd, isSeverityWord, type PrintedSeverity, type PrintedFields, type SeverityGroup, type FindingPlaces, type TitleLine } from './printedSections';
