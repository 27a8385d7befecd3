/**
 * Leaf sizing: the sentence/paragraph splitter, the page chunker and the
 * greedy merger. All of them work on offsets into the canonical text, so the
 * leaves they produce partition it (overlaps are declared, never implied).
 */
import type { ChunkOrigin, PageSpan, Section } from '../../../shared/types';
import { findCommonPrefix } from './hierarchy';

/** A [start, end) slice of the canonical text; `overlapBefore` chars repeat the previous piece's end. */
export interface TextPiece {
  start: number;
  end: number;
  overlapBefore: number;
}

/** A size budget in both measures; a slice fits when it is within both. */
export interface SizeLimit {
  chars: number;
  tokens: number;
}

export type TokenEstimator = (text: string) => number;

export interface SplitOptions {
  limit: SizeLimit;
  overlapChars: number;
  estimateTokens: TokenEstimator;
}

function fits(text: string, start: number, end: number, limit: SizeLimit, estimate: TokenEstimator): boolean {
  return end - start <= limit.chars && estimate(text.slice(start, end)) <= limit.tokens;
}

/** True when the slice reaches the budget in either measure (tokens are what the model pays, chars what humans set). */
function reaches(text: string, start: number, end: number, limit: SizeLimit, estimate: TokenEstimator): boolean {
  return end - start >= limit.chars || estimate(text.slice(start, end)) >= limit.tokens;
}

/**
 * Furthest end (<= rangeEnd) such that [start, end) fits the limit. Binary
 * search on tokens assumes the estimator grows with the text, which any sane
 * estimator does. Always at least start + 1, so callers make progress.
 */
function furthestFittingEnd(text: string, start: number, rangeEnd: number, limit: SizeLimit, estimate: TokenEstimator): number {
  let hi = Math.min(rangeEnd, start + limit.chars);
  if (estimate(text.slice(start, hi)) <= limit.tokens) return hi;
  let lo = start + 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (estimate(text.slice(start, mid)) <= limit.tokens) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const isSpace = (ch: string | undefined): boolean => ch !== undefined && /\s/.test(ch);

/** A cut position where a word starts right after whitespace. */
function isWordStart(text: string, p: number): boolean {
  return p > 0 && isSpace(text[p - 1]) && !isSpace(text[p]);
}

/** Start of the whitespace run that ends at p. */
function whitespaceRunStart(text: string, p: number): number {
  let q = p;
  while (q > 0 && isSpace(text[q - 1])) q--;
  return q;
}

function isParagraphStart(text: string, p: number): boolean {
  if (!isWordStart(text, p)) return false;
  const gap = text.slice(whitespaceRunStart(text, p), p);
  // A blank line, or the form feed of PAGE_SEPARATOR.
  return (gap.match(/\n/g)?.length ?? 0) >= 2 || gap.includes('\f');
}

/** Words whose trailing dot does not end a sentence. */
const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'fig',
  'figs',
  'no',
  'nos',
  'nr',
  'vs',
  'cf',
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'st',
  'approx',
  'p',
  'pp',
  'vol',
  'art',
  'sec',
  'ch',
  'ca',
  'incl',
  'resp',
  'z.b',
  'd.h',
  'etc',
]);

