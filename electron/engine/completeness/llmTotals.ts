/**
 * Stated totals by one LLM call, for layouts the rules do not read (totals
 * in a chart caption, a sentence the patterns miss, an unusual table). The
 * model sees only the summary and overview parts of the document (that is
 * where reports state their totals), delimited as data, and answers by JSON
 * schema with a verbatim quote for every count. Like a finding's evidence,
 * a count is kept only when its quote is found in the document and the quote
 * itself shows the number and the label: the model may read, never invent.
 */
import { z } from 'zod';
import { pageAt } from '../../../shared/canonical';
import { AppError, ErrorCode, toErrorInfo } from '../../../shared/errors';
import { rankSeverity, type ExtractionProfile } from '../../../shared/findings';
import type { StatedCount } from '../../../shared/completeness';
import type { ExtractedDocument } from '../../../shared/types';
import { groundEvidence, renderWithPageMarkers, COUNT_SOURCE, oneLine, parseCount, type TextLine } from '../printed';
import { chatJsonPrompt, isRunWideLlmError, promptText, type LlmClient } from '../llm';

export const STATED_TOTALS_CHUNK_REF = 'completeness:stated-totals';
/** Characters of summary parts the model reads: totals sit in a page or two. */
export const OVERVIEW_BUDGET_CHARS = 6000;
const PART_CHARS = 2500;

const OVERVIEW_HEADING =
  /^\s*(?:\d+(?:\.\d+)*\.?\s+)?(?:executive\s+summary|summary|overview|project\s+dashboard|dashboard|key\s+findings|findings\s+overview|summary\s+of\s+(?:findings|results|issues)|results|at\s+a\s+glance|assessment\s+summary|audit\s+summary|vulnerability\s+summary|risk\s+summary)\b.{0,40}$/i;

export const StatedTotalsReplySchema = z.object({
  counts: z.array(
    z.object({
      label: z.string().describe('the severity word as the document writes it, or "Total" for a total over all severities'),
      count: z.number().int(),
      quote: z.string().describe('verbatim text from the DOCUMENT block that shows this label and number'),
    }),
  ),
});
export type StatedTotalsReply = z.infer<typeof StatedTotalsReplySchema>;

export const STATED_TOTALS_INSTRUCTIONS = promptText`
  You read the summary parts of an audit or review report.
  List the counts the report itself states about its own findings: how many findings per severity (for example "High 2", "5 medium-severity issues"), and the total number of findings if it states one.
  Only counts the text states in words or numbers; never count findings yourself, never estimate.
  For every count give a verbatim quote from the document that contains the label and the number.
  If the report states no such counts, return an empty list.
`;

export interface LlmTotalsInput {
  llm: LlmClient;
  doc: ExtractedDocument;
  lines: readonly TextLine[];
  profile: ExtractionProfile;
  model: string;
  numCtx: number;
  runId: number;
  documentId: number;
  cache?: boolean;
  signal?: AbortSignal;
}

export interface LlmTotalsResult {
  counts: StatedCount[];
  /** Why the call gave nothing usable (a failed call, or quotes not found in the document); null when it answered. */
  problem: string | null;
  /** Counts the model gave that were dropped: their quote is not in the document or does not show them. */
  dropped: number;
}

/** Summary and overview parts: each from its heading, a page or so long; the document's start when none is found. */
export function overviewParts(lines: readonly TextLine[], textLength: number): { start: number; end: number }[] {
  const parts: { start: number; end: number }[] = [];
  let used = 0;
  for (const line of lines) {
    if (used >= OVERVIEW_BUDGET_CHARS) break;
    if (line.running || !OVERVIEW_HEADING.test(line.text)) continue;
    if (parts.some((p) => line.start < p.end)) continue;
    const end = Math.min(textLength, line.start + Math.min(PART_CHARS, OVERVIEW_BUDGET_CHARS - used));
    parts.push({ start: line.start, end });
    used += end - line.start;
  }
  if (parts.length === 0) parts.push({ start: 0, end: Math.min(textLength, OVERVIEW_BUDGET_CHARS) });
  return parts;
}

/** Words that may stand between a count and its label in a statement of one ("2 High", "High: 2", "five medium-severity issues"). */
const WORDS_BETWEEN = 4;

/**
 * Whether the text holds a place where a count could be quoted: a number next to a severity word or "total", on one
 * line ("High 2", "High | 2", "Total: 7", "five medium-severity issues") or as a label line over a number line (a
 * vertical table). A count the model gives is kept only when its quote shows both (groundCount), so text without
 * such a place can give none, and is not sent. A number inside an ID ("CR-2001") or a version ("7.4") is no count.
 */
