/**
 * The page numbers a document prints, beside the PDF's own page positions: "p. 8, printed 7". An auditor
 * cites the number printed on the page; the app counts PDF pages. One derivation for the app (pdf.js in the
 * renderer) and for the exported reports (pdf.js in the engine), so both always show the same label.
 */

/** A page number as printed in a page's header or footer: "7", "Page 7", "Page | 7", "7 of 38", "7/38". */
const PRINTED_NUMBER = /^(?:page\s*[|:.]?\s*)?(\d{1,4})(?:\s*(?:of|\/)\s*\d{1,4})?$/i;

/** The parts of a pdf.js document this needs (structural, so shared/ needs no pdf.js import). */
export interface PageLabelSource {
  getPageLabels(): Promise<string[] | null>;
  getPage(page: number): Promise<{ getTextContent(): Promise<{ items: readonly object[] }> }>;
}

/**
 * The label the document prints on a PDF page, when it differs from the page's position: the PDF's own page
 * labels when it has them, else the page number printed at the top or bottom of the page ("Page | 7").
 * Null when they agree or nothing is printed, so "page 8" is only ever shown with "printed 7" when it matters.
 * `labels` is the document's getPageLabels() result, read once by a caller that asks for many pages.
 */
export async function printedLabelOf(pdf: PageLabelSource, page: number, labels?: readonly string[] | null): Promise<string | null> {
  const own = (labels === undefined ? await pdf.getPageLabels() : labels)?.[page - 1]?.trim();
  if (own) return own === String(page) ? null : own;
  const content = await (await pdf.getPage(page)).getTextContent();
  const lines = content.items
    .flatMap((item) => {
      const { str, transform } = item as { str?: unknown; transform?: unknown };
      return typeof str === 'string' && str.trim() !== '' && Array.isArray(transform) ? [{ text: str.trim(), y: Number(transform[5]) }] : [];
    })
    .sort((a, b) => a.y - b.y);
  // The lowest and the highest lines of the page: where footers and headers print the number.
  for (const line of [...lines.slice(0, 2), ...lines.slice(-2)]) {
    const m = PRINTED_NUMBER.exec(line.text);
    if (m) return m[1] === String(page) ? null : m[1]!;
  }
  return null;
}

/** "8" or "8, printed 7": a PDF page with the label the document prints on it, when that differs. */
export function pageWithPrinted(page: number, printed: ReadonlyMap<number, string> | Readonly<Record<number, string>> | undefined): string {
  const label = printed === undefined ? undefined : printed instanceof Map ? printed.get(page) : (printed as Readonly<Record<number, string>>)[page];
  return label ? `${page}, printed ${label}` : String(page);
}
