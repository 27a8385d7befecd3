export { collectReportData, groupMentions, type ReportData, type ReportDocument, type ReportInput, type MentionGroup, type FailedChunk } from './reportData';
export { renderMarkdown, escapeMarkdown, outlineSections, type MarkdownOptions } from './markdown';
export { renderJson, REPORT_JSON_VERSION } from './json';
