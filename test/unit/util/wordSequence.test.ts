/**
 * util/wordSequence.ts finds a title's words as the regular expression the rules used to compile per title finds
 * them: held against that regex on random texts full of the characters where they could differ (letters of other
 * scripts and cases, the Kelvin sign and long s, a combining mark that case-folds to a letter, surrogate pairs,
 * digits, separators).
 */
import { describe, expect, it } from 'vitest';
import { caseFoldedAscii, wordSequenceMatches } from '../../../electron/engine/util';

const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const viaRegex = (text: string, words: string[], flags: string, whole: boolean) => {
  const body = words.map(escape).join('[^\\p{L}\\p{N}]+');
  const re = new RegExp(whole ? `(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])` : body, flags);
  return [...text.matchAll(re)].map((m) => ({ index: m.index, length: m[0].length }));
};

/** A small seeded generator (LCG), so a failure names a text that can be tried again. */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const PIECES = [
  'ab',
  'AB',
  'aB',
  'k',
  'K',
  '\u212A',
  's',
  'S',
  '\u017F',
  '\u0345',
  '\u03B9',
  '\u0399',
  'é',
  'É',
  '1',
  '22',
  '\uD835\uDC00',
  '\uD83D\uDE00',
  '\uDC00',
  ' ',
  '-',
  '\n',
  '.',
  '|',
  'x',
];

describe("a title's words found without a compiled pattern", () => {
  it('finds what the whole-word pattern (flag u) finds', () => {
    const next = random(1);
    const pick = () => PIECES[Math.floor(next() * PIECES.length)]!;
    for (let n = 0; n < 1500; n++) {
      const text = Array.from({ length: 4 + Math.floor(next() * 30) }, pick).join('');
      const words = Array.from({ length: 1 + Math.floor(next() * 3) }, () => (next() < 0.5 ? 'ab' : next() < 0.5 ? '\uD835\uDC00' : 'k')).map((w) =>
        w.toLowerCase(),
      );
      for (const whole of [true, false]) {
        expect({ text, words, whole, found: [...wordSequenceMatches(text, words, { wholeWords: whole })] }).toEqual({
          text,
          words,
          whole,
          found: viaRegex(text, words, 'gu', whole),
        });
      }
    }
  });

  it('finds, case-folded, what the case-insensitive pattern (flags giu) finds for plain ASCII words', () => {
    const next = random(2);
    const pick = () => PIECES[Math.floor(next() * PIECES.length)]!;
    for (let n = 0; n < 1500; n++) {
      const text = Array.from({ length: 4 + Math.floor(next() * 30) }, pick).join('');
      const words = Array.from({ length: 1 + Math.floor(next() * 3) }, () => (['ab', 'K', 's', 'x1', 'Ab'] as const)[Math.floor(next() * 5)]!);
      const folded = caseFoldedAscii(text, words)!;
      expect({ text, words, found: [...wordSequenceMatches(folded.text, folded.words, { caseFolded: true })] }).toEqual({
        text,
        words,
        found: viaRegex(text, words, 'giu', false),
      });
    }
    expect(caseFoldedAscii('text', ['é'])).toBeNull();
  });

  it('reads separators as the case-insensitive pattern does, over every code point', () => {
    const iu = /^[^\p{L}\p{N}]$/iu;
    const differs: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp += 1) {
      const c = String.fromCodePoint(cp);
      const ours = [...wordSequenceMatches(`a${c}b`, ['a', 'b'], { caseFolded: true })].length === 1;
      if (ours !== iu.test(c)) differs.push(cp);
    }
    expect(differs).toEqual([]);
  });
});
