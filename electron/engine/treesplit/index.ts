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
 */
import type { Database } from 'better-sqlite3';
import { pageAt } from '../../../shared/canonical';
import { AppError, ErrorCode, toErrorInfo } from '../../../shared/errors';
import type { ProposedChapter, SplitAttempt, SplitReview, TreeSplitProgress } from '../../../shared/treesplit';
import type { ChunkNode, ChunkOrigin, ExtractedDocument, Section, TextDiff } from '../../../shared/types';
import { buildChunkTree, detectHeadings, validateLeaves, type ChunkingOptions } from '../chunking';
import { lastLlmCallRowId, llmCallIdsAfter, type LlmClient } from '../llm';
import { ReviewReplySchema, SplitReplySchema, reviewMessages, splitMessages } from './prompts';
import { throwIfAborted } from '../util';
import { insertSplitAttempt } from './store';
import { validateChapters, type CutChapter } from './validate';
import { classifyLines, firstContentLine, isBlank, lineOffset, nodeText, nonBlankLineCount, renderView, VIEW_LEVELS, viewTokens, windowsOf, type NodeText } from './view';

export { listSplitAttempts, insertSplitAttempt } from './store';
export { validateChapters, cleanTitle, type CutChapter, type ChapterValidation } from './validate';
export { nodeText, renderView, classifyLines, windowsOf, VIEW_LEVELS, type NodeText, type ViewEntry, type ViewWindow, type ViewLevel } from './view';
export { SPLIT_INSTRUCTIONS, REVIEW_INSTRUCTIONS, SplitReplySchema, ReviewReplySchema, type SplitReply, type ReviewReply } from './prompts';

export interface TreeSplitOptions {
  /** Attempts per node; every failed validation, failed review or invalid reply counts. */
  maxAttempts: number;
  /** A chapter larger than this (estimated tokens) is split again. */
  leafTokens: number;
  /** Optional: also split chapters with more non-blank lines than this (PolicySynth used 15). */
  leafLineLimit?: number;
  /** Depth of LLM recursion below the input node; deeper oversized chapters fall back to the deterministic splitter. */
  maxDepth: number;
  /** Chapters with fewer non-blank characters merge into a neighbour. */
  minChapterChars: number;
  reviewEnabled: boolean;
  /** Lines shown before and after each proposed start in the review. */
  contextLines: number;
  /** The most detailed view whose tokens stay under this share of the node's tokens is used (cost control). */
  viewTokenRatio: number;
  /** Share of a window repeated at the start of the next one. */
  windowOverlapRatio: number;
  /** Reply room for a split call (default min(2048, numCtx/4)) and a review call (default 384). */
  splitNumPredict?: number;
  reviewNumPredict?: number;
  /** Most chapters asked for in one call. */
  maxChaptersPerCall: number;
  /**
   * Give up early when the model returns the same rejected split this many times in a row despite the feedback
   * (a temperature-0 model that repeats itself will not converge; on a local model each attempt costs minutes).
   * 0 disables the check.
   */
  maxIdenticalFailures: number;
}

export const DEFAULT_TREE_SPLIT_OPTIONS: TreeSplitOptions = {
  maxAttempts: 20,
  leafTokens: 1200,
  maxDepth: 4,
  minChapterChars: 200,
  reviewEnabled: true,
  contextLines: 3,
  viewTokenRatio: 0.18,
  windowOverlapRatio: 0.12,
  maxChaptersPerCall: 30,
  maxIdenticalFailures: 3,
};

