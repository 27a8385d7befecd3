/**
 * Grounding: finds a finding's quoted evidence in the canonical text, so a
 * finding can cite offsets and a page, and an invented quote is flagged.
 *
 * Three levels, each tried on the chunk's own text first, then on the
 * previous chunk's tail (given to the model as context) joined with the chunk:
 *
 * 1. exact: the evidence (trimmed) occurs verbatim;
 * 2. normalized: both sides normalised: invisible characters and soft hyphens
 *    removed, hyphenation at line ends joined ("exam-\nple" -> "example"),
 *    whitespace runs (page separators included) collapsed, curly quotes and
 *    dash variants unified, ligatures expanded, case folded, page markers
 *    ("[page 3]") and surrounding quotes/ellipses removed from the evidence;
 *    offsets are mapped back to the canonical text;
 * 3. fuzzy: token alignment as in LangExtract: the evidence's word tokens are
 *    aligned in order (longest common subsequence) with a window of the text
 *    at most 1.25x the evidence's length; grounded when at least 75% of the
 *    evidence tokens align (FUZZY_THRESHOLD, LangExtract's default) and the
 *    evidence has at least MIN_FUZZY_TOKENS tokens (shorter quotes must match
 *    at level 1 or 2). The score is the aligned share.
 *
 * Not found: `ungrounded`, kept with the best share seen, never counted as verified.
 */
import { pageAt } from '../../../shared/canonical';
import type { Grounding, MatchKind } from '../../../shared/findings';
import type { PageSpan } from '../../../shared/types';

export const FUZZY_THRESHOLD = 0.75;
export const MIN_FUZZY_TOKENS = 4;
/** Window length relative to the evidence's token count (room for inserted words). */
export const FUZZY_WINDOW_FACTOR = 1.25;

const INVISIBLE = /[\u200B-\u200F\u2060-\u2064\uFEFF\u00AD\u202A-\u202E\u2066-\u2069]/;
const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/;
const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u2032\u0060\u00B4]/;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/;
const LIGATURES: Record<string, string> = {
  '\uFB00': 'ff',
  '\uFB01': 'fi',
  '\uFB02': 'fl',
  '\uFB03': 'ffi',
  '\uFB04': 'ffl',
  '\uFB05': 'st',
  '\uFB06': 'st',
  '\u2026': '...',
};

export interface NormalizedText {
  text: string;
  /** map[i] = offset in the source of normalised character i (absolute when `base` was given). */
  map: Int32Array;
}

/** Normalises source[start, end) for matching; map points back to absolute offsets. */
export function normalizeForMatch(source: string, start = 0, end = source.length): NormalizedText {
  const out: string[] = [];
  // A character becomes at most three ("\uFB03" -> "ffi"): room for all, cut to length at the end.
  const map = new Int32Array(3 * Math.max(0, end - start));
  let length = 0;
  /** The last character written ('' before the first). */
  let last = '';
  const push = (s: string, at: number) => {
    for (const c of s) {
      out.push(c);
      map[length++] = at;
      last = c;
    }
  };
  for (let i = start; i < end; i++) {
    // Most characters are printable ASCII other than the dash, the backtick and spaces: kept as they are, upper case
    // lowered, a run of them at once, without the tests below (none of which such a character meets). The merge and
    // grounding normalise every quote, title and document this way, so this is most of their time.
    if (isPlain(source.charCodeAt(i))) {
      let j = i + 1;
      while (j < end && isPlain(source.charCodeAt(j))) j++;
      const run = source.slice(i, j).toLowerCase();
      out.push(run);
      for (let k = i; k < j; k++) map[length++] = k;
      last = run[run.length - 1]!;
      i = j - 1;
      continue;
    }
    const ch = source[i]!;
    if (INVISIBLE.test(ch)) continue;
    const isDash = ch === '-' || DASHES.test(ch);
    if (isDash) {
      // Hyphenation: letter, dash, line break, lower-case letter -> join the word.
      let j = i + 1;
      while (j < end && (source[j] === ' ' || source[j] === '\t' || INVISIBLE.test(source[j]!))) j++;
      if (j < end && /[\n\r\f]/.test(source[j]!) && /\p{L}/u.test(last)) {
        let k = j;
        while (k < end && /\s/.test(source[k]!)) k++;
        if (k < end && /\p{Ll}/u.test(source[k]!)) {
          i = k - 1;
          continue;
        }
      }
      push('-', i);
      continue;
    }
    if (/\s/.test(ch)) {
      if (length > 0 && last !== ' ') push(' ', i);
      continue;
    }
    if (SINGLE_QUOTES.test(ch)) {
      push("'", i);
      continue;
    }
    if (DOUBLE_QUOTES.test(ch)) {
      push('"', i);
      continue;
    }
    const lig = LIGATURES[ch];
    if (lig !== undefined) {
      push(lig, i);
      continue;
    }
    const lower = ch.toLowerCase();
    push(lower.length === 1 ? lower : ch, i);
  }
  return { text: out.join(''), map: map.slice(0, length) };
}

