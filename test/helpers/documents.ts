import { createHash } from 'node:crypto';
import { joinPages } from '../../shared/canonical';
import type { DocumentLine, ExtractedDocument } from '../../shared/types';

/** An ExtractedDocument built in memory from page texts: lines at body size, no outline. */
export function documentFromPages(pageTexts: string[], name = 'memory.txt'): ExtractedDocument {
  const { text, pages } = joinPages(pageTexts.map((t) => ({ text: t, hasTextLayer: t.trim().length > 0 })));
  const lines: DocumentLine[] = [];
  for (const page of pages) {
    let start = page.start;
    for (const line of text.slice(page.start, page.end).split('\n')) {
      lines.push({ start, end: start + line.length, page: page.pageNumber, fontSize: 10, bold: false });
      start += line.length + 1;
    }
  }
  return {
    kind: 'txt',
    fileName: name,
    filePath: `/memory/${name}`,
    sha256: createHash('sha256').update(text).digest('hex'),
    byteSize: Buffer.byteLength(text),
    pageCount: pages.length,
    text,
    pages,
    lines,
    outline: [],
    metadata: {},
  };
}
