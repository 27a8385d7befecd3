export {
  collectReportData,
  contextWords,
  groupMentions,
  limitToConfirmed,
  llmUsage,
  type CollectOptions,
  type FailedChunk,
  type LlmUsage,
  type MentionGroup,
  type ReportData,
  type ReportDocument,
  type ReportFinding,
  type ReportInput,
  type ReportJudge,
  type ReportReview,
  type ReportReviewFinding,
  type ReportRunInfo,
  type ReportSource,
} from './reportData';
export { buildReportModel, type ReportModel } from './reportModel';
export { renderMarkdown, escapeMarkdown, outlineSections, outlineEntries, DEFAULT_OUTLINE_DEPTH, type MarkdownOptions, type OutlineEntry } from './markdown';
export { renderHtml, escapeHtml, html, SafeHtml, type HtmlOptions } from './html';
export { renderCsv, csvCell, csvField, neutralizeFormula, CSV_COLUMNS, SOURCE_SEPARATOR, REVIEW_SEPARATOR } from './csv';
export { renderJson, REPORT_JSON_VERSION } from './json';
export { conversationMarkdown, conversationHtml } from './conversations';
export { renderPdfWithChromium, findChromium, CHROMIUM_ARGS, type PdfOptions } from './pdf';
export {
  renderReport,
  formatFromPath,
  isReportFormat,
  defaultPdfRenderer,
  REPORT_FORMATS,
  type ReportFormat,
  type ExportOptions,
  type PdfRenderer,
} from './export';
