/**
 * The state one tree split shares between its parts (window planning, the model's answer per window, the review,
 * the per-node attempt loop), passed explicitly instead of captured by one large closure, so each part can be
 * called and tested on its own.
 */
import type { Database } from 'better-sqlite3';
import type { ChunkOrigin, ExtractedDocument, Section } from '../../../shared/types';
import type { LlmClient } from '../llm';
import type { TreeSplitOptions } from './options';

/** A node of the tree being built (flattened into ChunkNodes at the end). */
export interface SplitTreeNode {
  title: string;
  section: Section;
  start: number;
  end: number;
  origin: ChunkOrigin;
  isLeaf: boolean;
  overlapBefore: number;
  children: SplitTreeNode[];
}

export interface SplitContext {
  readonly doc: ExtractedDocument;
  readonly documentId: number;
  readonly runId: number | null;
  readonly model: string;
  readonly numCtx: number;
  readonly llm: LlmClient;
  readonly db: Database;
  readonly signal: AbortSignal | undefined;
  readonly options: TreeSplitOptions;
  readonly estimate: (text: string) => number;
  /** Reply room of a split call and of a review call. */
  readonly splitNumPredict: number;
  readonly reviewNumPredict: number;
  /** Offsets where the heading detector saw a heading: they enrich the view. */
  readonly headingStarts: ReadonlySet<number>;
  /** Counted over the whole split, for its result. */
  readonly stats: { attempts: number; llmCalls: number };
  /**
   * Share of the context the text may take. A prompt that did not fit after all (the estimate was short) makes it
   * smaller for every later prompt of the split, windows and reviews alike.
   */
  readonly budget: { factor: number };
}

/** How a node is named in prompts, progress and fallbacks: its section path, else its title. */
export const nodeLabel = (n: SplitTreeNode): string => (n.section.path.length ? n.section.path.join(' / ') : n.title);

/** Signal spread into an LLM call's options only when there is one (the call options are exact). */
export const signalOption = (ctx: SplitContext): { signal?: AbortSignal } => (ctx.signal ? { signal: ctx.signal } : {});
