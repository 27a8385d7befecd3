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
export {
  nodeText,
  renderView,
  classifyLines,
  windowsOf,
  firstContentLine,
  VIEW_LEVELS,
  type NodeText,
  type ViewEntry,
  type ViewWindow,
  type ViewLevel,
} from './view';
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
  // Options first: a bad option is reported before a bad range.
  const options = resolveTreeSplitOptions(input.options);
  const { doc } = input;
  const range = input.range ?? { start: 0, end: doc.text.length };
  if (!(range.start >= 0 && range.end <= doc.text.length && range.start <= range.end)) {
    throw new AppError(ErrorCode.INVALID_INPUT, `The range [${range.start}, ${range.end}) is outside the document (length ${doc.text.length}).`);
  }
  const ctx = splitContextFor(deps, input, options);
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
  const tree: TreeRun = { ctx, input, now: deps.now ?? (() => new Date().toISOString()), root, queue: [], nodeCount: 0, nodeIndex: 0, fallbacks: [] };
  if (root.end > root.start) {
    if (fitsLeaf(tree, root.start, root.end)) {
      root.children.push({ ...root, children: [], origin: 'sentence', isLeaf: true });
    } else {
      tree.queue.push({ node: root, depth: 0 });
      tree.nodeCount = 1;
    }
  }

  // Breadth first: a node's chapters over the leaf budget are queued behind the nodes already waiting.
  while (tree.queue.length > 0) {
    throwIfAborted(input.signal);
    await splitQueuedNode(tree, tree.queue.shift()!);
  }
  return { nodes: flatten(doc, root, ctx.estimate), attempts: ctx.stats.attempts, fallbacks: tree.fallbacks, llmCalls: ctx.stats.llmCalls };
}

/** The state the split's parts share (splitContext.ts), for this document, model and context. */
function splitContextFor(deps: TreeSplitDeps, input: TreeSplitInput, options: TreeSplitOptions): SplitContext {
  const { doc, model, numCtx } = input;
  const headingStarts = new Set<number>();
  try {
    for (const h of detectHeadings(doc).headings) headingStarts.add(h.start);
  } catch {
    // Heading candidates only enrich the view.
  }
  return {
    doc,
    documentId: input.documentId,
    runId: input.runId ?? null,
    model,
    numCtx,
    llm: deps.llm,
    db: deps.db,
    signal: input.signal,
    options,
    estimate: (text: string) => deps.llm.estimator.estimateText(text, model),
    splitNumPredict: options.splitNumPredict ?? Math.max(256, Math.min(2048, Math.floor(numCtx / 4))),
    reviewNumPredict: options.reviewNumPredict ?? Math.max(128, Math.min(384, Math.floor(numCtx / 8))),
    headingStarts,
    stats: { attempts: 0, llmCalls: 0 },
    budget: { factor: 0.9 },
  };
}

/** The tree as it is built: the nodes still to split, how many there were in all (for progress), the fallbacks. */
interface TreeRun {
  readonly ctx: SplitContext;
  readonly input: TreeSplitInput;
  readonly now: () => string;
  readonly root: SplitTreeNode;
  readonly queue: { node: SplitTreeNode; depth: number }[];
  /** Nodes queued so far (it grows as chapters are queued): the "of N" of progress messages. */
  nodeCount: number;
  /** The node being split, counted from 1. */
  nodeIndex: number;
  readonly fallbacks: { node: string; reason: string }[];
}

function fitsLeaf(tree: TreeRun, start: number, end: number): boolean {
  const { options, estimate, doc } = tree.ctx;
  const text = doc.text.slice(start, end);
  if (estimate(text) > options.leafTokens) return false;
  return options.leafLineLimit === undefined || nonBlankLineCount(text) <= options.leafLineLimit;
}

