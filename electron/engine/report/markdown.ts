import { formatPageRanges } from '../../../shared/canonical';
import type { ChunkNode } from '../../../shared/types';
import {
  baseName,
  chunkingText,
  readableTime,
  findingPages,
  formatDuration,
  formatUsage,
  grounded,
  isFullMode,
  modelText,
  pagesOf,
  profileOf,
  reviewCountsText,
  reviewedBy,
  RULES_ONLY_NOTE,
  SECTION_TEXT,
  severityLabel,
  shownValues,
  stateText,
  ungrounded,
  CONFIRMED_ONLY_NOTE,
  conflictText,
  idLabel,
  idOriginText,
  ocrNote,
  ocrPageList,
  mainPageText,
  sourcePage,
} from './format';
import { citationLine, conversationScopeText, CONVERSATIONS_NOTE, documentNames, markedNote } from './conversationText';
import { idOriginOf, type ExtractionProfile } from '../../../shared/findings';
import type { ReviewExportFinding } from '../../../shared/review';
import type { ReportData, ReportDocument, ReportFinding, ReportInput, ReportReview } from './reportData';
import type { CompletenessVerdict } from '../../../shared/completeness';
import { listingLines, statedSource, tallyRows } from './completeness';
import type { StoredConversation } from '../../../shared/retrieval';

/**
 * Text from documents goes into Markdown that may later be rendered to HTML:
 * control characters out, Markdown and HTML syntax escaped, so a document can
 * neither break the table layout nor inject markup.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, ' ')
    // Brackets are escaped, so a parenthesis can never start a link target: "(no reason)" stays as written.
    .replace(/[\\`*_{}[\]#+!|~>]/g, (ch) => `\\${ch}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/\s*\n\s*/g, ' ');
}

export interface MarkdownOptions {
  /** Depth of the chunk tree shown in the outline appendix (1 = top-level sections). */
  outlineDepth?: number;
}

export const DEFAULT_OUTLINE_DEPTH = 2;

export function renderMarkdown(data: ReportData, options: MarkdownOptions = {}): string {
  const depth = options.outlineDepth ?? DEFAULT_OUTLINE_DEPTH;
  const full = isFullMode(data);
  const out: string[] = [];
  out.push('# Audit report', '');
  out.push(`- Run: ${data.run.id} (${data.run.mode}), status ${data.run.status}`);
  out.push(`- Generated: ${readableTime(data.generatedAt)} by Offline Audit ${escapeMarkdown(data.appVersion)}`);
  if (!full) out.push(`- ${RULES_ONLY_NOTE}`);
  if (data.confirmedOnly) out.push(`- ${CONFIRMED_ONLY_NOTE}`);
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
  const profile = profileOf(data);
  for (const input of data.inputs) if (input.document) out.push(...renderDocument(input, input.document, full, profile));
  out.push(...renderConversations(data));
  out.push(...renderSettings(data));
  out.push('', '## Appendix: document outlines', '', `Sections of each document's chunk tree, to depth ${depth}.`, '');
  for (const input of data.inputs) if (input.document) out.push(...renderOutline(input.document, depth));
  return `${out.join('\n')}\n`;
}

/** The questions asked about these documents, after the documents: what an auditor asked and was told. */
function renderConversations(data: ReportData): string[] {
  if (data.conversations.length === 0) return [];
  const out = ['', '## Questions and answers', '', CONVERSATIONS_NOTE];
  for (const c of data.conversations) out.push('', ...conversationMarkdownLines(c, 3, documentNames(data)));
  return out.map((line) => line.trimEnd()).filter((line, i, all) => !(line === '' && all[i - 1] === ''));
}

/**
 * The questions and answers of one conversation as Markdown lines, under a
 * heading of the given level (1 on its own, 3 inside a report).
 */
