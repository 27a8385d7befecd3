/**
 * Text similarity for merging findings that have no ID.
 *
 * Measure: the Dice coefficient on word bigrams and the content words of a
 * title, as printed/titleWords.ts reads them (normalised, stemmed words).
 *
 * Two findings are the same (see `compareFindings`) when
 *  1. their titles have a Dice score >= TITLE_THRESHOLD (0.8), or
 *  2. one title's content words (stop words removed) are all in the other's
 *     and it has at least MIN_SUBSET_WORDS (2) of them: a summary-table title
 *     "Insufficient logging" vs the detailed heading "Insufficient logging of
 *     administrative actions"; or
 *  3. title + description together score >= TEXT_THRESHOLD (0.6): same
 *     finding, reworded title.
 * "Missing rate limiting on login" vs "... on password reset" scores 0.67 on
 * titles, neither title's words contain the other's (login vs password,
 * reset) and the descriptions differ: they stay distinct.
 */
import { bigrams, contentWords, dice } from '../printed';

export const TITLE_THRESHOLD = 0.8;
export const TEXT_THRESHOLD = 0.6;
export const MIN_SUBSET_WORDS = 2;

function isSubset(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

export interface Comparable {
  title: string;
  description: string;
}

export interface Similarity {
  same: boolean;
  /** The score that decided (the title Dice, 1 for a subset, or the title+description Dice). */
  score: number;
  rule: 'title' | 'title-subset' | 'text' | 'none';
}

/**
 * What `compareFindings` reads of a finding, computed once: the merge compares each finding with many others, and
 * normalising its words again for every pair was most of its time.
 */
export interface TextFeatures {
  /** Word bigrams of the title. */
  titleBigrams: ReadonlySet<string>;
  /** Content words of the title (stop words dropped). */
  titleWords: ReadonlySet<string>;
  /** Word bigrams of the title and description together. */
  textBigrams: ReadonlySet<string>;
}

export function textFeatures(f: Comparable): TextFeatures {
  return { titleBigrams: bigrams(f.title), titleWords: contentWords(f.title), textBigrams: bigrams(`${f.title} ${f.description}`) };
}

export function compareFindings(a: Comparable, b: Comparable): Similarity {
  return compareFeatures(textFeatures(a), textFeatures(b));
}

/** `compareFindings` on features computed beforehand. */
export function compareFeatures(a: TextFeatures, b: TextFeatures): Similarity {
  const title = dice(a.titleBigrams, b.titleBigrams);
  if (title >= TITLE_THRESHOLD) return { same: true, score: round(title), rule: 'title' };
  const wa = a.titleWords;
  const wb = b.titleWords;
  const small = wa.size <= wb.size ? wa : wb;
  const large = small === wa ? wb : wa;
  if (small.size >= MIN_SUBSET_WORDS && isSubset(small, large)) return { same: true, score: 1, rule: 'title-subset' };
  const text = dice(a.textBigrams, b.textBigrams);
  if (text >= TEXT_THRESHOLD) return { same: true, score: round(text), rule: 'text' };
  return { same: false, score: round(Math.max(title, text)), rule: 'none' };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
