import { expect } from 'vitest';
import { PAGE_SEPARATOR } from '../../../shared/canonical';
import type { ExtractedDocument } from '../../../shared/types';

/** Offsets invariant: pages separated by PAGE_SEPARATOR, every line slice is a line of its page's text. */
export function expectConsistentOffsets(document: ExtractedDocument): void {
  const { text, pages, lines } = document;
  expect(pages.length).toBe(document.pageCount);
  pages.forEach((page, index) => {
    expect(page.pageNumber).toBe(index + 1);
    const next = pages[index + 1];
    if (next) expect(text.slice(page.end, next.start)).toBe(PAGE_SEPARATOR);
  });
  expect(pages[0]!.start).toBe(0);
  expect(pages.at(-1)!.end).toBe(text.length);
  for (const page of pages) {
    const pageLines = lines.filter((line) => line.page === page.pageNumber);
    expect(pageLines.map((line) => text.slice(line.start, line.end)).join('\n')).toBe(text.slice(page.start, page.end));
    if (pageLines.length > 0) {
      expect(pageLines[0]!.start).toBe(page.start);
      expect(pageLines.at(-1)!.end).toBe(page.end);
    }
  }
}