export function resolveTreeSplitOptions(partial: Partial<TreeSplitOptions> = {}): TreeSplitOptions {
  const o: TreeSplitOptions = { ...DEFAULT_TREE_SPLIT_OPTIONS, ...Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) };
  const problems: string[] = [];
  for (const key of ['maxAttempts', 'leafTokens', 'maxDepth', 'maxChaptersPerCall'] as const) if (!Number.isInteger(o[key]) || o[key] < 1) problems.push(`${key} must be a positive integer`);
  for (const key of ['minChapterChars', 'contextLines', 'maxIdenticalFailures'] as const) if (!Number.isInteger(o[key]) || o[key] < 0) problems.push(`${key} must be a non-negative integer`);
  if (o.leafLineLimit !== undefined && (!Number.isInteger(o.leafLineLimit) || o.leafLineLimit < 1)) problems.push('leafLineLimit must be a positive integer');
  if (!(o.viewTokenRatio > 0)) problems.push('viewTokenRatio must be > 0');
  if (!(o.windowOverlapRatio >= 0 && o.windowOverlapRatio < 0.5)) problems.push('windowOverlapRatio must be in [0, 0.5)');
  if (problems.length > 0) throw new AppError(ErrorCode.INVALID_INPUT, `Invalid tree split options: ${problems.join('; ')}.`);
  return o;
}

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

interface TNode {
  title: string;
  section: Section;
  start: number;
  end: number;
  origin: ChunkOrigin;
  isLeaf: boolean;
  overlapBefore: number;
  children: TNode[];
}