function storeAttempt(tree: TreeRun, node: SplitTreeNode, a: AttemptRecord): void {
  const { ctx, input } = tree;
  insertSplitAttempt(ctx.db, {
    ...a,
    runId: input.runId ?? null,
    documentId: ctx.documentId,
    nodeKey: `${node.start}-${node.end}`,
    nodePath: [...node.section.path],
    createdAt: tree.now(),
  });
}

/** One queued node: split by the model (its chapters become children), else cut by the deterministic splitter. */
async function splitQueuedNode(tree: TreeRun, { node, depth }: { node: SplitTreeNode; depth: number }): Promise<void> {
  const { options } = tree.ctx;
  const nodeIndex = ++tree.nodeIndex;
  if (depth >= options.maxDepth) {
    fallBack(tree, node, `depth limit ${options.maxDepth} reached with the chapter still over the leaf budget`, 1);
    return;
  }
  const progress = (attempt: number, message: string) =>
    tree.input.onProgress?.({
      node: nodeLabel(node),
      nodeIndex,
      nodeCount: tree.nodeCount,
      attempt,
      maxAttempts: options.maxAttempts,
      message: `tree split: node ${nodeIndex}/${tree.nodeCount}, attempt ${attempt}/${options.maxAttempts}, ${message}`,
    });
  const result = await splitOneNode(tree.ctx, node, progress, (a) => storeAttempt(tree, node, a));
  if (!result.ok) {
    fallBack(tree, node, result.reason, result.attemptsMade + 1);
    return;
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
    placeChild(tree, child, depth + 1);
  }
}

/** A chapter the model cut: a leaf when it fits, cut deterministically when only a little over, else queued for the model. */
function placeChild(tree: TreeRun, child: SplitTreeNode, depth: number): void {
  const { options, estimate, doc } = tree.ctx;
  if (fitsLeaf(tree, child.start, child.end)) child.isLeaf = true;
  else if (options.leafLineLimit === undefined && estimate(doc.text.slice(child.start, child.end)) <= options.leafTokens * options.llmMinLeafMultiple)
    cutDeterministically(tree, child);
  else {
    tree.queue.push({ node: child, depth });
    tree.nodeCount++;
  }
}

/** Leaves from the deterministic splitter under the node; returns the splitter used. */
function cutDeterministically(tree: TreeRun, node: SplitTreeNode): string {
  const { doc, options, estimate } = tree.ctx;
  const leaves = deterministicLeaves(doc, node.start, node.end, options.leafTokens, estimate);
  const kids = leaves.pieces.map<SplitTreeNode>((p) => ({
    title: p.title,
    section: { level: node.section.level, path: [...node.section.path] },
    start: p.start,
    end: p.end,
    origin: p.origin,
    isLeaf: true,
    overlapBefore: p.overlapBefore,
    children: [],
  }));
  if (kids.length <= 1 && node !== tree.root) node.isLeaf = true;
  else node.children = kids.length ? kids : [{ ...node, children: [], origin: 'sentence', isLeaf: true }];
  return leaves.strategy;
}

/** The model could not split the node (or may not go deeper): the deterministic splitter's leaves, with the reason kept. */
function fallBack(tree: TreeRun, node: SplitTreeNode, reason: string, attempt: number): void {
  const { options } = tree.ctx;
  const { nodeIndex, nodeCount } = tree;
  const strategy = cutDeterministically(tree, node);
  tree.fallbacks.push({ node: nodeLabel(node), reason });
  storeAttempt(tree, node, { attempt, chapters: [], review: null, validationErrors: [reason], diff: null, outcome: 'fallback', llmCallIds: [] });
  tree.input.onProgress?.({
    node: nodeLabel(node),
    nodeIndex,
    nodeCount,
    attempt: Math.min(attempt, options.maxAttempts),
    maxAttempts: options.maxAttempts,
    message: `tree split: node ${nodeIndex}/${nodeCount}, fallback to the ${strategy} splitter: ${reason}`,
  });
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
