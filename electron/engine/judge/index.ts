/**
 * Chunking-strategy judge: one LLM call reads a sample of the document
 * (beginning, middle, end; about 5000 characters) plus the facts the engine
 * already knows, and recommends a strategy with parameters and a
 * justification, by JSON schema. Any failure falls back to a deterministic
 * choice (outline, else headings, else pages) with the reason stored. LLM
 * decisions are cached by content hash + settings hash; a disabled judge or a
 * user override is recorded as such and costs no LLM call.
 */
import { z } from 'zod';
import type { Database } from 'better-sqlite3';
import { AppError, ErrorCode, toErrorInfo } from '../../../shared/errors';
import { CHUNK_STRATEGY_CHOICES, type ChunkStrategyChoice, type DocumentFacts, type JudgeDecision } from '../../../shared/treesplit';
import type { ExtractedDocument } from '../../../shared/types';
import { detectHeadings, resolveChunkingOptions } from '../chunking';
import { chatJsonPrompt, isRunWideLlmError, lastLlmCallRowId, llmCallIdsAfter, promptText, type LlmClient } from '../llm';
import { createHash } from 'node:crypto';
import { throwIfAborted } from '../util';
import { findCachedJudgeDecision, insertJudgeDecision } from './store';

export { findCachedJudgeDecision, latestJudgeDecision, listJudgeDecisions, insertJudgeDecision } from './store';

/** Bump when the prompt or schema changes: old cached decisions no longer apply. */
export const JUDGE_PROMPT_VERSION = 2;
export const JUDGE_SAMPLE_CHARS = 5000;
/**
 * The judge's sample is at most JUDGE_SAMPLE_CHARS and at most this share of the document (never under
 * JUDGE_MIN_SAMPLE_CHARS): on a short document a 5,000-character sample is most of the text, read once more
 * only to choose how to cut it.
 */
export const JUDGE_SAMPLE_SHARE = 0.1;
export const JUDGE_MIN_SAMPLE_CHARS = 1500;

/** The judge's sample size for a text of this length. */
export function judgeSampleChars(textChars: number): number {
  return Math.min(JUDGE_SAMPLE_CHARS, Math.max(JUDGE_MIN_SAMPLE_CHARS, Math.floor(textChars * JUDGE_SAMPLE_SHARE)));
}
export const JUDGE_LIMITS = { minChunkTokens: 128, maxChunkTokens: 8192, maxOverlapChars: 2000 } as const;

export const JudgeReplySchema = z.object({
  strategy: z.enum(['outline', 'headings', 'pages', 'sentences', 'llm-tree']),
  targetChunkTokens: z.number().int(),
  overlapChars: z.number().int(),
  justification: z.string(),
});
export type JudgeReply = z.infer<typeof JudgeReplySchema>;

export interface JudgeDeps {
  llm: LlmClient;
  db: Database;
  now?: () => string;
}

export interface JudgeInput {
  doc: ExtractedDocument;
  documentId: number;
  facts?: DocumentFacts;
  model: string;
  numCtx: number;
  runId?: number;
  /** User choice (settings, CLI --strategy): recorded with source 'override', no LLM call. */
  override?: ChunkStrategyChoice;
  /** Judge switched off: the deterministic default is recorded with source 'disabled', no LLM call. */
  disabled?: boolean;
  /** Extra settings that change the decision (chunk budgets...): part of the cache key. */
  settings?: Record<string, unknown>;
  /** Upper bound for targetChunkTokens (e.g. the run's chunk token budget). */
  maxChunkTokens?: number;
  numPredict?: number;
  signal?: AbortSignal;
}

/** Deterministic facts about a document: what the fallback decides on and what the judge is told. */
export function collectFacts(doc: ExtractedDocument): DocumentFacts {
  const pageNumbers = new Set(doc.pages.map((p) => p.pageNumber));
  const outlineEntriesResolved = doc.outline.filter((e) => e.page !== null && pageNumbers.has(e.page)).length;
  let headingCandidates = 0;
  try {
    headingCandidates = detectHeadings(doc).headings.length;
  } catch {
    // Heading detection is an aid; a failure there must not stop the judge.
    headingCandidates = 0;
  }
  const pagesWithText = doc.pages.filter((p) => p.hasTextLayer).length;
  return {
    pageCount: doc.pageCount,
    outlinePresent: doc.outline.length > 0,
    outlineEntries: doc.outline.length,
    outlineEntriesResolved,
    headingCandidates,
    pagesWithText,
    textLayerCoverage: doc.pages.length === 0 ? 1 : pagesWithText / doc.pages.length,
    textChars: doc.text.length,
  };
}

