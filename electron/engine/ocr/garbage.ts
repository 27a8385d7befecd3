/**
 * "Is this text layer garbage?" A scanned page often carries a text layer
 * that is no use: a bad OCR layer added by a scanner ("sw | \ + 400 +
 * —esupport BH vote{note 1]"), or glyphs whose font has no usable Unicode
 * mapping (private-use or replacement characters, runs of symbols). Such a
 * page is read again with OCR. Deliberately dictionary-free (any language,
 * IDs, code and numbers must pass): it judges the shape of tokens, not words.
 *
 * A token (whitespace-separated) is
 * - a word: at least two letters, letters/marks/digits inside, joined by at
 *   most an apostrophe, hyphen, dot, slash or underscore, with punctuation
 *   allowed only around it ("(see", "PBI-1234,", "don't", "e.g.", "v1.2");
 * - a number: digits with separators, currency or percent signs ("1,200.50", "$40", "12%");
 * - an identifier as code prints it: "main()", "foo::bar(x,", "items[0];";
 * - a single letter or digit, or a lone dash, bullet or similar list mark;
 * - layout, not text: dot leaders of a contents page (". . . .", "……") and
 *   table rules ("-----", "_____", "=====") are left out of the count, so a
 *   born-digital contents page keeps its clean text layer;
 * - junk: anything else (lone symbols such as | \ +, letters glued to
 *   brackets "vote{note", mixed symbol soup, unmapped glyphs).
 *
 * Source code still scores high (operators stand alone), so a verdict only
 * makes a page a candidate: its OCR text replaces the layer only when it reads
 * clearly better (see `ocrReadsBetter`), and a page of code keeps its text.
 */

export interface GarbageVerdict {
  garbage: boolean;
  /** Share of tokens that are junk, and of visible characters that are unmapped glyphs (private use, U+FFFD, controls). */
  junkTokenShare: number;
  badCharShare: number;
  tokens: number;
}

/** At least this share of junk tokens makes a text layer garbage; a real page, even a dense table, stays well under. */
export const JUNK_TOKEN_SHARE = 0.3;
/** Unmapped glyphs are never legitimate text: a few percent means a broken font encoding. */
export const BAD_CHAR_SHARE = 0.05;
/** Fewer tokens than this say too little to judge (a page number, a stamp): such a page is left alone. */
export const MIN_TOKENS_TO_JUDGE = 4;

const OPEN = String.raw`[\p{Ps}\p{Pi}"'*•·‐-―-]*`;
const CLOSE = String.raw`[\p{Pe}\p{Pf}"'.,;:!?*%]*`;
const WORD = new RegExp(String.raw`^${OPEN}(?=(?:[^\p{L}]*\p{L}){2})[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:['’._/-][\p{L}\p{M}\p{N}]+)*${CLOSE}$`, 'u');
const NUMBER = new RegExp(String.raw`^${OPEN}[$€£¥+−-]?\p{N}[\p{N}.,:/-]*(?:[%]|\p{L}{1,2})?${CLOSE}$`, 'u');
const CODE = new RegExp(String.raw`^${OPEN}[\p{L}_$][\p{L}\p{N}_$]*(?:(?:::|\.|->)[\p{L}_$][\p{L}\p{N}_$]*)*!?[([][^\s]*$`, 'u');
const SINGLE = new RegExp(String.raw`^${OPEN}[\p{L}\p{N}]${CLOSE}$|^[-–—•·*▪◦►✓]$`, 'u');
const BAD_CHAR = /[\uFFFD\uE000-\uF8FF\u0000-\u0008\u000E-\u001F]/gu;
/** Dot leaders and rule lines: layout drawn with characters, neither words nor junk. */
const LAYOUT = /^(?:[.·…]+|[-–—_=~]{2,})$/u;

export function judgeTextLayer(text: string): GarbageVerdict {
  const tokens = text.split(/\s+/u).filter((token) => token.length > 0 && !LAYOUT.test(token));
  const visible = tokens.reduce((sum, token) => sum + [...token].length, 0);
  const badChars = text.match(BAD_CHAR)?.length ?? 0;
  const junk = tokens.filter((token) => ![WORD, NUMBER, CODE, SINGLE].some((shape) => shape.test(token))).length;
  const junkTokenShare = tokens.length === 0 ? 0 : junk / tokens.length;
  const badCharShare = visible === 0 ? 0 : badChars / visible;
  const judged = tokens.length >= MIN_TOKENS_TO_JUDGE;
  return { garbage: judged && (junkTokenShare >= JUNK_TOKEN_SHARE || badCharShare >= BAD_CHAR_SHARE), junkTokenShare, badCharShare, tokens: tokens.length };
}

export const isGarbageText = (text: string): boolean => judgeTextLayer(text).garbage;
