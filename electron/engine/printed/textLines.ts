/**
 * The canonical text as lines with offsets and pages, and the page headers
 * and footers ("running lines") the layout rules must step over: a table row
 * continues after "Trail of Bits 15 ... PUBLIC" on the next page.
 */
import { pageAt, PAGE_SEPARATOR } from '../../../shared/canonical';
import type { PageSpan } from '../../../shared/types';
import type { TextPlace } from '../../../shared/completeness';

export interface TextLine {
  /** Position among all lines. */
  index: number;
  start: number;
  end: number;
  page: number;
  text: string;
  /** A page header or footer (same text, digits aside, on many pages). */
  running: boolean;
}

export interface PlainText {
  text: string;
  pages: readonly PageSpan[];
}

/** A line repeated on at least this share of the pages (and on 3 pages at least) is a header or footer. */
const RUNNING_SHARE = 0.3;

const FORM_FEED = PAGE_SEPARATOR.trim();

/**
 * Each document's lines, computed once: extraction's lists, the merge's printed rows and the completeness check all
 * read them, one after the other, on the engine's thread (a 236-page manual: about 40 ms each time). Read-only.
 */
const linesCache = new WeakMap<PlainText, TextLine[]>();

export function textLines(doc: PlainText): TextLine[] {
  let lines = linesCache.get(doc);
  if (!lines) linesCache.set(doc, (lines = readTextLines(doc)));
  return lines;
}

function readTextLines(doc: PlainText): TextLine[] {
  const lines: TextLine[] = [];
  let start = 0;
  // Lines come in text order, so the page only moves forward (no search per line).
  let pageIndex = 0;
  for (const raw of doc.text.split('\n')) {
    const end = start + raw.length;
    while (pageIndex + 1 < doc.pages.length && doc.pages[pageIndex + 1]!.start <= start) pageIndex++;
    // The form feed of PAGE_SEPARATOR is its own line: not text.
    if (raw !== FORM_FEED)
      lines.push({ index: lines.length, start, end, page: doc.pages[pageIndex]?.pageNumber ?? pageAt(doc.pages, start), text: raw, running: false });
    start = end + 1;
  }
  markRunningLines(lines, doc.pages.length);
  return lines;
}

/** Headers and footers are short; longer lines are never one (and skipping them keeps this pass cheap). */
const MAX_RUNNING_CHARS = 120;

function runningKey(text: string): string {
  if (text.length > MAX_RUNNING_CHARS) return '';
  return text
    .replace(/\d+/g, '#')
    .replace(/[ \t\u00a0]+/g, ' ')
    .trim()
    .toLowerCase();
}

function markRunningLines(lines: TextLine[], pageCount: number): void {
  if (pageCount < 3) return;
  const keys = lines.map((line) => runningKey(line.text));
  const pagesByKey = new Map<string, Set<number>>();
  lines.forEach((line, i) => {
    const key = keys[i]!;
    if (key.length === 0) return;
    const pages = pagesByKey.get(key) ?? new Set<number>();
    pages.add(line.page);
    pagesByKey.set(key, pages);
  });
  const minPages = Math.max(3, Math.ceil(pageCount * RUNNING_SHARE));
  for (const line of lines) {
    const key = keys[line.index]!;
    // A lone page number, a repeated footer, a marking like "PUBLIC"; never a short word like "High" that a table may repeat.
    const footerLike = key === '#' || key.length >= 8 || /^[A-Z]{5,}$/.test(line.text.trim());
    if (footerLike && (pagesByKey.get(key)?.size ?? 0) >= minPages) line.running = true;
  }
}

/** Skipped (running or blank) lines between two line indexes. */
export function countSkipped(lines: readonly TextLine[], from: number, to: number): number {
  let n = 0;
  for (let i = from + 1; i < to; i++) if (lines[i]!.running || lines[i]!.text.trim() === '') n++;
  return n;
}

/** A place in the text from a line range (whole lines), on one line of text. */
export function placeOf(lines: readonly TextLine[], from: number, to: number): TextPlace {
  const first = lines[from]!;
  const last = lines[to]!;
  return {
    start: first.start,
    end: last.end,
    page: first.page,
    text: oneLine(
      lines
        .slice(from, to + 1)
        .map((l) => l.text)
        .join(' '),
    ),
  };
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Lines of one wrapped entry as one line. A line that ends in a hyphen glued to a word continues that word on the
 * next line: "error-" + "prone" is "error-prone", and an identifier cut at the column's edge is whole again,
 * "_validate-" + "OrdersAndPrepareToFulfill" is "_validateOrdersAndPrepareToFulfill" (trial 2026-11-28 row 31): the
 * hyphen goes where the word before it is code (an underscore or a capital inside it) and the next part goes on it.
 */
export function joinWrapped(lines: readonly string[]): string {
  let out = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    const cut = /(\S*[\p{L}\p{N}_])-$/u.exec(out);
    if (cut && /^[\p{L}\p{N}_]/u.test(line)) {
      const code = /_|\p{Ll}\p{Lu}/u.test(cut[1]!) && /^[\p{Lu}\p{N}_]/u.test(line);
      out = `${code ? out.slice(0, -1) : out}${line}`;
    } else out = out === '' ? line : `${out} ${line}`;
  }
  return oneLine(out);
}

const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];

/** Digits or a number word up to twenty ("two high-severity issues"). */
export const COUNT_SOURCE = `\\d{1,4}|${NUMBER_WORDS.join('|')}|no`;

export function parseCount(word: string): number {
  const lower = word.toLowerCase();
  if (lower === 'no') return 0;
  const index = NUMBER_WORDS.indexOf(lower);
  return index >= 0 ? index : Number.parseInt(word, 10);
}

/** Regex source matching any of the words, longest first, as whole words. */
export function wordsSource(words: readonly string[]): string {
  const escaped = [...new Set(words.map((w) => w.toLowerCase()))]
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));
  return `(?:${escaped.join('|')})`;
}
