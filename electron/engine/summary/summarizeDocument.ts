/**
 * Document summary from the per-chunk summaries (written by the extraction
 * call, one per chunk): appended in order when together they fit the budget;
 * otherwise map-reduce: consecutive summaries grouped into groups that fit,
 * each group summarised (map, optionally a faster model), recursively, until
 * what remains fits one call, which the reduce model turns into the final
 * summary. Order is kept at every level; nothing is truncated (a single
 * summary larger than the budget is cut into sentence pieces first).
 *
 * The summary stage's prompts stay within SUMMARY_PROMPT_TOKENS_PER_SOURCE_TOKEN
 * of the document (given its source tokens): the map-reduce is planned before
 * the first call, and when the unit summaries are too long for that (one leaf
 * per call, or a very long document), each is shortened to its first sentences
 * (then, if still too much, every k-th is kept) until the plan fits. The result
 * says so (`capped`), and the pipeline reports it.
 */
import { AppError, ErrorCode } from '../../../shared/errors';
import { buildSummaryMessages, planSummaryReplyTokens, renderSummaryParts, SUMMARY_MAP_SENTENCES, SUMMARY_REDUCE_SENTENCES } from './prompts';
import type { LlmClient } from '../llm';

export interface SummaryDeps {
  llm: Pick<LlmClient, 'chatText' | 'estimator'>;
}

export interface SummarizeInput {
  /** Chunk summaries in document order. */
  chunkSummaries: readonly string[];
  /** Model for the map step; defaults to reduceModel. */
  mapModel?: string;
  reduceModel: string;
  numCtx: number;
  /** Largest amount of summary text (estimated tokens) one call may carry. */
  budgetTokens: number;
  /** A fixed num_predict for every call; default: planned from the sentences each call asks for. */
  numPredict?: number;
  /**
   * The document's size in (estimated) tokens: the map-reduce's prompts are planned to at most
   * SUMMARY_PROMPT_TOKENS_PER_SOURCE_TOKEN of it. Absent: no cap.
   */
  sourceTokens?: number;
  /** Run one reduce call even when the summaries fit as they are. Default false (append). */
  alwaysReduce?: boolean;
  runId?: number;
  documentId?: number;
  cache?: boolean;
  signal?: AbortSignal;
}

export interface SummarizeResult {
  text: string;
  chunkCount: number;
  /** 0 = appended as they are; else map levels + 1 for the reduce. */
  levels: number;
  calls: number;
  /** The outputs of each map level, in order (for storage and debugging). */
  mapLevels: string[][];
  /** Estimated prompt tokens of the calls made (instructions included). */
  promptTokens: number;
  /** Set when the unit summaries were shortened to keep the prompt budget: what was read of them, and why. */
  capped?: SummaryCap;
}

export interface SummaryCap {
  /** Prompt tokens the summary stage may spend: SUMMARY_PROMPT_TOKENS_PER_SOURCE_TOKEN x the source tokens. */
  promptBudget: number;
  /** Estimated tokens of the unit summaries as written, and of what the map-reduce read of them. */
  summaryTokens: number;
  keptTokens: number;
  /** Each summary cut to about this many tokens (its first sentences). */
  tokensPerSummary: number;
  /** How many of the summaries were read (all unless even their first sentences were too much: then every k-th). */
  keptSummaries: number;
  note: string;
}

/** The summary stage reads at most this many prompt tokens per source token (issue 13). */
export const SUMMARY_PROMPT_TOKENS_PER_SOURCE_TOKEN = 0.15;
/** The plan aims this much under the budget: grouping and the model's real tokenizer differ a little from the estimate. */
const PLAN_MARGIN = 0.9;
/** A summary is never cut below this (about a sentence): below it, fewer summaries are read instead. */
const MIN_TOKENS_PER_SUMMARY = 24;

const MAX_LEVELS = 8;

