/**
 * Self-contained HTML report: one file, no external resources, inline CSS,
 * print styles (the PDF is printed from this same HTML), a table of contents
 * with anchors, severity shown by label and pattern as well as colour.
 *
 * Everything that comes from documents or the model is escaped by the `html`
 * template tag: every interpolation goes through `escapeHtml` unless it is
 * markup this file built itself (a `SafeHtml`). There is no other path from
 * data to markup, so a document containing `<script>` renders it as text.
 * A Content-Security-Policy without script sources is a second line: even a
 * missed escape could not run anything.
 */
import { formatPageRanges } from '../../../shared/canonical';
import {
  baseName,
  findingPages,
  formatDuration,
  formatUsage,
  CONFIRMED_ONLY_NOTE,
  grounded,
  isFullMode,
  pagesOf,
  profileOf,
  REVIEW_STATE_LABEL,
  chunkingText,
  readableTime,
  reviewCountsShort,
  reviewCountsText,
  sumReviewCounts,
  reviewedBy,
  RULES_ONLY_NOTE,
  SECTION_TEXT,
  severityClass,
  severityLabel,
  shownValues,
  stateText,
  ungrounded,
  conflictText,
  idLabel,
  idOriginText,
  ocrNote,
  ocrPageList,
  mainPageText,
  sourcePage,
} from './format';
import { citationLine, conversationScopeText, CONVERSATIONS_NOTE, documentNames, markedNote } from './conversationText';
import { DEFAULT_OUTLINE_DEPTH, outlineEntries, pageSpan } from './markdown';
import { idOriginOf, type ExtractionProfile } from '../../../shared/findings';
import type { ReviewExportFinding } from '../../../shared/review';
import type { ReportData, ReportDocument, ReportFinding, ReportInput, ReportReview } from './reportData';
import type { CompletenessVerdict } from '../../../shared/completeness';
import type { StoredConversation } from '../../../shared/retrieval';
import { listingLines, statedSource, tallyRows } from './completeness';

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

export interface HtmlOptions {
  outlineDepth?: number;
}

/** Text marks per severity: the level reads without colour, on screen, in grey print and for screen readers. */
const SEVERITY_MARK: Record<string, string> = {
  critical: '■■■■',
  high: '■■■□',
  medium: '■■□□',
  low: '■□□□',
  informational: '□□□□',
};

