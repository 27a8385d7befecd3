/**
 * Validation of one proposed split. The engine cuts the text at the proposed
 * start lines itself, so the LLM can never alter content; the joined chapters
 * are still compared with the input (ignoring line breaks) through the one
 * chunking validator, which guards against cutting bugs and gives the diff the
 * UI shows and the next attempt is told about.
 */
import type { ProposedChapter } from '../../../shared/treesplit';
import type { TextDiff } from '../../../shared/types';
import { firstDifference } from '../chunking';
import { firstContentLine, isBlank, lineOffset, type NodeText } from './view';

/** A chapter the engine cut: absolute [start, end) and its first line (1-based in the node). */
export interface CutChapter {
  title: string;
  startLine: number;
  start: number;
  end: number;
  /** Indexes (0-based, in the final list) of chapters the LLM said this one needs as context. */
  contextChapters: number[];
}

export type ChapterValidation = { ok: true; chapters: CutChapter[]; notes: string[] } | { ok: false; errors: string[]; diff: TextDiff | null; notes: string[] };

export interface ChapterValidationOptions {
  /** Chapters with fewer non-blank characters merge into a neighbour (not a failure). */
  minChapterChars: number;
  /** Characters of context each side of a difference. */
  diffContext?: number;
}

const contentChars = (s: string): number => s.replace(/\s+/g, '').length;

export function cleanTitle(title: string, index: number): string {
  const t = title.replace(/\s+/g, ' ').trim().slice(0, 120);
  return t === '' ? `Chapter ${index + 1}` : t;
}

/** A line of a contents page: a title, dot leaders, a page number ("7.1 High Risk . . . . 6", "Summary …… 3"). */
const CONTENTS_LINE = /(?:\.\s?){4,}\s*\d{1,4}\s*$|…+\s*\d{1,4}\s*$/u;
/**
 * A numbered or ID'd heading ("3. Use of error-prone pattern", "7.3.5 Various…", "TOB-PE-3: …"): printed once as a
 * heading. Its title has a word: a numbered code line ("340 }") is no heading, however often a listing repeats it.
 */
