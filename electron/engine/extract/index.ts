/**
 * Findings extraction: one call per unit of consecutive leaf chunks (findings + a summary),
 * grounding of every quote, and the chunk-result/finding repository.
 */
export {
  extractUnit,
  groundReply,
  effectivePage,
  previousTailFor,
  locateTail,
  splitPoint,
  type ExtractDeps,
  type ExtractUnitInput,
  type ExtractUnitResult,
  type ExtractionCallSettings,
} from './extractUnit';
export { groundFinding } from './groundFinding';
export { parsePrintedLine, groundPrintedLine, wordShare, type PrintedLine } from './printedEntries';
export {
  PROMPT_VERSION,
  extractionReplySchema,
  quotedFindingSchema,
  PRINTED_LINE_SHAPE,
  extractionInstructions,
  buildExtractionMessages,
  recordedBlock,
  buildFollowUpMessages,
  EXTRACTION_TASK,
  type ExtractionReply,
  type ExtractionPromptInput,
} from './prompts';
export * from './store';
export {
  planExtractionReplyTokens,
  SOURCE_TOKENS_PER_FINDING,
  REPLY_TOKENS_PER_FINDING,
  PRINTED_LINE_TOKENS,
  MIN_EXTRACTION_REPLY_TOKENS,
} from './replyBudget';
export { packUnits, leafOfFinding, expectedFindingsByLeaf, expectedReplyTokens, type ExtractionUnit, type ReplyPlan } from './units';
export {
  askForUncoveredMentions,
  uncoveredMentions,
  unnamedSections,
  excerptsAround,
  FOLLOW_UP_BATCH,
  type FollowUpInput,
  type FollowUpBatch,
  type UnnamedSection,
} from './followUp';
export { recordedDetail, standsFor } from './recordedDetails';