export function renderHtml(data: ReportData, options: HtmlOptions = {}): string {
  const depth = options.outlineDepth ?? DEFAULT_OUTLINE_DEPTH;
  const full = isFullMode(data);
  const docs = data.inputs.flatMap((input, i) => (input.document ? [{ input, doc: input.document, n: i + 1 }] : []));
  const title = `Audit report: run ${data.run.id}`;
  const problems = data.inputs.filter((input) => input.error || input.warnings.length > 0);
  const page = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Offline Audit ${data.appVersion}">
<title>${title}</title>
<style>${new SafeHtml(STYLES)}</style>
</head>
<body>
<header class="report-header">
<h1>Audit report</h1>
<p class="subtitle">${docs.map((d) => d.doc.document.fileName).join(', ') || 'No document was read'}</p>
<dl class="meta">
<dt>Run</dt><dd>${data.run.id} (${data.run.mode}), status ${data.run.status}</dd>
<dt>Generated</dt><dd><time datetime="${data.generatedAt}">${readableTime(data.generatedAt)}</time> by Offline Audit ${data.appVersion}</dd>
</dl>
${full ? null : html`<p class="notice rules-only" data-section="rules-only">${RULES_ONLY_NOTE}</p>`}
${data.confirmedOnly ? html`<p class="notice confirmed-only" data-section="confirmed-only">${CONFIRMED_ONLY_NOTE}</p>` : null}
</header>
${full ? renderExecutiveSummary(data, docs.map((d) => d.doc), problems) : null}
${renderToc(docs, problems.length > 0, full, data.conversations.length > 0)}
<main>
<section id="inputs" class="report-section" data-section="inputs">
<h2>Inputs</h2>
<table class="inputs">
<thead><tr><th>#</th><th>File</th><th>Status</th><th>Pages</th><th>sha256</th></tr></thead>
<tbody>
${data.inputs.map((input, i) => {
  const doc = input.document?.document;
  return html`<tr><td>${i + 1}</td><td>${baseName(input.filePath)}</td><td>${input.status}</td><td>${doc?.pageCount ?? ''}</td><td class="hash">${doc?.sha256 ?? ''}</td></tr>\n`;
})}
</tbody>
</table>
</section>
${problems.length > 0 ? renderProblems(problems) : null}
${docs.map(({ input, doc, n }) => renderDocument(input, doc, n, full, profileOf(data)))}
${conversationsHtmlSection(data.conversations, documentNames(data))}
${renderSettings(data)}
${renderOutlineAppendix(docs, depth)}
</main>
<footer class="report-footer">${title}. Generated ${readableTime(data.generatedAt)} by Offline Audit ${data.appVersion}.</footer>
</body>
</html>
`;
  return page.value;
}

export { readableTime };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * What a reader needs first: findings by severity, how many are grounded in the text, where the review
 * stands (the states add up to the total), and what the analysis left out.
 */
function renderExecutiveSummary(data: ReportData, docs: readonly ReportDocument[], problems: readonly ReportInput[]): SafeHtml {
  const profile = profileOf(data);
  const findings = docs.flatMap((d) => d.findings);
  const grounded = findings.filter((f) => f.grounded).length;
  const bySeverity = new Map<string, number>();
  for (const f of findings) bySeverity.set(f.severityCanonical ?? f.severity, (bySeverity.get(f.severityCanonical ?? f.severity) ?? 0) + 1);
  const order = [...profile.severities, ...[...bySeverity.keys()].filter((s) => !profile.severities.includes(s))].filter((s) => bySeverity.has(s));
  const reviews = docs.flatMap((d) => (d.review ? [d.review.counts] : []));
  const unreviewedIds = docs.reduce((total, d) => total + d.unreviewedMentions.length, 0);
  const share = findings.length === 0 ? '' : ` (${Math.round((grounded / findings.length) * 100)}%)`;
  return html`<section id="summary" class="report-section executive-summary" data-section="executive-summary">
<h2>Executive summary</h2>
<p>${plural(findings.length, 'finding')} in ${plural(docs.length, 'document')}; ${grounded} grounded in the source text${share}${findings.length > grounded ? html`, ${findings.length - grounded} not found in the text (listed apart, not verified)` : null}.</p>
${
  order.length > 0
    ? html`<table class="summary-counts"><thead><tr><th>Severity</th><th>Findings</th></tr></thead><tbody>${order.map((s) => html`<tr><td>${s}</td><td>${bySeverity.get(s) ?? 0}</td></tr>`)}</tbody></table>`
    : null
}
${
  reviews.length > 0
    ? html`<p data-summary="review">Review: ${reviewCountsText(sumReviewCounts(reviews))}.</p>`
    : null
}
${unreviewedIds > 0 ? html`<p>${plural(unreviewedIds, 'ID')} mentioned in the documents no finding covers: read those places (listed per document).</p>` : null}
${problems.length > 0 ? html`<p class="notice">${plural(problems.length, 'input')} with problems: see <a href="#problems">Problems</a>.</p>` : null}
</section>
`;
}

function renderToc(docs: { doc: ReportDocument; n: number }[], hasProblems: boolean, full: boolean, hasConversations: boolean): SafeHtml {
  return html`<nav class="toc" id="toc" aria-label="Contents">
<h2>Contents</h2>
<ol>
<li><a href="#inputs">Inputs</a></li>
${hasProblems ? html`<li><a href="#problems">Problems</a></li>` : null}
${docs.map(
  ({ doc, n }) => html`<li><a href="#doc-${n}">${doc.document.fileName}</a>
<ol>
${doc.completeness ? html`<li><a href="#doc-${n}-completeness">Completeness: ${doc.completeness.headline}</a></li>\n` : null}${full
  ? html`<li><a href="#doc-${n}-summary">Summary</a></li>
${doc.review ? html`<li><a href="#doc-${n}-review">Review (${reviewCountsShort(doc.review.counts)})</a></li>\n` : null}<li><a href="#doc-${n}-findings">Findings (${grounded(doc).length})</a></li>
<li><a href="#doc-${n}-ungrounded">Ungrounded findings (${ungrounded(doc).length})</a></li>
<li><a href="#doc-${n}-unreviewed">Unreviewed ID mentions (${doc.unreviewedMentions.length})</a></li>
`
  : null}<li><a href="#doc-${n}-no-text">Pages without a text layer (${doc.pagesWithoutText.length})</a></li>
${doc.unreadablePages.length > 0 ? html`<li><a href="#doc-${n}-unreadable">Unreadable pages (${doc.unreadablePages.length})</a></li>\n` : null}${full ? html`<li><a href="#doc-${n}-failed">Chunks that failed analysis (${doc.failedChunks.length})</a></li>\n` : null}<li><a href="#doc-${n}-mentions">ID mentions (${doc.mentionGroups.length})</a></li>
</ol></li>
`,
)}
${hasConversations ? html`<li><a href="#conversations">Questions and answers</a></li>\n` : null}<li><a href="#settings">Appendix: how this analysis was made</a></li>
<li><a href="#appendix-outline">Appendix: document outlines</a></li>
</ol>
</nav>`;
}

function renderSettings(data: ReportData): SafeHtml {
  const info = data.runInfo;
  const chunking =
    info.strategyChoice === 'auto'
      ? info.judgeEnabled
        ? 'auto: the LLM judge chooses per document'
        : 'auto: chosen from the document structure, no judge'
      : `${info.strategyChoice} (set by the user)`;
  return html`<section id="settings" class="report-section" data-section="settings">
<h2>Appendix: how this analysis was made</h2>
<dl class="meta">
<dt>Profile</dt><dd>${info.profileName ?? 'default'}</dd>
<dt>Chunking</dt><dd>${chunking}</dd>
${info.llm
  ? html`<dt>Models</dt><dd>${Object.entries(info.llm.models).map(([stage, model], i) => html`${i > 0 ? ', ' : ''}${stage}: <code>${model}</code>`)}</dd>
<dt>num_ctx</dt><dd>${info.llm.numCtx ?? 'unknown'} (chunk budget ${info.llm.chunkTokenBudget ?? 'unknown'} tokens)</dd>
<dt>LLM server</dt><dd>${info.llm.description}</dd>`
  : data.run.mode === 'full'
    ? html`<dt>Models</dt><dd>not recorded: the run stopped before the language model was reached</dd>`
    : null}
${info.models.length > 0
  ? html`<dt>Model digests</dt><dd><ul class="models">${info.models.map((m) => html`<li data-model="${m.name}">${m.stage}: <code>${m.name}</code> <span class="digest">${m.digest ? html`<code class="hash">${m.digest}</code>` : 'digest not recorded'}</span></li>`)}</ul></dd>`
  : null}
<dt>Run duration</dt><dd>${formatDuration(info.durationMs)} (started ${readableTime(data.run.startedAt, 'never')}, finished ${readableTime(data.run.finishedAt, 'not yet')})</dd>
<dt>LLM usage</dt><dd>${formatUsage(info.usage)}</dd>
</dl>
${info.usage.byModel.length > 0
  ? html`<table class="usage"><thead><tr><th>Model</th><th>Calls</th><th>Prompt tokens</th><th>Generated tokens</th><th>Model time</th></tr></thead><tbody>
${info.usage.byModel.map((m) => html`<tr><td><code>${m.model}</code></td><td>${m.calls}</td><td>${m.promptTokens}</td><td>${m.evalTokens}</td><td>${formatDuration(m.llmMs)}</td></tr>\n`)}</tbody></table>`
  : null}
</section>`;
}

function renderProblems(problems: readonly ReportInput[]): SafeHtml {
  return html`<section id="problems" class="report-section" data-section="problems">
<h2>Problems</h2>
<ul>
${problems.map(
  (input) => html`${input.error ? html`<li><strong>${baseName(input.filePath)}</strong>: <code>${input.error.code}</code>: ${input.error.message}</li>\n` : null}${input.warnings.map(
    (w) => html`<li>${baseName(input.filePath)}: <code>${w.code}</code>: ${w.message}</li>\n`,
  )}`,
)}
</ul>
</section>`;
}

function renderDocument(input: ReportInput, doc: ReportDocument, n: number, full: boolean, profile: ExtractionProfile): SafeHtml {
  const leaves = doc.nodes.filter((node) => node.isLeaf).length;
  const judge = doc.judge;
  return html`<section class="document" id="doc-${n}" data-document-id="${doc.document.id}">
<h2>${doc.document.fileName}</h2>
<dl class="meta">
<dt>File</dt><dd>${baseName(input.filePath)}</dd>
<dt>sha256</dt><dd class="hash">${doc.document.sha256}</dd>
<dt>Pages</dt><dd>${doc.document.pageCount}</dd>
<dt>Status</dt><dd>${input.status}</dd>
<dt>Chunking</dt><dd>${chunkingText(doc.strategy, judge)} (${leaves} chunks)</dd>
${full ? html`<dt>LLM usage</dt><dd>${formatUsage(doc.usage)}</dd>` : null}
</dl>
${doc.completeness ? renderCompleteness(doc.completeness, doc.picturePagesNote, n) : null}
${full ? renderAnalysis(doc, n, profile) : html`<p class="notice rules-only">Rules-only run: no findings for this document, only the ID mentions below.</p>`}
<section id="doc-${n}-no-text" class="report-section apart" data-section="no-text">
<h3>Pages without a text layer (${doc.pagesWithoutText.length})</h3>
${doc.pagesWithoutText.length === 0
  ? html`<p class="none">None.</p>`
  : html`<p class="warning">Pages ${formatPageRanges(doc.pagesWithoutText)}. ${SECTION_TEXT.noTextExplain}</p>`}
</section>
${doc.ocrPages.length > 0
  ? html`<section id="doc-${n}-ocr" class="report-section apart" data-section="ocr">
<h3>Pages read by OCR (${doc.ocrPages.length})</h3>
<p class="${doc.ocrPages.some((p) => p.low) ? 'warning' : 'notice'}">Pages ${ocrPageList(doc.ocrPages)}. ${SECTION_TEXT.ocrExplain}</p>
</section>
`
  : null}${doc.unreadablePages.length > 0
  ? html`<section id="doc-${n}-unreadable" class="report-section apart" data-section="unreadable">
<h3>Unreadable pages (${doc.unreadablePages.length})</h3>
<p class="warning">${SECTION_TEXT.unreadableExplain}</p>
<ul>
${doc.unreadablePages.map(({ page, reason }) => html`<li>Page ${page}: ${reason}</li>\n`)}</ul>
</section>
`
  : null}${full ? renderFailed(doc, n) : null}
${renderMentions(input, doc, n)}
</section>`;
}

function renderAnalysis(doc: ReportDocument, n: number, profile: ExtractionProfile): SafeHtml {
  const verified = grounded(doc);
  const notShown = ungrounded(doc);
  const findingTable = (list: readonly ReportFinding[]) => findingTableOf(list, profile);
  const findingDetail = (f: ReportFinding) => findingDetailOf(f, profile);
  return html`<section id="doc-${n}-summary" class="report-section" data-section="summary">
<h3>Summary</h3>
${doc.summary ? html`<p class="summary">${doc.summary.text}</p>` : html`<p class="none">No summary was written for this document.</p>`}
</section>
${doc.review ? renderReview(doc.review, n) : null}
<section id="doc-${n}-findings" class="report-section" data-section="findings">
<h3>Findings (${verified.length})</h3>
<p class="section-note">${SECTION_TEXT.findings}.</p>
${verified.length === 0 ? html`<p class="none">No grounded finding.</p>` : html`${findingTable(verified)}${verified.map(findingDetail)}`}
</section>
<section id="doc-${n}-ungrounded" class="report-section apart" data-section="ungrounded">
<h3>Ungrounded findings (${notShown.length})</h3>
<p class="warning">${SECTION_TEXT.ungroundedNote}</p>
${notShown.length === 0 ? html`<p class="none">None.</p>` : html`${findingTable(notShown)}${notShown.map(findingDetail)}`}
</section>
${doc.mergeConflicts.length === 0
  ? null
  : html`<section id="doc-${n}-conflicts" class="report-section apart" data-section="conflicts">
<h3>Merge conflicts (${doc.mergeConflicts.length})</h3>
<ul class="conflicts">${doc.mergeConflicts.map((c) => html`<li>${conflictText(c)}</li>`)}</ul>
</section>`}
<section id="doc-${n}-unreviewed" class="report-section apart" data-section="unreviewed">
<h3>Unreviewed ID mentions (${doc.unreviewedMentions.length})</h3>
<p class="section-note">${SECTION_TEXT.unreviewedNote}</p>
${doc.unreviewedMentions.length === 0
  ? html`<p class="none">None.</p>`
  : html`<ul class="unreviewed">${doc.unreviewedMentions.map((m) => html`<li><code>${m.id}</code>: pages ${formatPageRanges(m.pages)}</li>`)}</ul>`}
</section>`;
}

/**
 * Stated vs found per severity and every place to check with its page. The
 * exported file links nowhere outside itself (it may be mailed or archived
 * away from the PDF): pages are named, and the app's document view links them.
 */
function renderCompleteness(verdict: CompletenessVerdict, picturePagesNote: string | null, n: number): SafeHtml {
  const pageLabel = (page: number | null) => (page === null ? null : html`<span class="page">Page ${page}</span>: `);
  return html`<section id="doc-${n}-completeness" class="report-section completeness" data-section="completeness" data-status="${verdict.status}">
<h3>Completeness: ${verdict.headline}</h3>
<table class="tallies"><thead><tr><th>Severity</th><th>Stated by the document</th><th>Listed in its summary table</th><th>Found</th></tr></thead><tbody>
${tallyRows(verdict).map((row) => html`<tr${row.agrees ? null : html` class="differs"`}><td>${row.severity}</td><td>${row.stated}</td><td>${row.listed}</td><td>${row.found}${row.agrees ? null : ' (differs)'}</td></tr>\n`)}</tbody></table>
<p class="section-note">${statedSource(verdict)}</p>
${listingLines(verdict).length > 0 ? html`<ul class="listings">${listingLines(verdict).map((line) => html`<li>${line}</li>`)}</ul>` : null}
${verdict.places.length > 0
  ? html`<ol class="places">${verdict.places.map((p) => html`<li data-kind="${p.kind}">${pageLabel(p.page)}${p.message}</li>\n`)}</ol>`
  : null}
${picturePagesNote ? html`<p class="section-note" data-note="picture-pages">${picturePagesNote}</p>` : null}
</section>`;
}

function renderFailed(doc: ReportDocument, n: number): SafeHtml {
  return html`<section id="doc-${n}-failed" class="report-section apart" data-section="failed">
<h3>Chunks that failed analysis (${doc.failedChunks.length})</h3>
${doc.failedChunks.length === 0
  ? html`<p class="none">None.</p>`
  : html`<p class="warning">${SECTION_TEXT.failedNote}</p>
<ul class="failed">${doc.failedChunks.map(
      (c) => html`<li>${c.title} (${pagesOf(c.pageStart, c.pageEnd)}): <code>${c.error.code}</code>: ${c.error.message}</li>`,
    )}</ul>`}
</section>`;
}

function renderMentions(input: ReportInput, doc: ReportDocument, n: number): SafeHtml {
  return html`<section id="doc-${n}-mentions" class="report-section" data-section="mentions">
<h3>ID mentions (${doc.mentionGroups.length} distinct IDs)</h3>
${doc.mentionGroups.length === 0
  ? html`<p class="none">${input.status === 'done' ? 'No ID matching the configured patterns was found.' : 'Not analysed.'}</p>`
  : html`<table class="mentions"><thead><tr><th>ID</th><th>Pages</th><th>Mentions</th></tr></thead><tbody>
${doc.mentionGroups.map((g) => html`<tr><td><code>${g.id}</code></td><td>${formatPageRanges(g.pages)}</td><td>${g.mentions.length}</td></tr>\n`)}</tbody></table>`}
</section>`;
}

function severityBadge(f: Pick<ReportFinding, 'severity' | 'severityCanonical'>): SafeHtml {
  const cls = severityClass(f);
  return html`<span class="sev sev-${cls}"><span class="sev-mark" aria-hidden="true">${SEVERITY_MARK[cls] ?? '????'}</span> ${severityLabel(f)}</span>`;
}

function stateBadge(r: Pick<ReviewExportFinding, 'state' | 'label'>): SafeHtml {
  return html`<span class="state state-${r.state}" data-state="${r.state}">${r.label} ${REVIEW_STATE_LABEL[r.state]}</span>`;
}

/** One reviewed finding's review: state (and reason), last change, each edit beside the model's value, notes. */
function reviewBlock(r: ReviewExportFinding): SafeHtml {
  const by = reviewedBy(r);
  return html`<div class="review" data-review-id="${r.reviewId}" data-state="${r.state}">
<p class="review-state">Review: ${stateBadge(r)}${r.state === 'rejected' && r.rejectReason ? html` <span class="reject-reason">Reason: ${r.rejectReason}</span>` : null} · ${by ? html`last change by <span class="reviewer">${r.lastReviewer}</span>, <time datetime="${r.lastChangedAt ?? ''}">${readableTime(r.lastChangedAt)}</time>` : 'no auditor change yet'}</p>
${r.edits.length > 0
  ? html`<table class="edits"><thead><tr><th>Field</th><th>Model's value</th><th>Auditor's value</th></tr></thead><tbody>
${r.edits.map((e) => html`<tr class="edit" data-field="${e.field}"><td>${e.field}</td><td class="original"><del>${e.original}</del></td><td class="effective"><ins>${e.effective}</ins></td></tr>\n`)}</tbody></table>`
  : null}
${r.notes.length > 0 ? html`<ul class="notes">${r.notes.map((note) => html`<li class="note"><span class="reviewer">${note.reviewer}</span>, <time datetime="${note.at}">${readableTime(note.at)}</time>: ${note.text}</li>`)}</ul>` : null}
${r.changedFields.length > 0 ? html`<p class="warning">The latest run reports other values for: ${r.changedFields.join(', ')} (not yet acknowledged).</p>` : null}
${r.vanished ? html`<p class="warning">The latest run no longer reports this finding.</p>` : null}
</div>`;
}

function renderReview(review: ReportReview, n: number): SafeHtml {
  const c = review.counts;
  return html`<section id="doc-${n}-review" class="report-section" data-section="review">
<h3>Review</h3>
<p class="review-counts" data-confirmed="${c.confirmed}" data-rejected="${c.rejected}" data-follow-up="${c.needsFollowUp}" data-not-reviewed="${c.notReviewed}" data-total="${c.total}">${reviewCountsText(c)}.</p>
${review.confirmedOnly ? html`<p class="section-note">Only confirmed findings are listed; the counts cover every finding.</p>` : null}
${review.findings.length === 0
  ? html`<p class="none">${review.confirmedOnly ? 'No finding was confirmed.' : 'No finding to review.'}</p>`
  : html`<table class="review-table"><thead><tr><th>Review</th><th>ID</th><th>Title</th><th>Severity</th><th>State</th><th>Last change</th></tr></thead><tbody>
${review.findings.map(
  (r) =>
    html`<tr class="review-row" data-review-id="${r.reviewId}" data-state="${r.state}" data-origin="${r.origin}"><td>${r.label}</td><td><code>${r.findingKey ?? '—'}</code></td><td>${r.effective.title}${r.edits.length > 0 ? ' (edited)' : ''}${r.origin === 'manual' ? ' (added by the auditor)' : ''}</td><td>${r.effective.severity}</td><td>${stateText(r)}</td><td>${reviewedBy(r) ?? '—'}</td></tr>\n`,
)}</tbody></table>
${review.findings
  .filter((r) => r.origin === 'manual' && r.manualEvidence)
  .map(
    (r) => html`<article class="manual-finding" data-review-id="${r.reviewId}"><h4>${r.label}: ${r.effective.title} (added by the auditor)</h4>
<p class="facts">Severity ${r.effective.severity} · type ${r.effective.type} · page ${r.manualEvidence!.page}</p>
<p class="description">${r.effective.description}</p>
<blockquote class="evidence">${r.manualEvidence!.text}</blockquote>
${reviewBlock(r)}
</article>
`,
  )}`}
</section>`;
}

function findingTableOf(findings: readonly ReportFinding[], profile: ExtractionProfile): SafeHtml {
  return html`<table class="findings-table">
<thead><tr><th>ID</th><th>Title</th><th>Severity</th><th>Type</th><th>Pages</th><th>Grounded</th><th>Review</th></tr></thead>
<tbody>
${findings.map((f) => {
  const v = shownValues(f, profile);
  return html`<tr class="finding-row row-${severityClass(v)}" data-finding-id="${f.id}"><td><code data-id-origin="${idOriginOf(f)}">${idLabel(f)}</code></td><td><a href="#finding-${f.id}">${v.title}</a>${v.edited ? ' (edited)' : ''}</td><td>${severityBadge(v)}</td><td>${v.type}</td><td>${findingPages(f)}</td><td>${f.grounded ? 'yes' : html`<strong>NO</strong>`}</td><td>${f.review.length === 0 ? 'not reviewed' : f.review.map((r, i) => html`${i > 0 ? ', ' : ''}${stateBadge(r)}`)}</td></tr>\n`;
})}</tbody>
</table>
`;
}

function findingDetailOf(f: ReportFinding, profile: ExtractionProfile): SafeHtml {
  const v = shownValues(f, profile);
  return html`<article class="finding ${f.grounded ? 'grounded' : 'ungrounded'} row-${severityClass(v)}" id="finding-${f.id}" data-finding-id="${f.id}" data-grounded="${f.grounded}">
<h4>${idOriginOf(f) === 'document' ? html`<code class="finding-key">${idLabel(f)}</code> ` : null}<span class="finding-title">${v.title}</span></h4>
<p class="facts">ID <code data-id-origin="${idOriginOf(f)}">${idLabel(f)}</code> (${idOriginText(f)}) · ${severityBadge(v)} · type ${v.type} · pages ${findingPages(f) || 'unknown'} · main page ${mainPageText(f)} · ${f.grounded ? 'grounded' : html`<strong>NOT grounded</strong>`}</p>
${f.review.map(reviewBlock)}
<p class="description">${v.description}</p>
<ol class="sources">
${f.sources.map(
  (s) => html`<li class="source ${s.grounded ? 'found' : 'not-found'}" data-page="${s.page ?? ''}">
<p class="where">${sourcePage(s)}${s.isMain ? ' (main)' : ''}${s.ocr ? html` <span class="ocr${s.ocr.low ? ' low' : ''}">(${ocrNote(s.ocr)})</span>` : null}, ${s.grounded ? `found (${s.match ?? 'exact'})` : html`<strong>not found in the text</strong>`}, chunk ${s.nodeIndex}</p>
<blockquote class="evidence">${s.evidence}</blockquote>
${s.documentText !== null
  ? html`<p class="context">In the document: …${s.contextBefore ?? ''}<mark>${s.documentText}</mark>${s.contextAfter ?? ''}…</p>`
  : null}
</li>
`,
)}</ol>
</article>
`;
}

/** The questions and answers of one conversation as escaped HTML (no heading of its own). */
export function conversationHtmlItems(conversation: StoredConversation, questionTag: 'h2' | 'h4'): SafeHtml[] {
  return conversation.messages.map((m) => {
    if (m.role === 'user') return questionTag === 'h2' ? html`<h2 class="q">${m.text}</h2>` : html`<h4 class="q">${m.text}</h4>`;
    const a = m.answer;
    return html`<div class="a"><p>${m.text}</p>${a?.marked ? html`<p class="marked">${markedNote(a)}</p>` : null}${
      a?.exhaustiveNote ? html`<p class="note">${a.exhaustiveNote}</p>` : null
    }${a && a.citations.length > 0 ? html`<ol class="sources">${a.citations.map((c) => html`<li value="${c.n}">${citationLine(c)}</li>`)}</ol>` : null}</div>`;
  });
}

/** A report section: each conversation under its title, with its scope and date. */
export function conversationsHtmlSection(conversations: readonly StoredConversation[], documentNames: ReadonlyMap<number, string>): SafeHtml | null {
  if (conversations.length === 0) return null;
  return html`<section id="conversations" class="report-section conversations" data-section="conversations">
<h2>Questions and answers</h2>
<p class="section-note">${CONVERSATIONS_NOTE}</p>
${conversations.map(
  (c) => html`<article class="conversation" data-conversation="${c.summary.id}">
<h3>${c.summary.title}</h3>
<p class="conversation-meta">Conversation ${c.summary.id}, ${conversationScopeText(c, documentNames)}, last updated ${readableTime(c.summary.updatedAt)}.</p>
${conversationHtmlItems(c, 'h4')}
</article>
`,
)}
</section>`;
}

function renderOutlineAppendix(docs: { doc: ReportDocument; n: number }[], depth: number): SafeHtml {
  return html`<section id="appendix-outline" class="report-section appendix" data-section="outline">
<h2>Appendix: document outlines</h2>
<p class="section-note">The chunk tree of each document, to depth ${depth}.</p>
${docs.map(({ doc, n }) => {
  const entries = outlineEntries(doc.nodes, depth);
  return html`<h3 id="outline-${n}">${doc.document.fileName}</h3>
${entries.length === 0
  ? html`<p class="none">No chunk tree was built for this document.</p>`
  : html`<ul class="outline">
${entries.map(
  (e) =>
    html`<li class="depth-${Math.min(e.depth, 6)}">${e.node.title} <span class="pages">(${pageSpan(e.node)}${e.node.isLeaf ? '' : `, ${e.leaves} chunks`})</span></li>\n`,
)}</ul>`}
`;
})}
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
table.findings-table td:nth-child(4), table.review-table td:first-child, table.review-table td:nth-child(2), table.review-table td:nth-child(5) { white-space: nowrap; }
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
.state { display: inline-block; padding: 0 .4em; border-radius: 3px; font-weight: 600; border: 1px solid #5b6475; white-space: nowrap; }
.state-confirmed { background: #dff3e4; border: 2px solid #1e6b34; }
.state-rejected { background: #f7dede; border: 2px dashed #8a1c1c; text-decoration: line-through; }
.state-needs_follow_up { background: #fff1c7; border: 2px dotted #7a5a00; }
.state-new { background: #fff; border: 1px solid #8a93a3; }
table.edits { width: auto; margin: .3em 0; }
del { color: #7a2610; }
ins { color: #1e6b34; text-decoration: none; font-weight: 600; }
ul.notes, ul.models { margin: .2em 0; padding-left: 1.2em; }
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