function isSentenceStart(text: string, p: number): boolean {
  if (!isWordStart(text, p)) return false;
  let q = whitespaceRunStart(text, p);
  while (q > 0 && /["'’”)\]]/.test(text[q - 1]!)) q--;
  const punct = text[q - 1];
  if (punct === '!' || punct === '?') return true;
  if (punct !== '.') return false;
  const word = /[\p{L}.]*$/u.exec(text.slice(Math.max(0, q - 12), q - 1))?.[0] ?? '';
  return !ABBREVIATIONS.has(word.toLowerCase());
}

/** Break finders in order of preference: paragraph, sentence, word. */
const BREAK_FINDERS: readonly ((text: string, p: number) => boolean)[] = [isParagraphStart, isSentenceStart, isWordStart];

/** Best cut in [lo, hi]: the latest paragraph break, else sentence end, else word start, else a hard cut at hi. */
function findCut(text: string, lo: number, hi: number): number {
  for (const isBreak of BREAK_FINDERS) {
    for (let p = hi; p >= lo; p--) if (isBreak(text, p)) return p;
  }
  // Hard cut; never between the halves of a surrogate pair.
  const highSurrogate = /[\uD800-\uDBFF]/;
  return hi - 1 >= lo && hi > 0 && highSurrogate.test(text[hi - 1]!) ? hi - 1 : hi;
}

/** Where the next piece starts to repeat about `overlapChars` of the previous one, snapped to a word start. */
function overlapStart(text: string, cut: number, overlapChars: number, pieceStart: number): number {
  if (overlapChars === 0) return cut;
  const earliest = Math.max(cut - overlapChars, pieceStart + 1);
  for (let q = earliest; q < cut; q++) if (isWordStart(text, q)) return q;
  return earliest;
}

/**
 * Cuts [start, end) into pieces that each fit `limit`, preferring paragraph
 * breaks, then sentence ends, then whitespace, then a hard cut. Every piece
 * ends after the previous one (the cut is searched only past the previous
 * end), so the loop always terminates, even on text without any space.
 */
export function splitRange(text: string, start: number, end: number, options: SplitOptions): TextPiece[] {
  const pieces: TextPiece[] = [];
  let pieceStart = start;
  let overlap = 0;
  while (pieceStart + overlap < end) {
    const previousEnd = pieceStart + overlap;
    const hi = furthestFittingEnd(text, pieceStart, end, options.limit, options.estimateTokens);
    if (hi === end) {
      pieces.push({ start: pieceStart, end, overlapBefore: overlap });
      break;
    }
    // Search the back half so pieces stay near the target size.
    const lo = Math.max(pieceStart + Math.floor((hi - pieceStart) / 2), previousEnd + 1);
    if (lo > hi) {
      // The token budget is smaller than the overlap: drop the overlap for this piece.
      pieceStart = previousEnd;
      overlap = 0;
      continue;
    }
    const cut = findCut(text, lo, hi);
    pieces.push({ start: pieceStart, end: cut, overlapBefore: overlap });
    pieceStart = overlapStart(text, cut, options.overlapChars, pieceStart);
    overlap = cut - pieceStart;
  }
  return pieces;
}

/** A page chunk: one page (with its trailing separator) or a piece of one. */
export interface PageChunk extends TextPiece {
  pageStart: number;
  pageEnd: number;
  part: number;
  partCount: number;
}

export interface PageChunkOptions {
  pageMaxChars: number;
  pageOverlapChars: number;
  maxTokens: number;
  estimateTokens: TokenEstimator;
}

/**
 * Page ranges that partition the text: each page owns the separator after it
 * (an offset in a separator belongs to the page before, as in `pageAt`).
 * Blank pages (scans, empty pages) are folded into the previous range, or the
 * next one at the start, so no leaf is only whitespace.
 */
function pageRanges(text: string, pages: readonly PageSpan[]): { start: number; end: number; pageStart: number; pageEnd: number; textChars: number }[] {
  const ranges: { start: number; end: number; pageStart: number; pageEnd: number; textChars: number }[] = [];
  let pending: { start: number; pageStart: number } | null = null;
  pages.forEach((page, i) => {
    const end = pages[i + 1]?.start ?? text.length;
    const blank = text.slice(page.start, page.end).trim() === '';
    const last = ranges[ranges.length - 1];
    if (blank && last) {
      last.end = end;
      last.pageEnd = page.pageNumber;
    } else if (blank) {
      pending ??= { start: page.start, pageStart: page.pageNumber };
    } else {
      ranges.push({
        start: pending?.start ?? page.start,
        end,
        pageStart: pending?.pageStart ?? page.pageNumber,
        pageEnd: page.pageNumber,
        textChars: page.end - page.start,
      });
      pending = null;
    }
  });
  const onlyBlank = pending as { start: number; pageStart: number } | null;
  if (onlyBlank && text.length > onlyBlank.start) {
    ranges.push({
      start: onlyBlank.start,
      end: text.length,
      pageStart: onlyBlank.pageStart,
      pageEnd: pages[pages.length - 1]!.pageNumber,
      textChars: text.length - onlyBlank.start,
    });
  }
  return ranges.filter((r) => r.end > r.start);
}

/**
 * Audit ADR: one page per chunk when the page is at most `pageMaxChars`
 * (and within the token budget), otherwise pieces of at most `pageMaxChars`
 * cut at sentence ends with `pageOverlapChars` overlap.
 */
export function chunkPages(text: string, pages: readonly PageSpan[], options: PageChunkOptions): PageChunk[] {
  const chunks: PageChunk[] = [];
  for (const range of pageRanges(text, pages)) {
    const wholePage =
      range.textChars <= options.pageMaxChars &&
      range.end - range.start <= options.pageMaxChars + 3 &&
      options.estimateTokens(text.slice(range.start, range.end)) <= options.maxTokens;
    const pieces = wholePage
      ? [{ start: range.start, end: range.end, overlapBefore: 0 }]
      : splitRange(text, range.start, range.end, {
          limit: { chars: options.pageMaxChars, tokens: options.maxTokens },
          overlapChars: options.pageOverlapChars,
          estimateTokens: options.estimateTokens,
        });
    pieces.forEach((piece, i) => chunks.push({ ...piece, pageStart: range.pageStart, pageEnd: range.pageEnd, part: i + 1, partCount: pieces.length }));
  }
  return chunks;
}

/** A leaf before merging. */
export interface MergeCandidate extends TextPiece {
  section: Section;
  title: string;
  origin: ChunkOrigin;
  /** True when this piece begins a level 1 or 2 section: the merger's hard-ish boundary. */
  startsMajorSection: boolean;
  /** True when this piece begins a section of the PDF's outline (bookmarks are the author's own structure). */
  startsOutlineSection?: boolean;
  /**
   * True for a piece already cut to the preferred size out of an oversized
   * section: it counts as full, so the merger does not pair such pieces up
   * again (a cut just under the preferred size would otherwise absorb the next one).
   */
  complete?: boolean;
}

/** A leaf after merging; `parts` counts the candidates it absorbed. */
export interface MergedLeaf extends TextPiece {
  section: Section;
  title: string;
  origin: ChunkOrigin;
  parts: number;
}

/** The chunk being grown; `complete` is carried from its first candidate; `sections` are all its candidates' sections. */
type Accumulator = MergedLeaf & { complete: boolean; sections: Section[] };

export interface MergeOptions {
  min: SizeLimit;
  preferred: SizeLimit;
  max: SizeLimit;
  estimateTokens: TokenEstimator;
}

/**
 * The section of a leaf merged from several candidates, computed from all of
 * them at once (applying `mergeSections` pairwise would let a `[]` from two
 * unrelated sections adopt the next section's deeper path, since `[]` is a
 * prefix of everything): the level is the most general one; the path is the
 * deepest one when all sections lie on one ancestor/descendant chain, else
 * the common prefix of all paths. For two sections this equals `mergeSections`.
 */
export function mergeAllSections(sections: readonly Section[]): Section {
  const first = sections[0];
  if (!first) return { level: 0, path: [] };
  const level = Math.min(...sections.map((s) => s.level));
  const deepest = sections.reduce((a, b) => (b.path.length > a.path.length ? b : a));
  // Deepest is the longest path, so one chain means every path is a prefix of (or equal to) it.
  if (sections.every((s) => s.path.every((t, i) => t === deepest.path[i]))) return { level, path: [...deepest.path] };
  return { level, path: sections.map((s) => s.path).reduce((a, b) => findCommonPrefix(a, b)) };
}

/**
 * docs-mcp-server's greedy merger: adjacent leaves join until the chunk reaches
 * the preferred size; a join never exceeds the maximum; once the chunk has the
 * minimum size it never swallows the start of a level 1 or 2 section. Nor does
 * it swallow a level 1 or 2 section that reaches the minimum on its own: such a
 * section keeps a leaf (and so a node) of its own even after a heading with
 * hardly any text of its own. A merged leaf's section is `mergeAllSections` of
 * all its candidates' sections.
 */
export function greedyMerge(text: string, candidates: readonly MergeCandidate[], options: MergeOptions): MergedLeaf[] {
  const merged: Accumulator[] = [];
  let current: Accumulator | null = null;
  const startNew = (candidate: MergeCandidate): Accumulator => {
    if (current) merged.push(current);
    const { start, end, overlapBefore, section, title, origin, complete } = candidate;
    return { start, end, overlapBefore, section, title, origin, parts: 1, complete: complete ?? false, sections: [section] };
  };
  for (const next of candidates) {
    if (!current || !canAbsorb(text, current, next, options)) {
      current = startNew(next);
      continue;
    }
    const sections: Section[] = [...current.sections, next.section];
    current = { ...current, end: next.end, section: mergeAllSections(sections), parts: current.parts + 1, sections };
  }
  if (current) merged.push(current);
  return merged.map(({ complete: _complete, sections: _sections, ...leaf }) =>
    leaf.parts > 1 ? { ...leaf, title: `${leaf.title} (+${leaf.parts - 1})` } : leaf,
  );
}

function canAbsorb(text: string, current: Accumulator, next: MergeCandidate, options: MergeOptions): boolean {
  const estimate = options.estimateTokens;
  if (current.complete || reaches(text, current.start, current.end, options.preferred, estimate)) return false;
  if (next.startsMajorSection && reaches(text, current.start, current.end, options.min, estimate)) return false;
  // Major sections, and every bookmarked (outline) section, that are substantial on their own keep their own leaf.
  if ((next.startsMajorSection || next.startsOutlineSection) && reaches(text, next.start, next.end, options.min, estimate)) return false;
  return fits(text, current.start, next.end, options.max, estimate);
}
