/**
 * Document summary from the per-chunk summaries (written by the extraction
 * call, one per chunk): appended in order when together they fit the budget;
 * otherwise map-reduce: consecutive summaries grouped into groups that fit,
 * each group summarised (map, optionally a faster model), recursively, until
 * what remains fits one call, which the reduce model turns into the final
 * summary. Order is kept at every level; nothing is truncated (a single
 * summary larger than the budget is cut into sentence pieces first).
 */
import { AppError, ErrorCode } from '../../../shared/errors';
import { buildSummaryMessages, planSummaryReplyTokens, renderSummaryParts, SUMMARY_MAP_SENTENCES, SUMMARY_REDUCE_SENTENCES } from '../extract';

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
}

const MAX_LEVELS = 8;

export async function summarizeDocument(deps: SummaryDeps, input: SummarizeInput): Promise<SummarizeResult> {
  const mapModel = input.mapModel ?? input.reduceModel;
  const chunkCount = input.chunkSummaries.length;
  const estimate = (parts: readonly string[], model: string) => deps.llm.estimator.estimateText(renderSummaryParts(parts), model);
  let items = input.chunkSummaries.map((s) => s.trim()).filter((s) => s.length > 0);
  if (items.length === 0) return { text: '', chunkCount, levels: 0, calls: 0, mapLevels: [] };
  if (!input.alwaysReduce && estimate(items, input.reduceModel) <= input.budgetTokens) {
    return { text: items.join('\n\n'), chunkCount, levels: 0, calls: 0, mapLevels: [] };
  }

  let calls = 0;
  const call = async (kind: 'map' | 'reduce', parts: string[], label: string) => {
    calls++;
    const r = await deps.llm.chatText({
      purpose: 'summary',
      model: kind === 'map' ? mapModel : input.reduceModel,
      messages: buildSummaryMessages(kind, parts, label),
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
  return { text, chunkCount, levels: level + 1, calls, mapLevels };
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