export async function summarizeDocument(deps: SummaryDeps, input: SummarizeInput): Promise<SummarizeResult> {
  const mapModel = input.mapModel ?? input.reduceModel;
  const chunkCount = input.chunkSummaries.length;
  const estimate = (parts: readonly string[], model: string) => deps.llm.estimator.estimateText(renderSummaryParts(parts), model);
  let items = input.chunkSummaries.map((s) => s.trim()).filter((s) => s.length > 0);
  if (items.length === 0) return { text: '', chunkCount, levels: 0, calls: 0, mapLevels: [], promptTokens: 0 };
  if (!input.alwaysReduce && estimate(items, input.reduceModel) <= input.budgetTokens) {
    return { text: items.join('\n\n'), chunkCount, levels: 0, calls: 0, mapLevels: [], promptTokens: 0 };
  }

  let capped: SummaryCap | undefined;
  if (input.sourceTokens !== undefined) {
    const tokens = (text: string) => deps.llm.estimator.estimateText(text, mapModel);
    const callOverhead = deps.llm.estimator.estimateMessages(buildSummaryMessages('reduce', [], 'summary-reduce'), input.reduceModel);
    const plan = capSummaries(items, {
      tokens,
      callOverhead,
      groupBudget: input.budgetTokens,
      promptBudget: Math.floor(input.sourceTokens * SUMMARY_PROMPT_TOKENS_PER_SOURCE_TOKEN),
    });
    items = plan.items;
    capped = plan.cap;
  }

  let calls = 0;
  let promptTokens = 0;
  const call = async (kind: 'map' | 'reduce', parts: string[], label: string) => {
    calls++;
    const model = kind === 'map' ? mapModel : input.reduceModel;
    const messages = buildSummaryMessages(kind, parts, label);
    promptTokens += deps.llm.estimator.estimateMessages(messages, model);
    const r = await deps.llm.chatText({
      purpose: 'summary',
      model,
      messages,
      numCtx: input.numCtx,
      numPredict: input.numPredict ?? planSummaryReplyTokens(kind === 'map' ? SUMMARY_MAP_SENTENCES : SUMMARY_REDUCE_SENTENCES),
      runId: input.runId ?? null,
      documentId: input.documentId ?? null,
      chunkRef: label,
      ...(input.cache !== undefined ? { cache: input.cache } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
    });
    return r.text.trim();
  };

  const mapLevels: string[][] = [];
  let level = 0;
  while (estimate(items, input.reduceModel) > input.budgetTokens) {
    if (level >= MAX_LEVELS) {
      throw new AppError(ErrorCode.INTERNAL, `The summary did not shrink below the budget after ${MAX_LEVELS} levels; raise the summary budget.`, {
        budgetTokens: input.budgetTokens,
      });
    }
    level++;
    const groups = groupToBudget(items, (parts) => estimate(parts, mapModel), input.budgetTokens);
    const next: string[] = [];
    for (const [g, group] of groups.entries()) next.push(await call('map', group, `summary-L${level}-G${g + 1}`));
    mapLevels.push(next);
    items = next;
  }
  const text = await call('reduce', items, 'summary-reduce');
  return { text, chunkCount, levels: level + 1, calls, mapLevels, promptTokens, ...(capped ? { capped } : {}) };
}

interface CapOptions {
  tokens: (text: string) => number;
  /** Instructions, task line and delimiters of one summary call. */
  callOverhead: number;
  /** Most summary text one call carries (the map-reduce's grouping budget). */
  groupBudget: number;
  promptBudget: number;
}

/**
 * The unit summaries as the map-reduce will read them: unchanged when the planned calls fit the prompt budget;
 * else each cut to its first sentences (the largest cut that fits), else every k-th of them so cut.
 */
export function capSummaries(items: readonly string[], options: CapOptions): { items: string[]; cap?: SummaryCap } {
  const target = options.promptBudget * PLAN_MARGIN;
  const sizes = items.map(options.tokens);
  const fits = (cut: readonly number[]) => plannedPromptTokens(cut, options) <= target;
  if (fits(sizes)) return { items: [...items] };

  const largest = Math.max(...sizes);
  let perSummary = MIN_TOKENS_PER_SUMMARY;
  if (fits(sizes.map((n) => Math.min(n, MIN_TOKENS_PER_SUMMARY)))) {
    // The largest cut that fits: binary search on the tokens each summary keeps.
    let lo = MIN_TOKENS_PER_SUMMARY;
    let hi = largest;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(sizes.map((n) => Math.min(n, mid)))) lo = mid;
      else hi = mid - 1;
    }
    perSummary = lo;
  }
  let kept = items.map((item) => firstTokens(item, perSummary, options.tokens));
  let every = 1;
  while (kept.length > 1 && !fits(kept.map(options.tokens))) {
    every++;
    kept = items.filter((_, i) => i % every === 0).map((item) => firstTokens(item, perSummary, options.tokens));
  }
  const summaryTokens = sizes.reduce((a, n) => a + n, 0);
  const keptTokens = kept.reduce((a, item) => a + options.tokens(item), 0);
  const note =
    `The unit summaries (about ${summaryTokens} tokens) were shortened to their first sentences (about ${perSummary} tokens each` +
    (every > 1 ? `, every ${every}th summary` : '') +
    `) so the summary reads at most ${SUMMARY_PROMPT_TOKENS_PER_SOURCE_TOKEN} prompt tokens per source token (${options.promptBudget} tokens for this document).`;
  return {
    items: kept,
    cap: { promptBudget: options.promptBudget, summaryTokens, keptTokens, tokensPerSummary: perSummary, keptSummaries: kept.length, note },
  };
}

