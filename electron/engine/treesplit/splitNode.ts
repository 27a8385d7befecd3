/**
 * One node of the tree split, in attempts: its windows are planned once; an attempt asks the windows without an
 * accepted answer, validates the joined answer as a whole, then has it reviewed. A failure sends back only the
 * windows it concerns, with what failed; the same failure repeated gives up early, and the caller falls back to the
 * deterministic splitter. Every attempt is recorded through `record`.
 */
import { AppError, ErrorCode, toErrorInfo } from '../../../shared/errors';
import type { ProposedChapter, SplitAttempt, SplitReview } from '../../../shared/treesplit';
import { lastLlmCallRowId, llmCallIdsAfter } from '../llm';
import { throwIfAborted } from '../util';
import { clipText, feedbackText } from './feedback';
import { MAX_SHRINKS, reviewSplit, type ReviewOutcome } from './review';
import type { SplitContext, SplitTreeNode } from './splitContext';
import { validateChapters, type CutChapter } from './validate';
import { classifyLines, nodeText } from './view';
import { askWindow, joinWindows, type WindowAnswer } from './windowAnswer';
import { planWindows, sendBack, shrinkAfterCut, type WindowPlan } from './windows';

/** An attempt as the caller stores it (the caller adds run, document, node and time). */
export type AttemptRecord = Omit<SplitAttempt, 'runId' | 'documentId' | 'nodeKey' | 'nodePath' | 'createdAt'>;

export type NodeSplitOutcome = { ok: true; chapters: CutChapter[] } | { ok: false; reason: string; attemptsMade: number };

/**
 * One node, in attempts. The node's windows are planned once and keep their
 * bounds; an attempt asks only the windows without an accepted answer, each
 * with its own feedback. A window's answer is checked on its own (starts
 * outside its lines are dropped with a note); the joined answer is then
 * validated and reviewed as a whole, and a failure there sends back only
 * the windows it concerns. Any failure repeated identically gives up early.
 */
export async function splitOneNode(
  ctx: SplitContext,
  node: SplitTreeNode,
  progress: (attempt: number, message: string) => void,
  record: (attempt: AttemptRecord) => void,
): Promise<NodeSplitOutcome> {
  const { options, db, documentId } = ctx;
  const nt = nodeText(ctx.doc.text, node.start, node.end);
  const kinds = classifyLines(nt, ctx.headingStarts);
  const nodeTokens = ctx.estimate(nt.text);
  let plan: WindowPlan;
  try {
    plan = planWindows(ctx, node, nt, kinds, nodeTokens);
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
    throwIfAborted(ctx.signal);
    ctx.stats.attempts++;
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
        answer = await askWindow(ctx, node, nt, plan, w, attempt);
      } catch (error) {
        const handled = replyProblem(error);
        if (handled === 'overflow') {
          // The estimate was short: every window is made smaller (new bounds), up to MAX_SHRINKS times.
          if (++shrinks > MAX_SHRINKS) return { ok: false, reason: `the prompt does not fit the context even in small windows: ${toErrorInfo(error).message}`, attemptsMade: attempt - 1 };
          ctx.budget.factor *= 0.7;
          plan = planWindows(ctx, node, nt, kinds, nodeTokens);
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
          record({ attempt, chapters: proposed, review: null, validationErrors: errors, diff: null, outcome: 'invalid_reply', llmCallIds: callIds() });
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
          record({ attempt, chapters: proposed, review: null, validationErrors: errors, diff: null, outcome: 'validation_failed', llmCallIds: callIds() });
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
      record({ attempt, chapters: proposed, review: null, validationErrors: [...errors, ...notes.map((n) => `note: ${n}`)], diff: null, outcome: onlyReplyProblems ? 'invalid_reply' : 'validation_failed', llmCallIds: callIds() });
      progress(attempt, lastProblem);
      continue;
    }

    // 2. The joined answer, validated as a whole.
    const joined = joinWindows(nt, plan);
    notes.push(...joined.notes);
    const validation = validateChapters(nt, joined.chapters, { minChapterChars: options.minChapterChars });
    if (!validation.ok) {
      lastProblem = `validation failed: ${validation.errors[0]}`;
      record({ attempt, chapters: joined.chapters, review: null, validationErrors: validation.errors, diff: validation.diff, outcome: 'validation_failed', llmCallIds: callIds() });
      progress(attempt, lastProblem);
      if (repeated('node', JSON.stringify([joined.chapters.map((c) => c.chapterStartLineNumber), validation.errors]))) return givingUp(attempt);
      for (const w of plan.windows) sendBack(w, attempt, options.maxAttempts, validation.errors, validation.diff, null);
      continue;
    }
    const chapters = validation.chapters;

    // 3. The review; a failing part sends back the windows whose chapters it covers.
    let review: SplitReview | null = null;
    if (options.reviewEnabled) {
      let reviewed: ReviewOutcome;
      try {
        reviewed = await reviewSplit(ctx, node, nt, chapters, attempt);
      } catch (error) {
        const handled = replyProblem(error);
        if (handled === 'overflow') return { ok: false, reason: `the review prompt does not fit the context: ${toErrorInfo(error).message}`, attemptsMade: attempt - 1 };
        lastProblem = `invalid review reply: ${handled}`;
        record({ attempt, chapters: joined.chapters, review: null, validationErrors: [lastProblem], diff: null, outcome: 'invalid_reply', llmCallIds: callIds() });
        progress(attempt, lastProblem);
        if (repeated('review', lastProblem)) return givingUp(attempt);
        continue;
      }
      review = { passes: reviewed.passes, comments: reviewed.comments };
      if (!reviewed.passes) {
        lastProblem = `review failed: ${clipText(reviewed.comments, 160) || '(no comments)'}`;
        record({ attempt, chapters: joined.chapters, review, validationErrors: [], diff: null, outcome: 'review_failed', llmCallIds: callIds() });
        progress(attempt, lastProblem);
        if (repeated('review', JSON.stringify([joined.chapters.map((c) => c.chapterStartLineNumber), reviewed.comments]))) return givingUp(attempt);
        const failedLines = reviewed.failedChapters.map((i) => chapters[i]!.startLine);
        for (const w of plan.windows) {
          if (failedLines.some((line) => line >= w.authoritativeFrom && line < w.authoritativeTo)) sendBack(w, attempt, options.maxAttempts, [], null, reviewed.comments);
        }
        continue;
      }
    }
    record({ attempt, chapters: joined.chapters, review, validationErrors: [...notes, ...validation.notes].map((n) => `note: ${n}`), diff: null, outcome: 'accepted', llmCallIds: callIds() });
    progress(attempt, `accepted ${chapters.length} chapters`);
    return { ok: true, chapters };
  }
  return { ok: false, reason: `no valid split after ${options.maxAttempts} attempts (last: ${lastProblem})`, attemptsMade: options.maxAttempts };
}

/** 'overflow' when the prompt cannot be made to fit; otherwise a message for a reply problem; anything else is rethrown. */
export function replyProblem(error: unknown): string {
  if (error instanceof AppError) {
    if (error.code === ErrorCode.LLM_INVALID_REPLY || error.code === ErrorCode.LLM_REPLY_CUT) return error.message;
    if (error.code === ErrorCode.LLM_CONTEXT_OVERFLOW || error.code === ErrorCode.LLM_TRUNCATED_PROMPT) return 'overflow';
  }
  throw error;
}
