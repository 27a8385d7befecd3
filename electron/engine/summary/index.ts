/** Document summary: chunk summaries appended, or map-reduced when they exceed the budget. */
export {
  summarizeDocument,
  groupToBudget,
  capSummaries,
  plannedPromptTokens,
  SUMMARY_PROMPT_TOKENS_PER_SOURCE_TOKEN,
  type SummaryDeps,
  type SummarizeInput,
  type SummarizeResult,
  type SummaryCap,
} from './summarizeDocument';
export { saveSummary, getSummary } from './store';
export { buildSummaryMessages, renderSummaryParts, planSummaryReplyTokens, SUMMARY_MAP_SENTENCES, SUMMARY_REDUCE_SENTENCES } from './prompts';
export { summaryIdsWithoutFinding } from './summaryIds';