export function mayStateCounts(text: string, profile: ExtractionProfile): boolean {
  const labels = [...profile.severities, ...Object.keys(profile.severityAliases), 'total'].map((w) => w.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const label = `(?:${labels.join('|')})`;
  const count = `(?<![\\p{L}\\p{N}_.\\-\u2010-\u2014])(?:${COUNT_SOURCE})(?![\\p{L}\\p{N}_\\-\u2010-\u2014]|\\.\\d)`;
  const gap = `(?:[^\\S\\n]*[|:=()\\-\u2013\u2014]?[^\\S\\n]*(?:[\\p{L}\\p{N}\\-]+[^\\S\\n]+){0,${WORDS_BETWEEN}}[|:=()]?[^\\S\\n]*)`;
  const onLine = new RegExp(`(?<![\\p{L}])${label}(?![\\p{L}])${gap}${count}|${count}${gap}${label}(?![\\p{L}])`, 'iu');
  if (onLine.test(text)) return true;
  // A label line over a number line: "High" over "2", or a header row of labels over a row of numbers.
  const isLabel = new RegExp(`^${label}$`, 'iu');
  const isCount = new RegExp(`^${count}$`, 'iu');
  const lines = text.split('\n').map((l) => l.split(/[\s|:]+/).filter(Boolean));
  return lines.some((words, i) => {
    const next = lines[i + 1] ?? [];
    const labelWords = words.filter((w) => isLabel.test(w)).length;
    return (
      labelWords > 0 && labelWords >= words.length - 1 && next.length > 0 && next.filter((w) => isCount.test(w)).length >= Math.min(labelWords, next.length)
    );
  });
}

export async function statedTotalsByLlm(input: LlmTotalsInput): Promise<LlmTotalsResult> {
  const { doc } = input;
  const parts = overviewParts(input.lines, doc.text.length);
  // Nothing in the parts could be quoted as a count: the call could give no count that is kept.
  if (!parts.some((p) => mayStateCounts(doc.text.slice(p.start, p.end), input.profile))) return { counts: [], problem: null, dropped: 0 };
  const text = parts.map((p) => renderWithPageMarkers(doc, p.start, p.end, pageAt(doc.pages, p.start))).join('\n[...]\n');
  let reply: StatedTotalsReply;
  try {
    const prompt = {
      instructions: STATED_TOTALS_INSTRUCTIONS,
      schema: StatedTotalsReplySchema,
      task: 'List the finding counts this report states about itself.',
      document: { id: input.documentId, label: 'summary-parts', text },
    };
    const result = await chatJsonPrompt(input.llm, prompt, {
      // Logged as a summary-stage call: it reads the document's summary parts (llm_calls.purpose is a closed set).
      purpose: 'summary',
      model: input.model,
      numCtx: input.numCtx,
      numPredict: 512,
      runId: input.runId,
      documentId: input.documentId,
      chunkRef: STATED_TOTALS_CHUNK_REF,
      ...(input.cache === undefined ? {} : { cache: input.cache }),
      ...(input.signal ? { signal: input.signal } : {}),
    });
    reply = result.value;
  } catch (error) {
    if (error instanceof AppError && (error.code === ErrorCode.CANCELLED || isRunWideLlmError(error.code))) throw error;
    const info = toErrorInfo(error);
    return { counts: [], problem: `the stated-totals call failed (${info.code}: ${info.message})`, dropped: 0 };
  }
  const counts: StatedCount[] = [];
  let dropped = 0;
  for (const item of reply.counts) {
    const count = groundCount(doc, parts, input.profile, item);
    if (count && !counts.some((c) => c.label.toLowerCase() === count.label.toLowerCase())) counts.push(count);
    else if (!count) dropped++;
  }
  return { counts, problem: dropped > 0 && counts.length === 0 ? `${dropped} stated count(s) from the model were not found in the document` : null, dropped };
}

/** A count the document shows where the model says: quote found, and the label and number in it. */
function groundCount(
  doc: ExtractedDocument,
  parts: readonly { start: number; end: number }[],
  profile: ExtractionProfile,
  item: StatedTotalsReply['counts'][number],
): StatedCount | null {
  const label = item.label.trim();
  const isTotal = /^total\b/i.test(label);
  const severity = isTotal ? null : rankSeverity(profile, label).canonical;
  if (!isTotal && severity === null) return null;
  if (!Number.isInteger(item.count) || item.count < 0) return null;
  for (const part of parts) {
    const grounding = groundEvidence(doc.text, doc.pages, item.quote, { chunk: part });
    if (grounding.status !== 'grounded' || grounding.start === null || grounding.end === null) continue;
    const shown = doc.text.slice(grounding.start, grounding.end);
    const labelShown = new RegExp(
      `\\b${label
        .split(/\s+/)
        .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('\\s+')}`,
      'i',
    ).test(shown);
    const numberShown = [...shown.matchAll(new RegExp(`\\b(${COUNT_SOURCE})\\b`, 'gi'))].some((m) => parseCount(m[1]!) === item.count);
    if (!labelShown || !numberShown) return null;
    return {
      label,
      severity,
      count: item.count,
      start: grounding.start,
      end: grounding.end,
      page: grounding.page ?? pageAt(doc.pages, grounding.start),
      text: oneLine(shown),
      source: 'llm',
    };
  }
  return null;
}