/**
 * Prompt tokens the map-reduce will spend on summaries of these sizes: level by level, consecutive summaries
 * packed into calls of at most `groupBudget` tokens, each map reply at most its planned length and half its input,
 * then one reduce. An estimate: the summary stage's real spend is checked against the budget by the tests and the bench.
 */
export function plannedPromptTokens(sizes: readonly number[], options: Pick<CapOptions, 'callOverhead' | 'groupBudget'>): number {
  const mapReply = planSummaryReplyTokens(SUMMARY_MAP_SENTENCES);
  // "[part N]" and the blank line between parts.
  const partFrame = 6;
  let level = sizes.map((n) => n + partFrame);
  let total = 0;
  for (let depth = 0; depth < MAX_LEVELS && level.reduce((a, n) => a + n, 0) > options.groupBudget; depth++) {
    const groups: number[] = [];
    let current = 0;
    // A summary larger than a call's budget is cut into pieces first (groupToBudget).
    const pieces = level.flatMap((n) =>
      n <= options.groupBudget ? [n] : Array.from({ length: Math.ceil(n / options.groupBudget) }, () => Math.ceil(n / Math.ceil(n / options.groupBudget))),
    );
    for (const n of pieces) {
      if (current > 0 && current + n > options.groupBudget) {
        groups.push(current);
        current = 0;
      }
      current += n;
    }
    if (current > 0) groups.push(current);
    total += groups.reduce((a, n) => a + n + options.callOverhead, 0);
    // A map reply condenses its parts: at most its planned length, and (the instructions ask for a shorter text) half its input.
    level = groups.map((n) => Math.min(Math.ceil(n / 2), mapReply) + partFrame);
  }
  return total + level.reduce((a, n) => a + n, 0) + options.callOverhead;
}

/** The start of `text` up to about `limit` tokens: whole sentences when the first fits, else whole words. */
function firstTokens(text: string, limit: number, tokens: (text: string) => number): string {
  if (tokens(text) <= limit) return text;
  let out = '';
  for (const sentence of text.match(/[^.!?]+(?:[.!?]+|$)\s*/g) ?? [text]) {
    if (tokens(out + sentence) > limit) break;
    out += sentence;
  }
  if (out.trim()) return out.trim();
  for (const word of text.split(/(\s+)/)) {
    if (out && tokens(out + word) > limit) break;
    out += word;
  }
  return out.trim();
}

/**
 * Consecutive groups whose rendering fits the budget, each of at least two
 * items when possible so every level shrinks; an item larger than the budget
 * alone is cut into sentence pieces first.
 */
export function groupToBudget(items: readonly string[], estimate: (parts: readonly string[]) => number, budget: number): string[][] {
  const pieces: string[] = [];
  for (const item of items) {
    if (estimate([item]) <= budget) pieces.push(item);
    else pieces.push(...cutToBudget(item, estimate, budget));
  }
  const groups: string[][] = [];
  let current: string[] = [];
  for (const p of pieces) {
    if (current.length > 0 && estimate([...current, p]) > budget) {
      groups.push(current);
      current = [];
    }
    current.push(p);
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

function cutToBudget(text: string, estimate: (parts: readonly string[]) => number, budget: number): string[] {
  const sentences = text.match(/[^.!?]+(?:[.!?]+|$)\s*/g) ?? [text];
  const out: string[] = [];
  let current = '';
  for (const s of sentences) {
    if (current && estimate([current + s]) > budget) {
      out.push(current.trim());
      current = '';
    }
    if (estimate([s]) > budget) {
      // One huge sentence: cut at word boundaries.
      let piece = '';
      for (const w of s.split(/(\s+)/)) {
        if (piece && estimate([piece + w]) > budget) {
          out.push(piece.trim());
          piece = '';
        }
        piece += w;
      }
      current = piece;
    } else current += s;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
