/**
 * Small formatting helpers every exporter shares, so Markdown, HTML, CSV and
 * JSON say the same thing in the same words.
 */
import { realJustification, STRATEGY_SOURCES, strategyName } from '../../../shared/plainWords';
import { formatPageRanges } from '../../../shared/canonical';
import { DEFAULT_PROFILE, idLabel, idOriginOf, rankSeverity, type ExtractionProfile, type MergedFinding } from '../../../shared/findings';
import type { FieldEdit, ReviewExportFinding, ReviewState, ReviewSummary, RunModel } from '../../../shared/review';
import type { LlmUsage, ReportData, ReportDocument, ReportFinding, ReportMergeConflict } from './reportData';

export function baseName(filePath: string): string {
  return filePath.split(/[\\/]/).pop() ?? filePath;
}

/** Pages of every source with a known page, as ranges ("1-2, 5"). */
export function findingPages(f: MergedFinding): string {
  return formatPageRanges(f.sources.map((s) => s.page).filter((p): p is number => p !== null));
}

/** "page 8", or "page 8, printed 7" where the document prints another number on it; "page unknown" without a page. */
export function sourcePage(s: { page: number | null; printed?: string | null }): string {
  return s.page === null ? 'page unknown' : `page ${s.page}${s.printed ? `, printed ${s.printed}` : ''}`;
}

/** The label the document prints on a finding's main page when it differs from the PDF page (from its main page's source), or null. */
export function mainPagePrinted(f: ReportFinding): string | null {
  return f.sources.find((s) => s.page !== null && s.page === f.mainPage && s.printed)?.printed ?? null;
}

