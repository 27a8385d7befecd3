import { formatPageRanges } from '../../../shared/canonical';
import type { MergedFinding } from '../../../shared/findings';
import type { ChunkNode } from '../../../shared/types';
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
  for (const input of data.inputs) if (input.document) out.push(...renderDocument(input, input.document, data.run.mode === 'full'));
  out.push('', '## Appendix: document outlines', '');
  for (const input of data.inputs) if (input.document) out.push(...renderOutline(input.document, depth));
  return `${out.join('\n')}\n`;
}

function renderDocument(input: ReportInput, doc: ReportDocument, fullMode: boolean): string[] {
  const out = ['', `## ${escapeMarkdown(doc.document.fileName)}`, ''];
  const leaves = doc.nodes.filter((n) => n.isLeaf).length;
  out.push(`- Pages: ${doc.document.pageCount}; chunk tree: ${doc.strategy ?? 'none'} (${leaves} chunks)`);
  if (doc.pagesWithoutText.length > 0) out.push(`- Pages without a text layer: ${formatPageRanges(doc.pagesWithoutText)}`);
  if (fullMode) out.push(...renderFindings(doc));
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

/** Verified findings first; then what an auditor must see and never confuse with them. */
function renderFindings(doc: ReportDocument): string[] {
  const verified = doc.findings.filter((f) => f.grounded);
  const ungrounded = doc.findings.filter((f) => !f.grounded);
  const out: string[] = [];
  if (doc.summary) out.push('', '### Summary', '', escapeMarkdown(doc.summary.text));
  out.push('', `### Findings (${verified.length}, each quote found in the document)`, '');
  if (verified.length === 0) out.push('No grounded finding.');
  else {
    out.push('| ID | Title | Severity | Type | Pages | Sources |', '|---|---|---|---|---|---|');
    for (const f of verified) out.push(findingRow(f));
    for (const f of verified) out.push(...findingDetail(f));
  }
  out.push('', `### Ungrounded findings (${ungrounded.length}): the model reported them, the text does not show them`, '');
  if (ungrounded.length === 0) out.push('None.');
  else {
    out.push('| ID | Title | Severity | Type | Stated pages | Sources |', '|---|---|---|---|---|---|');
    for (const f of ungrounded) out.push(findingRow(f));
    for (const f of ungrounded) out.push(...findingDetail(f));
  }
  out.push('', `### Unreviewed ID mentions (${doc.unreviewedMentions.length}): in the document, in no finding`, '');
  if (doc.unreviewedMentions.length === 0) out.push('None.');
  else for (const m of doc.unreviewedMentions) out.push(`- ${escapeMarkdown(m.id)}: pages ${formatPageRanges(m.pages)}`);
  out.push('', `### Chunks that failed analysis (${doc.failedChunks.length})`, '');
  if (doc.failedChunks.length === 0) out.push('None.');
  else for (const c of doc.failedChunks) out.push(`- ${escapeMarkdown(c.title)} (pages ${c.pageStart}-${c.pageEnd}): ${c.error.code}: ${escapeMarkdown(c.error.message)}`);
  return out;
}

function findingPages(f: MergedFinding): string {
  return formatPageRanges(f.sources.map((s) => s.page).filter((p): p is number => p !== null));
}

function findingRow(f: MergedFinding): string {
  return `| ${escapeMarkdown(f.findingKey ?? '')} | ${escapeMarkdown(f.title)} | ${escapeMarkdown(f.severity)} | ${escapeMarkdown(f.type)} | ${findingPages(f)} | ${f.sources.length} |`;
}

function findingDetail(f: MergedFinding): string[] {
  const out = ['', `#### ${f.findingKey ? `${escapeMarkdown(f.findingKey)}: ` : ''}${escapeMarkdown(f.title)}`, ''];
  out.push(`Severity ${escapeMarkdown(f.severity)}, type ${escapeMarkdown(f.type)}, main page ${f.mainPage ?? 'unknown'}.`, '', escapeMarkdown(f.description), '');
  for (const source of f.sources) {
    const where = source.page === null ? 'page unknown' : `page ${source.page}`;
    const state = source.grounded ? `found (${source.match ?? 'exact'})` : 'not found in the text';
    out.push(`- ${where}, ${state}: “${escapeMarkdown(source.evidence)}”`);
  }
  return out;
}

function renderOutline(doc: ReportDocument, depth: number): string[] {
  const out = [`### ${escapeMarkdown(doc.document.fileName)}`, ''];
  const sections = outlineSections(doc.nodes, depth);
  if (sections.length === 0) out.push('No sections found (the document is chunked by pages).');
  for (const node of sections) {
    const pages = node.pageStart === node.pageEnd ? `p. ${node.pageStart}` : `pp. ${node.pageStart}-${node.pageEnd}`;
    out.push(`${'  '.repeat(node.section.level - 1)}- ${escapeMarkdown(node.title)} (${pages})`);
  }
  out.push('');
  return out;
}

/**
 * Sections from the document's own structure (outline or headings), leaf or
 * not. A section's body leaf repeats its title at the same place: shown once.
 */
export function outlineSections(nodes: readonly ChunkNode[], depth: number): ChunkNode[] {
  return nodes.filter((node) => {
    if (node.origin !== 'outline' && node.origin !== 'heading') return false;
    if (node.section.level < 1 || node.section.level > depth) return false;
    const parent = node.parentIndex === null ? undefined : nodes[node.parentIndex];
    return !(parent && parent.title === node.title && parent.start === node.start);
  });
}

function baseName(filePath: string): string {
  return filePath.split(/[\\/]/).pop() ?? filePath;
}
