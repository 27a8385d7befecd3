/**
 * What the LLM sees of a node: its lines, numbered from 1. Short texts are
 * shown whole; long ones compactly (line number + the line's beginning,
 * heading-like lines in full, and inside long paragraphs only the lines that
 * start one), at the most detailed level that keeps the view cheap and fits
 * the budget. When even the most compact view does not fit, it is cut into
 * windows that do (never truncated), with an overlap that gives each window
 * the end of the previous one as context.
 */

/** A node's text as lines: line n (1-based) is `lines[n-1]`, starting at `start + lineStarts[n-1]`. */
export interface NodeText {
  start: number;
  end: number;
  text: string;
  lines: string[];
  lineStarts: number[];
}

export function nodeText(docText: string, start: number, end: number): NodeText {
  const text = docText.slice(start, end);
  const lines = text.split('\n');
  const lineStarts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    lineStarts.push(offset);
    offset += line.length + 1;
  }
  return { start, end, text, lines, lineStarts };
}

/** Absolute offset where line n (1-based) starts; n = lines + 1 means the node's end. */
export function lineOffset(nt: NodeText, n: number): number {
  if (n > nt.lines.length) return nt.end;
  return nt.start + nt.lineStarts[n - 1]!;
}

export const isBlank = (line: string): boolean => line.trim() === '';

/** Number of the first line with content (1 when all are blank). */
export function firstContentLine(nt: NodeText): number {
  const i = nt.lines.findIndex((l) => !isBlank(l));
  return i < 0 ? 1 : i + 1;
}

export function nonBlankLineCount(text: string): number {
  let n = 0;
  for (const line of text.split('\n')) if (!isBlank(line)) n++;
  return n;
}

export interface ViewLevel {
  name: string;
  /** Show only lines that start a paragraph (plus heading-like lines, plus one in every `runEvery` lines of a long paragraph). */
  paragraphStartsOnly: boolean;
  /** Characters of each line shown; null = the whole line. */
  prefixChars: number | null;
}

export const VIEW_LEVELS: readonly ViewLevel[] = [
  { name: 'full', paragraphStartsOnly: false, prefixChars: null },
  { name: 'lines-60', paragraphStartsOnly: false, prefixChars: 60 },
  { name: 'paragraphs-60', paragraphStartsOnly: true, prefixChars: 60 },
  { name: 'paragraphs-32', paragraphStartsOnly: true, prefixChars: 32 },
  { name: 'paragraphs-16', paragraphStartsOnly: true, prefixChars: 16 },
];

/** Longest heading-like line shown in full. */
const HEADING_MAX_CHARS = 140;
/** In a long paragraph, one line in this many is shown, so a start can still be placed inside it. */
const RUN_EVERY = 12;

export interface ViewEntry {
  line: number;
  text: string;
  tokens: number;
}

export interface LineKinds {
  heading: boolean[];
  paragraphStart: boolean[];
}

