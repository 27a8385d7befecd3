/**
 * Types of the chunking judge and the LLM tree split, shared by the engine,
 * the hosts and the UI (which shows decisions, attempts, review comments and
 * diffs). Imports only the shared domain types.
 */
import { TREE_STRATEGIES, type TreeStrategy } from './pipeline';
import type { TextDiff } from './types';

/** What the judge may choose: the deterministic strategies, or the LLM tree split. */
export type ChunkStrategyChoice = TreeStrategy;

export const CHUNK_STRATEGY_CHOICES: readonly ChunkStrategyChoice[] = TREE_STRATEGIES;

/** Deterministic facts about a document the judge is told (and the fallback decides on). */
export interface DocumentFacts {
  pageCount: number;
  outlinePresent: boolean;
  outlineEntries: number;
  /** Outline entries whose destination page exists in the document. */
  outlineEntriesResolved: number;
  headingCandidates: number;
  pagesWithText: number;
  /** pagesWithText / pageCount, 0..1 (1 for an empty document with no pages). */
  textLayerCoverage: number;
  textChars: number;
}

/** Where a decision came from: the LLM, the deterministic fallback (with a reason), a user override, or the judge switched off. */
export type JudgeSource = 'llm' | 'fallback' | 'override' | 'disabled';

export interface JudgeDecision {
  id?: number;
  documentId: number;
  documentSha256: string;
  settingsHash: string;
  strategy: ChunkStrategyChoice;
  targetChunkTokens: number;
  overlapChars: number;
  justification: string;
  source: JudgeSource;
  /** Why the fallback was used (invalid reply, LLM error...); null otherwise. */
  fallbackReason: string | null;
  /** True when the decision was served from an earlier stored decision (no LLM call). */
  cached: boolean;
  llmCallIds: string[];
  facts: DocumentFacts;
  createdAt: string;
}

/** One chapter as the LLM proposes it (PolicySynth's shape). Line numbers are 1-based within the node. */
export interface ProposedChapter {
  chapterIndex: number;
  chapterTitle: string;
  chapterStartLineNumber: number;
  importantContextChapterIndexes: number[];
}

export interface SplitReview {
  passes: boolean;
  comments: string;
}

export type SplitOutcome = 'accepted' | 'validation_failed' | 'review_failed' | 'invalid_reply' | 'fallback';

/** One stored attempt of splitting one node (every attempt is stored, failed ones included). */
export interface SplitAttempt {
  id?: number;
  runId: number | null;
  documentId: number;
  /** Stable key of the node: "start-end" offsets into the canonical text. */
  nodeKey: string;
  /** Titles from the root to the node. */
  nodePath: string[];
  /** 1-based; a fallback row carries the number of attempts made + 1. */
  attempt: number;
  chapters: ProposedChapter[];
  review: SplitReview | null;
  validationErrors: string[];
  diff: TextDiff | null;
  outcome: SplitOutcome;
  llmCallIds: string[];
  createdAt: string;
}

/** Progress of the tree split, e.g. "tree split: node 3/12, attempt 2/20, validation failed: chapter 4 starts before chapter 3". */
export interface TreeSplitProgress {
  node: string;
  nodeIndex: number;
  nodeCount: number;
  attempt: number;
  maxAttempts: number;
  message: string;
}
