/** Document summary: chunk summaries appended, or map-reduced when they exceed the budget. */
export { summarizeDocument, groupToBudget, type SummaryDeps, type SummarizeInput, type SummarizeResult } from './summarizeDocument';
export { saveSummary, getSummary } from './store';
