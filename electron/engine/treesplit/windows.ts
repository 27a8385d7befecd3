/**
 * Window planning: what part of a node's view each split call shows, how many chapters it asks for, and how a
 * window is made smaller after a reply cut at the length limit. The plan is made once per node; its bounds stay put
 * between attempts so an accepted window's answer stays valid.
 */
import { AppError, ErrorCode } from '../../../shared/errors';
import type { ProposedChapter } from '../../../shared/treesplit';
import type { TextDiff } from '../../../shared/types';
import { jsonPromptMessages } from '../llm';
import { FEEDBACK_MAX_CHARS, feedbackText } from './feedback';
import { splitPrompt } from './prompts';
import { nodeLabel, type SplitContext, type SplitTreeNode } from './splitContext';
import { lineOffset, renderView, VIEW_LEVELS, viewTokens, windowsOf, type classifyLines, type NodeText, type ViewWindow } from './view';

/** One window of a node's view, with what the model answered for it so far. */
export interface WindowState extends ViewWindow {
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

export interface WindowPlan {
  windows: WindowState[];
  perCall: number;
  nodeTokens: number;
  lineCount: number;
}

/**
 * The node's windows: the most detailed view under the cost cap (else the most compact one), cut into windows that
 * leave room for the instructions, the longest feedback and the reply. Throws LLM_CONTEXT_OVERFLOW when the context
 * leaves no room for text at all; a prompt that later does not fit lowers `ctx.budget.factor` and is planned again.
 */
export function planWindows(ctx: SplitContext, node: SplitTreeNode, nt: NodeText, kinds: ReturnType<typeof classifyLines>, nodeTokens: number): WindowPlan {
  const { options, numCtx, model, splitNumPredict } = ctx;
  const lineCount = nt.lines.length;
  // The whole node's chapter count (windows ask for their share); sized below the leaf budget so most chapters need no further split.
  // A compact chapter ({line, title}) is about 20 output tokens; half the reply room is left for a model that writes more.
  const perCall = Math.max(2, Math.min(options.maxChaptersPerCall, Math.floor(splitNumPredict / 40)));
  const probe = splitPrompt({
    context: windowHeader(node, nodeTokens, lineCount, null, 99, 99, 100000, 100000, perCall, true) + '\n' + 'x'.repeat(FEEDBACK_MAX_CHARS),
    view: '',
    documentId: ctx.documentId,
  });
  const fixed = ctx.llm.estimator.estimateMessages(jsonPromptMessages(probe), model);
  const budget = Math.floor((numCtx - splitNumPredict - fixed - Math.ceil(numCtx * 0.04) - 32) * ctx.budget.factor);
  if (budget < 64) throw new AppError(ErrorCode.LLM_CONTEXT_OVERFLOW, `num_ctx ${numCtx} leaves no room for the text after the instructions and the reply.`);
  const levels = VIEW_LEVELS.map((level) => renderView(nt, kinds, level, ctx.estimate));
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

export function newWindow(v: ViewWindow, k: number, want: number): WindowState {
  // Lines are numbered from 1 in each part: a model that counts from the first line shown is right.
  return {
    ...v,
    base: k === 0 && v.authoritativeFrom === 1 ? 0 : v.firstLine - 1,
    want,
    chapters: null,
    localChapters: [],
    feedback: null,
    topLevelOnly: false,
    cuts: 0,
  };
}

/**
 * After a cut reply that cannot be continued (splitAfterCut: nothing complete past the window's first line): the
 * window is asked again in two halves, for top-level chapters only, so the request is never the same again.
 * Returns false when the window is too small to halve.
 */
export function shrinkAfterCut(plan: WindowPlan, w: WindowState): boolean {
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

/**
 * After a reply cut at the length limit whose complete chapters reach line `lastStart` (node numbering): the
 * window becomes the part up to and including that chapter's line, answered by those chapters, and the rest of
 * its lines, asked on their own next. Nothing the model wrote whole is asked for again. `rest` is null when the
 * chapters already reach past the window's authoritative lines (into the overlap shown after them). Returns null
 * when the cut reply makes no progress (its last complete chapter is not past the window's first line): each
 * continuation starts further on, so a model cut again and again still ends.
 */
export function splitAfterCut(plan: WindowPlan, nt: NodeText, w: WindowState, lastStart: number): { answered: WindowState; rest: WindowState | null } | null {
  if (lastStart <= w.authoritativeFrom) return null;
  const restAt = w.entries.findIndex((e) => e.line > lastStart);
  const restFrom = restAt < 0 ? w.authoritativeTo : w.entries[restAt]!.line;
  if (restFrom >= w.authoritativeTo) return { answered: w, rest: null };
  const share =
    (lineOffset(nt, restFrom) - lineOffset(nt, w.authoritativeFrom)) / Math.max(1, lineOffset(nt, w.authoritativeTo) - lineOffset(nt, w.authoritativeFrom));
  const answeredWant = Math.max(1, Math.round(w.want * share));
  const shown = w.entries.slice(0, restAt);
  const answered: WindowState = { ...w, entries: shown, authoritativeTo: restFrom, lastLine: shown.at(-1)!.line, want: answeredWant };
  const k = plan.windows.indexOf(w);
  const restView: ViewWindow = {
    entries: w.entries.slice(restAt),
    authoritativeFrom: restFrom,
    authoritativeTo: w.authoritativeTo,
    firstLine: restFrom,
    lastLine: w.lastLine,
  };
  const rest: WindowState = { ...newWindow(restView, k + 1, Math.max(1, w.want - answeredWant)), topLevelOnly: w.topLevelOnly, cuts: w.cuts + 1 };
  plan.windows.splice(k, 1, answered, rest);
  return { answered, rest };
}

/** A window's accepted answer is withdrawn and asked again with this feedback. */
export function sendBack(
  w: WindowState,
  attempt: number,
  maxAttempts: number,
  errors: readonly string[],
  diff: TextDiff | null,
  reviewComments: string | null,
): void {
  w.feedback = feedbackText(attempt, maxAttempts, w.localChapters, errors, diff, reviewComments);
  w.chapters = null;
}

/** The per-call context line(s): which node, which part, which lines may start a chapter, how many are asked for. */
export function windowHeader(
  node: SplitTreeNode,
  nodeTokens: number,
  lineCount: number,
  w: WindowState | null,
  k: number,
  n: number,
  from: number,
  to: number,
  want: number,
  topLevelOnly: boolean,
): string {
  const ask = `Propose about ${want} chapters${topLevelOnly ? ', only the top-level sections (main headings; no sub-headings, list items or table rows)' : ''}.`;
  if (n === 1) return `Node: "${nodeLabel(node)}", lines 1-${lineCount}, about ${nodeTokens} tokens. ${ask}`;
  const continues = w === null || w.authoritativeFrom > 1;
  return [
    `Node: "${nodeLabel(node)}", about ${nodeTokens} tokens, shown in ${n} parts. ${ask}`,
    `Part ${k} of ${n}: its lines are numbered from 1 in this part; give only chapters that start at lines ${from} to ${to}${continues ? '; the lines before belong to chapters found in earlier parts, so the first line shown need not start a chapter; return an empty list if no chapter starts there' : ''}.`,
  ].join('\n');
}
