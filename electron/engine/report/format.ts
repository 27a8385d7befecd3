/**
 * Small formatting helpers every exporter shares, so Markdown, HTML, CSV and
 * JSON say the same thing in the same words.
 */
import { formatPageRanges } from '../../../shared/canonical';
import type { MergedFinding } from '../../../shared/findings';
import type { LlmUsage, ReportData, ReportDocument } from './reportData';

export function baseName(filePath: string): string {
  return filePath.split(/[\\/]/).pop() ?? filePath;
}

/** Pages of every source with a known page, as ranges ("1-2, 5"). */
export function findingPages(f: MergedFinding): string {
  return formatPageRanges(f.sources.map((s) => s.page).filter((p): p is number => p !== null));
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
  parts.push(`${usage.promptTokens.toLocaleString('en-US')} prompt tokens`, `${usage.evalTokens.toLocaleString('en-US')} generated tokens`, `${formatDuration(usage.llmMs)} of model time`);
  return parts.join(', ');
}

/** Severity as a CSS-safe class word from the profile scale; 'unknown' when the word maps onto nothing. */
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

export const SECTION_TEXT = {
  findings: 'Findings: each quote was found in the document',
  ungroundedNote: 'Not verified: the model reported these findings, but none of their quotes was found in the document. Check them by hand before relying on them.',
  unreviewedNote: 'IDs the document mentions that no finding covers: the model may have missed them.',
  noTextExplain: 'Nothing on them was read or analysed: they are scans or images. OCR the PDF to include them.',
  failedNote: 'These parts of the document were not checked for findings.',
} as const;
