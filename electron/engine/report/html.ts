/**
 * The report model (reportModel.ts) as one self-contained HTML file: no
 * external resources, inline CSS, print styles (the PDF is printed from this
 * same HTML), a table of contents with anchors, severity shown by label and
 * pattern as well as colour. Layout only: every word comes from the model.
 *
 * Everything that comes from documents or the model is escaped by the `html`
 * template tag: every interpolation goes through `escapeHtml` unless it is
 * markup this file built itself (a `SafeHtml`). There is no other path from
 * data to markup, so a document containing `<script>` renders it as text.
 * A Content-Security-Policy without script sources is a second line: even a
 * missed escape could not run anything.
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
  type FindingsSection,
  type ListSection,
  type ModelOptions,
  type ReportModel,
  type ReviewBlock,
  type Section,
  type Sentence,
  type Span,
  type Table,
} from './reportModel';
import { readableTime } from './format';

/** Escapes text for HTML element content and quoted attribute values; control characters become spaces. */
export function escapeHtml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Markup built by this module; the only values the `html` tag does not escape. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[];

function renderValue(value: Interpolation): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(renderValue).join('');
  if (value === null || value === undefined) return '';
  return escapeHtml(String(value));
}

/** Template tag: literal parts are trusted markup, every interpolated value is escaped; null and undefined render nothing (write conditionals as `c ? x : null`). */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += renderValue(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

export type HtmlOptions = ModelOptions;

/** Text marks per severity: the level reads without colour, on screen, in grey print and for screen readers. */
const SEVERITY_MARK: Record<string, string> = {
  critical: '■■■■',
  high: '■■■□',
  medium: '■■□□',
  low: '■□□□',
  informational: '□□□□',
};

function span(s: Span): SafeHtml | string {
  if (typeof s === 'string') return s;
  switch (s.kind) {
    case 'code':
      if (s.idOrigin) return html`<code data-id-origin="${s.idOrigin}">${s.text}</code>`;
      return s.hash ? html`<code class="hash">${s.text}</code>` : html`<code>${s.text}</code>`;
    case 'strong':
      return html`<strong>${s.text}</strong>`;
    case 'time':
      return s.iso ? html`<time datetime="${s.iso}">${s.text}</time>` : s.text;
    case 'severity':
      return html`<span class="sev sev-${s.level}"><span class="sev-mark" aria-hidden="true">${SEVERITY_MARK[s.level] ?? '—'}</span> ${s.text}</span>`;
    case 'state':
      return html`<span class="state state-${s.state}" data-state="${s.state}">${s.text}</span>`;
    case 'mark':
      return html`<mark>${s.text}</mark>`;
    case 'edit':
      return s.side === 'original' ? html`<del class="original">${s.text}</del>` : html`<ins class="effective">${s.text}</ins>`;
    case 'part':
      return html`<span class="${s.role === 'ocr-low' ? 'ocr low' : s.role}">${s.text}</span>`;
    case 'link':
      return html`<a href="#${s.anchor}">${s.text}</a>`;
  }
}

const line = (sentence: Sentence): SafeHtml => html`${sentence.map(span)}`;
const dl = (facts: readonly Fact[]): SafeHtml => html`<dl class="meta">
${facts.map((f) => html`<dt>${f.label}</dt><dd>${line(f.value)}</dd>\n`)}</dl>`;

function table(t: Table, className: string): SafeHtml {
  return html`<table class="${className}"><thead><tr>${t.head.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>
${t.rows.map((row) => html`<tr>${row.map((cell) => html`<td>${line(cell)}</td>`)}</tr>\n`)}</tbody></table>`;
}

export function renderHtml(data: ReportData, options: HtmlOptions = {}): string {
  const model = buildReportModel(data, options);
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Offline Audit ${model.appVersion}">
<title>${model.title}</title>
<style>${new SafeHtml(STYLES)}</style>
</head>
<body>
<header class="report-header">
<h1>${model.heading}</h1>
<p class="subtitle">${model.documentNames}</p>
${dl(model.header)}
${model.notices.map((n) => html`<p class="notice ${n.key}" data-section="${n.key}">${n.text}</p>\n`)}</header>
${renderExecutiveSummary(model)}
${renderToc(model)}
<main>
<section id="inputs" class="report-section" data-section="inputs">
<h2>${model.inputs.heading}</h2>
${table(model.inputs.table, 'inputs')}
</section>
${
  model.problems
    ? html`<section id="problems" class="report-section" data-section="problems">
<h2>${model.problems.heading}</h2>
<ul>
${model.problems.items.map((p) => html`<li data-code="${p.code}">${p.failed ? html`<strong>${p.file}</strong>` : p.file}: ${p.message}</li>\n`)}</ul>
</section>`
    : null
}
${model.documents.map(renderDocument)}
${model.conversations ? renderConversations(model) : null}
${renderSettings(model)}
${renderOutline(model)}
</main>
<footer class="report-footer">${line(model.footer)}</footer>
</body>
</html>
`.value;
}

export { readableTime };

function renderExecutiveSummary(model: ReportModel): SafeHtml | null {
  const s = model.executiveSummary;
  if (!s) return null;
  return html`<section id="summary" class="report-section executive-summary" data-section="executive-summary">
<h2>${s.heading}</h2>
<p>${line(s.findingsSentence)}</p>
${s.bySeverity ? table(s.bySeverity, 'summary-counts') : null}
${s.reviewSentence ? html`<p data-summary="review">${s.reviewSentence}</p>` : null}
${s.unreviewedSentence ? html`<p>${s.unreviewedSentence}</p>` : null}
${s.problemsSentence ? html`<p class="notice">${line(s.problemsSentence)}</p>` : null}
</section>
`;
}

/** The contents: every section with the count its heading shows. */
function renderToc(model: ReportModel): SafeHtml {
  return html`<nav class="toc" id="toc" aria-label="Contents">
<h2>Contents</h2>
<ol>
<li><a href="#inputs">${model.inputs.heading}</a></li>
${model.problems ? html`<li><a href="#problems">${model.problems.heading}</a></li>\n` : null}${model.documents.map(
    (doc) => html`<li><a href="#doc-${doc.n}">${doc.fileName}</a>
<ol>
${documentSections(doc).map((s) => html`<li><a href="#doc-${doc.n}-${s.key}">${s.tocLabel}</a></li>\n`)}</ol></li>
`,
  )}${model.conversations ? html`<li><a href="#conversations">${model.conversations.heading}</a></li>\n` : null}<li><a href="#settings">${model.settings.heading}</a></li>
<li><a href="#appendix-outline">${model.outline.heading}</a></li>
</ol>
</nav>`;
}

function renderDocument(doc: DocumentModel): SafeHtml {
  const sections = documentSections(doc);
  // Rules-only runs say why the findings sections are missing, after the completeness check would be.
  const firstAfterNote = sections.findIndex((s) => s.key !== 'completeness');
  return html`<section class="document" id="doc-${doc.n}" data-document-id="${doc.documentId}">
<h2>${doc.fileName}</h2>
${dl(doc.facts)}
${sections.map((s, i) => html`${i === firstAfterNote && doc.rulesOnlyNote ? html`<p class="notice rules-only">${doc.rulesOnlyNote}</p>\n` : null}${renderSection(doc, s)}\n`)}</section>`;
}

function renderSection(doc: DocumentModel, s: Section<string>): SafeHtml {
  const classes = ['report-section', ...(s.apart ? ['apart'] : []), ...(s.key === 'completeness' ? ['completeness'] : [])].join(' ');
  const status = s.key === 'completeness' ? doc.completeness!.status : null;
  return html`<section id="doc-${doc.n}-${s.key}" class="${classes}" data-section="${s.key}"${status ? html` data-status="${status}"` : null}>
<h3>${s.heading}</h3>
${sectionLead(doc, s)}${s.note ? html`<p class="${s.note.tone === 'warning' ? 'warning' : 'section-note'}">${s.note.text}</p>\n` : null}${s.empty !== null ? html`<p class="none">${s.empty}</p>` : sectionContent(doc, s)}
</section>`;
}

/** What a section says before its note: the review's counts. */
function sectionLead(doc: DocumentModel, s: Section<string>): SafeHtml | null {
  if (s.key !== 'review') return null;
  const r = doc.review!;
  const c = r.counts;
  return html`<p class="review-counts" data-confirmed="${c.confirmed}" data-rejected="${c.rejected}" data-follow-up="${c.needsFollowUp}" data-not-reviewed="${c.notReviewed}" data-total="${c.total}">${r.countsSentence}.</p>
${r.confirmedOnlyNote ? html`<p class="section-note">${r.confirmedOnlyNote}</p>\n` : null}`;
}

function sectionContent(doc: DocumentModel, s: Section<string>): SafeHtml {
  switch (s.key) {
    case 'completeness': {
      const c = doc.completeness!;
      return html`<table class="tallies"><thead><tr>${c.tallies.head.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>
${c.tallies.rows.map((row, i) => html`<tr${c.tallies.differs[i] ? html` class="differs"` : null}>${row.map((cell) => html`<td>${line(cell)}</td>`)}</tr>\n`)}</tbody></table>
<p class="section-note">${c.statedSource}</p>
${c.onlyListedNote ? html`<p class="section-note" data-note="only-listed">${c.onlyListedNote}</p>` : null}
${c.listings.length > 0 ? html`<ul class="listings">${c.listings.map((l) => html`<li>${l}</li>`)}</ul>` : null}
${
  c.places
    ? html`<p class="places-heading">${c.places.heading}</p>
<ol class="places">${c.places.items.map((p) => html`<li data-kind="${p.kind}">${p.page ? html`${span(p.page)}: ` : null}${p.message}</li>\n`)}</ol>`
    : null
}
${c.picturePagesNote ? html`<p class="section-note" data-note="picture-pages">${c.picturePagesNote}</p>` : null}`;
    }
    case 'summary':
      return html`<p class="summary">${doc.summary!.text}</p>`;
    case 'review': {
      const r = doc.review!;
      return html`<table class="review-table"><thead><tr>${r.table.head.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>
${r.table.rows.map((row, i) => {
  const f = r.table.findings[i]!;
  return html`<tr class="review-row" data-review-id="${f.reviewId}" data-state="${f.state}" data-origin="${f.origin}">${row.map((cell) => html`<td>${line(cell)}</td>`)}</tr>\n`;
})}</tbody></table>
${r.entries.map(
  (e) => html`<article class="${e.manual ? 'manual-finding' : 'review-entry'}" data-review-id="${e.reviewId}"><h4>${e.heading}</h4>
<p class="facts">${factsLine(e.facts)}</p>
<p class="description">${e.description}</p>
${e.evidence !== null ? html`<blockquote class="evidence">${e.evidence}</blockquote>` : null}
${reviewBlock(e.review)}
</article>
`,
)}`;
    }
    case 'findings':
    case 'ungrounded': {
      const list = s.key === 'findings' ? doc.findings! : doc.ungrounded!;
      return html`${findingTable(list)}${list.entries.map(findingEntry)}`;
    }
    case 'no-text':
      return html`<p class="warning">${doc.noText.sentence}</p>`;
    case 'ocr':
      return html`<p class="${doc.ocr!.low ? 'warning' : 'notice'}">${doc.ocr!.sentence}</p>`;
    case 'mentions':
      return table(doc.mentions.table, 'mentions');
    default:
      return html`<ul class="${s.key}">
${(s as ListSection<string>).items.map((item) => html`<li>${line(item)}</li>\n`)}</ul>`;
  }
}

/** "ID x (printed in the document) · Severity High · type …": facts in one line. */
const factsLine = (facts: readonly Fact[]): SafeHtml => html`${facts.map((f, i) => html`${i > 0 ? ' · ' : null}${f.label} ${line(f.value)}`)}`;

function findingTable(list: FindingsSection<string>): SafeHtml {
  return html`<table class="findings-table">
<thead><tr>${list.table.head.map((h) => html`<th>${h}</th>`)}</tr></thead>
<tbody>
${list.table.rows.map((row) => html`<tr class="finding-row row-${row.level}" data-finding-id="${row.findingId}">${row.cells.map((cell) => html`<td>${line(cell)}</td>`)}</tr>\n`)}</tbody>
</table>
`;
}

function findingEntry(f: FindingEntry): SafeHtml {
  return html`<article class="finding ${f.grounded ? 'grounded' : 'ungrounded'} row-${f.level}" id="finding-${f.findingId}" data-finding-id="${f.findingId}" data-grounded="${f.grounded}">
<h4>${f.key ? html`<code class="finding-key">${f.key}</code> ` : null}<span class="finding-title">${f.title}</span></h4>
<p class="facts">${factsLine(f.facts)}</p>
${f.reviews.map(reviewBlock)}
<p class="description">${f.description}</p>
<p class="sources-label">${f.sourcesLabel}</p>
<ol class="sources">
${f.sources.map(
  (s) => html`<li class="source ${s.found ? 'found' : 'not-found'}" data-page="${s.page ?? ''}">
<p class="where">${line(s.where)}</p>
<blockquote class="evidence">${s.evidence}</blockquote>
${s.context ? html`<p class="context">${line(s.context)}</p>` : null}
</li>
`,
)}</ol>
</article>
`;
}

/** One reviewed finding's review: state (and reason), last change, each edit beside the model's value, notes. */
function reviewBlock(r: ReviewBlock): SafeHtml {
  return html`<div class="review" data-review-id="${r.reviewId}" data-state="${r.state}">
<p class="review-state">${line(r.stateLine)}</p>
${r.edits.length > 0 ? html`<ul class="edits">${r.edits.map((e) => html`<li class="edit" data-field="${e.field}">${line(e.sentence)}</li>`)}</ul>` : null}
${r.notes.length > 0 ? html`<ul class="notes">${r.notes.map((n) => html`<li class="note">${line(n)}</li>`)}</ul>` : null}
${r.warnings.map((w) => html`<p class="warning">${w}</p>\n`)}</div>`;
}

/** The questions and answers of one conversation as escaped HTML (no heading of its own). */
export function conversationHtmlItems(conversation: StoredConversation, questionTag: 'h2' | 'h4'): SafeHtml[] {
  return conversationItems(conversationModel(conversation), questionTag);
}

function conversationItems(c: ConversationModel, questionTag: 'h2' | 'h4'): SafeHtml[] {
  return c.messages.map((m) => {
    if (m.role === 'user') return questionTag === 'h2' ? html`<h2 class="q">${m.text}</h2>` : html`<h4 class="q">${m.text}</h4>`;
    return html`<div class="a"><p>${m.text}</p>${m.marked ? html`<p class="marked">${m.marked}</p>` : null}${m.note ? html`<p class="note">${m.note}</p>` : null}${
      m.citations.length > 0 ? html`<ol class="sources">${m.citations.map((c) => html`<li value="${c.n}">${c.text}</li>`)}</ol>` : null
    }</div>`;
  });
}

function renderConversations(model: ReportModel): SafeHtml {
  const c = model.conversations!;
  return html`<section id="conversations" class="report-section conversations" data-section="conversations">
<h2>${c.heading}</h2>
<p class="section-note">${c.note}</p>
${c.conversations.map(
  (conversation) => html`<article class="conversation" data-conversation="${conversation.id}">
<h3>${conversation.title}</h3>
<p class="conversation-meta">${line(conversation.meta)}</p>
${conversationItems(conversation, 'h4')}
</article>
`,
)}
</section>`;
}

function renderSettings(model: ReportModel): SafeHtml {
  const s = model.settings;
  return html`<section id="settings" class="report-section" data-section="settings">
<h2>${s.heading}</h2>
<dl class="meta">
${s.facts.map((f) => html`<dt>${f.label}</dt><dd>${line(f.value)}</dd>\n`)}${
    s.models
      ? html`<dt>${s.models.label}</dt><dd><ul class="models">${s.models.items.map((m) => html`<li data-model="${m.name}">${line(m.line)}</li>`)}</ul></dd>\n`
      : null
  }${s.factsAfterModels.map((f) => html`<dt>${f.label}</dt><dd>${line(f.value)}</dd>\n`)}</dl>
${s.usageByModel ? table(s.usageByModel, 'usage') : null}
</section>`;
}

function renderOutline(model: ReportModel): SafeHtml {
  const o = model.outline;
  return html`<section id="appendix-outline" class="report-section appendix" data-section="outline">
<h2>${o.heading}</h2>
<p class="section-note">${o.note}</p>
${o.documents.map(
  (doc) => html`<h3 id="outline-${doc.n}">${doc.fileName}</h3>
${
  doc.empty
    ? html`<p class="none">${doc.empty}</p>`
    : html`<ul class="outline">
${doc.entries.map((e) => html`<li class="depth-${Math.min(e.depth, 6)}">${e.title} <span class="pages">(${e.pages})</span></li>\n`)}</ul>`
}
`,
)}
</section>`;
}

const STYLES = `
:root { color-scheme: light; --ink: #1d2330; --muted: #5b6475; --rule: #d5d9e0; --warn-bg: #fff7e0; --warn-rule: #c98a00; }
* { box-sizing: border-box; }
body { font: 11pt/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); margin: 0 auto; max-width: 60rem; padding: 1.5rem; }
h1 { font-size: 1.8em; margin: 0 0 .2em; }
h2 { font-size: 1.35em; border-bottom: 2px solid var(--ink); padding-bottom: .2em; margin-top: 2em; }
h3 { font-size: 1.12em; margin-top: 1.6em; }
h4 { font-size: 1em; margin: 0 0 .3em; }
code, .hash { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .92em; }
.hash { word-break: break-all; }
.subtitle { color: var(--muted); margin-top: 0; overflow-wrap: anywhere; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .15em 1em; margin: .8em 0; }
dl.meta dt { font-weight: 600; color: var(--muted); }
dl.meta dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; margin: .6em 0 1em; font-size: .93em; }
th, td { border: 1px solid var(--rule); padding: .3em .45em; text-align: left; vertical-align: top; overflow-wrap: break-word; hyphens: none; }
thead th { background: #eef0f4; overflow-wrap: normal; white-space: nowrap; }
table.findings-table td:first-child, table.findings-table td:nth-child(5), table.findings-table td:nth-child(6) { white-space: nowrap; overflow-wrap: normal; }
/* IDs, types and states are never cut mid-word ("LID / -01", "findi / ng"); the title takes the width left. */
table.findings-table td:nth-child(4), table.review-table td:first-child, table.review-table td:nth-child(2) { white-space: nowrap; }
/* A review state wraps between words, with room for "not reviewed yet" on one line (the review table) or two (the findings table). */
table.review-table td:nth-child(5) { min-width: 9em; }
table.findings-table td:nth-child(7) { min-width: 10em; }
table.findings-table td:nth-child(2), table.review-table td:nth-child(3) { width: 45%; }
tr { break-inside: avoid; }
.executive-summary { border: 1px solid #c9ced6; border-radius: 6px; padding: .4em 1em 1em; margin: 1em 0; }
.summary-counts { border-collapse: collapse; margin: .4em 0; }
.summary-counts th, .summary-counts td { border: 1px solid #c9ced6; padding: .2em .8em; text-align: left; }
.toc ol { padding-left: 1.4em; margin: .2em 0; }
.toc a { color: inherit; }
.notice { border: 2px solid var(--ink); padding: .6em .8em; font-weight: 600; }
.warning { background: var(--warn-bg); border-left: 6px double var(--warn-rule); padding: .45em .7em; }
.section-note, .none { color: var(--muted); }
section.apart { border: 2px dashed #8a93a3; padding: 0 1em .6em; margin-top: 1.6em; }
section.apart > h3::before { content: "⚠ "; }
section.completeness[data-status="check"] { border-left: 6px double var(--warn-rule); padding-left: .8em; }
table.tallies tr.differs td { font-weight: 600; background: var(--warn-bg); }
.finding { border: 1px solid var(--rule); border-left-width: 8px; padding: .6em .8em; margin: 1em 0; break-inside: avoid-page; }
.finding.ungrounded { border-style: dashed; background: #fbfbfb; }
.finding .facts { margin: .2em 0 .5em; color: var(--muted); }
.finding .description { margin: .3em 0 .6em; white-space: pre-wrap; }
.sources { padding-left: 1.3em; margin: .2em 0; }
.conversation { margin: 1em 0 1.5em; }
.conversation h4.q { margin: 1em 0 .3em; }
.conversation .marked { color: #8a3b00; }
.conversation .note { font-style: italic; }
.source { margin-bottom: .5em; }
.source .where { margin: 0; font-size: .9em; color: var(--muted); }
.source.not-found .where strong { color: #9a1b1b; }
blockquote.evidence { margin: .2em 0; padding: .3em .7em; border-left: 3px solid #8a93a3; background: #f5f6f8; white-space: pre-wrap; overflow-wrap: anywhere; }
.context { margin: .2em 0; font-size: .9em; color: var(--muted); overflow-wrap: anywhere; }
mark { background: #fff1a8; color: inherit; }
.sev { display: inline-block; padding: 0 .4em; border-radius: 3px; font-weight: 600; white-space: nowrap; border: 1px solid transparent; }
.sev-mark { letter-spacing: -1px; font-size: .8em; }
.sev-critical { background: #7f1010; color: #fff; border: 2px solid #000; }
.sev-high { background: #d1421b; color: #fff; border-color: #7a2610; }
.sev-medium { background: #f0b429; color: #1d2330; border: 1px dashed #6b4d00; }
.sev-low { background: #cfe3f7; color: #1d2330; border: 1px dotted #2b5a8a; }
.sev-informational { background: #fff; color: #1d2330; border: 1px solid #8a93a3; }
.sev-unknown { background: #fff; color: #1d2330; border: 1px dashed #8a93a3; }
.row-critical { border-left-color: #7f1010; border-left-style: double; }
.row-high { border-left-color: #d1421b; border-left-style: solid; }
.row-medium { border-left-color: #f0b429; border-left-style: dashed; }
.row-low { border-left-color: #5b8fc7; border-left-style: dotted; }
.row-informational, .row-unknown { border-left-color: #c4c9d2; }
tr.finding-row > td:first-child { border-left-width: 6px; border-left-style: inherit; }
tr.row-critical > td:first-child { border-left: 6px double #7f1010; }
tr.row-high > td:first-child { border-left: 6px solid #d1421b; }
tr.row-medium > td:first-child { border-left: 6px dashed #f0b429; }
tr.row-low > td:first-child { border-left: 6px dotted #5b8fc7; }
ul.outline { list-style: none; padding-left: 0; }
ul.outline li { margin: .1em 0; }
ul.outline .pages { color: var(--muted); font-size: .9em; }
.depth-1 { padding-left: 0; font-weight: 600; }
.depth-2 { padding-left: 1.2em; }
.depth-3 { padding-left: 2.4em; }
.depth-4 { padding-left: 3.6em; }
.depth-5 { padding-left: 4.8em; }
.depth-6 { padding-left: 6em; }
.review { margin: .3em 0 .5em; padding: .3em .6em; border: 1px solid var(--rule); background: #f7f9fc; }
.review p { margin: .15em 0; }
/* A state with its reason ("rejected: Duplicate of LID-01") wraps between words, never inside one, so the title keeps its width. */
.state { display: inline-block; padding: 0 .4em; border-radius: 3px; font-weight: 600; border: 1px solid #5b6475; white-space: normal; overflow-wrap: normal; }
.state-confirmed { background: #dff3e4; border: 2px solid #1e6b34; }
.state-rejected { background: #f7dede; border: 2px dashed #8a1c1c; text-decoration: line-through; }
.state-needs_follow_up { background: #fff1c7; border: 2px dotted #7a5a00; }
.state-new { background: #fff; border: 1px solid #8a93a3; }
del { color: #7a2610; }
ins { color: #1e6b34; text-decoration: none; font-weight: 600; }
ul.notes, ul.models, ul.edits { margin: .2em 0; padding-left: 1.2em; }
.manual-finding { border: 1px solid var(--rule); border-left: 8px double #2b5a8a; padding: .6em .8em; margin: 1em 0; break-inside: avoid-page; }
.report-footer { margin-top: 3em; color: var(--muted); font-size: .85em; border-top: 1px solid var(--rule); padding-top: .5em; }
@media print {
  @page { size: A4; margin: 16mm 14mm 18mm; }
  body { max-width: none; padding: 0; font-size: 10pt; }
  a { color: inherit; text-decoration: none; }
  .toc { break-after: page; }
  section.document, section.appendix { break-before: page; }
  h2, h3, h4 { break-after: avoid; }
  .report-footer { display: none; }
  /* Grey print: shades and border patterns carry the level, the text marks say it. */
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .sev-critical { background: #222; color: #fff; border: 2px solid #000; }
  .sev-high { background: #666; color: #fff; border: 1px solid #000; }
  .sev-medium { background: #bbb; color: #000; border: 1px dashed #000; }
  .sev-low { background: #e6e6e6; color: #000; border: 1px dotted #000; }
  .sev-informational, .sev-unknown { background: #fff; color: #000; border: 1px solid #777; }
  .state-confirmed { background: #e6e6e6; color: #000; }
  .state-rejected, .state-needs_follow_up { background: #fff; color: #000; }
  mark { background: #e0e0e0; }
  .row-critical, tr.row-critical > td:first-child { border-left-color: #000; }
  .row-high, tr.row-high > td:first-child { border-left-color: #444; }
  .row-medium, tr.row-medium > td:first-child { border-left-color: #777; }
  .row-low, tr.row-low > td:first-child { border-left-color: #999; }
}
`;
