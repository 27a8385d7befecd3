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
import { classifyLines, nodeText, type LineKinds, type NodeText } from './view';
import { askWindow, checkWindowAnswer, joinWindows, type CutWindowReply, type WindowAnswer } from './windowAnswer';
import { planWindows, sendBack, shrinkAfterCut, splitAfterCut, type WindowPlan, type WindowState } from './windows';

/** An attempt as the caller stores it (the caller adds run, document, node and time). */
export type AttemptRecord = Omit<SplitAttempt, 'runId' | 'documentId' | 'nodeKey' | 'nodePath' | 'createdAt'>;

export type NodeSplitOutcome = { ok: true; chapters: CutChapter[] } | { ok: false; reason: string; attemptsMade: number };

/** What one node's attempts share: its text, its window plan, and what failed so far. */
interface NodeRun {
  readonly ctx: SplitContext;
  readonly node: SplitTreeNode;
  readonly nt: NodeText;
  readonly kinds: LineKinds;
  readonly nodeTokens: number;
  /** Planned once; planned again (smaller windows) only when a prompt did not fit after all. */
  plan: WindowPlan;
  /** The last failure, for the reason of a fallback. */
  lastProblem: string;
  /** How often the windows were made smaller for a prompt that did not fit (at most MAX_SHRINKS). */
  shrinks: number;
  /** The last failure per place (a window, the joined node, the review) and how often in a row it came back. */
  readonly failures: Map<string, { signature: string; count: number }>;
  readonly progress: (attempt: number, message: string) => void;
  readonly record: (attempt: AttemptRecord) => void;
}

/** One attempt: its number, and the LLM calls made since it began (for its record). */
interface AttemptScope {
  attempt: number;
  callIds: () => string[];
}

/** Where an attempt's step left the node: decided (accepted or given up), to the next attempt, or on to the next step. */
type Step<T> = { kind: 'decided'; outcome: NodeSplitOutcome } | { kind: 'next-attempt' } | { kind: 'go-on'; value: T };

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
    if (replyProblem(error) === 'overflow')
      return { ok: false, reason: `the prompt does not fit the context even in small windows: ${toErrorInfo(error).message}`, attemptsMade: 0 };
    throw error;
  }
  const run: NodeRun = { ctx, node, nt, kinds, nodeTokens, plan, lastProblem: '', shrinks: 0, failures: new Map(), progress, record };

  for (let attempt = 1; attempt <= options.maxAttempts; attempt++) {
    throwIfAborted(ctx.signal);
    ctx.stats.attempts++;
    const before = lastLlmCallRowId(db);
    const scope: AttemptScope = { attempt, callIds: () => llmCallIdsAfter(db, before, { documentId, purposes: ['split', 'review'] }) };
    progress(attempt, run.plan.windows.some((w) => w.chapters === null) ? 'asking for chapters' : 'checking the answer again');

    const asked = await askOpenWindows(run, scope);
    if (asked.kind !== 'go-on') {
      if (asked.kind === 'decided') return asked.outcome;
      continue;
    }
    const validated = validateJoined(run, scope, asked.value);
    if (validated.kind !== 'go-on') {
      if (validated.kind === 'decided') return validated.outcome;
      continue;
    }
    const { joined, chapters, notes } = validated.value;
    const reviewed = options.reviewEnabled ? await reviewJoined(run, scope, joined, chapters) : ({ kind: 'go-on', value: null } as const);
    if (reviewed.kind !== 'go-on') {
      if (reviewed.kind === 'decided') return reviewed.outcome;
      continue;
    }
    record({
      attempt,
      chapters: joined,
      review: reviewed.value,
      validationErrors: notes.map((n) => `note: ${n}`),
      diff: null,
      outcome: 'accepted',
      llmCallIds: scope.callIds(),
    });
    progress(attempt, `accepted ${chapters.length} chapters`);
    return { ok: true, chapters };
  }
  return { ok: false, reason: `no valid split after ${options.maxAttempts} attempts (last: ${run.lastProblem})`, attemptsMade: options.maxAttempts };
}

