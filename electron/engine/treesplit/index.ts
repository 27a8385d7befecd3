/**
 * LLM tree split (PolicySynth's DocumentTreeSplitAgent, without its defects).
 * A node is shown to the LLM as numbered lines (compact for long texts,
 * windows when even that does not fit: never truncated); the LLM proposes
 * chapters by start line; the engine cuts the text, validates the split, has
 * a second call review the starts in context, and retries with what failed
 * (validation errors, diff, review comments) up to maxAttempts, every failure
 * counting as an attempt. After the last attempt the node falls back to the
 * deterministic splitter, marked with the reason: an unvalidated split is
 * never used. Chapters over the leaf budget are split again, breadth first,
 * with a depth limit. Every attempt is stored.
 *
 * One part per module, each taking the split's shared state (SplitContext) explicitly:
 *   options.ts      options, defaults and their invariants
 *   windows.ts      window planning: what each call shows and asks for; halving after a cut reply
 *   windowAnswer.ts the model's answer per window, checked on its own, and the windows joined
 *   review.ts       the review call(s) of a validated split
 *   splitNode.ts    one node in attempts (ask, validate, review, send back, give up)
 *   fallback.ts     the deterministic splitter used when the model could not split a node
 *   index.ts        the tree: nodes split breadth first, chapters over the leaf budget queued again, flattened
 */
import type { Database } from 'better-sqlite3';
import { pageAt } from '../../../shared/canonical';
import { AppError, ErrorCode } from '../../../shared/errors';
import type { TreeSplitProgress } from '../../../shared/treesplit';
import type { ChunkNode, ExtractedDocument, Section } from '../../../shared/types';
import { detectHeadings, documentTitle } from '../chunking';
import type { LlmClient } from '../llm';
import { throwIfAborted } from '../util';
import { deterministicLeaves } from './fallback';
import { resolveTreeSplitOptions, type TreeSplitOptions } from './options';
import { nodeLabel, type SplitContext, type SplitTreeNode } from './splitContext';
import { splitOneNode, type AttemptRecord } from './splitNode';
import { nonBlankLineCount } from './view';
import { insertSplitAttempt } from './store';

export { listSplitAttempts, insertSplitAttempt } from './store';
export { validateChapters, cleanTitle, type CutChapter, type ChapterValidation } from './validate';
export { nodeText, renderView, classifyLines, windowsOf, firstContentLine, VIEW_LEVELS, type NodeText, type ViewEntry, type ViewWindow, type ViewLevel } from './view';
export { SPLIT_INSTRUCTIONS, REVIEW_INSTRUCTIONS, SplitReplySchema, ReviewReplySchema, type SplitReply, type ReviewReply } from './prompts';
export { DEFAULT_TREE_SPLIT_OPTIONS, resolveTreeSplitOptions, type TreeSplitOptions } from './options';
export { feedbackText } from './feedback';
export { deterministicLeaves } from './fallback';

export interface TreeSplitDeps {
  llm: LlmClient;
  db: Database;
  now?: () => string;
}

export interface TreeSplitInput {
  doc: ExtractedDocument;
  documentId: number;
  runId?: number;
  /** Part of the canonical text to split (a node of the tree); default the whole document. */
  range?: { start: number; end: number };
  /** Section and title of the returned tree's root (default level 0, path [], the document's title). */
  rootSection?: Section;
  rootTitle?: string;
  model: string;
  numCtx: number;
  options?: Partial<TreeSplitOptions>;
  signal?: AbortSignal;
  onProgress?: (e: TreeSplitProgress) => void;
}

export interface TreeSplitResult {
  /** Pre-order; index 0 is the root of the range. */
  nodes: ChunkNode[];
  /** Attempts made over all nodes. */
  attempts: number;
  fallbacks: { node: string; reason: string }[];
  /** Logical LLM calls made (split and review). */
  llmCalls: number;
}

