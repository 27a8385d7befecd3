/**
 * A title's words found in a text, as a regular expression of the words joined by runs of non-letters would find
 * them (`w1[^\p{L}\p{N}]+w2...`, flag `u`), without compiling one. A pattern with Unicode property classes costs
 * milliseconds to compile and runs interpreted the first time: the rules look up hundreds of titles per document
 * (headings of recorded findings, a finding's heading block), and those compiles were most of their time.
 *
 * The match is the same one the regex finds: the words are runs of letters and digits and a separator run holds
 * none, so a run is always taken whole and no backtracking could find another match at the same place.
 */

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const SEPARATOR_RUN = /[^\p{L}\p{N}]+/uy;
/**
 * The separator as `[^\p{L}\p{N}]` matches under the flags `iu`: U+0345 (a combining mark that case-folds to a
 * Greek letter) is then no separator. Checked against the regex over every code point by the unit test.
 */
const SEPARATOR_RUN_CASE_FOLDED = /[^\p{L}\p{N}\u0345]+/uy;

export interface WordSequenceOptions {
  /** The match must not touch a letter or digit on either side (`(?<![\p{L}\p{N}])...(?![\p{L}\p{N}])`). */
  wholeWords?: boolean;
  /** Separators as a case-insensitive (`iu`) pattern reads them; see caseFoldedAscii for the words. */
  caseFolded?: boolean;
}

/** Where the words stand in `text`, left to right and not overlapping, as matchAll finds them. */
export function* wordSequenceMatches(text: string, words: readonly string[], options: WordSequenceOptions = {}): Generator<{ index: number; length: number }> {
  if (words.length === 0 || words.some((w) => w === '')) return;
  const separator = options.caseFolded ? SEPARATOR_RUN_CASE_FOLDED : SEPARATOR_RUN;
  for (let at = text.indexOf(words[0]!); at >= 0; ) {
    const end = matchAt(text, words, at, separator, options.wholeWords ?? false);
    if (end >= 0) {
      yield { index: at, length: end - at };
      at = text.indexOf(words[0]!, end);
    } else at = text.indexOf(words[0]!, at + 1);
  }
}

/** The end of the words matched from `at`, or -1. */
function matchAt(text: string, words: readonly string[], at: number, separator: RegExp, wholeWords: boolean): number {
  if (wholeWords && isLetterOrDigit(codePointBefore(text, at))) return -1;
  let end = at + words[0]!.length;
  for (let k = 1; k < words.length; k++) {
    separator.lastIndex = end;
    const run = separator.exec(text);
    if (!run) return -1;
    end += run[0].length;
    if (!text.startsWith(words[k]!, end)) return -1;
    end += words[k]!.length;
  }
  if (wholeWords && isLetterOrDigit(text.codePointAt(end))) return -1;
  return end;
}

function codePointBefore(text: string, at: number): number | undefined {
  if (at === 0) return undefined;
  const low = text.charCodeAt(at - 1);
  if (at >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(at - 2);
  }
  return low;
}

function isLetterOrDigit(codePoint: number | undefined): boolean {
  return codePoint !== undefined && LETTER_OR_DIGIT.test(String.fromCodePoint(codePoint));
}

/**
 * For a case-insensitive (`iu`) search of words made of ASCII letters and digits only: the text with every character
 * that such a search takes for an ASCII letter written as that letter in lower case (A-Z, and the Kelvin sign and long
 * s, which case-fold to k and s), same length, and the words in lower case. Null when a word is not plain ASCII (the
 * caller then uses the regex).
 */
export function caseFoldedAscii(text: string, words: readonly string[]): { text: string; words: string[] } | null {
  if (!words.every((w) => /^[A-Za-z0-9]+$/.test(w))) return null;
  return {
    text: text.replace(/[A-Z\u212A\u017F]/g, (c) => (c === '\u212A' ? 'k' : c === '\u017F' ? 's' : c.toLowerCase())),
    words: words.map((w) => w.toLowerCase()),
  };
}