export function conversationMarkdownLines(conversation: StoredConversation, headingLevel: number, documentNames: ReadonlyMap<number, string> = new Map()): string[] {
  const hashes = '#'.repeat(headingLevel);
  const title = headingLevel === 1 ? `Questions and answers: ${conversation.summary.title}` : conversation.summary.title;
  const out = [`${hashes} ${escapeMarkdown(title)}`, ''];
  if (headingLevel > 1) out.push(`Conversation ${conversation.summary.id}, ${escapeMarkdown(conversationScopeText(conversation, documentNames))}, last updated ${conversation.summary.updatedAt}.`, '');
  for (const m of conversation.messages) {
    if (m.role === 'user') {
      out.push(`${hashes}# Q: ${escapeMarkdown(m.text)}`, '');
      continue;
    }
    out.push(escapeMarkdown(m.text), '');
    const a = m.answer;
    if (!a) continue;
    if (a.marked) out.push(`> ${markedNote(a)}`, '');
    if (a.exhaustiveNote) out.push(`> ${escapeMarkdown(a.exhaustiveNote)}`, '');
    for (const c of a.citations) out.push(`- [${c.n}] ${escapeMarkdown(citationLine(c))}`);
    if (a.citations.length > 0) out.push('');
  }
  return out;
}

function renderSettings(data: ReportData): string[] {
  const info = data.runInfo;
  const out = ['', '## Appendix: how this analysis was made', ''];
  out.push(`- Profile: ${escapeMarkdown(info.profileName ?? 'default')}`);
  out.push(`- Chunking: ${escapeMarkdown(info.strategyChoice)}${info.strategyChoice === 'auto' ? (info.judgeEnabled ? ' (the LLM judge chooses per document)' : ' (chosen from the document structure, no judge)') : ' (set by the user)'}`);
  if (info.llm) {
    const models = Object.entries(info.llm.models).map(([stage, model]) => `${stage} ${escapeMarkdown(model)}`);
    out.push(`- Models: ${models.join(', ')}`);
    out.push(`- num_ctx: ${info.llm.numCtx ?? 'unknown'}; chunk budget: ${info.llm.chunkTokenBudget ?? 'unknown'} tokens`);
    out.push(`- LLM server: ${escapeMarkdown(info.llm.description)}`);
  } else if (data.run.mode === 'full') {
    out.push('- Models: not recorded (the run stopped before the language model was reached)');
  }
  if (info.models.length > 0) {
    out.push('- Model digests (as Ollama listed them for this run):');
    for (const m of info.models) out.push(`  - ${escapeMarkdown(modelText(m))}`);
  }
  out.push(`- Run duration: ${formatDuration(info.durationMs)} (started ${readableTime(data.run.startedAt, 'never')}, finished ${readableTime(data.run.finishedAt, 'not yet')})`);
  out.push(`- LLM usage: ${formatUsage(info.usage)}`);
  for (const m of info.usage.byModel) out.push(`  - ${escapeMarkdown(m.model)}: ${m.calls} calls, ${m.promptTokens} prompt tokens, ${m.evalTokens} generated tokens, ${formatDuration(m.llmMs)}`);
  return out;
}

