/**
 * The model's answer per window: one split call, its answer checked on its own (starts outside the window's lines
 * dropped with a note, starts that do not increase rejected, a model that lists every heading thinned to about the
 * number asked), and the windows' accepted answers joined into one list for the node.
 */
import type { ProposedChapter } from '../../../shared/treesplit';
import { chatJsonPrompt, completeListEntries } from '../llm';
import { clipText, FEEDBACK_MAX_CHARS } from './feedback';
import { ChapterSchema, splitPrompt } from './prompts';
import { signalOption, type SplitContext, type SplitTreeNode } from './splitContext';
import { firstContentLine, lineOffset, type NodeText } from './view';
import { windowHeader, type WindowPlan, type WindowState } from './windows';

export interface WindowAnswer {
  /** As answered, in the node's line numbers, and as the model numbered them. */
  raw: ProposedChapter[];
  rawLocal: ProposedChapter[];
  /** The starts this window is authoritative for. */
  kept: ProposedChapter[];
  errors: string[];
  notes: string[];
}

/** A reply cut at the length limit: the chapters it wrote completely, numbered as the model sees them. */
export interface CutWindowReply {
  cut: true;
  rawLocal: ProposedChapter[];
}

/**
 * Asks one window and checks its answer on its own; line numbers in `rawLocal` and errors are as the model sees
 * them. A reply cut at the length limit comes back as its complete chapters, unchecked (the caller decides where
 * the window ends: windows.ts splitAfterCut).
 */
export async function askWindow(
  ctx: SplitContext,
  node: SplitTreeNode,
  nt: NodeText,
  plan: WindowPlan,
  w: WindowState,
  attempt: number,
): Promise<WindowAnswer | CutWindowReply> {
  const { options } = ctx;
  const k = plan.windows.indexOf(w);
  const n = plan.windows.length;
  const local = (line: number) => line - w.base;
  const header = windowHeader(
    node,
    plan.nodeTokens,
    plan.lineCount,
    w,
    k + 1,
    n,
    local(w.authoritativeFrom),
    local(w.authoritativeTo) - 1,
    w.want,
    w.topLevelOnly,
  );
  const feedback = w.feedback === null ? `Attempt ${attempt} of ${options.maxAttempts}.` : clipText(w.feedback, FEEDBACK_MAX_CHARS);
  const view = w.entries.map((e) => (w.base === 0 ? e.text : e.text.replace(/^\d+\|/, `${local(e.line)}|`))).join('\n');
  ctx.stats.llmCalls++;
  const r = await chatJsonPrompt(ctx.llm, splitPrompt({ context: `${header}\n${feedback}`, view, documentId: ctx.documentId }), {
    purpose: 'split',
    model: ctx.model,
    numCtx: ctx.numCtx,
    numPredict: ctx.splitNumPredict,
    runId: ctx.runId,
    documentId: ctx.documentId,
    chunkRef: `split:${node.start}-${node.end}${n > 1 ? `#${k + 1}` : ''}${w.topLevelOnly ? ':top' : ''}`,
    // A cut reply comes back as it is: its complete chapters are kept, not asked for again with a larger limit.
    acceptCutReply: true,
    ...signalOption(ctx),
  });
  if (r.cut) return { cut: true, rawLocal: completeChapters(r.content).map(proposedChapter) };
  return checkWindowAnswer(nt, plan, w, r.value.chapters.map(proposedChapter));
}

/** A reply's chapter in the long form the attempts table, the checks and the UI use. */
function proposedChapter(c: { line: number; title: string }, i: number): ProposedChapter {
  return { chapterIndex: i + 1, chapterTitle: c.title, chapterStartLineNumber: c.line, importantContextChapterIndexes: [] };
}

/** The chapters a cut reply wrote completely, in order (an entry not of the chapter shape ends the list: what follows cannot be trusted). */
function completeChapters(content: string): { line: number; title: string }[] {
  const chapters: { line: number; title: string }[] = [];
  for (const entry of completeListEntries(content, 'chapters').entries) {
    const checked = entry.parsed ? ChapterSchema.safeParse(entry.value) : undefined;
    if (!checked?.success) break;
    chapters.push(checked.data);
  }
  return chapters;
}

/** A window's answer on its own: what it may decide (its authoritative lines), what is wrong, what was dropped. */
export function checkWindowAnswer(nt: NodeText, plan: WindowPlan, w: WindowState, rawLocal: ProposedChapter[]): WindowAnswer {
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
    if (c.chapterStartLineNumber >= w.authoritativeFrom && c.chapterStartLineNumber < w.authoritativeTo && c.chapterStartLineNumber <= nt.lines.length)
      return true;
    notes.push(`chapter "${clipText(c.chapterTitle, 60)}" starts at line ${n}, outside lines ${w.authoritativeFrom - w.base}-${lastLocal}${part}: dropped`);
    return false;
  });
  kept.forEach((c, i) => {
    const prev = kept[i - 1];
    if (prev && c.chapterStartLineNumber <= prev.chapterStartLineNumber) {
      errors.push(
        `chapter "${clipText(c.chapterTitle, 60)}" starts at line ${c.chapterStartLineNumber - w.base}, not after the previous chapter's line ${prev.chapterStartLineNumber - w.base}: start lines must strictly increase`,
      );
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
export function joinWindows(nt: NodeText, plan: WindowPlan): { chapters: ProposedChapter[]; notes: string[] } {
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
