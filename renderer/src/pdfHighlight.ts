/**
 * Where a quote sits on a rendered PDF page: the page's text items (as pdf.js
 * gives them, each with its transform and width) are joined into one string,
 * the quote is looked up case-insensitively and without regard to whitespace
 * (pdf.js splits words at ligatures into items that touch, "speci" "fi" "ed",
 * and spaces may or may not be items of their own), and every item the match
 * covers gives one box (the covered part of the item, by its share of
 * characters). Coordinates are PDF user space; the caller maps them to the
 * viewport.
 */
export interface TextItemLike {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

export interface PdfBox {
  /** PDF user space: left, bottom, right, top. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Between the cells of a table row in the canonical text (see electron/engine/pdf/lineBuilder.ts). */
const CELL_SEPARATOR = /\s+\|\s+/g;

const squash = (s: string) =>
  s
    .replace(/[\u00ad\u200b-\u200d\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();

/** Boxes covering `quote` on the page, or [] when the page does not contain it. Tries shorter heads of the quote when the whole does not match (a hyphenated line break). */
export function quoteBoxes(items: readonly TextItemLike[], quote: string): PdfBox[] {
  // The page's letters without whitespace, each with the item and character it comes from.
  let joined = '';
  const owner: { item: number; offset: number }[] = [];
  items.forEach((item, index) => {
    const text = squash(item.str);
    for (let i = 0; i < text.length; i++) {
      if (text[i] === ' ') continue;
      owner.push({ item: index, offset: i });
      joined += text[i];
    }
  });
  // A table row's cell separators (" | ", written by ingestion between cells) are not printed on the page.
  const wanted = squash(quote.replace(CELL_SEPARATOR, ' ')).replace(/ /g, '');
  if (wanted.length === 0) return [];
  let at = -1;
  let length = wanted.length;
  for (const cut of [wanted.length, 100, 50, 25]) {
    if (cut > wanted.length) continue;
    at = joined.indexOf(wanted.slice(0, cut));
    if (at >= 0) {
      length = cut;
      break;
    }
  }
  if (at < 0) return [];
  const covered = new Map<number, { from: number; to: number }>();
  for (let i = at; i < at + length; i++) {
    const o = owner[i];
    if (!o) continue;
    const span = covered.get(o.item);
    covered.set(o.item, span ? { from: Math.min(span.from, o.offset), to: Math.max(span.to, o.offset + 1) } : { from: o.offset, to: o.offset + 1 });
  }
  return [...covered.entries()].map(([index, span]) => {
    const item = items[index]!;
    const chars = Math.max(1, squash(item.str).length);
    const [, , , d = 0, e = 0, f = 0] = item.transform;
    const height = item.height || Math.abs(d) || 10;
    return { x0: e + (item.width * span.from) / chars, x1: e + (item.width * span.to) / chars, y0: f - height * 0.2, y1: f + height * 0.9 };
  });
}