/** Counts a failure at `where` (a window or the node); true when the same one came back too often to go on. */
function repeated(run: NodeRun, where: string, signature: string): boolean {
  const previous = run.failures.get(where);
  const count = previous?.signature === signature ? previous.count + 1 : 1;
  run.failures.set(where, { signature, count });
  const limit = run.ctx.options.maxIdenticalFailures;
  return limit > 0 && count >= limit;
}

function givingUp(run: NodeRun, attempt: number): Step<never> {
  const reason = `the model returned the same rejected answer ${run.ctx.options.maxIdenticalFailures} times in a row (last: ${run.lastProblem})`;
  return { kind: 'decided', outcome: { ok: false, reason, attemptsMade: attempt } };
}

/** What the windows asked in one attempt said, all together. */
interface WindowRound {
  errors: string[];
  notes: string[];
  /** Every chapter proposed this round, accepted or not (for the attempt's record). */
  proposed: ProposedChapter[];
  /** No window's answer failed validation: only replies that were not the JSON asked for (or did not fit). */
  onlyReplyProblems: boolean;
}

/** Step 1: the windows without an accepted answer, each on its own. Goes on with the round's notes when all were accepted. */
async function askOpenWindows(run: NodeRun, scope: AttemptScope): Promise<Step<string[]>> {
  const round: WindowRound = { errors: [], notes: [], proposed: [], onlyReplyProblems: true };
  for (const [k, w] of [...run.plan.windows.entries()]) {
    if (w.chapters !== null) continue;
    const asked = await askOneWindow(run, scope, round, k, w);
    if (asked === 'replanned') break;
    if (asked !== 'next-window') return asked;
  }
  if (round.errors.length > 0) {
    run.lastProblem = `${round.onlyReplyProblems ? '' : 'validation failed: '}${round.errors[0]}`;
    const validationErrors = [...round.errors, ...round.notes.map((n) => `note: ${n}`)];
    run.record({
      attempt: scope.attempt,
      chapters: round.proposed,
      review: null,
      validationErrors,
      diff: null,
      outcome: round.onlyReplyProblems ? 'invalid_reply' : 'validation_failed',
      llmCallIds: scope.callIds(),
    });
    run.progress(scope.attempt, run.lastProblem);
    return { kind: 'next-attempt' };
  }
  return { kind: 'go-on', value: round.notes };
}

/** One window asked: accepted, or its feedback set for the next attempt; 'replanned' when the windows were made smaller. */
async function askOneWindow(
  run: NodeRun,
  scope: AttemptScope,
  round: WindowRound,
  k: number,
  w: WindowState,
): Promise<'next-window' | 'replanned' | Step<never>> {
  const { ctx, plan } = run;
  const { attempt } = scope;
  const where = `part ${k + 1}`;
  let answer: WindowAnswer | CutWindowReply;
  try {
    answer = await askWindow(ctx, run.node, run.nt, plan, w, attempt);
  } catch (error) {
    return windowReplyFailed(run, scope, round, where, w, error);
  }
  if ('cut' in answer) return continueAfterCut(run, scope, round, k, w, answer.rawLocal);
  return takeWindowAnswer(run, scope, round, where, w, answer);
}

/**
 * A reply cut at the length limit: the chapters it wrote whole answer the window up to the last of them, and the
 * window's remaining lines are asked at once, on their own (no reply thrown away). A cut before any progress is
 * handled as a failed reply (the window is halved and asked for top-level chapters).
 */
async function continueAfterCut(
  run: NodeRun,
  scope: AttemptScope,
  round: WindowRound,
  k: number,
  w: WindowState,
  rawLocal: ProposedChapter[],
): Promise<'next-window' | 'replanned' | Step<never>> {
  const where = `part ${k + 1}`;
  const last = rawLocal.at(-1)?.chapterStartLineNumber;
  const split = last !== undefined && Number.isInteger(last) ? splitAfterCut(run.plan, run.nt, w, last + w.base) : null;
  if (!split) {
    const cut = new AppError(ErrorCode.LLM_REPLY_CUT, `The reply was cut at the length limit before it listed a chapter past the first line shown.`);
    return windowReplyFailed(run, scope, round, where, w, cut);
  }
  round.notes.push(
    `${where}: the reply was cut at the length limit after ${rawLocal.length} complete chapters${split.rest ? `; the lines from ${split.rest.authoritativeFrom - w.base} on were asked for on their own` : ''}`,
  );
  const taken = takeWindowAnswer(run, scope, round, where, split.answered, checkWindowAnswer(run.nt, run.plan, split.answered, rawLocal));
  if (taken !== 'next-window' || split.rest === null || split.answered.chapters === null) return taken;
  return askOneWindow(run, scope, round, k + 1, split.rest);
}