/** How many times a prompt that did not fit is made smaller before the node falls back. */
const MAX_SHRINKS = 6;
/** Review lines are clipped: the start and its surroundings decide, not whole paragraphs. */
const REVIEW_LINE_CHARS = 60;

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
  const splitNumPredict = options.splitNumPredict ?? Math.max(256, Math.min(2048, Math.floor(numCtx / 4)));
  const reviewNumPredict = options.reviewNumPredict ?? Math.max(128, Math.min(384, Math.floor(numCtx / 8)));
  const headingStarts = new Set<number>();
  try {
    for (const h of detectHeadings(doc).headings) headingStarts.add(h.start);
  } catch {
    // Heading candidates only enrich the view.
  }

  const stats = { attempts: 0, llmCalls: 0 };
  const fallbacks: { node: string; reason: string }[] = [];
  let budgetFactor = 0.9;

  const whole = range.start === 0 && range.end === doc.text.length;
  const root: TNode = {
    title: input.rootTitle ?? (doc.metadata.title?.trim() || doc.fileName),
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
  const label = (n: TNode): string => (n.section.path.length ? n.section.path.join(' / ') : n.title);

  const queue: { node: TNode; depth: number }[] = [];
  let nodeCount = 0;
  if (root.end > root.start) {
    if (fitsLeaf(root.start, root.end)) {
      root.children.push({ ...root, children: [], origin: 'sentence', isLeaf: true });
    } else {
      queue.push({ node: root, depth: 0 });
      nodeCount = 1;
    }
  }

  const store = (node: TNode, a: Omit<SplitAttempt, 'runId' | 'documentId' | 'nodeKey' | 'nodePath' | 'createdAt'>) =>
    insertSplitAttempt(db, { ...a, runId: input.runId ?? null, documentId, nodeKey: `${node.start}-${node.end}`, nodePath: [...node.section.path], createdAt: now() });

  const fallBack = (node: TNode, reason: string, attempt: number, nodeIndex: number) => {
    const leaves = deterministicLeaves(doc, node.start, node.end, options.leafTokens, estimate);
    fallbacks.push({ node: label(node), reason });
    store(node, { attempt, chapters: [], review: null, validationErrors: [reason], diff: null, outcome: 'fallback', llmCallIds: [] });
    input.onProgress?.({ node: label(node), nodeIndex, nodeCount, attempt: Math.min(attempt, options.maxAttempts), maxAttempts: options.maxAttempts, message: `tree split: node ${nodeIndex}/${nodeCount}, fallback to the ${leaves.strategy} splitter: ${reason}` });
    const kids = leaves.pieces.map<TNode>((p) => ({ title: p.title, section: { level: node.section.level, path: [...node.section.path] }, start: p.start, end: p.end, origin: p.origin, isLeaf: true, overlapBefore: p.overlapBefore, children: [] }));
    if (kids.length <= 1 && node !== root) node.isLeaf = true;
    else node.children = kids.length ? kids : [{ ...node, children: [], origin: 'sentence', isLeaf: true }];
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
      input.onProgress?.({ node: label(node), nodeIndex, nodeCount, attempt, maxAttempts: options.maxAttempts, message: `tree split: node ${nodeIndex}/${nodeCount}, attempt ${attempt}/${options.maxAttempts}, ${message}` });
    const result = await splitOneNode(node, progress);
    if (!result.ok) {
      fallBack(node, result.reason, result.attemptsMade + 1, nodeIndex);
      continue;
    }
    for (const c of result.chapters) {
      const child: TNode = {
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
      else {
        queue.push({ node: child, depth: depth + 1 });
        nodeCount++;
      }
    }
  }

  return { nodes: flatten(doc, root, estimate), attempts: stats.attempts, fallbacks, llmCalls: stats.llmCalls };

  // ------------------------------------------------------------ one node

  async function splitOneNode(
    node: TNode,
    progress: (attempt: number, message: string) => void,
  ): Promise<{ ok: true; chapters: CutChapter[] } | { ok: false; reason: string; attemptsMade: number }> {
    const nt = nodeText(doc.text, node.start, node.end);
    const kinds = classifyLines(nt, headingStarts);
    const nodeTokens = estimate(nt.text);
    let feedback: string | null = null;
    let lastProblem = '';
    let lastFailure = '';
    let identicalFailures = 0;
    /** Counts a rejected proposal; true when the model has repeated the same one too often to go on. */
    const repeated = (chapters: readonly ProposedChapter[], problem: string): boolean => {
      const signature = JSON.stringify([chapters.map((c) => [c.chapterStartLineNumber, c.chapterTitle]), problem]);
      identicalFailures = signature === lastFailure ? identicalFailures + 1 : 1;
      lastFailure = signature;
      return options.maxIdenticalFailures > 0 && identicalFailures >= options.maxIdenticalFailures;
    };
    const givingUp = (attempt: number) => ({
      ok: false as const,
      reason: `the model returned the same rejected split ${identicalFailures} times in a row (last: ${lastProblem})`,
      attemptsMade: attempt,
    });
    for (let attempt = 1; attempt <= options.maxAttempts; attempt++) {
      throwIfAborted(input.signal);
      stats.attempts++;
      const before = lastLlmCallRowId(db);
      const callIds = () => llmCallIdsAfter(db, before, { documentId, purposes: ['split', 'review'] });
      progress(attempt, 'asking for chapters');
      let proposal: { chapters: ProposedChapter[]; windowErrors: string[] };
      try {
        proposal = await propose(node, nt, kinds, nodeTokens, attempt, feedback);
      } catch (error) {
        const handled = replyProblem(error);
        if (handled === 'overflow') return { ok: false, reason: `the prompt does not fit the context even in small windows: ${toErrorInfo(error).message}`, attemptsMade: attempt - 1 };
        lastProblem = `invalid reply: ${handled}`;
        store(node, { attempt, chapters: [], review: null, validationErrors: [lastProblem], diff: null, outcome: 'invalid_reply', llmCallIds: callIds() });
        progress(attempt, lastProblem);
        feedback = feedbackText(attempt, options.maxAttempts, [], [lastProblem + '. Reply with only the JSON of the requested shape, with fewer chapters if the reply was too long.'], null, null);
        continue;
      }
      const validation = validateChapters(nt, proposal.chapters, { minChapterChars: options.minChapterChars });
      const errors = [...proposal.windowErrors, ...(validation.ok ? [] : validation.errors)];
      if (errors.length > 0) {
        const diff: TextDiff | null = validation.ok ? null : validation.diff;
        lastProblem = `validation failed: ${errors[0]}`;
        store(node, { attempt, chapters: proposal.chapters, review: null, validationErrors: errors, diff, outcome: 'validation_failed', llmCallIds: callIds() });
        progress(attempt, lastProblem);
        if (repeated(proposal.chapters, lastProblem)) return givingUp(attempt);
        feedback = feedbackText(attempt, options.maxAttempts, proposal.chapters, errors, diff, null);
        continue;
      }
      const chapters = (validation as { chapters: CutChapter[] }).chapters;
      let review: SplitReview | null = null;
      if (options.reviewEnabled) {
        try {
          review = await reviewSplit(node, nt, chapters, attempt);
        } catch (error) {
          const handled = replyProblem(error);
          if (handled === 'overflow') return { ok: false, reason: `the review prompt does not fit the context: ${toErrorInfo(error).message}`, attemptsMade: attempt - 1 };
          lastProblem = `invalid review reply: ${handled}`;
          store(node, { attempt, chapters: proposal.chapters, review: null, validationErrors: [lastProblem], diff: null, outcome: 'invalid_reply', llmCallIds: callIds() });
          progress(attempt, lastProblem);
          continue;
        }
        if (!review.passes) {
          lastProblem = `review failed: ${clipText(review.comments, 160) || '(no comments)'}`;
          store(node, { attempt, chapters: proposal.chapters, review, validationErrors: [], diff: null, outcome: 'review_failed', llmCallIds: callIds() });
          progress(attempt, lastProblem);
          if (repeated(proposal.chapters, lastProblem)) return givingUp(attempt);
          feedback = feedbackText(attempt, options.maxAttempts, proposal.chapters, [], null, review.comments);
          continue;
        }
      }
      store(node, { attempt, chapters: proposal.chapters, review, validationErrors: validation.ok ? validation.notes.map((n) => `note: ${n}`) : [], diff: null, outcome: 'accepted', llmCallIds: callIds() });
      progress(attempt, `accepted ${chapters.length} chapters`);
      return { ok: true, chapters };
    }
    return { ok: false, reason: `no valid split after ${options.maxAttempts} attempts (last: ${lastProblem})`, attemptsMade: options.maxAttempts };
  }

  /** 'overflow' when the prompt cannot be made to fit; otherwise a message for a reply problem; anything else is rethrown. */
  function replyProblem(error: unknown): string {
    if (error instanceof AppError) {
      if (error.code === ErrorCode.LLM_INVALID_REPLY || error.code === ErrorCode.LLM_REPLY_CUT) return error.message;
      if (error.code === ErrorCode.LLM_CONTEXT_OVERFLOW || error.code === ErrorCode.LLM_TRUNCATED_PROMPT) return 'overflow';
    }
    throw error;
  }

  /** Calls the LLM (in windows when needed); shrinks and retries when a prompt did not fit after all. */
  async function propose(node: TNode, nt: NodeText, kinds: ReturnType<typeof classifyLines>, nodeTokens: number, attempt: number, feedback: string | null) {
    for (let shrink = 0; ; shrink++) {
      try {
        return await proposeOnce(node, nt, kinds, nodeTokens, attempt, feedback);
      } catch (error) {
        const overflow = error instanceof AppError && (error.code === ErrorCode.LLM_CONTEXT_OVERFLOW || error.code === ErrorCode.LLM_TRUNCATED_PROMPT);
        if (!overflow || shrink >= MAX_SHRINKS) throw error;
        budgetFactor *= 0.7;
      }
    }
  }

  async function proposeOnce(node: TNode, nt: NodeText, kinds: ReturnType<typeof classifyLines>, nodeTokens: number, attempt: number, feedback: string | null) {
    const lineCount = nt.lines.length;
    // The whole node's chapter count (windows ask for their share); sized below the leaf budget so most chapters need no further split.
    const perCall = Math.max(2, Math.min(options.maxChaptersPerCall, Math.floor(splitNumPredict / 64)));
    // A balanced tree: as many levels as needed at perCall chapters each, the same fan-out at every level (fewest calls and views).
    const leavesNeeded = Math.max(2, nodeTokens / (options.leafTokens * 0.75));
    const levelsNeeded = Math.max(1, Math.ceil(Math.log(leavesNeeded) / Math.log(perCall) - 1e-9));
    const wanted = Math.max(2, Math.ceil(leavesNeeded ** (1 / levelsNeeded)));
    const header = (extra: string, want = Math.min(wanted, perCall)) =>
      [
        `Node: "${label(node)}", lines 1-${lineCount}, about ${nodeTokens} tokens. Propose about ${want} chapters.`,
        extra,
        feedback ?? `Attempt ${attempt} of ${options.maxAttempts}.`,
      ]
        .filter(Boolean)
        .join('\n');
    // Room for the view: what is left of num_ctx after the instructions, the per-call context (with a window note) and the reply.
    const probe = splitMessages({ context: header('Part 10 of 10: give only chapters that start at lines 100000 to 100000; the lines before belong to chapters found in earlier parts.'), view: '', documentId });
    const fixed = llm.estimator.estimateMessages([{ role: 'system', content: probe.system }, { role: 'user', content: probe.user }], model);
    const budget = Math.floor((numCtx - splitNumPredict - fixed - Math.ceil(numCtx * 0.04) - 32) * budgetFactor);
    if (budget < 64) throw new AppError(ErrorCode.LLM_CONTEXT_OVERFLOW, `num_ctx ${numCtx} leaves no room for the text after the instructions and the reply.`);
    const levels = VIEW_LEVELS.map((level) => renderView(nt, kinds, level, estimate));
    const cap = Math.max(nodeTokens * options.viewTokenRatio, 200);
    const chosen =
      levels.find((e) => viewTokens(e) <= Math.min(budget, cap)) ?? levels.find((e) => viewTokens(e) <= budget) ?? levels[levels.length - 1]!;
    const windows = windowsOf(chosen, budget, lineCount, options.windowOverlapRatio);

    const chapters: ProposedChapter[] = [];
    const windowErrors: string[] = [];
    for (const [k, w] of windows.entries()) {
      const note =
        windows.length === 1
          ? ''
          : `Part ${k + 1} of ${windows.length} of this text (lines ${w.firstLine}-${w.lastLine} shown): give only chapters that start at lines ${w.authoritativeFrom} to ${w.authoritativeTo - 1}${k > 0 ? '; the lines before belong to chapters found in earlier parts, so the first line shown need not start a chapter; return an empty list if no chapter starts there' : ''}.`;
      // A window asks for its share of the chapters, by the share of the text it is authoritative for.
      const share = windows.length === 1 ? 1 : (lineOffset(nt, w.authoritativeTo) - lineOffset(nt, w.authoritativeFrom)) / Math.max(1, nt.end - nt.start);
      const want = Math.max(1, Math.min(perCall, Math.round(wanted * share)));
      const { system, user } = splitMessages({ context: header(note, want), view: w.entries.map((e) => e.text).join('\n'), documentId });
      stats.llmCalls++;
      const r = await llm.chatJson({
        purpose: 'split',
        model,
        schema: SplitReplySchema,
        system,
        user,
        numCtx,
        numPredict: splitNumPredict,
        runId: input.runId ?? null,
        documentId,
        chunkRef: `split:${node.start}-${node.end}${windows.length > 1 ? `#${k + 1}` : ''}`,
        ...(input.signal ? { signal: input.signal } : {}),
      });
      const kept = windows.length === 1 ? r.value.chapters : r.value.chapters.filter((c) => c.chapterStartLineNumber >= w.authoritativeFrom && c.chapterStartLineNumber < w.authoritativeTo);
      if (windows.length > 1) {
        r.value.chapters.forEach((c, i) => {
          if (c.chapterStartLineNumber < w.firstLine || c.chapterStartLineNumber > w.lastLine) {
            windowErrors.push(`part ${k + 1}: chapter ${i + 1} starts at line ${c.chapterStartLineNumber}, outside the lines shown in this part (${w.firstLine}-${w.lastLine})`);
          }
        });
      }
      // Renumber across windows; context references stay within the window that made them.
      const offset = chapters.length;
      const localToGlobal = new Map(kept.map((c, i) => [c.chapterIndex, offset + i + 1]));
      for (const c of kept) {
        chapters.push({
          chapterIndex: localToGlobal.get(c.chapterIndex)!,
          chapterTitle: c.chapterTitle,
          chapterStartLineNumber: c.chapterStartLineNumber,
          importantContextChapterIndexes: c.importantContextChapterIndexes.map((i) => localToGlobal.get(i)).filter((i): i is number => i !== undefined),
        });
      }
    }
    return { chapters, windowErrors };
  }

  async function reviewSplit(node: TNode, nt: NodeText, chapters: readonly CutChapter[], attempt: number): Promise<SplitReview> {
    const blocks = chapters.map((c, i) => {
      const from = Math.max(1, c.startLine - options.contextLines);
      const to = Math.min(nt.lines.length, c.startLine + options.contextLines);
      const lines: string[] = [`Chapter ${i + 1} "${c.title}" starts at line ${c.startLine}:`];
      for (let n = from; n <= to; n++) {
        const line = nt.lines[n - 1]!;
        lines.push(`${n === c.startLine ? '>' : ' '}${n}|${isBlank(line) ? '' : clipText(line, REVIEW_LINE_CHARS)}`);
      }
      const text = lines.join('\n');
      return { text, tokens: estimate(`${text}\n`) };
    });
    for (let shrink = 0; ; shrink++) {
      const context = (k: number, n: number, a: number, b: number) =>
        `Proposal ${attempt} for "${label(node)}" (${nt.lines.length} lines): ${chapters.length} chapters${n > 1 ? `; part ${k} of ${n} shows chapters ${a}-${b}` : ''}.`;
      const probe = reviewMessages({ context: context(99, 99, 999, 999), view: '', documentId });
      const fixed = llm.estimator.estimateMessages([{ role: 'system', content: probe.system }, { role: 'user', content: probe.user }], model);
      const budget = Math.floor((numCtx - reviewNumPredict - fixed - Math.ceil(numCtx * 0.04) - 32) * budgetFactor);
      const batches: { from: number; to: number }[] = [];
      for (let i = 0; i < blocks.length; ) {
        let j = i;
        let used = 0;
        while (j < blocks.length && (j === i || used + blocks[j]!.tokens <= budget)) used += blocks[j++]!.tokens;
        batches.push({ from: i, to: j });
        i = j;
      }
      try {
        const comments: string[] = [];
        let passes = true;
        for (const [k, b] of batches.entries()) {
          const { system, user } = reviewMessages({
            context: context(k + 1, batches.length, b.from + 1, b.to),
            view: blocks.slice(b.from, b.to).map((x) => x.text).join('\n\n'),
            documentId,
          });
          stats.llmCalls++;
          const r = await llm.chatJson({
            purpose: 'review',
            model,
            schema: ReviewReplySchema,
            system,
            user,
            numCtx,
            numPredict: reviewNumPredict,
            runId: input.runId ?? null,
            documentId,
            chunkRef: `review:${node.start}-${node.end}`,
            ...(input.signal ? { signal: input.signal } : {}),
          });
          // Only the boolean decides; the wording of the comments never does.
          if (r.value.passes !== true) passes = false;
          if (r.value.comments.trim()) comments.push(batches.length > 1 ? `(chapters ${b.from + 1}-${b.to}) ${r.value.comments.trim()}` : r.value.comments.trim());
        }
        return { passes, comments: comments.join('\n') };
      } catch (error) {
        const overflow = error instanceof AppError && (error.code === ErrorCode.LLM_CONTEXT_OVERFLOW || error.code === ErrorCode.LLM_TRUNCATED_PROMPT);
        if (!overflow || shrink >= MAX_SHRINKS) throw error;
        budgetFactor *= 0.7;
      }
    }
  }
}

function clipText(s: string, chars: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= chars ? t : `${t.slice(0, chars).trimEnd()}…`;
}

/** What the next attempt is told: the previous starts, the errors, the diff and the review comments. */
export function feedbackText(attempt: number, maxAttempts: number, previous: readonly ProposedChapter[], errors: readonly string[], diff: TextDiff | null, reviewComments: string | null): string {
  const lines = [`Attempt ${attempt + 1} of ${maxAttempts}. Your previous proposal (attempt ${attempt}) was rejected.`];
  if (previous.length > 0) {
    const starts = previous.slice(0, 60).map((c) => c.chapterStartLineNumber).join(', ');
    lines.push(`Its chapter start lines were: ${starts}${previous.length > 60 ? ', ...' : ''}.`);
  }
  if (errors.length > 0) lines.push('Problems:', ...errors.slice(0, 10).map((e) => `- ${e}`));
  if (diff) lines.push(`First difference between the text and the joined chapters: expected "${clipText(diff.expectedContext, 160)}" but got "${clipText(diff.actualContext, 160)}".`);
  if (reviewComments !== null) lines.push(`Reviewer comments: ${clipText(reviewComments, 1500) || '(none)'}`);
  lines.push('Propose a corrected split.');
  return lines.join('\n');
}

// ------------------------------------------------------------ deterministic fallback

interface FallbackPiece {
  start: number;
  end: number;
  title: string;
  origin: ChunkOrigin;
  overlapBefore: number;
}

/** The range as a document of its own, for the deterministic splitter. */
function subDocument(doc: ExtractedDocument, start: number, end: number): ExtractedDocument {
  const pages = doc.pages
    .map((p) => ({ ...p, start: Math.max(p.start, start) - start, end: Math.min(p.end, end) - start }))
    .filter((p) => p.end > p.start);
  const lines = doc.lines.filter((l) => l.start >= start && l.end <= end).map((l) => ({ ...l, start: l.start - start, end: l.end - start }));
  return { ...doc, text: doc.text.slice(start, end), pages, lines, outline: [], pageCount: pages.length };
}

function fallbackOptions(leafTokens: number, estimateTokens: (t: string) => number): Partial<ChunkingOptions> {
  const maxChars = Math.max(64, Math.floor(leafTokens * 3.5));
  const preferredChars = Math.max(32, Math.floor(maxChars * 0.75));
  const minChars = Math.max(1, Math.min(500, Math.floor(preferredChars / 3)));
  const maxTokens = Math.max(3, leafTokens);
  const preferredTokens = Math.max(2, Math.floor(maxTokens * 0.75));
  return {
    estimateTokens,
    maxChars,
    preferredChars,
    minChars,
    maxTokens,
    preferredTokens,
    minTokens: Math.max(1, Math.min(preferredTokens, Math.floor(maxTokens / 4))),
    overlapChars: 0,
    pageMaxChars: Math.max(1, Math.min(4000, maxChars - 3)),
    pageOverlapChars: 0,
  };
}

/** Pages when the range spans several, else sentences; whichever first partitions the range exactly. */
export function deterministicLeaves(doc: ExtractedDocument, start: number, end: number, leafTokens: number, estimateTokens: (t: string) => number): { strategy: 'pages' | 'sentences'; pieces: FallbackPiece[] } {
  const sub = subDocument(doc, start, end);
  const strategies: ('pages' | 'sentences')[] = sub.pages.length > 1 ? ['pages', 'sentences'] : ['sentences'];
  for (const strategy of strategies) {
    try {
      const tree = buildChunkTree(sub, { ...fallbackOptions(leafTokens, estimateTokens), strategy });
      const leaves = tree.nodes.filter((n) => n.isLeaf);
      if (leaves.length === 0 || !validateLeaves(sub.text, leaves).ok) continue;
      return { strategy, pieces: leaves.map((l) => ({ start: l.start + start, end: l.end + start, title: l.title, origin: l.origin, overlapBefore: l.overlapBefore })) };
    } catch {
      // try the next strategy
    }
  }
  throw new AppError(ErrorCode.SPLIT_VALIDATION_FAILED, `The deterministic splitter could not partition [${start}, ${end}) either.`);
}

// ------------------------------------------------------------ assembly

function flatten(doc: ExtractedDocument, root: TNode, estimate: (t: string) => number): ChunkNode[] {
  const nodes: ChunkNode[] = [];
  const visit = (n: TNode, parentIndex: number | null) => {
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

export { firstContentLine };
