/**
 * Text as it comes out of real PDF text layers breaks IDs in three ways: zero
 * width characters inside them, bidi controls around them, and line ends in
 * the middle ("TOB-MOSQ-\nCR-1"). Mentions are matched on a normalised view
 * of the text that removes those, with a map back to original offsets so a
 * mention still points at the exact characters in the canonical text.
 */

export interface NormalizedView {
  text: string;
  /** originalOffset[i] = offset in the source of normalised character i; one extra entry for the end. */
  originalOffset: Int32Array;
}

/** Zero-width space/joiners, marks, word joiner, BOM, soft hyphen, bidi embeddings/isolates. */
function isInvisible(code: number): boolean {
  return (
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2060 && code <= 0x2064) ||
    code === 0xfeff ||
    code === 0x00ad ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** Hyphen, non-breaking hyphen, figure dash, en dash, em dash, minus sign. */
function isDash(code: number): boolean {
  return (code >= 0x2010 && code <= 0x2014) || code === 0x2212;
}

const isLineBreak = (code: number) => code === 10 || code === 13 || code === 12;
const isSpace = (code: number) => code === 32 || code === 9 || isLineBreak(code) || code === 0xa0;

/**
 * Removes invisible characters, unifies dashes, and removes a line break (with
 * surrounding spaces) that directly follows a dash, so IDs broken across lines
 * match. Other line breaks become single spaces. One pass over char codes:
 * this runs over whole documents.
 */
const UTF16 = new TextDecoder('utf-16le');

export function normalizeForIds(source: string): NormalizedView {
  const codes = new Uint16Array(source.length);
  const originalOffset = new Int32Array(source.length + 1);
  let length = 0;
  for (let i = 0; i < source.length; i++) {
    const code = source.charCodeAt(i);
    if (isInvisible(code)) continue;
    if (isLineBreak(code)) {
      let last = length - 1;
      while (last >= 0 && codes[last] === 32) last--;
      if (last >= 0 && codes[last] === 45) {
        length = last + 1;
        while (i + 1 < source.length && isSpace(source.charCodeAt(i + 1))) i++;
        continue;
      }
      codes[length] = 32;
      originalOffset[length++] = i;
      continue;
    }
    codes[length] = isDash(code) ? 45 : code;
    originalOffset[length++] = i;
  }
  originalOffset[length] = source.length;
  // Code units straight back into a string, without per-character work. Length is kept unit for unit, so the offset
  // map stays exact: a lone surrogate becomes U+FFFD (one unit), and no BOM can be dropped (U+FEFF was removed above).
  const text = UTF16.decode(codes.subarray(0, length));
  return { text, originalOffset: originalOffset.subarray(0, length + 1) };
}

/** Canonical form of one ID for comparison and deduplication: invisible characters out, dashes unified, upper case. */
export function normalizeId(raw: string): string {
  return normalizeForIds(raw).text.replace(/\s+/g, '').toUpperCase();
}