export async function splitTreeWithLlm(deps: TreeSplitDeps, input: TreeSplitInput): Promise<TreeSplitResult> {
  const options = resolveTreeSplitOptions(input.options);
  const { doc, model, numCtx, documentId } = input;
  const { llm, db } = deps;
  const now = deps.now ?? (() => new Date().toISOString());
  const range = input.range ?? { start: 0, end: doc.text.length };
  if (!(range.start >= 0 && range.end <= doc.text.length && range.start <= range.end)) {
    throw new AppError(ErrorCode.INVALID_INPUT, `The range [${range.start}, ${range.end}) is outside the document (length ${doc.text.length}).`);
  }
  const estimate = (text: string) => llm.estimator.estimateText(text, model);
  const headingStarts = new Set<number>();
  try {
    for (const h of detectHeadings(doc).headings) headingStarts.add(h.start);
  } catch {
    // Heading candidates only enrich the view.
  }
  const ctx: SplitContext = {
    doc,
    documentId,
    runId: input.runId ?? null,
    model,
    numCtx,
    llm,
    db,
    signal: input.signal,
    options,
    estimate,
    splitNumPredict: options.splitNumPredict ?? Math.max(256, Math.min(2048, Math.floor(numCtx / 4))),
    reviewNumPredict: options.reviewNumPredict ?? Math.max(128, Math.min(384, Math.floor(numCtx / 8))),
    headingStarts,
    stats: { attempts: 0, llmCalls: 0 },
    budget: { factor: 0.9 },
  };

  const fallbacks: { node: string; reason: string }[] = [];

  const whole = range.start === 0 && range.end === doc.text.length;
  const root: SplitTreeNode = {
    title: input.rootTitle ?? documentTitle(doc),
    section: input.rootSection ?? { level: 0, path: [] },
    start: range.start,
    end: range.end,
    origin: whole ? 'root' : 'llm',
    isLeaf: false,
    overlapBefore: 0,
    children: [],
  };

  const fitsLeaf = (start: number, end: number): boolean => {
    const text = doc.text.slice(start, end);
    if (estimate(text) > options.leafTokens) return false;
    return options.leafLineLimit === undefined || nonBlankLineCount(text) <= options.leafLineLimit;
  };

  const queue: { node: SplitTreeNode; depth: number }[] = [];
  let nodeCount = 0;
  if (root.end > root.start) {
    if (fitsLeaf(root.start, root.end)) {
      root.children.push({ ...root, children: [], origin: 'sentence', isLeaf: true });
    } else {
      queue.push({ node: root, depth: 0 });
      nodeCount = 1;
    }
  }

  const store = (node: SplitTreeNode, a: AttemptRecord) =>
    insertSplitAttempt(db, { ...a, runId: input.runId ?? null, documentId, nodeKey: `${node.start}-${node.end}`, nodePath: [...node.section.path], createdAt: now() });

  /** Leaves from the deterministic splitter under the node; returns the splitter used. */
  const cutDeterministically = (node: SplitTreeNode): string => {
    const leaves = deterministicLeaves(doc, node.start, node.end, options.leafTokens, estimate);
    const kids = leaves.pieces.map<SplitTreeNode>((p) => ({ title: p.title, section: { level: node.section.level, path: [...node.section.path] }, start: p.start, end: p.end, origin: p.origin, isLeaf: true, overlapBefore: p.overlapBefore, children: [] }));
    if (kids.length <= 1 && node !== root) node.isLeaf = true;
    else node.children = kids.length ? kids : [{ ...node, children: [], origin: 'sentence', isLeaf: true }];
    return leaves.strategy;
  };
  const fallBack = (node: SplitTreeNode, reason: string, attempt: number, nodeIndex: number) => {
    const strategy = cutDeterministically(node);
    fallbacks.push({ node: nodeLabel(node), reason });
    store(node, { attempt, chapters: [], review: null, validationErrors: [reason], diff: null, outcome: 'fallback', llmCallIds: [] });
    input.onProgress?.({ node: nodeLabel(node), nodeIndex, nodeCount, attempt: Math.min(attempt, options.maxAttempts), maxAttempts: options.maxAttempts, message: `tree split: node ${nodeIndex}/${nodeCount}, fallback to the ${strategy} splitter: ${reason}` });
  };

  let nodeIndex = 0;
  while (queue.length > 0) {
    throwIfAborted(input.signal);
    const { node, depth } = queue.shift()!;
    nodeIndex++;
    if (depth >= options.maxDepth) {
      fallBack(node, `depth limit ${options.maxDepth} reached with the chapter still over the leaf budget`, 1, nodeIndex);
      continue;
    }
    const progress = (attempt: number, message: string) =>
      input.onProgress?.({ node: nodeLabel(node), nodeIndex, nodeCount, attempt, maxAttempts: options.maxAttempts, message: `tree split: node ${nodeIndex}/${nodeCount}, attempt ${attempt}/${options.maxAttempts}, ${message}` });
    const result = await splitOneNode(ctx, node, progress, (a) => store(node, a));
    if (!result.ok) {
      fallBack(node, result.reason, result.attemptsMade + 1, nodeIndex);
      continue;
    }
    for (const c of result.chapters) {
      const child: SplitTreeNode = {
        title: c.title,
        section: { level: node.section.level + 1, path: [...node.section.path, c.title] },
        start: c.start,
        end: c.end,
        origin: 'llm',
        isLeaf: false,
        overlapBefore: 0,
        children: [],
      };
      node.children.push(child);
      if (fitsLeaf(child.start, child.end)) child.isLeaf = true;
      else if (options.leafLineLimit === undefined && estimate(doc.text.slice(child.start, child.end)) <= options.leafTokens * options.llmMinLeafMultiple) cutDeterministically(child);
      else {
        queue.push({ node: child, depth: depth + 1 });
        nodeCount++;
      }
    }
  }

  return { nodes: flatten(doc, root, estimate), attempts: ctx.stats.attempts, fallbacks, llmCalls: ctx.stats.llmCalls };
}

// ------------------------------------------------------------ assembly

function flatten(doc: ExtractedDocument, root: SplitTreeNode, estimate: (t: string) => number): ChunkNode[] {
  const nodes: ChunkNode[] = [];
  const visit = (n: SplitTreeNode, parentIndex: number | null) => {
    const index = nodes.length;
    nodes.push({
      index,
      parentIndex,
      title: n.title,
      section: { level: n.section.level, path: [...n.section.path] },
      start: n.start,
      end: n.end,
      pageStart: pageAt(doc.pages, n.start),
      pageEnd: pageAt(doc.pages, Math.max(n.start, n.end - 1)),
      tokenEstimate: estimate(doc.text.slice(n.start, n.end)),
      origin: n.origin,
      isLeaf: n.isLeaf,
      overlapBefore: n.isLeaf ? n.overlapBefore : 0,
    });
    for (const c of n.children) visit(c, index);
  };
  visit(root, null);
  return nodes;
}
