/**
 * A finding's description taken from the document: the sentence its verbatim quote stands in, as printed.
 *
 * The model is not asked to describe a finding in its own words (issue 25: every field a reply repeats for every
 * finding costs model time, and a paraphrase is one more place a model can invent). The grounded quote already says
 * where the finding is; the sentence around it says what it is, in the document's words, and is grounded by
 * construction. A quote that is a heading or a table row has no sentence around it, and no description.
 */
import { CONTENTS_LINE_END, LIST_ITEM_START } from '../../../shared/canonical';
import type { Grounding } from '../../../shared/findings';

/** Longest description kept: a sentence or two. */
export const MAX_DESCRIPTION_CHARS = 280;

/** A line that ends a sentence or a label ("Description:"), so the next line starts afresh. */
const ENDS_BLOCK = /[.!?:;]["')\]]?\s*$/;
/** A line this long that ends no sentence is wrapped prose; a shorter one (a heading, a label) runs on only into a line that starts in lower case. */
const PROSE_LINE = 60;
/** The form feed between pages (PAGE_SEPARATOR is a line of its own holding it). */
const PAGE_BREAK = '\f';
/** Where a sentence ends inside a line: after a word, not after a number ("5. Title", "version 1.2 is"). */
const SENTENCE_END = /(?<=\p{L}{2}|[)"'\]])[.!?]["')\]]?(?=\s)/gu;

export function sourceDescription(text: string, grounding: Grounding): string {
  if (grounding.status !== 'grounded' || grounding.start === null || grounding.end === null) return '';
  const { start, end } = proseAround(text, grounding.start, grounding.end);
  const block = text.slice(start, end);
  // A table row, or a heading (one line that ends no sentence): no sentence around the quote. Its line would only
  // repeat a title, and two findings that quote one heading would then read alike to the merge.
  // A contents line only names a section, and its neighbours name others: no sentence either.
  if (
    /\s\|\s/.test(block) ||
    block.split('\n').some((l) => CONTENTS_LINE_END.test(l)) ||
    (!block.includes('\n') && !ENDS_BLOCK.test(block.trim()) && block.trim().length < PROSE_LINE)
  )
    return '';
  // The sentence(s) the quote stands in: from the last sentence end before it to the first one after it.
  const from = grounding.start - start;
  const to = grounding.end - start;
  let sentenceStart = 0;
  for (const m of block.slice(0, from).matchAll(SENTENCE_END)) sentenceStart = m.index + m[0].length;
  SENTENCE_END.lastIndex = 0;
  const after = [...block.slice(to).matchAll(SENTENCE_END)][0];
  const sentenceEnd = after ? to + after.index + after[0].length : block.length;
  return clip(oneLine(block.slice(sentenceStart, sentenceEnd)));
}

/**
 * The sentence that starts at `start` (a section's opening line), read forward over its wrapped lines up to `to`:
 * never past a blank line, a page break or a metadata line (`stop`), at most MAX_DESCRIPTION_CHARS.
 */
export function sentenceFrom(text: string, start: number, to: number, stop: RegExp): string {
  const lines: string[] = [];
  for (const line of text.slice(start, to).split('\n')) {
    if (line.trim() === '' || line.includes(PAGE_BREAK) || (lines.length > 0 && stop.test(line.trim()))) break;
    lines.push(line);
    if (ENDS_BLOCK.test(line.trim()) && !/:\s*$/.test(line)) break;
  }
  const body = oneLine(lines.join('\n'));
  SENTENCE_END.lastIndex = 0;
  const end = [...body.matchAll(SENTENCE_END)][0];
  return clip(end ? body.slice(0, end.index + end[0].length) : body);
}

/**
 * The wrapped prose lines around [start, end): backwards while the line above runs on into this one (it neither ends
 * a sentence nor is short), forwards while this line runs on into the next. Never over a page break or a blank line.
 */
function proseAround(text: string, start: number, end: number): { start: number; end: number } {
  let from = text.lastIndexOf('\n', start - 1) + 1;
  while (from > 0) {
    const prevStart = text.lastIndexOf('\n', from - 2) + 1;
    if (!runsOn(text.slice(prevStart, from - 1), text.slice(from, lineEnd(text, from)))) break;
    from = prevStart;
  }
  let to = lineEnd(text, Math.max(start, end - 1));
  while (to < text.length) {
    const next = lineEnd(text, to + 1);
    if (!runsOn(text.slice(text.lastIndexOf('\n', to - 1) + 1, to), text.slice(to + 1, next))) break;
    to = next;
  }
  return { start: from, end: to };
}

/** Whether `line` is wrapped prose that continues on `next`. */
function runsOn(line: string, next: string): boolean {
  const t = line.trim();
  if (t === '' || next.trim() === '' || line.includes(PAGE_BREAK) || next.includes(PAGE_BREAK) || ENDS_BLOCK.test(t)) return false;
  // The next item of a list starts afresh: a changelog's bullets are not one sentence.
  if (LIST_ITEM_START.test(next)) return false;
  return t.length >= PROSE_LINE || /^\s*[\p{Ll}(]/u.test(next);
}

function lineEnd(text: string, at: number): number {
  const nl = text.indexOf('\n', at);
  return nl < 0 ? text.length : nl;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function clip(sentence: string): string {
  if (sentence.length <= MAX_DESCRIPTION_CHARS) return sentence;
  const cut = sentence.slice(0, MAX_DESCRIPTION_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), MAX_DESCRIPTION_CHARS / 2))}…`;
}
