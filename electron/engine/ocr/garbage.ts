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
 * Source code has many tokens of that last kind (operators and braces stand
 * alone), so a page shaped like code is judged by its lines instead: when
 * most of them end a statement or a block, open a comment or start with a
 * declaration, and no glyph is unmapped, its text layer is usable and the
 * page is not read again (trial 2026-11-28 row 12: a report's code listings
 * were OCR'd and called "no usable text layer"). A scanner's junk layer does
 * not look like that: its lines end anywhere.
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

/**
 * A line as source code prints it (a listing's line number or a diff's ">" in front allowed): it ends a statement,
 * opens or closes a block or a call (";", "{", "}", "("), holds a comment or an operator prose does not use ("//",
 * "::", "=>", "->", ":="), or starts with a declaration or statement keyword.
 */
const CODE_LINE = new RegExp(
  String.raw`[;{}(]\s*$|\/\/|\/\*|::|=>|->|:=|^\s*(?:\d+\s+)?(?:\*\/?(?:\s|$)|#\s)|^\s*(?:\d+\s+|[>+-]\s+)?(?:function|return|if|else|for|while|require|assert|revert|emit|uint\d*|int\d*|bool|address|bytes\d*|string|mapping|contract|interface|library|struct|enum|modifier|event|error|constructor|pragma|import|using|let|const|var|fn|pub|impl|use|mod|match|def|class|public|private|protected|external|internal|self|this)\b`,
  'u',
);
/** Lines a page needs before its shape says "code", and the share of them that must look like code. */
const MIN_CODE_LINES = 4;
const CODE_LINE_SHARE = 0.5;

/** The page is a listing of source code: most of its lines look like code. */
export function looksLikeCode(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim().length > 0);
  if (lines.length < MIN_CODE_LINES) return false;
  return lines.filter((line) => CODE_LINE.test(line)).length / lines.length >= CODE_LINE_SHARE;
}

export function judgeTextLayer(text: string): GarbageVerdict {
  const tokens = text.split(/\s+/u).filter((token) => token.length > 0 && !LAYOUT.test(token));
  const visible = tokens.reduce((sum, token) => sum + [...token].length, 0);
  const badChars = text.match(BAD_CHAR)?.length ?? 0;
  const junk = tokens.filter((token) => ![WORD, NUMBER, CODE, SINGLE].some((shape) => shape.test(token))).length;
  const junkTokenShare = tokens.length === 0 ? 0 : junk / tokens.length;
  const badCharShare = visible === 0 ? 0 : badChars / visible;
  const judged = tokens.length >= MIN_TOKENS_TO_JUDGE;
  // Unmapped glyphs are never code; otherwise a page shaped like code keeps its layer, whatever its operators score.
  const junky = junkTokenShare >= JUNK_TOKEN_SHARE && !looksLikeCode(text);
  return { garbage: judged && (junky || badCharShare >= BAD_CHAR_SHARE), junkTokenShare, badCharShare, tokens: tokens.length };
}

export const isGarbageText = (text: string): boolean => judgeTextLayer(text).garbage;
