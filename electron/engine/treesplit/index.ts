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
import { chatJsonPrompt, jsonPromptMessages, lastLlmCallRowId, llmCallIdsAfter, type LlmClient } from '../llm';
import { reviewPrompt, splitPrompt } from './prompts';
import { throwIfAborted } from '../util';
import { insertSplitAttempt } from './store';
import { validateChapters, type CutChapter } from './validate';
import { classifyLines, firstContentLine, isBlank, lineOffset, nodeText, nonBlankLineCount, renderView, VIEW_LEVELS, viewTokens, windowsOf, type NodeText, type ViewWindow } from './view';

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
  /**
   * A chapter over the leaf budget but under this many times it is cut by the deterministic splitter instead of
   * another LLM call: that call (instructions, view, review) would cost about as many prompt tokens as the chapter
   * has, to place one or two cuts.
   */
  llmMinLeafMultiple: number;
}

export const DEFAULT_TREE_SPLIT_OPTIONS: TreeSplitOptions = {
  maxAttempts: 20,
  leafTokens: 1200,
  maxDepth: 4,
  minChapterChars: 200,
  reviewEnabled: true,
  contextLines: 2,
  viewTokenRatio: 0.18,
  windowOverlapRatio: 0.12,
  maxChaptersPerCall: 30,
  maxIdenticalFailures: 2,
  llmMinLeafMultiple: 2,
};

export function resolveTreeSplitOptions(partial: Partial<TreeSplitOptions> = {}): TreeSplitOptions {
  const o: TreeSplitOptions = { ...DEFAULT_TREE_SPLIT_OPTIONS, ...Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) };
  const problems: string[] = [];
  for (const key of ['maxAttempts', 'leafTokens', 'maxDepth', 'maxChaptersPerCall'] as const) if (!Number.isInteger(o[key]) || o[key] < 1) problems.push(`${key} must be a positive integer`);
  for (const key of ['minChapterChars', 'contextLines', 'maxIdenticalFailures'] as const) if (!Number.isInteger(o[key]) || o[key] < 0) problems.push(`${key} must be a non-negative integer`);
  if (o.leafLineLimit !== undefined && (!Number.isInteger(o.leafLineLimit) || o.leafLineLimit < 1)) problems.push('leafLineLimit must be a positive integer');
  if (!(o.viewTokenRatio > 0)) problems.push('viewTokenRatio must be > 0');
  if (!(o.llmMinLeafMultiple >= 1)) problems.push('llmMinLeafMultiple must be >= 1');
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

/** One window of a node's view, with what the model answered for it so far. */
interface WindowState extends ViewWindow {
  /** Shown line number = line - base (each part is numbered from 1). */
  base: number;
  /** Chapters asked for in this window. */
  want: number;
  /** Accepted starts (absolute line numbers of the node), or null while the window still needs an answer. */
  chapters: ProposedChapter[] | null;
  /** The last answer as the model gave it, for its feedback. */
  localChapters: ProposedChapter[];
  feedback: string | null;
  /** After a reply cut at the length limit: ask for the top-level chapters only. */
  topLevelOnly: boolean;
  cuts: number;
}

interface WindowPlan {
  windows: WindowState[];
  perCall: number;
  nodeTokens: number;
  lineCount: number;
}

interface WindowAnswer {
  /** As answered, in the node's line numbers, and as the model numbered them. */
  raw: ProposedChapter[];
  rawLocal: ProposedChapter[];
  /** The starts this window is authoritative for. */
  kept: ProposedChapter[];
  errors: string[];
  notes: string[];
}

interface ReviewOutcome extends SplitReview {
  /** Indexes of the chapters in review parts that did not pass. */
  failedChapters: number[];
}

