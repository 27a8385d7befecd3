/**
 * Canonical text: a document's pages joined with one fixed separator. Every
 * offset in the product (chunks, mentions, evidence, citations) points into
 * it, and page numbers are derived from offsets with `pageAt`.
 */
import type { PageSpan } from './types';

/** Form feed between blank lines: never produced by text extraction, and a paragraph break for sentence splitters. */
export const PAGE_SEPARATOR = '\n\f\n';

/** Page number for an offset; an offset inside a separator belongs to the page before it. */
export function pageAt(pages: readonly PageSpan[], offset: number): number {
  if (pages.length === 0) return 1;
  let lo = 0;
  let hi = pages.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pages[mid]!.start <= offset) lo = mid;
    else hi = mid - 1;
  }
  return pages[lo]!.pageNumber;
}

/** Joins page texts into canonical text and computes their spans. */
export function joinPages(pageTexts: readonly { text: string; hasTextLayer: boolean; readError?: string }[]): { text: string; pages: PageSpan[] } {
  const pages: PageSpan[] = [];
  const parts: string[] = [];
  let offset = 0;
  pageTexts.forEach((page, i) => {
    if (i > 0) {
      parts.push(PAGE_SEPARATOR);
      offset += PAGE_SEPARATOR.length;
    }
    const span: PageSpan = { pageNumber: i + 1, start: offset, end: offset + page.text.length, hasTextLayer: page.hasTextLayer };
    if (page.readError !== undefined) span.readError = page.readError;
    pages.push(span);
    parts.push(page.text);
    offset += page.text.length;
  });
  return { text: parts.join(''), pages };
}

/** "3-7, 9" from [3,4,5,6,7,9]. */
export function formatPageRanges(pageNumbers: readonly number[]): string {
  const sorted = [...new Set(pageNumbers)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    ranges.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return ranges.join(', ');
}

/**
 * A line that opens an item of a bulleted list ("- ", "\u2022 ", "* ") or of a numbered one ("3. ", "3) ", "(3) "):
 * group 1 is the bullet, group 2 the number. Items are read as entries (printed/itemLists.ts), and an item's
 * line never runs on into the next item's (printed/sourceDescription.ts).
 */
export const LIST_ITEM_START = /^\s*(?:([-\u2013\u2014\u2022*\u25AA\u25E6\u2023\u25CF\u00B7])\s+\S|\(?(\d{1,3})[.)]\s+\p{L})/u;

/**
 * The end of a contents line: dot leaders (". . . . 12", "...... 12", "… 12") before a page number. Such a line names
 * a section; it is no sentence and no heading (printed/sections.ts, printed/sourceDescription.ts).
 */
export const CONTENTS_LINE_END = /(?:\.\s?){3,}\s*\d{1,4}\s*$|…\s*\d{1,4}\s*$/;