/** A printable ASCII character other than the dash and the backtick (and so not white space): normalised to itself, lowered. */
function isPlain(code: number): boolean {
  return code > 32 && code < 127 && code !== 45 && code !== 96;
}

/**
 * Normalised views of stretches of one text, each computed once: the rules look many titles up in the same unit (every
 * recorded finding's heading, each of its shorter wordings), and normalising the unit again for each was most of the
 * extraction's own CPU time.
 */
export class NormalizedViews {
  private readonly views = new Map<string, NormalizedText>();
  constructor(readonly text: string) {}

  /** normalizeForMatch(text, from, to), computed on first use. */
  of(from: number, to: number): NormalizedText {
    const key = `${from}:${to}`;
    let view = this.views.get(key);
    if (!view) this.views.set(key, (view = normalizeForMatch(this.text, from, to)));
    return view;
  }
}

/** Page markers the prompt inserts ("[page 3]") never belong to a quote. */
const PAGE_MARKER = /\[page \d+\]/gi;

/** The evidence as it is searched at the normalised level. */
export function normalizeEvidence(evidence: string): string {
  const n = normalizeForMatch(evidence.replace(PAGE_MARKER, ' ')).text;
  return n.replace(/^[\s"'.…]+|[\s"'.…]+$/g, '').replace(/\s+/g, ' ');
}

interface Token {
  text: string;
  start: number;
  /** exclusive */
  end: number;
}

function tokensOf(view: NormalizedText): Token[] {
  const tokens: Token[] = [];
  for (const m of view.text.matchAll(/[\p{L}\p{N}]+/gu)) {
    tokens.push({ text: m[0], start: view.map[m.index]!, end: view.map[m.index + m[0].length - 1]! + 1 });
  }
  return tokens;
}

export function evidenceTokens(evidence: string): string[] {
  return [...normalizeForMatch(evidence.replace(PAGE_MARKER, ' ')).text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]);
}

export interface FuzzyMatch {
  score: number;
  start: number;
  end: number;
}

/** Length of the longest common subsequence of a and b[from, to), with the first and last matched b index. */
function lcs(a: readonly string[], b: readonly Token[], from: number, to: number): { length: number; first: number; last: number } {
  const w = to - from;
  // prev[j] = {len, first, last} for a[0..i) vs b[from..from+j)
  let prevLen = new Array<number>(w + 1).fill(0);
  let prevFirst = new Array<number>(w + 1).fill(-1);
  let prevLast = new Array<number>(w + 1).fill(-1);
  for (let i = 1; i <= a.length; i++) {
    const curLen = new Array<number>(w + 1).fill(0);
    const curFirst = new Array<number>(w + 1).fill(-1);
    const curLast = new Array<number>(w + 1).fill(-1);
    for (let j = 1; j <= w; j++) {
      if (a[i - 1] === b[from + j - 1]!.text) {
        curLen[j] = prevLen[j - 1]! + 1;
        curFirst[j] = prevLen[j - 1]! === 0 ? from + j - 1 : prevFirst[j - 1]!;
        curLast[j] = from + j - 1;
      } else if (prevLen[j]! >= curLen[j - 1]!) {
        curLen[j] = prevLen[j]!;
        curFirst[j] = prevFirst[j]!;
        curLast[j] = prevLast[j]!;
      } else {
        curLen[j] = curLen[j - 1]!;
        curFirst[j] = curFirst[j - 1]!;
        curLast[j] = curLast[j - 1]!;
      }
    }
    prevLen = curLen;
    prevFirst = curFirst;
    prevLast = curLast;
  }
  return { length: prevLen[w]!, first: prevFirst[w]!, last: prevLast[w]! };
}

/**
 * Best in-order token alignment of the evidence with a window of source[start, end).
 * Returns the best match (even below the threshold) or undefined when no window shares enough tokens to try.
 */
export function fuzzyFind(source: string, evidence: string, start = 0, end = source.length): FuzzyMatch | undefined {
  const ev = evidenceTokens(evidence);
  const n = ev.length;
  if (n === 0) return undefined;
  const region = tokensOf(normalizeForMatch(source, start, end));
  const evSet = new Map<string, number>();
  for (const t of ev) evSet.set(t, (evSet.get(t) ?? 0) + 1);
  const window = Math.max(n, Math.ceil(n * FUZZY_WINDOW_FACTOR));
  // Cheap bound before the alignment: tokens of the window that occur in the evidence (as a bag).
  const need = Math.ceil(n * 0.5);
  let best: FuzzyMatch | undefined;
  for (let i = 0; i < region.length; i++) {
    if (!evSet.has(region[i]!.text)) continue;
    const to = Math.min(region.length, i + window);
    const bag = new Map(evSet);
    let shared = 0;
    for (let j = i; j < to; j++) {
      const left = bag.get(region[j]!.text);
      if (left !== undefined && left > 0) {
        bag.set(region[j]!.text, left - 1);
        shared++;
      }
    }
    if (shared < need || (best && shared / n <= best.score)) continue;
    const r = lcs(ev, region, i, to);
    if (r.length === 0) continue;
    const score = r.length / n;
    const candidate = { score, start: region[r.first]!.start, end: region[r.last]!.end };
    if (!best || score > best.score || (score === best.score && candidate.end - candidate.start < best.end - best.start)) best = candidate;
    if (best.score === 1) break;
  }
  return best;
}

export interface GroundingRegions {
  /** The chunk's [start, end) in the canonical text. */
  chunk: { start: number; end: number };
  /** The previous chunk's tail shown as context, [start, end), ending at or before chunk.end. */
  context?: { start: number; end: number };
}

function exactFind(text: string, needle: string, start: number, end: number): { start: number; end: number } | undefined {
  if (needle.length === 0) return undefined;
  const i = text.slice(start, end).indexOf(needle);
  return i < 0 ? undefined : { start: start + i, end: start + i + needle.length };
}

function normalizedFind(text: string, needle: string, start: number, end: number): { start: number; end: number } | undefined {
  if (needle.length === 0) return undefined;
  const view = normalizeForMatch(text, start, end);
  const i = view.text.indexOf(needle);
  if (i < 0) return undefined;
  return { start: view.map[i]!, end: view.map[i + needle.length - 1]! + 1 };
}

/** Grounds one evidence quote in the canonical text (see the module comment for the levels). */
export function groundEvidence(text: string, pages: readonly PageSpan[], evidence: string, regions: GroundingRegions): Grounding {
  const chunk = regions.chunk;
  const ctx = regions.context && regions.context.start < chunk.start ? regions.context : undefined;
  const areas: Array<{ start: number; end: number }> = [chunk, ...(ctx ? [{ start: ctx.start, end: chunk.end }] : [])];
  const found = (match: MatchKind, score: number, at: { start: number; end: number }): Grounding => ({
    status: 'grounded',
    match,
    score,
    start: at.start,
    end: at.end,
    page: pageAt(pages, at.start),
    inContextOnly: at.end <= chunk.start,
  });

  const trimmed = evidence.trim();
  for (const area of areas) {
    const at = exactFind(text, trimmed, area.start, area.end);
    if (at) return found('exact', 1, at);
  }
  const needle = normalizeEvidence(evidence);
  for (const area of areas) {
    const at = normalizedFind(text, needle, area.start, area.end);
    if (at) return found('normalized', 1, at);
  }
  let bestScore: number | null = null;
  if (evidenceTokens(evidence).length >= MIN_FUZZY_TOKENS) {
    for (const area of areas) {
      const m = fuzzyFind(text, evidence, area.start, area.end);
      if (!m) continue;
      if (m.score >= FUZZY_THRESHOLD) return found('fuzzy', round(m.score), m);
      bestScore = Math.max(bestScore ?? 0, round(m.score));
    }
  }
  return { status: 'ungrounded', match: null, score: bestScore, start: null, end: null, page: null, inContextOnly: false };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