/** Beginning, middle and end of the text, cut at line ends, about `total` characters together. */
export function sampleText(text: string, total = JUDGE_SAMPLE_CHARS): string {
  if (text.length <= total) return text;
  const part = Math.floor(total / 3);
  const cut = (from: number, to: number): string => {
    let s = Math.max(0, from);
    let e = Math.min(text.length, to);
    const nl = text.indexOf('\n', s);
    if (s > 0 && nl >= 0 && nl < s + 200 && nl < e) s = nl + 1;
    const back = text.lastIndexOf('\n', e);
    if (e < text.length && back > s + part / 2) e = back;
    return text.slice(s, e);
  };
  const mid = Math.floor(text.length / 2 - part / 2);
  return ['[beginning]', cut(0, part), '[...]', '[middle]', cut(mid, mid + part), '[...]', '[end]', cut(text.length - part, text.length)].join('\n');
}

const DEFAULT_TARGET_TOKENS = resolveChunkingOptions().preferredTokens;

/** The default without an LLM: outline if present, else headings if enough were found, else pages. */
export function fallbackStrategy(facts: DocumentFacts, minHeadings = resolveChunkingOptions().minHeadings): { strategy: ChunkStrategyChoice; why: string } {
  if (facts.outlineEntriesResolved >= 2) return { strategy: 'outline', why: `the document has an outline (${facts.outlineEntriesResolved} entries resolved)` };
  if (facts.headingCandidates >= minHeadings) return { strategy: 'headings', why: `${facts.headingCandidates} heading candidates were found` };
  return { strategy: 'pages', why: `no usable outline and only ${facts.headingCandidates} heading candidate(s)` };
}

/** Sane ranges: the LLM's numbers are advice, never trusted blindly. */
export function clampParams(
  reply: { targetChunkTokens: number; overlapChars: number },
  maxChunkTokens: number = JUDGE_LIMITS.maxChunkTokens,
): { targetChunkTokens: number; overlapChars: number } {
  const hi = Math.max(JUDGE_LIMITS.minChunkTokens, Math.min(JUDGE_LIMITS.maxChunkTokens, Math.floor(maxChunkTokens)));
  const target = Math.min(
    hi,
    Math.max(JUDGE_LIMITS.minChunkTokens, Math.round(Number.isFinite(reply.targetChunkTokens) ? reply.targetChunkTokens : DEFAULT_TARGET_TOKENS)),
  );
  // Overlap leaves at least three quarters of a chunk as new text.
  const maxOverlap = Math.min(JUDGE_LIMITS.maxOverlapChars, Math.floor((target * 3.5) / 4));
  const overlap = Math.min(maxOverlap, Math.max(0, Math.round(Number.isFinite(reply.overlapChars) ? reply.overlapChars : 0)));
  return { targetChunkTokens: target, overlapChars: overlap };
}

export const JUDGE_INSTRUCTIONS = promptText`
  You choose how an audit tool cuts a document into chunks for analysis by a local language model.
  Strategies: "outline" (use the PDF bookmarks; best when an outline is present and resolved),
  "headings" (use the detected heading lines; best when the text has clear numbered or styled headings),
  "pages" (one page per chunk; for forms, slides, scans, tables or text without structure),
  "sentences" (fixed-size pieces cut at sentence ends; for long unstructured prose),
  "llm-tree" (ask the language model to find the chapters; only when the text has a logical structure that neither the outline nor the headings expose, because it costs model time).
  Also give targetChunkTokens (a chunk size in tokens, typically 300 to 2000) and overlapChars (characters repeated between neighbouring chunks, typically 0 to 500), and a one or two sentence justification.
  You see facts the tool measured and a sample of the text (beginning, middle and end).
`;

function factsText(f: DocumentFacts): string {
  return [
    `pages: ${f.pageCount}`,
    `outline: ${f.outlinePresent ? `${f.outlineEntries} entries, ${f.outlineEntriesResolved} resolved to a page` : 'none'}`,
    `heading candidates found: ${f.headingCandidates}`,
    `pages with a text layer: ${f.pagesWithText} of ${f.pageCount} (${Math.round(f.textLayerCoverage * 100)}%)`,
    `text length: ${f.textChars} characters`,
  ].join('\n');
}

/** Key order does not change the hash. */
function stable(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
}

export function judgeSettingsHash(model: string, settings: Record<string, unknown> = {}): string {
  return createHash('sha256')
    .update(stable({ v: JUDGE_PROMPT_VERSION, model, settings }))
    .digest('hex');
}

