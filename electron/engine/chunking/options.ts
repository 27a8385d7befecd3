/**
 * Chunking options: one typed object with defaults, checked up front
 * (LangChain splitter style) so a bad configuration fails loudly at the call
 * site instead of producing a silently broken tree.
 */

import type { ChunkStrategy } from '../../../shared/pipeline';

export type { ChunkStrategy };

export interface ChunkingOptions {
  /** 'auto' picks outline, then headings, then pages (see `chooseStrategy`). */
  strategy: ChunkStrategy | 'auto';
  /** Token estimator; a full run passes the extraction model's calibrated one (pipeline/documentPipeline.ts). */
  estimateTokens: (text: string) => number;
  /** Greedy merger sizes (docs-mcp-server: 500 / 1500 / 5000 characters). */
  minChars: number;
  preferredChars: number;
  maxChars: number;
  /** The same budgets in estimated tokens; derived from the character sizes when absent. */
  minTokens: number;
  preferredTokens: number;
  maxTokens: number;
  /** Overlap between pieces cut from one oversized section (tree and sentence strategy). */
  overlapChars: number;
  /** Page chunker: one page per chunk up to this size, else pieces of this size... */
  pageMaxChars: number;
  /** ...with this overlap (audit ADR: 4000 / 500). */
  pageOverlapChars: number;
  /** 'auto' uses headings only when at least this many were found. */
  minHeadings: number;
  /** Longer lines are never headings. */
  maxHeadingChars: number;
  /** A line whose font is at least this factor above body size is a heading candidate. */
  headingFontRatio: number;
}

/** Rough characters per token for European text; only the default estimator uses it. */
export const CHARS_PER_TOKEN = 3.5;

export function defaultEstimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Separator length the page chunker may add to a page (see PAGE_SEPARATOR). */
const PAGE_SEPARATOR_LENGTH = 3;

const CHAR_DEFAULTS = {
  minChars: 500,
  preferredChars: 1500,
  maxChars: 5000,
  overlapChars: 0,
  pageMaxChars: 4000,
  pageOverlapChars: 500,
  minHeadings: 3,
  maxHeadingChars: 120,
  headingFontRatio: 1.15,
} as const;

const STRATEGIES: readonly (ChunkStrategy | 'auto')[] = ['auto', 'outline', 'headings', 'pages', 'sentences'];

/** Fills defaults (token budgets follow the character sizes) and checks invariants; throws on violation. */
export function resolveChunkingOptions(partial: Partial<ChunkingOptions> = {}): ChunkingOptions {
  const chars = { ...CHAR_DEFAULTS, ...definedOnly(partial) };
  const estimateTokens = partial.estimateTokens ?? defaultEstimateTokens;
  const options: ChunkingOptions = {
    strategy: partial.strategy ?? 'auto',
    estimateTokens,
    minChars: chars.minChars,
    preferredChars: chars.preferredChars,
    maxChars: chars.maxChars,
    minTokens: partial.minTokens ?? Math.ceil(chars.minChars / CHARS_PER_TOKEN),
    preferredTokens: partial.preferredTokens ?? Math.ceil(chars.preferredChars / CHARS_PER_TOKEN),
    maxTokens: partial.maxTokens ?? Math.ceil(chars.maxChars / CHARS_PER_TOKEN),
    overlapChars: chars.overlapChars,
    pageMaxChars: chars.pageMaxChars,
    pageOverlapChars: chars.pageOverlapChars,
    minHeadings: chars.minHeadings,
    maxHeadingChars: chars.maxHeadingChars,
    headingFontRatio: chars.headingFontRatio,
  };
  assertValid(options);
  return options;
}

/** `{a: undefined}` must not override a default. */
function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function assertValid(o: ChunkingOptions): void {
  const problems: string[] = [];
  const positiveInts = [
    'minChars',
    'preferredChars',
    'maxChars',
    'minTokens',
    'preferredTokens',
    'maxTokens',
    'pageMaxChars',
    'minHeadings',
    'maxHeadingChars',
  ] as const;
  for (const key of positiveInts) {
    if (!Number.isInteger(o[key]) || o[key] < 1) problems.push(`${key} must be a positive integer (got ${o[key]})`);
  }
  for (const key of ['overlapChars', 'pageOverlapChars'] as const) {
    if (!Number.isInteger(o[key]) || o[key] < 0) problems.push(`${key} must be a non-negative integer (got ${o[key]})`);
  }
  if (!STRATEGIES.includes(o.strategy)) problems.push(`strategy must be one of ${STRATEGIES.join(', ')} (got ${String(o.strategy)})`);
  if (typeof o.estimateTokens !== 'function') problems.push('estimateTokens must be a function');
  if (!(o.headingFontRatio > 1)) problems.push(`headingFontRatio must be > 1 (got ${o.headingFontRatio})`);
  if (!(o.minChars <= o.preferredChars && o.preferredChars <= o.maxChars)) {
    problems.push(`need minChars <= preferredChars <= maxChars (got ${o.minChars} / ${o.preferredChars} / ${o.maxChars})`);
  }
  if (!(o.minTokens <= o.preferredTokens && o.preferredTokens <= o.maxTokens)) {
    problems.push(`need minTokens <= preferredTokens <= maxTokens (got ${o.minTokens} / ${o.preferredTokens} / ${o.maxTokens})`);
  }
  // Overlap must leave at least half of every piece as new text, or cutting could stall.
  if (o.overlapChars * 2 >= o.preferredChars) problems.push(`overlapChars must be < preferredChars / 2 (got ${o.overlapChars} with ${o.preferredChars})`);
  if (o.pageOverlapChars * 2 >= o.pageMaxChars) problems.push(`pageOverlapChars must be < pageMaxChars / 2 (got ${o.pageOverlapChars} with ${o.pageMaxChars})`);
  // A whole page keeps its trailing separator, and must still fit the tree's maximum.
  if (o.pageMaxChars + PAGE_SEPARATOR_LENGTH > o.maxChars)
    problems.push(`pageMaxChars + ${PAGE_SEPARATOR_LENGTH} must be <= maxChars (got ${o.pageMaxChars} with ${o.maxChars})`);
  if (problems.length > 0) throw new Error(`Invalid chunking options: ${problems.join('; ')}`);
}
