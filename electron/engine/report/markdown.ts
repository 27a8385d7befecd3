/**
 * The report model (reportModel.ts) as Markdown: layout only, every word
 * comes from the model. Every string is escaped on its way out, so text from
 * a document can neither break the layout nor inject markup.
 */
import type { StoredConversation } from '../../../shared/retrieval';
import type { ReportData } from './reportData';
import {
  buildReportModel,
  conversationModel,
  documentSections,
  type ConversationModel,
  type DocumentModel,
  type Fact,
  type FindingEntry,
  type ListSection,
  type ModelOptions,
  type ReportModel,
  type ReviewBlock,
  type ReviewModel,
  type Section,
  type Sentence,
  type Span,
  type Table,
} from './reportModel';

export { DEFAULT_OUTLINE_DEPTH, outlineEntries, outlineSections, pageSpan, type OutlineEntry } from './reportModel';

/**
 * Text from documents goes into Markdown that may later be rendered to HTML:
 * control characters out, Markdown and HTML syntax escaped, so a document can
 * neither break the table layout nor inject markup.
 */
export function escapeMarkdown(text: string): string {
  return (
    text
      .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, ' ')
      // Brackets are escaped, so a parenthesis can never start a link target: "(no reason)" stays as written.
      .replace(/[\\`*_{}[\]#+!|~>]/g, (ch) => `\\${ch}`)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/\s*\n\s*/g, ' ')
  );
}

export type MarkdownOptions = ModelOptions;

const esc = escapeMarkdown;

function span(s: Span): string {
  if (typeof s === 'string') return esc(s);
  if (s.kind === 'strong' || s.kind === 'mark') return `**${esc(s.text)}**`;
  // A digest is hex: safe inside backticks, and set apart from the words around it.
  if (s.kind === 'code' && s.hash) return `\`${s.text}\``;
  return esc(s.text);
}

const line = (sentence: Sentence): string => sentence.map(span).join('');
const facts = (list: readonly Fact[]): string[] => list.map((f) => `- ${esc(f.label)}: ${line(f.value)}`);

function table(t: Table): string[] {
  return [`| ${t.head.map(esc).join(' | ')} |`, `|${t.head.map(() => '---').join('|')}|`, ...t.rows.map((row) => `| ${row.map(line).join(' | ')} |`)];
}

export function renderMarkdown(data: ReportData, options: MarkdownOptions = {}): string {
  const model = buildReportModel(data, options);
  const out: string[] = [`# ${esc(model.heading)}`, '', ...facts(model.header), ...model.notices.map((n) => `- ${esc(n.text)}`)];
  out.push('', `## ${esc(model.inputs.heading)}`, '', ...table(model.inputs.table));
  if (model.problems) {
    out.push('', `## ${esc(model.problems.heading)}`, '');
    // The sentence says what happened and what to do; the error code is for support and stays out of a client's text (the JSON keeps it).
    for (const p of model.problems.items) out.push(`- ${p.failed ? `**${esc(p.file)}**` : esc(p.file)}: ${esc(p.message)}`);
  }
  for (const doc of model.documents) out.push(...renderDocument(doc));
  if (model.conversations) out.push(...renderConversations(model));
  out.push('', `## ${esc(model.settings.heading)}`, '', ...facts(model.settings.facts));
  if (model.settings.models) {
    out.push(`- ${esc(model.settings.models.label)}:`);
    for (const m of model.settings.models.items) out.push(`  - ${line(m.line)}`);
  }
  out.push(...facts(model.settings.factsAfterModels));
  if (model.settings.usageByModel) out.push('', ...table(model.settings.usageByModel));
  out.push('', `## ${esc(model.outline.heading)}`, '', esc(model.outline.note), '');
  for (const doc of model.outline.documents) {
    out.push(`### ${esc(doc.fileName)}`, '');
    if (doc.empty) out.push(esc(doc.empty));
    for (const e of doc.entries) out.push(`${'  '.repeat(e.depth - 1)}- ${esc(e.title)} (${esc(e.pages)})`);
    out.push('');
  }
  return `${out.join('\n')}\n`;
}

function renderDocument(doc: DocumentModel): string[] {
  const out = ['', `## ${esc(doc.fileName)}`, '', ...facts(doc.facts)];
  if (doc.rulesOnlyNote) out.push('', esc(doc.rulesOnlyNote));
  for (const s of documentSections(doc)) out.push(...renderSection(doc, s));
  return out;
}

/** A section's heading, note and content, or the sentence it says when empty. */
function renderSection(doc: DocumentModel, s: Section<string>): string[] {
  const review = s.key === 'review' ? (s as ReviewModel) : null;
  // The review's counts are its heading's: "Review (2 confirmed, …)".
  const out = ['', `### ${esc(review ? `${s.heading} (${review.countsSentence})` : s.heading)}`, ''];
  if (s.note) out.push(s.note.tone === 'warning' ? `> ${esc(s.note.text)}` : esc(s.note.text), '');
  if (review?.confirmedOnlyNote) out.push(esc(review.confirmedOnlyNote), '');
  if (s.empty !== null) {
    out.push(esc(s.empty));
    return out;
  }
  out.push(...sectionContent(doc, s));
  while (out.at(-1) === '') out.pop();
  return out;
}

function sectionContent(doc: DocumentModel, s: Section<string>): string[] {
  switch (s.key) {
    case 'completeness': {
      const c = doc.completeness!;
      const out = [...table(c.tallies), '', esc(c.statedSource)];
      if (c.onlyListedNote) out.push('', esc(c.onlyListedNote));
      if (c.listings.length > 0) out.push('', ...c.listings.map((l) => `- ${esc(l)}`));
      if (c.places) out.push('', esc(c.places.heading), '', ...c.places.items.map((p) => `- ${p.page ? `${span(p.page)}: ` : ''}${esc(p.message)}`));
      if (c.picturePagesNote) out.push('', esc(c.picturePagesNote));
      return out;
    }
    case 'summary':
      return [esc(doc.summary!.text ?? '')];
    case 'review': {
      const r = doc.review!;
      const out = table(r.table);
      for (const e of r.entries) {
        out.push(
          '',
          `#### ${esc(e.heading)}`,
          '',
          `- ${e.facts.map((f) => `${esc(f.label)}: ${line(f.value)}`).join('; ')}`,
          ...reviewLines(e.review),
          '',
          esc(e.description),
        );
        if (e.evidence !== null) out.push('', `> “${esc(e.evidence)}”`);
      }
      return out;
    }
    case 'findings':
    case 'ungrounded': {
      const list = s.key === 'findings' ? doc.findings! : doc.ungrounded!;
      return [...table({ head: list.table.head, rows: list.table.rows.map((row) => row.cells) }), ...list.entries.flatMap(findingEntry)];
    }
    case 'no-text':
      return [esc(doc.noText.sentence ?? '')];
    case 'ocr':
      return [esc(doc.ocr!.sentence)];
    case 'mentions':
      return table(doc.mentions.table);
    default:
      return (s as ListSection<string>).items.map((item) => `- ${line(item)}`);
  }
}

function reviewLines(r: ReviewBlock): string[] {
  return [
    `- ${line(r.stateLine)}`,
    ...r.edits.map((e) => `  - ${line(e.sentence)}`),
    ...r.notes.map((n) => `  - ${line(n)}`),
    ...r.warnings.map((w) => `  - ${esc(w)}`),
  ];
}

function findingEntry(f: FindingEntry): string[] {
  const [id, ...rest] = f.facts;
  const out = ['', `#### ${f.key ? `${esc(f.key)}: ` : ''}${esc(f.title)}`, ''];
  out.push(`- ${esc(id!.label)}: ${line(id!.value)}`, `- ${rest.map((fact) => `${esc(fact.label)}: ${line(fact.value)}`).join('; ')}`);
  for (const r of f.reviews) out.push(...reviewLines(r));
  out.push('', esc(f.description), '', esc(f.sourcesLabel), '');
  f.sources.forEach((s, i) => {
    out.push(`${i + 1}. ${line(s.where)}: “${esc(s.evidence)}”`);
    if (s.context) out.push(`   - ${line(s.context)}`);
  });
  return out;
}

/** The questions asked about these documents, after the documents: what an auditor asked and was told. */
function renderConversations(model: ReportModel): string[] {
  const c = model.conversations!;
  const out = ['', `## ${esc(c.heading)}`, '', esc(c.note)];
  for (const conversation of c.conversations) out.push('', ...conversationLines(conversation, 3));
  return out.map((l) => l.trimEnd()).filter((l, i, all) => !(l === '' && all[i - 1] === ''));
}

/**
 * The questions and answers of one conversation as Markdown lines, under a
 * heading of the given level (1 on its own, 3 inside a report).
 */
export function conversationMarkdownLines(
  conversation: StoredConversation,
  headingLevel: number,
  documentNames: ReadonlyMap<number, string> = new Map(),
): string[] {
  return conversationLines(conversationModel(conversation, documentNames), headingLevel);
}

function conversationLines(c: ConversationModel, headingLevel: number): string[] {
  const hashes = '#'.repeat(headingLevel);
  const out = [`${hashes} ${esc(headingLevel === 1 ? `Questions and answers: ${c.title}` : c.title)}`, ''];
  if (headingLevel > 1) out.push(line(c.meta), '');
  for (const m of c.messages) {
    if (m.role === 'user') {
      out.push(`${hashes}# Q: ${esc(m.text)}`, '');
      continue;
    }
    out.push(esc(m.text), '');
    if (m.marked) out.push(`> ${esc(m.marked)}`, '');
    if (m.note) out.push(`> ${esc(m.note)}`, '');
    for (const cite of m.citations) out.push(`- [${cite.n}] ${esc(cite.text)}`);
    if (m.citations.length > 0) out.push('');
  }
  return out;
}
