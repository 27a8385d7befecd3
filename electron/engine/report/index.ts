export { collectReportData, groupMentions, type ReportData, type ReportDocument, type ReportInput, type MentionGroup } from './reportData';
export { renderMarkdown, escapeMarkdown, type MarkdownOptions } from './markdown';