/** A window's answer, checked: accepted, or its feedback set for the next attempt (giving up when it repeats). */
function takeWindowAnswer(
  run: NodeRun,
  scope: AttemptScope,
  round: WindowRound,
  where: string,
  w: WindowState,
  answer: WindowAnswer,
): 'next-window' | Step<never> {
  const { ctx, plan } = run;
  const { attempt } = scope;
  round.proposed.push(...answer.raw);
  round.notes.push(...answer.notes);
  if (answer.errors.length === 0) {
    w.chapters = answer.kept;
    w.localChapters = answer.rawLocal;
    run.failures.delete(where);
    return 'next-window';
  }
  round.onlyReplyProblems = false;
  round.errors.push(...answer.errors.map((e) => (plan.windows.length > 1 ? `${where}: ${e}` : e)));
  w.feedback = feedbackText(attempt, ctx.options.maxAttempts, answer.rawLocal, answer.errors, null, null);
  if (repeated(run, where, JSON.stringify([answer.rawLocal.map((c) => [c.chapterStartLineNumber, c.chapterTitle]), answer.errors]))) {
    run.lastProblem = `validation failed: ${round.errors[0]}`;
    run.record({
      attempt,
      chapters: round.proposed,
      review: null,
      validationErrors: round.errors,
      diff: null,
      outcome: 'validation_failed',
      llmCallIds: scope.callIds(),
    });
    return givingUp(run, attempt);
  }
  return 'next-window';
}

/** A window's call failed: a prompt that did not fit makes every window smaller; a bad reply is sent back with what was wrong. */
function windowReplyFailed(
  run: NodeRun,
  scope: AttemptScope,
  round: WindowRound,
  where: string,
  w: WindowState,
  error: unknown,
): 'next-window' | 'replanned' | Step<never> {
  const { ctx } = run;
  const { attempt } = scope;
  const handled = replyProblem(error);
  if (handled === 'overflow') {
    // The estimate was short: every window is made smaller (new bounds), up to MAX_SHRINKS times.
    if (++run.shrinks > MAX_SHRINKS)
      return {
        kind: 'decided',
        outcome: { ok: false, reason: `the prompt does not fit the context even in small windows: ${toErrorInfo(error).message}`, attemptsMade: attempt - 1 },
      };
    ctx.budget.factor *= 0.7;
    run.plan = planWindows(ctx, run.node, run.nt, run.kinds, run.nodeTokens);
    round.errors.push(`the prompt did not fit the context: the text is shown in smaller parts`);
    return 'replanned';
  }
  const cut = error instanceof AppError && error.code === ErrorCode.LLM_REPLY_CUT;
  const problem = `${run.plan.windows.length > 1 ? `${where}: ` : ''}invalid reply: ${handled}`;
  round.errors.push(problem);
  // A cut reply is never asked for again as it was: top-level chapters only, then half the window.
  const next = cut && shrinkAfterCut(run.plan, w);
  w.feedback = feedbackText(
    attempt,
    ctx.options.maxAttempts,
    [],
    [`${problem}. Reply with only the JSON of the requested shape${cut ? ', with fewer chapters' : ''}.`],
    null,
    null,
  );
  if (!next && repeated(run, where, problem)) {
    run.lastProblem = problem;
    run.record({
      attempt,
      chapters: round.proposed,
      review: null,
      validationErrors: round.errors,
      diff: null,
      outcome: 'invalid_reply',
      llmCallIds: scope.callIds(),
    });
    return givingUp(run, attempt);
  }
  return 'next-window';
}

/** A split that passed validation, with the notes of every step so far. */
interface ValidSplit {
  joined: ProposedChapter[];
  chapters: CutChapter[];
  notes: string[];
}

