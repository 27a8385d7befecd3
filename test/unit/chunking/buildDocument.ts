/** Builds an ExtractedDocument in memory from page lines and their typography (no PDF needed). */
import { joinPages } from '../../../shared/canonical';
import type { DocumentKind, DocumentLine, ExtractedDocument, OutlineEntry } from '../../../shared/types';

export interface LineSpec {
  text: string;
  fontSize?: number;
  bold?: boolean;
  markdownLevel?: number;
}

export type PageSpec = readonly (string | LineSpec)[];

export interface BuildOptions {
  kind?: DocumentKind;
  outline?: OutlineEntry[];
  fileName?: string;
  /** Font size for lines given as plain strings (0 = no typography, like .txt). */
  bodySize?: number;
}

export function buildDocument(pages: readonly PageSpec[], options: BuildOptions = {}): ExtractedDocument {
  const bodySize = options.bodySize ?? 10;
  const specs = pages.map((page) => page.map((line): LineSpec => (typeof line === 'string' ? { text: line, fontSize: bodySize } : line)));
  const { text, pages: spans } = joinPages(specs.map((lines) => ({ text: lines.map((l) => l.text).join('\n'), hasTextLayer: lines.length > 0 })));
  const lines: DocumentLine[] = [];
  specs.forEach((pageLines, p) => {
    let offset = spans[p]!.start;
    for (const spec of pageLines) {
      const line: DocumentLine = { start: offset, end: offset + spec.text.length, page: p + 1, fontSize: spec.fontSize ?? bodySize, bold: spec.bold ?? false };
      if (spec.markdownLevel !== undefined) line.markdownLevel = spec.markdownLevel;
      lines.push(line);
      offset += spec.text.length + 1;
    }
  });
  return {
    kind: options.kind ?? 'pdf',
    fileName: options.fileName ?? 'test.pdf',
    filePath: `/tmp/${options.fileName ?? 'test.pdf'}`,
    sha256: '0'.repeat(64),
    byteSize: text.length,
    pageCount: pages.length,
    text,
    pages: spans,
    lines,
    outline: options.outline ?? [],
    metadata: {},
  };
}

/** Filler prose of about `chars` characters made of sentences. */
export function prose(chars: number, seed = 0): string {
  const words = ['audit', 'control', 'finding', 'record', 'system', 'review', 'evidence', 'policy', 'process', 'account'];
  const out: string[] = [];
  let length = 0;
  let i = seed;
  while (length < chars) {
    const sentence = Array.from({ length: 8 }, (_, k) => words[(i + k * 7) % words.length]).join(' ');
    const s = `${sentence[0]!.toUpperCase()}${sentence.slice(1)}.`;
    out.push(s);
    length += s.length + 1;
    i++;
  }
  return out.join(' ');
}
