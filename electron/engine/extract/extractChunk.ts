/**
 * One leaf chunk -> its findings (grounded) and a short summary, in one LLM
 * call (the linear chunking-with-aggregation design: every chunk gets the
 * full instructions). A prompt that does not fit (or that Ollama cut, or a
 * reply cut even after the client's retry) splits the chunk in two at a
 * paragraph or sentence boundary and extracts both halves; text is never
 * truncated. Any other failure is thrown (AppError) for the pipeline to mark
 * the chunk failed.
 */
import type { Database } from 'better-sqlite3';
import { pageAt } from '../../../shared/canonical';
import { AppError, ErrorCode } from '../../../shared/errors';
import { DEFAULT_PROFILE, rankSeverity, type ExtractionProfile, type GroundedFinding, type ReportedFinding } from '../../../shared/findings';
import type { ChunkNode, ExtractedDocument } from '../../../shared/types';
import { DEFAULT_LLM_SETTINGS, type LlmClient } from '../llm';
import { groundEvidence } from './grounding';
import { identifyFinding } from './identity';
import { buildExtractionMessages, extractionReplySchema, type ExtractionReply } from './prompts';
import { planExtractionReplyTokens } from './replyBudget';

export interface ExtractDeps {
  llm: LlmClient;
  /** Not needed by extraction itself (the client logs calls); kept for symmetry with the pipeline. */
  db?: Database;
}

export interface ExtractChunkInput {
  doc: ExtractedDocument;
  chunk: ChunkNode;
  /** The previous chunk's tail, shown to the model as CONTEXT ONLY (see previousTailFor). */
  previousTail?: string;
  /**
   * Where the text may be split when it is too much for one call: the starts of the leaves of an extraction unit.
   * The one nearest the middle is used, so a unit never gets a boundary its leaves did not already have (a heading
   * stays with its text); without one inside the range, splitPoint chooses.
   */
  boundaries?: readonly number[];
  profile?: ExtractionProfile;
  model: string;
  numCtx: number;
  /**
   * The most num_predict any call may get (the reply room the run's num_ctx was planned with; default the client's
   * num_predict). Each call's num_predict is planned from the text it carries, up to this (replyBudget.ts).
   */
  maxReplyTokens?: number;
  runId?: number;
  documentId?: number;
  cache?: boolean;
  signal?: AbortSignal;
}

export interface ExtractChunkResult {
  findings: GroundedFinding[];
  summary: string;
  /** LLM calls made (more than 1 when the chunk had to be split). */
  calls: number;
  /** llm_calls.call_id of each successful call, for chunk_results. */
  callIds: string[];
  /** How many pieces the chunk was analysed in (1 unless split). */
  pieces: number;
}

/** Errors that mean "this text is too much for one call": split and retry the halves. */
const SPLIT_CODES = new Set<string>([ErrorCode.LLM_CONTEXT_OVERFLOW, ErrorCode.LLM_TRUNCATED_PROMPT, ErrorCode.LLM_REPLY_CUT]);
const MAX_SPLIT_DEPTH = 6;
const MIN_SPLIT_CHARS = 200;
// Enough to see the start of a sentence or finding cut by the boundary; every character is re-sent (and re-evaluated) with the next chunk.
const DEFAULT_TAIL_CHARS = 400;