function renderDocument(input: ReportInput, doc: ReportDocument, fullMode: boolean, profile: ExtractionProfile): string[] {
  const out = ['', `## ${escapeMarkdown(doc.document.fileName)}`, ''];
  const leaves = doc.nodes.filter((n) => n.isLeaf).length;
  out.push(`- File: ${escapeMarkdown(baseName(input.filePath))}`);
  out.push(`- sha256: \`${doc.document.sha256}\``);
  out.push(`- Pages: ${doc.document.pageCount}`);
  out.push(`- Chunking: ${escapeMarkdown(chunkingText(doc.strategy, doc.judge))} (${leaves} chunks)`);
  if (fullMode) out.push(`- LLM usage: ${formatUsage(doc.usage)}`);
  if (doc.completeness) out.push(...renderCompleteness(doc.completeness, doc.picturePagesNote));
  if (fullMode) out.push(...renderReview(doc.review));
  if (fullMode) out.push(...renderFindings(doc, profile));
  out.push('', `### Pages without a text layer (${doc.pagesWithoutText.length})`, '');
  out.push(doc.pagesWithoutText.length === 0 ? 'None.' : `Pages without a text layer: ${formatPageRanges(doc.pagesWithoutText)}. ${SECTION_TEXT.noTextExplain}`);
  if (doc.ocrPages.length > 0) {
    const low = doc.ocrPages.filter((p) => p.low).length;
    out.push('', `### Pages read by OCR (${doc.ocrPages.length}${low > 0 ? `, ${low} low confidence` : ''})`, '', `Pages ${ocrPageList(doc.ocrPages)}. ${SECTION_TEXT.ocrExplain}`);
  }
  if (doc.unreadablePages.length > 0) {
    out.push('', `### Unreadable pages (${doc.unreadablePages.length})`, '', SECTION_TEXT.unreadableExplain, '');
    for (const { page, reason } of doc.unreadablePages) out.push(`- Page ${page}: ${escapeMarkdown(reason)}`);
  }
  if (fullMode) out.push(...renderFailed(doc));
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
function renderFindings(doc: ReportDocument, profile: ExtractionProfile): string[] {
  const verified = grounded(doc);
  const notShown = ungrounded(doc);
  const out: string[] = [];
  out.push('', '### Summary', '', doc.summary ? escapeMarkdown(doc.summary.text) : 'No summary was written for this document.');
  out.push('', `### Findings (${verified.length}, each quote found in the document)`, '');
  if (verified.length === 0) out.push('No grounded finding.');
  else {
    out.push(...findingTable(verified, profile));
    for (const f of verified) out.push(...findingDetail(f, profile));
  }
  out.push('', `### Ungrounded findings (${notShown.length}): the model reported them, the text does not show them`, '');
  if (notShown.length === 0) out.push('None.');
  else {
    out.push(`> ${SECTION_TEXT.ungroundedNote}`, '');
    out.push(...findingTable(notShown, profile));
    for (const f of notShown) out.push(...findingDetail(f, profile));
  }
  if (doc.mergeConflicts.length > 0) {
    out.push('', `### Merge conflicts (${doc.mergeConflicts.length}): same ID or number in the document, different findings`, '');
    for (const c of doc.mergeConflicts) out.push(`- ${escapeMarkdown(conflictText(c))}`);
  }
  out.push('', `### Unreviewed ID mentions (${doc.unreviewedMentions.length}): in the document, in no finding`, '');
  if (doc.unreviewedMentions.length === 0) out.push('None.');
  else for (const m of doc.unreviewedMentions) out.push(`- ${escapeMarkdown(m.id)}: pages ${formatPageRanges(m.pages)}`);
  return out;
}

/** Stated vs found per severity, the document's own lists, and every place to check with its page. */
function renderCompleteness(verdict: CompletenessVerdict, picturePagesNote: string | null): string[] {
  const out = ['', `### Completeness: ${escapeMarkdown(verdict.headline)}`, ''];
  out.push('| Severity | Stated by the document | Listed in its summary table | Found |', '|---|---|---|---|');
  for (const row of tallyRows(verdict)) out.push(`| ${escapeMarkdown(row.severity)} | ${escapeMarkdown(row.stated)} | ${row.listed} | ${row.found}${row.agrees ? '' : ' (differs)'} |`);
  out.push('', escapeMarkdown(statedSource(verdict)));
  const listings = listingLines(verdict);
  if (listings.length > 0) out.push('', ...listings.map((line) => `- ${escapeMarkdown(line)}`));
  if (verdict.places.length > 0) {
    out.push('', `Places to check (${verdict.places.length}):`, '');
    for (const place of verdict.places) out.push(`- ${place.page === null ? '' : `Page ${place.page}: `}${escapeMarkdown(place.message)}`);
  }
  if (picturePagesNote) out.push('', escapeMarkdown(picturePagesNote));
  return out;
}

function renderFailed(doc: ReportDocument): string[] {
  const out = ['', `### Chunks that failed analysis (${doc.failedChunks.length})`, ''];
  if (doc.failedChunks.length === 0) out.push('None.');
  else out.push(SECTION_TEXT.failedNote, '');
  for (const c of doc.failedChunks) out.push(`- ${escapeMarkdown(c.title)} (${pagesOf(c.pageStart, c.pageEnd)}): ${c.error.code}: ${escapeMarkdown(c.error.message)}`);
  return out;
}

function reviewStates(f: ReportFinding): string {
  return f.review.length === 0 ? 'not reviewed' : f.review.map((r) => `${r.label} ${stateText(r)}`).join('; ');
}

function findingTable(findings: readonly ReportFinding[], profile: ExtractionProfile): string[] {
  const out = ['| ID | Title | Severity | Type | Pages | Grounded | Review |', '|---|---|---|---|---|---|---|'];
  for (const f of findings) {
    const v = shownValues(f, profile);
    out.push(
      `| ${escapeMarkdown(idLabel(f))} | ${escapeMarkdown(v.title)}${v.edited ? ' (edited)' : ''} | ${escapeMarkdown(severityLabel(v))} | ${escapeMarkdown(v.type)} | ${findingPages(f)} | ${f.grounded ? 'yes' : 'NO'} | ${escapeMarkdown(reviewStates(f))} |`,
    );
  }
  return out;
}

/** Review lines of one reviewed finding: state, who and when, each edit beside the model's value, notes. */
function reviewLines(r: ReviewExportFinding, indent = ''): string[] {
  const out = [`${indent}- Review ${r.label}: ${escapeMarkdown(stateText(r))}${reviewedBy(r) ? `; last change by ${escapeMarkdown(reviewedBy(r)!)}` : '; no auditor change yet'}`];
  for (const e of r.edits) out.push(`${indent}  - Edited ${e.field}: model “${escapeMarkdown(e.original)}” → auditor “${escapeMarkdown(e.effective)}”`);
  for (const n of r.notes) out.push(`${indent}  - Note by ${escapeMarkdown(n.reviewer)}, ${readableTime(n.at)}: ${escapeMarkdown(n.text)}`);
  if (r.changedFields.length > 0) out.push(`${indent}  - The latest run reports other values for: ${r.changedFields.join(', ')} (not yet acknowledged)`);
  if (r.vanished) out.push(`${indent}  - The latest run no longer reports this finding`);
  return out;
}

function renderReview(review: ReportReview | null): string[] {
  if (!review) return [];
  const out = ['', `### Review (${reviewCountsText(review.counts)})`, ''];
  if (review.confirmedOnly) out.push('Only confirmed findings are listed; the counts cover every finding.', '');
  if (review.findings.length === 0) {
    out.push(review.confirmedOnly ? 'No finding was confirmed.' : 'No finding to review.');
    return out;
  }
  out.push('| Review | ID | Title | Severity | State | Last change |', '|---|---|---|---|---|---|');
  for (const r of review.findings) {
    out.push(
      `| ${r.label} | ${escapeMarkdown(r.findingKey ?? '—')} | ${escapeMarkdown(r.effective.title)}${r.edits.length > 0 ? ' (edited)' : ''}${r.origin === 'manual' ? ' (added by the auditor)' : ''} | ${escapeMarkdown(r.effective.severity)} | ${escapeMarkdown(stateText(r))} | ${escapeMarkdown(reviewedBy(r) ?? '—')} |`,
    );
  }
  const detailed = review.findings.filter((r) => r.edits.length > 0 || r.notes.length > 0 || r.manualEvidence || r.changedFields.length > 0 || r.vanished);
  if (detailed.length > 0) out.push('');
  for (const r of detailed) {
    out.push(...reviewLines(r));
    if (r.manualEvidence) out.push(`  - Added by the auditor from page ${r.manualEvidence.page}: “${escapeMarkdown(r.manualEvidence.text)}”`);
  }
  return out;
}

function findingDetail(f: ReportFinding, profile: ExtractionProfile): string[] {
  const v = shownValues(f, profile);
  const documentId = idOriginOf(f) === 'document' ? idLabel(f) : null;
  const out = ['', `#### ${documentId ? `${escapeMarkdown(documentId)}: ` : ''}${escapeMarkdown(v.title)}`, ''];
  out.push(`- ID: ${escapeMarkdown(idLabel(f))} (${idOriginText(f)})`);
  out.push(
    `- Severity: ${escapeMarkdown(severityLabel(v))}; type: ${escapeMarkdown(v.type)}; pages: ${findingPages(f) || 'unknown'}; main page: ${mainPageText(f)}; grounded: ${f.grounded ? 'yes' : 'NO'}`,
  );
  for (const r of f.review) out.push(...reviewLines(r));
  out.push(
    '',
    escapeMarkdown(v.description),
    '',
    `Sources (${f.sources.length}):`,
    '',
  );
  f.sources.forEach((source, i) => {
    const where = sourcePage(source);
    const state = source.grounded ? `found (${source.match ?? 'exact'})` : 'NOT found in the text';
    const ocr = source.ocr ? ` (${ocrNote(source.ocr)})` : '';
    out.push(`${i + 1}. ${where}${source.isMain ? ' (main)' : ''}${ocr}, ${state}, chunk ${source.nodeIndex}: “${escapeMarkdown(source.evidence)}”`);
    if (source.documentText !== null) {
      out.push(`   - In the document: …${escapeMarkdown(source.contextBefore ?? '')}**${escapeMarkdown(source.documentText)}**${escapeMarkdown(source.contextAfter ?? '')}…`);
    }
  });
  return out;
}

function renderOutline(doc: ReportDocument, depth: number): string[] {
  const out = [`### ${escapeMarkdown(doc.document.fileName)}`, ''];
  const entries = outlineEntries(doc.nodes, depth);
  if (entries.length === 0) out.push('No chunk tree was built for this document.');
  for (const { node, depth: d, leaves } of entries) {
    out.push(`${'  '.repeat(d - 1)}- ${escapeMarkdown(node.title)} (${pageSpan(node)}${node.isLeaf ? '' : `, ${leaves} chunks`})`);
  }
  out.push('');
  return out;
}

export function pageSpan(node: Pick<ChunkNode, 'pageStart' | 'pageEnd'>): string {
  return node.pageStart === node.pageEnd ? `p. ${node.pageStart}` : `pp. ${node.pageStart}-${node.pageEnd}`;
}

export interface OutlineEntry {
  node: ChunkNode;
  /** 1 = child of the root. */
  depth: number;
  /** Leaves (analysed chunks) under this node; 1 for a leaf. */
  leaves: number;
}

/**
 * The chunk tree below the root, to `depth` levels, in document order. A
 * section's first leaf often repeats its title at the same place (the text
 * between the heading and its first sub-heading): shown once, as the section.
 */
export function outlineEntries(nodes: readonly ChunkNode[], depth: number): OutlineEntry[] {
  const depthOf = new Map<number, number>();
  const leaves = new Map<number, number>();
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i]!;
    const own = node.isLeaf ? 1 : (leaves.get(node.index) ?? 0);
    leaves.set(node.index, own);
    if (node.parentIndex !== null) leaves.set(node.parentIndex, (leaves.get(node.parentIndex) ?? 0) + own);
  }
  const out: OutlineEntry[] = [];
  for (const node of nodes) {
    // Pre-order storage: a parent is always seen before its children.
    const d = node.parentIndex === null ? 0 : (depthOf.get(node.parentIndex) ?? 0) + 1;
    depthOf.set(node.index, d);
    if (d < 1 || d > depth) continue;
    const parent = node.parentIndex === null ? undefined : nodes[node.parentIndex];
    if (parent && parent.title === node.title && parent.start === node.start) continue;
    out.push({ node, depth: d, leaves: leaves.get(node.index) ?? 0 });
  }
  return out;
}

/**
 * Sections from the document's own structure (outline, headings or the LLM
 * tree split), leaf or not, to a section level.
 */
export function outlineSections(nodes: readonly ChunkNode[], depth: number): ChunkNode[] {
  return nodes.filter((node) => {
    if (node.origin !== 'outline' && node.origin !== 'heading' && node.origin !== 'llm') return false;
    if (node.section.level < 1 || node.section.level > depth) return false;
    const parent = node.parentIndex === null ? undefined : nodes[node.parentIndex];
    return !(parent && parent.title === node.title && parent.start === node.start);
  });
}
