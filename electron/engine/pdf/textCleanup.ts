/**
 * Character-level cleanup applied to every extracted string before it enters
 * the canonical text (PDF lines and plain-text files alike).
 */

/**
 * Invisible characters removed from canonical text: zero-width space/joiners
 * (U+200B-U+200D), word joiner (U+2060), BOM/ZWNBSP (U+FEFF), soft hyphen
 * (U+00AD) and bidi controls (U+202A-U+202E, U+2066-U+2069). They are
 * invisible to the reader, carry no meaning for audit text, and break search,
 * quoting and issue IDs ("TOB-MOSQ-CR-1" wrapped in U+202D...U+202C, or
 * "TOB-ETCD-0\u200B01"): keeping them would make every downstream matcher
 * cope with them instead of doing it once here.
 */
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF\u202A-\u202E\u2066-\u2069]/g;

/**
 * Presentation-form ligatures expanded to their letters. Targeted on purpose:
 * NFKC would also rewrite superscripts, fractions, full-width forms and more
 * that the canonical text should keep as printed.
 */
const LIGATURES: Readonly<Record<string, string>> = {
  '\uFB00': 'ff',
  '\uFB01': 'fi',
  '\uFB02': 'fl',
  '\uFB03': 'ffi',
  '\uFB04': 'ffl',
  '\uFB05': 'st',
  '\uFB06': 'st',
};
const LIGATURE = /[\uFB00-\uFB06]/g;

export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

export function expandLigatures(text: string): string {
  return text.replace(LIGATURE, (ch) => LIGATURES[ch] ?? ch);
}

/**
 * C0 control characters other than tab/newline. Broken ligature glyphs often
 * come out of pdf.js as U+0000 ("Insu\0cient"): which letters they stood for is
 * unknowable from the text layer, so they become U+FFFD, visible and honest,
 * instead of silently gluing the word together. Form feed is included because
 * it is reserved for PAGE_SEPARATOR.
 */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/g;

/** Invisible characters out, ligatures expanded, stray control characters marked. */
export function cleanText(text: string): string {
  return expandLigatures(stripInvisible(text)).replace(CONTROL, '\uFFFD');
}

/** Characters that count as content when deciding whether a page has a text layer. */
export function visibleCharCount(text: string): number {
  return stripInvisible(text).replace(/\s+/g, '').length;
}

/** A word broken at a line end: a letter then '-', and the next line starts with a lowercase letter. */
const HYPHEN_END = /\p{L}-$/u;
const LOWERCASE_START = /^\p{Ll}/u;

export function isHyphenatedBreak(lineText: string, nextLineText: string): boolean {
  return HYPHEN_END.test(lineText) && LOWERCASE_START.test(nextLineText);
}