/** Step 2: the windows' answers joined and validated as a whole; a failure sends every window back. */
function validateJoined(run: NodeRun, scope: AttemptScope, roundNotes: string[]): Step<ValidSplit> {
  const { options } = run.ctx;
  const { attempt } = scope;
  const joined = joinWindows(run.nt, run.plan);
  const notes = [...roundNotes, ...joined.notes];
  const validation = validateChapters(run.nt, joined.chapters, { minChapterChars: options.minChapterChars });
  if (validation.ok) return { kind: 'go-on', value: { joined: joined.chapters, chapters: validation.chapters, notes: [...notes, ...validation.notes] } };
  run.lastProblem = `validation failed: ${validation.errors[0]}`;
  run.record({
    attempt,
    chapters: joined.chapters,
    review: null,
    validationErrors: validation.errors,
    diff: validation.diff,
    outcome: 'validation_failed',
    llmCallIds: scope.callIds(),
  });
  run.progress(attempt, run.lastProblem);
  if (repeated(run, 'node', JSON.stringify([joined.chapters.map((c) => c.chapterStartLineNumber), validation.errors]))) return givingUp(run, attempt);
  for (const w of run.plan.windows) sendBack(w, attempt, options.maxAttempts, validation.errors, validation.diff, null);
  return { kind: 'next-attempt' };
}

/** Step 3: the review of a valid split; a failing part sends back the windows whose chapters it covers. */
async function reviewJoined(run: NodeRun, scope: AttemptScope, joined: ProposedChapter[], chapters: CutChapter[]): Promise<Step<SplitReview>> {
  const { options } = run.ctx;
  const { attempt } = scope;
  let reviewed: ReviewOutcome;
  try {
    reviewed = await reviewSplit(run.ctx, run.node, run.nt, chapters, attempt);
  } catch (error) {
    const handled = replyProblem(error);
    if (handled === 'overflow')
      return {
        kind: 'decided',
        outcome: { ok: false, reason: `the review prompt does not fit the context: ${toErrorInfo(error).message}`, attemptsMade: attempt - 1 },
      };
    run.lastProblem = `invalid review reply: ${handled}`;
    run.record({
      attempt,
      chapters: joined,
      review: null,
      validationErrors: [run.lastProblem],
      diff: null,
      outcome: 'invalid_reply',
      llmCallIds: scope.callIds(),
    });
    run.progress(attempt, run.lastProblem);
    if (repeated(run, 'review', run.lastProblem)) return givingUp(run, attempt);
    return { kind: 'next-attempt' };
  }
  const review: SplitReview = { passes: reviewed.passes, comments: reviewed.comments };
  if (reviewed.passes) return { kind: 'go-on', value: review };
  run.lastProblem = `review failed: ${clipText(reviewed.comments, 160) || '(no comments)'}`;
  run.record({ attempt, chapters: joined, review, validationErrors: [], diff: null, outcome: 'review_failed', llmCallIds: scope.callIds() });
  run.progress(attempt, run.lastProblem);
  if (repeated(run, 'review', JSON.stringify([joined.map((c) => c.chapterStartLineNumber), reviewed.comments]))) return givingUp(run, attempt);
  const failedLines = reviewed.failedChapters.map((i) => chapters[i]!.startLine);
  for (const w of run.plan.windows) {
    if (failedLines.some((line) => line >= w.authoritativeFrom && line < w.authoritativeTo))
      sendBack(w, attempt, options.maxAttempts, [], null, reviewed.comments);
  }
  return { kind: 'next-attempt' };
}

/** 'overflow' when the prompt cannot be made to fit; otherwise a message for a reply problem; anything else is rethrown. */
export function replyProblem(error: unknown): string {
  if (error instanceof AppError) {
    if (error.code === ErrorCode.LLM_INVALID_REPLY || error.code === ErrorCode.LLM_REPLY_CUT) return error.message;
    if (error.code === ErrorCode.LLM_CONTEXT_OVERFLOW || error.code === ErrorCode.LLM_TRUNCATED_PROMPT) return 'overflow';
  }
  throw error;
}