export async function extractChunk(deps: ExtractDeps, input: ExtractChunkInput): Promise<ExtractChunkResult> {
  const { doc, chunk } = input;
  const profile = input.profile ?? DEFAULT_PROFILE;
  const contextRange = input.previousTail ? locateTail(doc.text, input.previousTail, chunk.start) : undefined;
  const baseRef = `${input.documentId ?? doc.sha256.slice(0, 12)}#${chunk.index}`;
  const tailChars = input.previousTail?.length || DEFAULT_TAIL_CHARS;

  const run = async (
    start: number,
    end: number,
    context: { text: string; range: { start: number; end: number } | undefined } | undefined,
    ref: string,
    depth: number,
  ): Promise<ExtractChunkResult> => {
    const messages = buildExtractionMessages({
      profile,
      doc,
      start,
      end,
      firstPage: pageAt(doc.pages, start),
      ...(context ? { context: context.text } : {}),
      chunkLabel: ref,
    });
    let reply: ExtractionReply;
    let callId: string;
    const textTokens = deps.llm.estimator.estimateText(doc.text.slice(start, end), input.model);
    const numPredict = planExtractionReplyTokens(textTokens, input.maxReplyTokens ?? DEFAULT_LLM_SETTINGS.numPredict);
    try {
      const r = await deps.llm.chatJson({
        purpose: 'extract',
        model: input.model,
        schema: extractionReplySchema,
        messages,
        numCtx: input.numCtx,
        numPredict,
        runId: input.runId ?? null,
        documentId: input.documentId ?? null,
        chunkRef: ref,
        ...(input.cache !== undefined ? { cache: input.cache } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      });
      reply = r.value;
      callId = r.call.callId;
    } catch (error) {
      if (error instanceof AppError && SPLIT_CODES.has(error.code) && depth < MAX_SPLIT_DEPTH && end - start >= MIN_SPLIT_CHARS) {
        const mid = nearestBoundary(input.boundaries ?? [], start, end) ?? splitPoint(doc.text, start, end);
        const first = await run(start, mid, context, `${ref}.a`, depth + 1);
        const tailStart = Math.max(start, mid - tailChars);
        const second = await run(mid, end, { text: doc.text.slice(tailStart, mid), range: { start: tailStart, end: mid } }, `${ref}.b`, depth + 1);
        return {
          findings: [...first.findings, ...second.findings],
          summary: [first.summary, second.summary].filter(Boolean).join(' '),
          calls: first.calls + second.calls,
          callIds: [...first.callIds, ...second.callIds],
          pieces: first.pieces + second.pieces,
        };
      }
      throw error;
    }
    const findings = reply.findings.map((f) => {
      const reported = { ...f, id: f.id ?? null };
      const grounded = groundFinding(doc, profile, reported, { chunk: { start, end }, ...(context?.range ? { context: context.range } : {}) });
      return onStatedPage(doc, profile, reported, grounded, { start, end }) ?? grounded;
    });
    return { findings, summary: reply.summary.trim(), calls: 1, callIds: [callId], pieces: 1 };
  };

  return run(chunk.start, chunk.end, input.previousTail ? { text: input.previousTail, range: contextRange } : undefined, baseRef, 0);
}

/**
 * A quote found on another page than the model stated, grounded again within the stated page when it is found
 * there too: a unit of several sections can hold the same sentence twice (two findings whose descriptions open
 * alike), and the first occurrence is not necessarily the one the model quoted. Undefined when nothing changes.
 */
function onStatedPage(
  doc: ExtractedDocument,
  profile: ExtractionProfile,
  reported: Parameters<typeof groundFinding>[2],
  grounded: GroundedFinding,
  range: { start: number; end: number },
): GroundedFinding | undefined {
  const stated = reported.page;
  if (grounded.grounding.status !== 'grounded' || typeof stated !== 'number' || grounded.grounding.page === stated) return undefined;
  const page = doc.pages.find((p) => p.pageNumber === stated);
  if (!page || page.end <= range.start || page.start >= range.end) return undefined;
  const again = groundFinding(doc, profile, reported, { chunk: { start: Math.max(range.start, page.start), end: Math.min(range.end, page.end) } });
  return again.grounding.status === 'grounded' ? again : undefined;
}

/** Grounds one reported finding, derives its document-printed identity (identity.ts) and its severity rank. */
export function groundFinding(
  doc: Pick<ExtractedDocument, 'text' | 'pages'>,
  profile: ExtractionProfile,
  reported: Omit<ReportedFinding, 'page'> & { page?: number | null },
  regions: { chunk: { start: number; end: number }; context?: { start: number; end: number } },
): GroundedFinding {
  const severity = rankSeverity(profile, reported.severity);
  const page = typeof reported.page === 'number' && Number.isFinite(reported.page) ? reported.page : null;
  const grounding = groundEvidence(doc.text, doc.pages, reported.evidence, regions);
  const title = reported.title.trim();
  const modelId = reported.id?.trim() || null;
  const region = { start: Math.min(regions.chunk.start, regions.context?.start ?? Infinity), end: regions.chunk.end };
  const identity = identifyFinding(doc.text, profile, { modelId, title, grounding, region });
  return {
    id: modelId,
    type: reported.type.trim(),
    title,
    severity: severity.original,
    description: reported.description.trim(),
    evidence: reported.evidence,
    page,
    findingKey: identity.idKey,
    printedNumber: identity.printedNumber,
    severityCanonical: severity.canonical,
    severityRank: severity.rank,
    grounding,
  };
}

/** The page a finding is shown on: the grounded page wins over the one the model stated. */
export function effectivePage(f: Pick<GroundedFinding, 'page' | 'grounding'>): number | null {
  return f.grounding.page ?? f.page;
}

/** Where the previous tail sits in the canonical text (it normally ends where the chunk starts). */
export function locateTail(text: string, tail: string, chunkStart: number): { start: number; end: number } | undefined {
  if (tail.length === 0) return undefined;
  if (chunkStart >= tail.length && text.slice(chunkStart - tail.length, chunkStart) === tail) return { start: chunkStart - tail.length, end: chunkStart };
  const i = text.lastIndexOf(tail, chunkStart);
  return i >= 0 ? { start: i, end: i + tail.length } : undefined;
}

/**
 * The previous leaf's tail for leaf `position` of `leaves` (in document order):
 * up to `chars` characters ending where this leaf starts, starting at a
 * line/sentence boundary when one is near. Undefined for the first leaf.
 */
export function previousTailFor(doc: Pick<ExtractedDocument, 'text'>, leaves: readonly ChunkNode[], position: number, chars = DEFAULT_TAIL_CHARS): string | undefined {
  if (position <= 0) return undefined;
  const prev = leaves[position - 1];
  const cur = leaves[position];
  if (!prev || !cur) return undefined;
  const end = cur.start;
  let start = Math.max(prev.start, end - chars);
  if (start >= end) return undefined;
  // Start at a line or sentence start within the first third, so the context opens cleanly.
  const window = doc.text.slice(start, start + Math.floor((end - start) / 3));
  const m = /\n|[.!?]\s+/.exec(window);
  if (m) start += m.index + m[0].length;
  while (start < end && /\s/.test(doc.text[start]!)) start++;
  return doc.text.slice(start, end) || undefined;
}

/** The boundary strictly inside (start, end) nearest its middle, if any. */
function nearestBoundary(boundaries: readonly number[], start: number, end: number): number | undefined {
  const mid = (start + end) / 2;
  let best: number | undefined;
  for (const b of boundaries) if (b > start && b < end && (best === undefined || Math.abs(b - mid) < Math.abs(best - mid))) best = b;
  return best;
}

/** A split offset near the middle of [start, end): a paragraph, then a line, then a sentence, then a space boundary. */
export function splitPoint(text: string, start: number, end: number): number {
  const mid = Math.floor((start + end) / 2);
  const span = Math.floor((end - start) / 4);
  const lo = mid - span;
  const hi = mid + span;
  for (const re of [/\n\s*\n/g, /\n/g, /[.!?]["')\]]?\s+/g, /\s+/g]) {
    let best = -1;
    re.lastIndex = 0;
    const slice = text.slice(lo, hi);
    for (const m of slice.matchAll(re)) {
      const at = lo + m.index + m[0].length;
      if (at <= start || at >= end) continue;
      if (best < 0 || Math.abs(at - mid) < Math.abs(best - mid)) best = at;
    }
    if (best > 0) return best;
  }
  return mid;
}