const ENDS_SENTENCE = /[.!?:;]["'”’)\]]*$/;
const STARTS_BLOCK = /^\s*(?:[\p{Lu}\p{N}"'“(\[•\-–*§]|\p{Lo})/u;

/** Heading-like and paragraph-start lines; `headingStarts` holds absolute offsets of detected heading candidates. */
export function classifyLines(nt: NodeText, headingStarts: ReadonlySet<number>): LineKinds {
  const heading: boolean[] = [];
  const paragraphStart: boolean[] = [];
  nt.lines.forEach((line, i) => {
    const blank = isBlank(line);
    const prev = i > 0 ? nt.lines[i - 1]! : '';
    const next = i + 1 < nt.lines.length ? nt.lines[i + 1]! : '';
    const afterBreak = i === 0 || isBlank(prev) || (ENDS_SENTENCE.test(prev.trimEnd()) && STARTS_BLOCK.test(line));
    const trimmed = line.trim();
    const shortIsolated =
      !blank &&
      trimmed.length <= 90 &&
      !/[.,;]$/.test(trimmed) &&
      STARTS_BLOCK.test(trimmed) &&
      (i === 0 || isBlank(prev) || isBlank(next) || ENDS_SENTENCE.test(prev.trimEnd()));
    heading.push(!blank && (headingStarts.has(nt.start + nt.lineStarts[i]!) || (shortIsolated && trimmed.length <= 80 && afterBreak)));
    paragraphStart.push(!blank && afterBreak);
  });
  return { heading, paragraphStart };
}

function clip(line: string, chars: number | null): string {
  const t = line.replace(/\s+/g, ' ').trim();
  if (chars === null || t.length <= chars) return t;
  return `${t.slice(0, chars).trimEnd()}…`;
}

/** The view's entries at one level; tokens per entry from `estimate` (newline included). */
export function renderView(nt: NodeText, kinds: LineKinds, level: ViewLevel, estimate: (text: string) => number): ViewEntry[] {
  const entries: ViewEntry[] = [];
  let sinceShown = 0;
  nt.lines.forEach((line, i) => {
    if (isBlank(line)) return;
    const n = i + 1;
    const heading = kinds.heading[i]!;
    sinceShown++;
    const show = !level.paragraphStartsOnly || heading || kinds.paragraphStart[i]! || sinceShown >= RUN_EVERY;
    if (!show) return;
    sinceShown = 0;
    const body = heading ? clip(line, Math.max(level.prefixChars ?? 0, HEADING_MAX_CHARS)) : clip(line, level.prefixChars);
    const text = `${n}|${body}`;
    entries.push({ line: n, text, tokens: estimate(`${text}\n`) });
  });
  return entries;
}

export const viewTokens = (entries: readonly ViewEntry[]): number => entries.reduce((a, e) => a + e.tokens, 0);

export interface ViewWindow {
  /** Entries shown in this window. */
  entries: ViewEntry[];
  /** Lines [authoritativeFrom, authoritativeTo) belong to this window: its chapter starts there are kept. */
  authoritativeFrom: number;
  authoritativeTo: number;
  /** First and last line shown. */
  firstLine: number;
  lastLine: number;
}

/**
 * Cuts entries into windows of at most `budget` tokens; each window after the
 * first repeats the tail of the previous one (about `overlapRatio` of a
 * window) as context. A window is authoritative for the lines it shows that
 * the previous window did not show, so every line belongs to exactly one
 * window: no start is counted twice or lost.
 */
export function windowsOf(entries: readonly ViewEntry[], budget: number, lineCount: number, overlapRatio = 0.15): ViewWindow[] {
  if (entries.length === 0) return [{ entries: [], authoritativeFrom: 1, authoritativeTo: lineCount + 1, firstLine: 1, lastLine: lineCount }];
  const windows: { from: number; to: number }[] = [];
  let from = 0;
  while (from < entries.length) {
    let to = from;
    let used = 0;
    while (to < entries.length && (to === from || used + entries[to]!.tokens <= budget)) used += entries[to++]!.tokens;
    windows.push({ from, to });
    if (to >= entries.length) break;
    // Next window starts a little before this one's end (overlap), but always moves forward.
    let back = to;
    let overlap = 0;
    while (back - 1 > from + 1 && overlap + entries[back - 1]!.tokens <= budget * overlapRatio) overlap += entries[--back]!.tokens;
    from = Math.max(back, from + 1);
  }
  return windows.map((w, k) => {
    const shown = entries.slice(w.from, w.to);
    const previous = windows[k - 1];
    const next = windows[k + 1];
    const authoritativeFrom = previous ? entries[previous.to]!.line : 1;
    const authoritativeTo = next ? entries[w.to]!.line : lineCount + 1;
    return { entries: shown, authoritativeFrom, authoritativeTo, firstLine: shown[0]!.line, lastLine: shown[shown.length - 1]!.line };
  });
}
