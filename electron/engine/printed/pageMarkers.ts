/** The document's text as a model is shown it: where each page starts, and the lists the rules read kept out. */
import { PAGE_SEPARATOR } from '../../../shared/canonical';
import type { ExtractedDocument } from '../../../shared/types';
import { withHiddenSpans, type HiddenSpan } from './listedRows';

/**
 * The chunk text with "[page N]" markers at its start and at every page break; each hidden span (a list of findings
 * the rules read, listedRows.ts) shown as its one placeholder line.
 */
export function renderWithPageMarkers(doc: ExtractedDocument, start: number, end: number, firstPage: number, hidden: readonly HiddenSpan[] = []): string {
  const text = hidden.length > 0 ? withHiddenSpans(doc.text, start, end, hidden) : doc.text.slice(start, end);
  return text
    .split(PAGE_SEPARATOR)
    .map((part, i) => `[page ${firstPage + i}]\n${part}`)
    .join('\n');
}
