/**
 * Page lines -> canonical text, page spans and DocumentLines with global
 * offsets. Shared by PDF and plain-text ingestion so both obey the same
 * invariant: page text = its lines joined with '\n', pages joined with
 * PAGE_SEPARATOR, every line's [start, end) slices exactly its text.
 */
import { joinPages } from '../../../shared/canonical';
import type { DocumentLine, PageSpan } from '../../../shared/types';

export interface PageLine {
  text: string;
  fontSize: number;
  bold: boolean;
  markdownLevel?: number;
}

export interface AssembledPage {
  lines: PageLine[];
  hasTextLayer: boolean;
  readError?: string;
}

export interface AssembledText {
  text: string;
  pages: PageSpan[];
  lines: DocumentLine[];
}

export function assemblePages(pages: readonly AssembledPage[]): AssembledText {
  const joined = joinPages(
    pages.map((page) => ({
      text: page.lines.map((line) => line.text).join('\n'),
      hasTextLayer: page.hasTextLayer,
      ...(page.readError !== undefined ? { readError: page.readError } : {}),
    })),
  );
  const lines: DocumentLine[] = [];
  pages.forEach((page, index) => {
    let offset = joined.pages[index]!.start;
    for (const line of page.lines) {
      const documentLine: DocumentLine = { start: offset, end: offset + line.text.length, page: index + 1, fontSize: line.fontSize, bold: line.bold };
      if (line.markdownLevel !== undefined) documentLine.markdownLevel = line.markdownLevel;
      lines.push(documentLine);
      offset += line.text.length + 1;
    }
  });
  return { text: joined.text, pages: joined.pages, lines };
}
