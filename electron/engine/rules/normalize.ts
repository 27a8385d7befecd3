/**
 * Text as it comes out of real PDF text layers breaks IDs in three ways: zero
 * width characters inside them, bidi controls around them, and line ends in
 * the middle ("TOB-MOSQ-\nCR-1"). Mentions are matched on a normalised view
 * of the text that removes those, with a map back to original offsets so a
 * mention still points at the exact characters in the canonical text.
 */

// Zero-width space/joiners, word joiner, BOM, soft hyphen, bidi embeddings/isolates/marks.
const INVISIBLE = /[\u200B-\u200F\u2060-\u2064\uFEFF\u00AD\u202A-\u202E\u2066-\u2069]/;
// Hyphen, non-breaking hyphen, figure dash, en dash, em dash, minus sign.
const DASHES = /[\u2010\u2011\u2012\u2013\u2014\u2212]/;

export interface NormalizedView {
  text: string;
  /** originalOffset[i] = offset in the source of normalised character i; one extra entry for the end. */
  originalOffset: number[];
}

/**
 * Removes invisible characters, unifies dashes, and removes a line break (with
 * surrounding spaces) that directly follows a dash, so IDs broken across lines
 * match. Other line breaks become single spaces.
 */
export function normalizeForIds(source: string): NormalizedView {
  const chars: string[] = [];
  const originalOffset: number[] = [];
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (INVISIBLE.test(ch)) continue;
    if (ch === '\n' || ch === '\r' || ch === '\f') {
      let last = chars.length - 1;
      while (last >= 0 && chars[last] === ' ') last--;
      if (chars[last] === '-') {
        chars.length = last + 1;
        originalOffset.length = last + 1;
        while (i + 1 < source.length && /\s/.test(source[i + 1]!)) i++;
        continue;
      }
      chars.push(' ');
      originalOffset.push(i);
      continue;
    }
    chars.push(DASHES.test(ch) ? '-' : ch);
    originalOffset.push(i);
  }
  originalOffset.push(source.length);
  return { text: chars.join(''), originalOffset };
}

/** Canonical form of one ID for comparison and deduplication: invisible characters out, dashes unified, upper case. */
export function normalizeId(raw: string): string {
  return normalizeForIds(raw).text.replace(/\s+/g, '').toUpperCase();
}
