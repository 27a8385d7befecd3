import { formatPageRanges } from '../../../shared/canonical';
import type { ReportData, ReportDocument, ReportInput } from './reportData';

/**
 * Text from documents goes into Markdown that may later be rendered to HTML:
 * control characters out, Markdown and HTML syntax escaped, so a document can
 * neither break the table layout nor inject markup.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, ' ')
    .replace(/[\\`*_{}[\]()#+!|~>]/g, (ch) => `\\${ch}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/\s*\n\s*/g, ' ');
}

export interface MarkdownOptions {
  /** Depth of the chunk tree shown in the outline appendix (1 = top-level sections). */
  outlineDepth?: number;
}

export function renderMarkdown(data: ReportData, options: MarkdownOptions = {}): string {
  const depth = options.outlineDepth ?? 2;
  const out: string[] = [];
  out.push('# Audit report', '');
  out.push(`- Run: ${data.run.id} (${data.run.mode}), status ${data.run.status}`);
  out.push(`- Generated: ${data.generatedAt} by Offline Audit ${data.appVersion}`);
  if (data.run.mode === 'rules-only') {
    out.push('- Mode: rules only. No language model was used: this report lists ID mentions found by patterns, not verified findings.');
  }
  out.push('', '## Inputs', '', '| # | File | Status | Pages | sha256 |', '|---|---|---|---|---|');
  data.inputs.forEach((input, i) => {
    const doc = input.document?.document;
    out.push(`| ${i + 1} | ${escapeMarkdown(baseName(input.filePath))} | ${input.status} | ${doc?.pageCount ?? ''} | ${doc ? `\`${doc.sha256}\`` : ''} |`);
  });
  const problems = data.inputs.filter((input) => input.error || input.warnings.length > 0);
  if (problems.length > 0) {
    out.push('', '## Problems', '');
    for (const input of problems) {
      if (input.error) out.push(`- **${escapeMarkdown(baseName(input.filePath))}**: ${input.error.code}: ${escapeMarkdown(input.error.message)}`);
      for (const warning of input.warnings) out.push(`- ${escapeMarkdown(baseName(input.filePath))}: ${warning.code}: ${escapeMarkdown(warning.message)}`);
    }
  }
  for (const input of data.inputs) if (input.document) out.push(...renderDocument(input, input.document));
  out.push('', '## Appendix: document outlines', '');
  for (const input of data.inputs) if (input.document) out.push(...renderOutline(input.document, depth));
  return `${out.join('\n')}\n`;
}

function renderDocument(input: ReportInput, doc: ReportDocument): string[] {
  const out = ['', `## ${escapeMarkdown(doc.document.fileName)}`, ''];
  const leaves = doc.nodes.filter((n) => n.isLeaf).length;
  out.push(`- Pages: ${doc.document.pageCount}; chunk tree: ${doc.strategy ?? 'none'} (${leaves} chunks)`);
  if (doc.pagesWithoutText.length > 0) out.push(`- Pages without a text layer: ${formatPageRanges(doc.pagesWithoutText)}`);
  out.push('', `### ID mentions (${doc.mentionGroups.length} distinct IDs)`, '');
  if (doc.mentionGroups.length === 0) {
    out.push(input.status === 'done' ? 'No ID matching the configured patterns was found.' : 'Not analysed.');
    return out;
  }
  out.push('| ID | Pages | Mentions |', '|---|---|---|');
  for (const group of doc.mentionGroups) {
    out.push(`| ${escapeMarkdown(group.id)} | ${formatPageRanges(group.pages)} | ${group.mentions.length} |`);
  }
  return out;
}

function renderOutline(doc: ReportDocument, depth: number): string[] {
  const out = [`### ${escapeMarkdown(doc.document.fileName)}`, ''];
  const sections = doc.nodes.filter((n) => !n.isLeaf && n.section.level >= 1 && n.section.level <= depth);
  if (sections.length === 0) out.push('No sections found (the document is chunked by pages).');
  for (const node of sections) {
    const pages = node.pageStart === node.pageEnd ? `p. ${node.pageStart}` : `pp. ${node.pageStart}-${node.pageEnd}`;
    out.push(`${'  '.repeat(node.section.level - 1)}- ${escapeMarkdown(node.title)} (${pages})`);
  }
  out.push('');
  return out;
}

function baseName(filePath: string): string {
  return filePath.split(/[\\/]/).pop() ?? filePath;
}