export async function judgeStrategy(deps: JudgeDeps, input: JudgeInput): Promise<JudgeDecision> {
  const { db, llm } = deps;
  const now = deps.now ?? (() => new Date().toISOString());
  const facts = input.facts ?? collectFacts(input.doc);
  const settingsHash = judgeSettingsHash(input.model, input.settings);
  const maxTokens = input.maxChunkTokens ?? JUDGE_LIMITS.maxChunkTokens;
  const base = { documentId: input.documentId, documentSha256: input.doc.sha256, settingsHash, facts, cached: false, llmCallIds: [] as string[] };
  const defaults = (strategy: ChunkStrategyChoice) =>
    clampParams({ targetChunkTokens: DEFAULT_TARGET_TOKENS, overlapChars: strategy === 'pages' || strategy === 'sentences' ? 200 : 0 }, maxTokens);
  const store = (d: Omit<JudgeDecision, 'id' | 'createdAt'>): JudgeDecision => {
    const decision: JudgeDecision = { ...d, createdAt: now() };
    decision.id = insertJudgeDecision(db, decision);
    return decision;
  };

  if (input.override) {
    return store({
      ...base,
      strategy: input.override,
      ...defaults(input.override),
      justification: `Strategy "${input.override}" chosen by the user.`,
      source: 'override',
      fallbackReason: null,
    });
  }
  const fallback = fallbackStrategy(facts);
  if (input.disabled) {
    return store({
      ...base,
      strategy: fallback.strategy,
      ...defaults(fallback.strategy),
      justification: `Judge disabled: default strategy, because ${fallback.why}.`,
      source: 'disabled',
      fallbackReason: null,
    });
  }
  const cached = findCachedJudgeDecision(db, input.doc.sha256, settingsHash);
  if (cached) {
    // Served from the stored decision; recorded for this document so its history shows it.
    const decision = store({
      ...cached,
      ...base,
      cached: true,
      llmCallIds: cached.llmCallIds,
      strategy: cached.strategy,
      targetChunkTokens: cached.targetChunkTokens,
      overlapChars: cached.overlapChars,
      justification: cached.justification,
      source: 'llm',
      fallbackReason: null,
    });
    return { ...decision, cached: true };
  }

  const before = lastLlmCallRowId(db);
  let reason: string;
  // A sample that does not fit the context is made smaller, never truncated by the server.
  for (let sampleChars = judgeSampleChars(input.doc.text.length); ; sampleChars = Math.floor(sampleChars / 2)) {
    const prompt = {
      instructions: JUDGE_INSTRUCTIONS,
      schema: JudgeReplySchema,
      context: `Facts measured by the tool:\n${factsText(facts)}`,
      document: { id: input.documentId, label: 'sample', text: sampleText(input.doc.text, sampleChars) },
    };
    try {
      const r = await chatJsonPrompt(llm, prompt, {
        purpose: 'judge',
        model: input.model,
        numCtx: input.numCtx,
        numPredict: input.numPredict ?? 512,
        runId: input.runId ?? null,
        documentId: input.documentId,
        chunkRef: 'judge',
        ...(input.signal ? { signal: input.signal } : {}),
      });
      const params = clampParams(r.value, maxTokens);
      const justification = r.value.justification.trim() || '(no justification given)';
      return store({ ...base, llmCallIds: [r.call.callId], strategy: r.value.strategy, ...params, justification, source: 'llm', fallbackReason: null });
    } catch (error) {
      if (error instanceof AppError && (error.code === ErrorCode.CANCELLED || isRunWideLlmError(error.code))) throw error;
      throwIfAborted(input.signal);
      if (error instanceof AppError && error.code === ErrorCode.LLM_CONTEXT_OVERFLOW && sampleChars > 600) continue;
      const info = toErrorInfo(error);
      reason = `${info.code}: ${info.message}`;
      break;
    }
  }
  const callIds = llmCallIdsAfter(db, before, { documentId: input.documentId, purposes: ['judge'] });
  return store({
    ...base,
    llmCallIds: callIds,
    strategy: fallback.strategy,
    ...defaults(fallback.strategy),
    justification: `Default strategy, because ${fallback.why}.`,
    source: 'fallback',
    fallbackReason: reason,
  });
}

/** Whether a strategy choice is one the judge knows (for CLI/settings parsing). */
export function isChunkStrategyChoice(value: string): value is ChunkStrategyChoice {
  return (CHUNK_STRATEGY_CHOICES as readonly string[]).includes(value);
}
