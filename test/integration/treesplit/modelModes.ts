/**
 * Simulator responders for the tree split that behave like real local models
 * (../shared/docs/model-behaviours.md, "Shape and length"), on top of the
 * plausible model of helpers.ts:
 * - `restartNumberingSplit`: in a part of a windowed view it counts lines from
 *   1 at the first line shown instead of reading the numbers, and adds one
 *   start past the last line shown;
 * - `everyHeadingSplit`: ignores the number of chapters asked for and lists
 *   every heading-like line it sees (short, not a sentence), so its reply runs
 *   into the output limit on a page with a long table or list.
 */
import type { SimChatRequest } from '../../ollama-sim/index';
import { plausibleSplit, shownLines, windowRange } from './helpers';

interface Reply {
  chapters: { line: number; title: string }[];
}

export function restartNumberingSplit(req: SimChatRequest): string {
  const reply = JSON.parse(plausibleSplit(req)) as Reply;
  const shown = shownLines(req);
  const first = shown[0]?.[0] ?? 1;
  const last = shown.at(-1)?.[0] ?? 1;
  if (windowRange(req) === null) return JSON.stringify(reply);
  const chapters = reply.chapters.map((c) => ({ ...c, line: c.line - first + 1 }));
  chapters.push({ line: last - first + 8, title: 'Continued' });
  return JSON.stringify({ chapters });
}

/** A line a model takes for a heading: short, not cut ("…"), not ending like a sentence. */
const looksLikeHeading = (text: string): boolean => text.length >= 3 && text.length <= 80 && !text.endsWith('…') && !/[.,;:]$/.test(text);

export function everyHeadingSplit(req: SimChatRequest): string {
  const shown = shownLines(req);
  const win = windowRange(req);
  const inRange = shown.filter(([n]) => !win || (n >= win[0] && n <= win[1]));
  const headings = inRange.filter(([, t]) => looksLikeHeading(t.trim()));
  if (headings.length < 2) return plausibleSplit(req);
  const first = shown[0]![0];
  const starts = headings[0]![0] === first || (win && win[0] > first) ? headings : [[first, shown[0]![1]] as [number, string], ...headings];
  return JSON.stringify({
    chapters: starts.map(([n, t]) => ({ line: n, title: t.slice(0, 60) })),
  });
}