/** Feedback is clipped to this, and its room is reserved when the windows are planned, so their bounds never move. */
const FEEDBACK_MAX_CHARS = 1200;
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

  /** Leaves from the deterministic splitter under the node; returns the splitter used. */
  const cutDeterministically = (node: TNode): string => {
    const leaves = deterministicLeaves(doc, node.start, node.end, options.leafTokens, estimate);
    const kids = leaves.pieces.map<TNode>((p) => ({ title: p.title, section: { level: node.section.level, path: [...node.section.path] }, start: p.start, end: p.end, origin: p.origin, isLeaf: true, overlapBefore: p.overlapBefore, children: [] }));
    if (kids.length <= 1 && node !== root) node.isLeaf = true;
    else node.children = kids.length ? kids : [{ ...node, children: [], origin: 'sentence', isLeaf: true }];
    return leaves.strategy;
  };
  const fallBack = (node: TNode, reason: string, attempt: number, nodeIndex: number) => {
    const strategy = cutDeterministically(node);
    fallbacks.push({ node: label(node), reason });
    store(node, { attempt, chapters: [], review: null, validationErrors: [reason], diff: null, outcome: 'fallback', llmCallIds: [] });
    input.onProgress?.({ node: label(node), nodeIndex, nodeCount, attempt: Math.min(attempt, options.maxAttempts), maxAttempts: options.maxAttempts, message: `tree split: node ${nodeIndex}/${nodeCount}, fallback to the ${strategy} splitter: ${reason}` });
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
      else if (options.leafLineLimit === undefined && estimate(doc.text.slice(child.start, child.end)) <= options.leafTokens * options.llmMinLeafMultiple) cutDeterministically(child);
      else {
        queue.push({ node: child, depth: depth + 1 });
        nodeCount++;
      }
    }
  }

  return { nodes: flatten(doc, root, estimate), attempts: stats.attempts, fallbacks, llmCalls: stats.llmCalls };

  // ------------------------------------------------------------ one node

  /**
   * One node, in attempts. The node's windows are planned once and keep their
   * bounds; an attempt asks only the windows without an accepted answer, each
   * with its own feedback. A window's answer is checked on its own (starts
   * outside its lines are dropped with a note); the joined answer is then
   * validated and reviewed as a whole, and a failure there sends back only
   * the windows it concerns. Any failure repeated identically gives up early.
   */
  async function splitOneNode(
    node: TNode,
    progress: (attempt: number, message: string) => void,
  ): Promise<{ ok: true; chapters: CutChapter[] } | { ok: false; reason: string; attemptsMade: number }> {
    const nt = nodeText(doc.text, node.start, node.end);
    const kinds = classifyLines(nt, headingStarts);
    const nodeTokens = estimate(nt.text);
    let plan: WindowPlan;
    try {
      plan = planWindows(node, nt, kinds, nodeTokens);
    } catch (error) {
      if (replyProblem(error) === 'overflow') return { ok: false, reason: `the prompt does not fit the context even in small windows: ${toErrorInfo(error).message}`, attemptsMade: 0 };
      throw error;
    }
    let lastProblem = '';
    let shrinks = 0;
    const failures = new Map<string, { signature: string; count: number }>();
    /** Counts a failure at `where` (a window or the node); true when the same one came back too often to go on. */
    const repeated = (where: string, signature: string): boolean => {
      const previous = failures.get(where);
      const count = previous?.signature === signature ? previous.count + 1 : 1;
      failures.set(where, { signature, count });
      return options.maxIdenticalFailures > 0 && count >= options.maxIdenticalFailures;
    };
    const givingUp = (attempt: number) => ({
      ok: false as const,
      reason: `the model returned the same rejected answer ${options.maxIdenticalFailures} times in a row (last: ${lastProblem})`,
      attemptsMade: attempt,
    });

    for (let attempt = 1; attempt <= options.maxAttempts; attempt++) {
      throwIfAborted(input.signal);
      stats.attempts++;
      const before = lastLlmCallRowId(db);
      const callIds = () => llmCallIdsAfter(db, before, { documentId, purposes: ['split', 'review'] });
      progress(attempt, plan.windows.some((w) => w.chapters === null) ? 'asking for chapters' : 'checking the answer again');

      // 1. The windows without an accepted answer, each on its own.
      const errors: string[] = [];
      const notes: string[] = [];
      const proposed: ProposedChapter[] = [];
      let onlyReplyProblems = true;
      for (const [k, w] of [...plan.windows.entries()]) {
        if (w.chapters !== null) continue;
        const where = `part ${k + 1}`;
        let answer: WindowAnswer;
        try {
          answer = await askWindow(node, nt, plan, w, attempt);
        } catch (error) {
          const handled = replyProblem(error);
          if (handled === 'overflow') {
            // The estimate was short: every window is made smaller (new bounds), up to MAX_SHRINKS times.
            if (++shrinks > MAX_SHRINKS) return { ok: false, reason: `the prompt does not fit the context even in small windows: ${toErrorInfo(error).message}`, attemptsMade: attempt - 1 };
            budgetFactor *= 0.7;
            plan = planWindows(node, nt, kinds, nodeTokens);
            errors.push(`the prompt did not fit the context: the text is shown in smaller parts`);
            break;
          }
          const cut = error instanceof AppError && error.code === ErrorCode.LLM_REPLY_CUT;
          const problem = `${plan.windows.length > 1 ? `${where}: ` : ''}invalid reply: ${handled}`;
          errors.push(problem);
          // A cut reply is never asked for again as it was: top-level chapters only, then half the window.
          const next = cut && shrinkAfterCut(plan, w);
          w.feedback = feedbackText(attempt, options.maxAttempts, [], [`${problem}. Reply with only the JSON of the requested shape${cut ? ', with fewer chapters' : ''}.`], null, null);
          if (!next && repeated(where, problem)) {
            lastProblem = problem;
            store(node, { attempt, chapters: proposed, review: null, validationErrors: errors, diff: null, outcome: 'invalid_reply', llmCallIds: callIds() });
            return givingUp(attempt);
          }
          continue;
        }
        proposed.push(...answer.raw);
        notes.push(...answer.notes);
        if (answer.errors.length > 0) {
          onlyReplyProblems = false;
          errors.push(...answer.errors.map((e) => (plan.windows.length > 1 ? `${where}: ${e}` : e)));
          w.feedback = feedbackText(attempt, options.maxAttempts, answer.rawLocal, answer.errors, null, null);
          if (repeated(where, JSON.stringify([answer.rawLocal.map((c) => [c.chapterStartLineNumber, c.chapterTitle]), answer.errors]))) {
            lastProblem = `validation failed: ${errors[0]}`;
            store(node, { attempt, chapters: proposed, review: null, validationErrors: errors, diff: null, outcome: 'validation_failed', llmCallIds: callIds() });
            return givingUp(attempt);
          }
          continue;
        }
        w.chapters = answer.kept;
        w.localChapters = answer.rawLocal;
        failures.delete(where);
      }
      if (errors.length > 0) {
        lastProblem = `${onlyReplyProblems ? '' : 'validation failed: '}${errors[0]}`;
        store(node, { attempt, chapters: proposed, review: null, validationErrors: [...errors, ...notes.map((n) => `note: ${n}`)], diff: null, outcome: onlyReplyProblems ? 'invalid_reply' : 'validation_failed', llmCallIds: callIds() });
        progress(attempt, lastProblem);
        continue;
      }

      // 2. The joined answer, validated as a whole.
      const joined = joinWindows(nt, plan);
      notes.push(...joined.notes);
      const validation = validateChapters(nt, joined.chapters, { minChapterChars: options.minChapterChars });
      if (!validation.ok) {
        lastProblem = `validation failed: ${validation.errors[0]}`;
        store(node, { attempt, chapters: joined.chapters, review: null, validationErrors: validation.errors, diff: validation.diff, outcome: 'validation_failed', llmCallIds: callIds() });
        progress(attempt, lastProblem);
        if (repeated('node', JSON.stringify([joined.chapters.map((c) => c.chapterStartLineNumber), validation.errors]))) return givingUp(attempt);
        for (const w of plan.windows) sendBack(w, attempt, validation.errors, validation.diff, null);
        continue;
      }
      const chapters = validation.chapters;

      // 3. The review; a failing part sends back the windows whose chapters it covers.
      let review: SplitReview | null = null;
      if (options.reviewEnabled) {
        let reviewed: ReviewOutcome;
        try {
          reviewed = await reviewSplit(node, nt, chapters, attempt);
        } catch (error) {
          const handled = replyProblem(error);
          if (handled === 'overflow') return { ok: false, reason: `the review prompt does not fit the context: ${toErrorInfo(error).message}`, attemptsMade: attempt - 1 };
          lastProblem = `invalid review reply: ${handled}`;
          store(node, { attempt, chapters: joined.chapters, review: null, validationErrors: [lastProblem], diff: null, outcome: 'invalid_reply', llmCallIds: callIds() });
          progress(attempt, lastProblem);
          if (repeated('review', lastProblem)) return givingUp(attempt);
          continue;
        }
        review = { passes: reviewed.passes, comments: reviewed.comments };
        if (!reviewed.passes) {
          lastProblem = `review failed: ${clipText(reviewed.comments, 160) || '(no comments)'}`;
          store(node, { attempt, chapters: joined.chapters, review, validationErrors: [], diff: null, outcome: 'review_failed', llmCallIds: callIds() });
          progress(attempt, lastProblem);
          if (repeated('review', JSON.stringify([joined.chapters.map((c) => c.chapterStartLineNumber), reviewed.comments]))) return givingUp(attempt);
          const failedLines = reviewed.failedChapters.map((i) => chapters[i]!.startLine);
          for (const w of plan.windows) {
            if (failedLines.some((line) => line >= w.authoritativeFrom && line < w.authoritativeTo)) sendBack(w, attempt, [], null, reviewed.comments);
          }
          continue;
        }
      }
      store(node, { attempt, chapters: joined.chapters, review, validationErrors: [...notes, ...validation.notes].map((n) => `note: ${n}`), diff: null, outcome: 'accepted', llmCallIds: callIds() });
      progress(attempt, `accepted ${chapters.length} chapters`);
      return { ok: true, chapters };
    }
    return { ok: false, reason: `no valid split after ${options.maxAttempts} attempts (last: ${lastProblem})`, attemptsMade: options.maxAttempts };
  }

  /** A window's accepted answer is withdrawn and asked again with this feedback. */
  function sendBack(w: WindowState, attempt: number, errors: readonly string[], diff: TextDiff | null, reviewComments: string | null): void {
    w.feedback = feedbackText(attempt, options.maxAttempts, w.localChapters, errors, diff, reviewComments);
    w.chapters = null;
  }

  /** 'overflow' when the prompt cannot be made to fit; otherwise a message for a reply problem; anything else is rethrown. */
  function replyProblem(error: unknown): string {
    if (error instanceof AppError) {
      if (error.code === ErrorCode.LLM_INVALID_REPLY || error.code === ErrorCode.LLM_REPLY_CUT) return error.message;
      if (error.code === ErrorCode.LLM_CONTEXT_OVERFLOW || error.code === ErrorCode.LLM_TRUNCATED_PROMPT) return 'overflow';
    }
    throw error;
  }

  /**
   * The node's windows, planned once (their bounds stay put between attempts):
   * the most detailed view under the cost cap (else the most compact one), cut
   * into windows that leave room for the instructions, the longest feedback
   * and the reply. A prompt that still does not fit makes every window smaller.
   */
  function planWindows(node: TNode, nt: NodeText, kinds: ReturnType<typeof classifyLines>, nodeTokens: number): WindowPlan {
    const lineCount = nt.lines.length;
    // The whole node's chapter count (windows ask for their share); sized below the leaf budget so most chapters need no further split.
    // A compact chapter ({line, title}) is about 20 output tokens; half the reply room is left for a model that writes more.
    const perCall = Math.max(2, Math.min(options.maxChaptersPerCall, Math.floor(splitNumPredict / 40)));
    const probe = splitPrompt({ context: windowHeader(node, nodeTokens, lineCount, null, 99, 99, 100000, 100000, perCall, true) + '\n' + 'x'.repeat(FEEDBACK_MAX_CHARS), view: '', documentId });
    const fixed = llm.estimator.estimateMessages(jsonPromptMessages(probe), model);
    const budget = Math.floor((numCtx - splitNumPredict - fixed - Math.ceil(numCtx * 0.04) - 32) * budgetFactor);
    if (budget < 64) throw new AppError(ErrorCode.LLM_CONTEXT_OVERFLOW, `num_ctx ${numCtx} leaves no room for the text after the instructions and the reply.`);
    const levels = VIEW_LEVELS.map((level) => renderView(nt, kinds, level, estimate));
    const cap = Math.max(nodeTokens * options.viewTokenRatio, 200);
    // Over the cap, the cheapest view: a small node shown in full would cost more than the node itself.
    const chosen = levels.find((e) => viewTokens(e) <= Math.min(budget, cap)) ?? levels[levels.length - 1]!;
    const views = windowsOf(chosen, budget, lineCount, options.windowOverlapRatio);
    // A balanced tree: as many levels as needed at the fan-out one pass over the windows allows, the same fan-out at
    // every level (fewest calls and views; each level shows the whole text once more).
    const fanOut = perCall * views.length;
    const leavesNeeded = Math.max(2, nodeTokens / (options.leafTokens * 0.75));
    const levelsNeeded = Math.max(1, Math.ceil(Math.log(leavesNeeded) / Math.log(fanOut) - 1e-9));
    const wanted = Math.max(2, Math.ceil(leavesNeeded ** (1 / levelsNeeded)));
    const windows = views.map((v, k) => {
      // A window asks for its share of the chapters, by the share of the text it is authoritative for.
      const share = (lineOffset(nt, v.authoritativeTo) - lineOffset(nt, v.authoritativeFrom)) / Math.max(1, nt.end - nt.start);
      return newWindow(v, k, Math.max(1, Math.min(perCall, Math.round(wanted * share))));
    });
    return { windows, perCall, nodeTokens, lineCount };
  }

  function newWindow(v: ViewWindow, k: number, want: number): WindowState {
    // Lines are numbered from 1 in each part: a model that counts from the first line shown is right.
    return { ...v, base: k === 0 && v.authoritativeFrom === 1 ? 0 : v.firstLine - 1, want, chapters: null, localChapters: [], feedback: null, topLevelOnly: false, cuts: 0 };
  }

  /**
   * After a cut reply (the client has already retried it once with a larger limit): the window is asked again in
   * two halves, for top-level chapters only, so the request is never the same again. Returns false when the window
   * is too small to halve.
   */
  function shrinkAfterCut(plan: WindowPlan, w: WindowState): boolean {
    w.cuts++;
    if (w.entries.length < 4) {
      if (w.topLevelOnly) return false;
      w.topLevelOnly = true;
      return true;
    }
    const middle = Math.floor(w.entries.length / 2);
    const cutLine = w.entries[middle]!.line;
    const first = w.entries.slice(0, middle);
    const second = w.entries.slice(middle);
    const halves: ViewWindow[] = [
      { entries: first, authoritativeFrom: w.authoritativeFrom, authoritativeTo: cutLine, firstLine: first[0]!.line, lastLine: first.at(-1)!.line },
      { entries: second, authoritativeFrom: cutLine, authoritativeTo: w.authoritativeTo, firstLine: cutLine, lastLine: second.at(-1)!.line },
    ];
    const k = plan.windows.indexOf(w);
    const replaced = halves.map((v, i) => ({ ...newWindow(v, k + i, Math.max(1, Math.ceil(w.want / 2))), topLevelOnly: true }));
    plan.windows.splice(k, 1, ...replaced);
    return true;
  }

  function windowHeader(node: TNode, nodeTokens: number, lineCount: number, w: WindowState | null, k: number, n: number, from: number, to: number, want: number, topLevelOnly: boolean): string {
    const ask = `Propose about ${want} chapters${topLevelOnly ? ', only the top-level sections (main headings; no sub-headings, list items or table rows)' : ''}.`;
    if (n === 1) return `Node: "${label(node)}", lines 1-${lineCount}, about ${nodeTokens} tokens. ${ask}`;
    const continues = w === null || w.authoritativeFrom > 1;
    return [
      `Node: "${label(node)}", about ${nodeTokens} tokens, shown in ${n} parts. ${ask}`,
      `Part ${k} of ${n}: its lines are numbered from 1 in this part; give only chapters that start at lines ${from} to ${to}${continues ? '; the lines before belong to chapters found in earlier parts, so the first line shown need not start a chapter; return an empty list if no chapter starts there' : ''}.`,
    ].join('\n');
  }

  /** Asks one window and checks its answer on its own; line numbers in `rawLocal` and errors are as the model sees them. */
  async function askWindow(node: TNode, nt: NodeText, plan: WindowPlan, w: WindowState, attempt: number): Promise<WindowAnswer> {
    const k = plan.windows.indexOf(w);
    const n = plan.windows.length;
    const local = (line: number) => line - w.base;
    const header = windowHeader(node, plan.nodeTokens, plan.lineCount, w, k + 1, n, local(w.authoritativeFrom), local(w.authoritativeTo) - 1, w.want, w.topLevelOnly);
    const feedback = w.feedback === null ? `Attempt ${attempt} of ${options.maxAttempts}.` : clipText(w.feedback, FEEDBACK_MAX_CHARS);
    const view = w.entries.map((e) => (w.base === 0 ? e.text : e.text.replace(/^\d+\|/, `${local(e.line)}|`))).join('\n');
    stats.llmCalls++;
    const r = await chatJsonPrompt(llm, splitPrompt({ context: `${header}\n${feedback}`, view, documentId }), {
      purpose: 'split',
      model,
      numCtx,
      numPredict: splitNumPredict,
      runId: input.runId ?? null,
      documentId,
      chunkRef: `split:${node.start}-${node.end}${n > 1 ? `#${k + 1}` : ''}${w.topLevelOnly ? ':top' : ''}`,
      // A window made after a cut reply has had its larger limit: a cut now halves it again.
      retryCutReply: !w.topLevelOnly,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    // Stored and checked in the long form the attempts table and the UI use.
    const proposed = r.value.chapters.map((c, i): ProposedChapter => ({ chapterIndex: i + 1, chapterTitle: c.title, chapterStartLineNumber: c.line, importantContextChapterIndexes: [] }));
    return checkWindowAnswer(nt, plan, w, proposed);
  }

  function checkWindowAnswer(nt: NodeText, plan: WindowPlan, w: WindowState, rawLocal: ProposedChapter[]): WindowAnswer {
    const errors: string[] = [];
    const notes: string[] = [];
    const part = plan.windows.length > 1 ? ' of this part' : '';
    const raw = rawLocal.map((c) => ({ ...c, chapterStartLineNumber: c.chapterStartLineNumber + w.base }));
    const lastLocal = Math.min(w.authoritativeTo, nt.lines.length + 1) - 1 - w.base;
    let kept = raw.filter((c, i) => {
      const n = rawLocal[i]!.chapterStartLineNumber;
      if (!Number.isInteger(n)) {
        errors.push(`chapter ${i + 1} has no whole line number (${n})`);
        return false;
      }
      if (c.chapterStartLineNumber >= w.authoritativeFrom && c.chapterStartLineNumber < w.authoritativeTo && c.chapterStartLineNumber <= nt.lines.length) return true;
      notes.push(`chapter "${clipText(c.chapterTitle, 60)}" starts at line ${n}, outside lines ${w.authoritativeFrom - w.base}-${lastLocal}${part}: dropped`);
      return false;
    });
    kept.forEach((c, i) => {
      const prev = kept[i - 1];
      if (prev && c.chapterStartLineNumber <= prev.chapterStartLineNumber) {
        errors.push(`chapter "${clipText(c.chapterTitle, 60)}" starts at line ${c.chapterStartLineNumber - w.base}, not after the previous chapter's line ${prev.chapterStartLineNumber - w.base}: start lines must strictly increase`);
      }
    });
    // A model that lists every heading: keep the proposed starts that cut the part most evenly into about the number asked.
    const tooMany = Math.min(plan.perCall, 2 * w.want + 2);
    if (errors.length === 0 && kept.length > tooMany) {
      const from = lineOffset(nt, w.authoritativeFrom);
      const to = lineOffset(nt, Math.min(w.authoritativeTo, nt.lines.length + 1));
      const step = (to - from) / Math.max(1, w.want);
      // For each even cut position, the nearest proposed start (the window's first start always stays).
      const offsets = kept.map((c) => lineOffset(nt, c.chapterStartLineNumber));
      const chosen = new Set([0]);
      for (let j = 1; j < w.want; j++) {
        const target = from + j * step;
        let best = 0;
        offsets.forEach((at, i) => {
          if (Math.abs(at - target) < Math.abs(offsets[best]! - target)) best = i;
        });
        chosen.add(best);
      }
      const thinned = kept.filter((_, i) => chosen.has(i));
      notes.push(`${kept.length} chapters proposed where about ${w.want} were asked for: kept the ${thinned.length} starts that cut the text most evenly`);
      kept = thinned;
    }
    return { raw, rawLocal, kept, errors, notes };
  }

  /** The windows' accepted chapters in one list; text before the first start becomes a chapter of its own. */
  function joinWindows(nt: NodeText, plan: WindowPlan): { chapters: ProposedChapter[]; notes: string[] } {
    const chapters: ProposedChapter[] = [];
    const notes: string[] = [];
    for (const w of plan.windows) {
      // Renumber across windows; context references stay within the window that made them.
      const offset = chapters.length;
      const localToGlobal = new Map(w.chapters!.map((c, i) => [c.chapterIndex, offset + i + 1]));
      for (const c of w.chapters!) {
        chapters.push({
          chapterIndex: localToGlobal.get(c.chapterIndex)!,
          chapterTitle: c.chapterTitle,
          chapterStartLineNumber: c.chapterStartLineNumber,
          importantContextChapterIndexes: c.importantContextChapterIndexes.map((i) => localToGlobal.get(i)).filter((i): i is number => i !== undefined),
        });
      }
    }
    const first = firstContentLine(nt);
    if (chapters.length === 0 || chapters[0]!.chapterStartLineNumber > first) {
      const title = clipText(nt.lines[first - 1] ?? '', 60) || 'Beginning';
      notes.push(`no chapter started at the first line (${first}): the text before the first start became chapter "${title}"`);
      chapters.unshift({ chapterIndex: 0, chapterTitle: title, chapterStartLineNumber: first, importantContextChapterIndexes: [] });
    }
    return { chapters, notes };
  }

  async function reviewSplit(node: TNode, nt: NodeText, chapters: readonly CutChapter[], attempt: number): Promise<ReviewOutcome> {
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
      const probe = reviewPrompt({ context: context(99, 99, 999, 999), view: '', documentId });
      const fixed = llm.estimator.estimateMessages(jsonPromptMessages(probe), model);
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
        const failedChapters: number[] = [];
        for (const [k, b] of batches.entries()) {
          const prompt = reviewPrompt({
            context: context(k + 1, batches.length, b.from + 1, b.to),
            view: blocks.slice(b.from, b.to).map((x) => x.text).join('\n\n'),
            documentId,
          });
          stats.llmCalls++;
          const r = await chatJsonPrompt(llm, prompt, {
            purpose: 'review',
            model,
            numCtx,
            numPredict: reviewNumPredict,
            runId: input.runId ?? null,
            documentId,
            chunkRef: `review:${node.start}-${node.end}`,
            ...(input.signal ? { signal: input.signal } : {}),
          });
          // Only the boolean decides; the wording of the comments never does.
          if (r.value.passes !== true) {
            passes = false;
            for (let i = b.from; i < b.to; i++) failedChapters.push(i);
          }
          if (r.value.comments.trim()) comments.push(batches.length > 1 ? `(chapters ${b.from + 1}-${b.to}) ${r.value.comments.trim()}` : r.value.comments.trim());
        }
        return { passes, comments: comments.join('\n'), failedChapters };
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