const NUMBERED_LINE = /^\s*(?:\d+(?:\.\d+)*\.?|[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+:?)\s+[^\n]*\p{L}/u;

/** A line as a heading key: without dot leaders and page number, spaces and case folded. */
function headingKey(line: string): string {
  return line
    .replace(/(?:[.…]\s?){2,}\s*\d{0,4}\s*$/u, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Two heading keys name the same heading: equal, or one is the other cut short (a contents line's truncated title). */
function sameHeading(a: string, b: string): boolean {
  if (a === b) return a !== '';
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.split(' ').length >= 4 && long.startsWith(short);
}

/** Neighbours looked at each side of a line to tell a list of entries (contents, summary table) from a heading in the text. */
const LISTING_NEIGHBOURS = 3;

/**
 * Line n stands in a list of entries: most of the non-blank lines around it are numbered or contents lines too. A
 * section's own heading stands among prose (the previous section's end, its severity and description lines).
 */
function inListing(nt: NodeText, n: number): boolean {
  const around: string[] = [];
  for (let i = n - 2; i >= 0 && around.length < LISTING_NEIGHBOURS; i--) if (!isBlank(nt.lines[i]!)) around.push(nt.lines[i]!);
  const before = around.length;
  for (let i = n; i < nt.lines.length && around.length < before + LISTING_NEIGHBOURS; i++) if (!isBlank(nt.lines[i]!)) around.push(nt.lines[i]!);
  const listed = around.filter((line) => NUMBERED_LINE.test(line) || CONTENTS_LINE.test(line)).length;
  return around.length > 0 && listed * 2 > around.length;
}

/**
 * Chapters that start where a heading is only listed, not where its section begins: on a line of a contents page,
 * or on a numbered heading the text prints again further on (a summary table's row, the contents' entry), where the
 * section really starts. Such a split cuts the contents into chapters and leaves the sections inside the wrong ones
 * (trial 2026-11-28 row 23), so it fails, naming the line to start at instead.
 */
function listedStarts(nt: NodeText, proposed: readonly ProposedChapter[]): string[] {
  const errors: string[] = [];
  proposed.forEach((c, i) => {
    if (i === 0) return;
    const n = c.chapterStartLineNumber;
    const line = nt.lines[n - 1] ?? '';
    const label = `chapter ${i + 1}`;
    if (CONTENTS_LINE.test(line)) {
      errors.push(
        `${label} starts at line ${n}, a line of the contents ("${line.trim().slice(0, 60)}"): start each chapter at its section's heading, not at its entry in the contents`,
      );
      return;
    }
    if (!NUMBERED_LINE.test(line) || !inListing(nt, n)) return;
    const key = headingKey(line);
    for (let later = n + 1; later <= nt.lines.length; later++) {
      if (!sameHeading(key, headingKey(nt.lines[later - 1]!))) continue;
      errors.push(
        `${label} starts at line ${n}, where the heading "${line.trim().slice(0, 60)}" is only listed: the text prints it again at line ${later}, where its section starts`,
      );
      return;
    }
  });
  return errors;
}

/**
 * Checks the proposal (first chapter at the first line, starts strictly
 * increasing and in range, no chapter starting on a contents line or on a
 * heading printed again later, no empty chapter), merges tiny chapters into a
 * neighbour, refuses a split that makes no progress (one chapter covering
 * everything), cuts the text and compares the joined chapters with the input.
 */
export function validateChapters(nt: NodeText, proposed: readonly ProposedChapter[], options: ChapterValidationOptions): ChapterValidation {
  const errors: string[] = [];
  const notes: string[] = [];
  const lineCount = nt.lines.length;
  const first = firstContentLine(nt);
  if (proposed.length === 0) return { ok: false, errors: ['no chapters were proposed'], diff: null, notes };

  proposed.forEach((c, i) => {
    const n = c.chapterStartLineNumber;
    const label = `chapter ${i + 1}`;
    if (!Number.isInteger(n) || n < 1 || n > lineCount) {
      errors.push(`${label} starts at line ${n}, outside the text (lines 1-${lineCount})`);
      return;
    }
    if (i === 0 && n > first) errors.push(`chapter 1 starts at line ${n}, but the first chapter must start at the first line (${first})`);
    const prev = proposed[i - 1];
    if (prev && Number.isInteger(prev.chapterStartLineNumber) && n <= prev.chapterStartLineNumber) {
      errors.push(
        n === prev.chapterStartLineNumber
          ? `${label} starts at the same line as chapter ${i} (line ${n})`
          : `${label} starts before chapter ${i} (line ${n} < line ${prev.chapterStartLineNumber})`,
      );
    }
  });
  if (errors.length > 0) return { ok: false, errors, diff: null, notes };
  errors.push(...listedStarts(nt, proposed));
  if (errors.length > 0) return { ok: false, errors, diff: null, notes };

  // Cut: the first chapter always begins at the node's start (leading blank lines belong to it).
  const starts = proposed.map((c, i) => (i === 0 ? 1 : c.chapterStartLineNumber));
  let cuts = proposed.map((c, i) => {
    const startLine = starts[i]!;
    const endLine = starts[i + 1] ?? lineCount + 1;
    return {
      title: cleanTitle(c.chapterTitle, i),
      startLine,
      start: lineOffset(nt, startLine),
      end: lineOffset(nt, endLine),
      sourceIndex: c.chapterIndex,
      context: c.importantContextChapterIndexes,
    };
  });

  cuts.forEach((c, i) => {
    const lines = nt.lines.slice(c.startLine - 1, (cuts[i + 1]?.startLine ?? lineCount + 1) - 1);
    if (lines.every(isBlank)) errors.push(`chapter ${i + 1} "${c.title}" (lines ${c.startLine}-${c.startLine + lines.length - 1}) is empty`);
  });
  if (errors.length > 0) return { ok: false, errors, diff: null, notes };

  // Tiny chapters merge into the previous chapter (the first one into the next).
  const text = (c: { start: number; end: number }) => nt.text.slice(c.start - nt.start, c.end - nt.start);
  for (let i = 0; i < cuts.length && cuts.length > 1; ) {
    const c = cuts[i]!;
    if (contentChars(text(c)) >= options.minChapterChars) {
      i++;
      continue;
    }
    if (i === 0) {
      const next = cuts[1]!;
      notes.push(`chapter "${c.title}" is shorter than ${options.minChapterChars} characters: merged into "${next.title}"`);
      cuts[1] = { ...next, start: c.start, startLine: c.startLine };
      cuts = cuts.slice(1);
    } else {
      const prev = cuts[i - 1]!;
      notes.push(`chapter "${c.title}" is shorter than ${options.minChapterChars} characters: merged into "${prev.title}"`);
      cuts[i - 1] = { ...prev, end: c.end };
      cuts.splice(i, 1);
    }
  }
  if (cuts.length < 2) {
    return {
      ok: false,
      errors: ['the split makes no progress: one chapter covers the whole text; propose at least two chapters at natural boundaries'],
      diff: null,
      notes,
    };
  }

  const joined = cuts.map(text).join('');
  const diff = firstDifference(nt.text, joined, options.diffContext ?? 60, { ignoreLineBreaks: true });
  if (diff) {
    return { ok: false, errors: [`the chapters joined differ from the text at offset ${nt.start + diff.offset}`], diff, notes };
  }
  const indexBySource = new Map(cuts.map((c, i) => [c.sourceIndex, i]));
  return {
    ok: true,
    notes,
    chapters: cuts.map((c, i) => ({
      title: c.title,
      startLine: c.startLine,
      start: c.start,
      end: c.end,
      contextChapters: [...new Set(c.context.map((k) => indexBySource.get(k)).filter((k): k is number => k !== undefined && k !== i))],
    })),
  };
}