/** "8" or "8, printed 7": a finding's main page as the report cites it; "unknown" without one. */
export function mainPageText(f: ReportFinding): string {
  if (f.mainPage === null) return 'unknown';
  const printed = mainPagePrinted(f);
  return printed ? `${f.mainPage}, printed ${printed}` : String(f.mainPage);
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return 'unfinished';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function formatUsage(usage: LlmUsage): string {
  if (usage.calls === 0) return 'no LLM calls';
  const parts = [`${usage.calls} calls`];
  if (usage.cached > 0) parts.push(`${usage.cached} from the cache`);
  if (usage.retried > 0) parts.push(`${usage.retried} retried`);
  if (usage.failed > 0) parts.push(`${usage.failed} failed`);
  parts.push(
    `${usage.promptTokens.toLocaleString('en-US')} prompt tokens`,
    `${usage.evalTokens.toLocaleString('en-US')} generated tokens`,
    `${formatDuration(usage.llmMs)} of model time`,
  );
  return parts.join(', ');
}

/** Severity as a CSS-safe class word from the profile scale; 'unknown' when the word maps onto nothing. */
/** Where the ID shown comes from, in words. */
export { idLabel };

export function idOriginText(f: Pick<MergedFinding, 'findingKey' | 'printedNumber' | 'modelLabels'>): string {
  const origin = idOriginOf(f);
  if (origin === 'document') return 'printed in the document';
  if (origin === 'model') return 'given by the model only, not printed in the document';
  return 'none';
}

/** One sentence per merge conflict: the shared ID or number, the findings kept apart and their pages. */
export function conflictText(c: ReportMergeConflict): string {
  const list = c.findings.map((f) => `“${f.title}” (page ${f.mainPage ?? 'unknown'})`).join(' and ');
  if (c.kind === 'title')
    return `${list} are described alike, but the document prints titles with other words (${c.key}): kept apart; check whether they are one finding.`;
  const what = c.kind === 'id' ? `ID ${c.key}` : `number ${c.key}`;
  return `The document gives ${what} to ${list}, whose titles and evidence disagree: kept apart; check which is right.`;
}

export function severityClass(f: Pick<MergedFinding, 'severityCanonical'>): string {
  const word = (f.severityCanonical ?? 'unknown').toLowerCase().replace(/[^a-z]+/g, '-');
  return word || 'unknown';
}

/** The severity as the document wrote it, with the scale word when they differ ("Major (High)"). */
export function severityLabel(f: Pick<MergedFinding, 'severity' | 'severityCanonical'>): string {
  const original = f.severity.trim() || 'unrated';
  if (f.severityCanonical && f.severityCanonical.toLowerCase() !== original.toLowerCase()) return `${original} (${f.severityCanonical})`;
  return original;
}

/** "page 3" or "pages 3-5". */
export function pagesOf(start: number, end: number): string {
  return start === end ? `page ${start}` : `pages ${start}-${end}`;
}

export function isFullMode(data: ReportData): boolean {
  return data.run.mode === 'full';
}

export function grounded(doc: ReportDocument) {
  return doc.findings.filter((f) => f.grounded);
}

export function ungrounded(doc: ReportDocument) {
  return doc.findings.filter((f) => !f.grounded);
}

export const RULES_ONLY_NOTE =
  'Mode: rules only. No language model was used: this report has no findings, summary, ungrounded findings, unreviewed mentions or failed chunks; it lists the ID mentions found by patterns, not verified findings.';

export const CONFIRMED_ONLY_NOTE = 'Limited to confirmed findings: only findings an auditor confirmed are listed; the review counts still cover every finding.';

export const SECTION_TEXT = {
  findings: 'Findings: each quote was found in the document',
  ungroundedNote:
    'Not verified: the model reported these findings, but none of their quotes was found in the document. Check them by hand before relying on them.',
  /** The summary names IDs no grounded finding has (summary/summaryIds.ts); followed by the IDs. */
  summaryIdsNote:
    'Not verified: the model wrote this summary, and it names IDs that no verified finding of this document has (the model may have invented them, or obeyed text planted in the document). Check them by hand before relying on the summary:',
  unreviewedNote: 'IDs the document mentions that no finding covers: the model may have missed them.',
  noTextExplain:
    'Nothing on them was read or analysed: they are blank, or scans and images that OCR found no words on (or OCR was off: turn it on in Settings, or --ocr auto, to include them).',
  ocrExplain:
    'Their text was read from the page image by OCR (no usable text layer): words may be misread, most likely on pages flagged as low confidence. Check quotes from them against the original.',
  unreadableExplain:
    'Their content is damaged and could not be read, so nothing on them was analysed. Get a fresh copy of the file (download or export it again) to include them.',
  failedNote: 'These parts of the document were not checked for findings.',
} as const;

/** What a review state is called in a report. */
export const REVIEW_STATE_LABEL: Record<ReviewState, string> = {
  new: 'not reviewed yet',
  confirmed: 'confirmed',
  rejected: 'rejected',
  needs_follow_up: 'needs follow-up',
};

export type ReviewCountsOf = ReviewSummary['counts'];

/** The review counts of several documents added up (the executive summary's), from the same per-document counts. */
export function sumReviewCounts(list: readonly ReviewCountsOf[]): ReviewCountsOf {
  const sum = (pick: (c: ReviewCountsOf) => number) => list.reduce((total, c) => total + pick(c), 0);
  return {
    total: sum((c) => c.total),
    confirmed: sum((c) => c.confirmed),
    rejected: sum((c) => c.rejected),
    needsFollowUp: sum((c) => c.needsFollowUp),
    notReviewed: sum((c) => c.notReviewed),
    open: sum((c) => c.open),
    vanished: sum((c) => c.vanished),
  };
}

/**
 * "3 confirmed, 1 rejected, 0 need follow-up, 5 not reviewed yet (9 in all)": the four states, which add up to
 * the total. Every review count of every format is this sentence (or its short form), from one set of counts.
 */
export function reviewCountsText(counts: ReviewCountsOf): string {
  const base = `${counts.confirmed} confirmed, ${counts.rejected} rejected, ${counts.needsFollowUp} need follow-up, ${counts.notReviewed} not reviewed yet (${counts.total} in all)`;
  return counts.vanished > 0 ? `${base}; ${counts.vanished} no longer reported by the latest run` : base;
}

/** The contents entry's short form: "2 confirmed, 16 not reviewed yet" (the same counts as reviewCountsText). */
export function reviewCountsShort(counts: ReviewCountsOf): string {
  return `${counts.confirmed} confirmed, ${counts.notReviewed} not reviewed yet`;
}

/** Made once: building a formatter costs far more than formatting, and a report formats a time per review. */
const UTC_TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/** "23 November 2026, 22:45 UTC": a report is read anywhere, so the time says its zone (never a raw ISO stamp). */
export function readableTime(iso: string | null | undefined, missing = 'time unknown'): string {
  if (!iso) return missing;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return `${UTC_TIME.format(at)} UTC`;
}

/** The auditor's last change: "A. Auditor, 2 January 2025, 10:00 UTC", or null when only the engine touched it. */
export function reviewedBy(r: Pick<ReviewExportFinding, 'lastReviewer' | 'lastChangedAt'>): string | null {
  return r.lastReviewer ? `${r.lastReviewer}, ${readableTime(r.lastChangedAt)}` : null;
}

/** How the document was cut into chunks, in plain words: "PDF outline (bookmarks), chosen by the language model: <why>". */
export function chunkingText(
  strategy: string | null,
  judge: { strategy: string; source: string; cached: boolean; justification: string; fallbackReason: string | null } | null,
): string {
  if (!judge) return strategyName(strategy);
  const source = judge.cached && judge.source === 'llm' ? STRATEGY_SOURCES.cached! : (STRATEGY_SOURCES[judge.source] ?? judge.source);
  // A strategy set in the settings needs no reason beside "chosen in the settings" (the stored one names its id).
  const why = judge.source === 'override' ? null : realJustification(judge.justification);
  return `${strategyName(judge.strategy)}, ${source}${why ? `: ${why}` : ''}`;
}

/** One edit as a line: `title: "model value" -> "auditor value"`. */
export function editText(e: FieldEdit): string {
  return `${e.field}: "${e.original}" -> "${e.effective}"`;
}

/** The state with its reason: "rejected: duplicate of R-2". */
export function stateText(r: Pick<ReviewExportFinding, 'state' | 'rejectReason'>): string {
  return `${REVIEW_STATE_LABEL[r.state]}${r.state === 'rejected' && r.rejectReason ? `: ${r.rejectReason}` : ''}`;
}

/** "extract qwen3:8b (sha256:abc...)"; the digest says exactly which model build ran. */
export function modelText(m: RunModel): string {
  return `${m.stage}: ${m.name} (digest ${m.digest ?? 'not recorded'})`;
}

/** The run's extraction profile (for ranking an edited severity). */
export function profileOf(data: ReportData): ExtractionProfile {
  return data.run.settings?.profile ?? DEFAULT_PROFILE;
}

export interface ShownValues {
  title: string;
  severity: string;
  severityCanonical: string | null;
  type: string;
  description: string;
  /** The auditor edited at least one field (the model's values are in `review[0].original`). */
  edited: boolean;
}

/**
 * What the report shows for a merged finding: the auditor's effective values
 * when one reviewed finding stands for it, else the model's own. The model's
 * values stay in the report next to any edit.
 */
export function shownValues(f: ReportFinding, profile: ExtractionProfile = DEFAULT_PROFILE): ShownValues {
  const only = f.review.length === 1 ? f.review[0]! : undefined;
  if (!only || only.edits.length === 0)
    return { title: f.title, severity: f.severity, severityCanonical: f.severityCanonical, type: f.type, description: f.description, edited: false };
  const e = only.effective;
  const severityCanonical = e.severity === f.severity ? f.severityCanonical : rankSeverity(profile, e.severity).canonical;
  return { title: e.title, severity: e.severity, severityCanonical, type: e.type, description: e.description, edited: true };
}

/** How a finding's source says its quote comes from OCR text: "OCR text, 64% confidence, low". */
export function ocrNote(ocr: { confidence: number | null; low: boolean }): string {
  return `OCR text${ocr.confidence === null ? '' : `, ${Math.round(ocr.confidence)}% confidence`}${ocr.low ? ', low: check against the original' : ''}`;
}

/** "3 (91%), 4 (58%, low)": OCR pages for a report section. */
export function ocrPageList(pages: readonly { page: number; confidence: number | null; low: boolean; hasText: boolean }[]): string {
  return pages
    .map((p) => `${p.page} (${!p.hasText || p.confidence === null ? 'pictures only' : `${Math.round(p.confidence)}%`}${p.low ? ', low' : ''})`)
    .join(', ');
}
