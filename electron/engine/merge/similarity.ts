/**
 * Text similarity for merging findings that have no ID.
 *
 * Measure: the Dice coefficient 2|A∩B| / (|A|+|B|) on the sets of word
 * bigrams of two texts, after normalisation (lower case, accents, quotes and
 * dashes unified, words = runs of letters/digits, a trailing plural "s"
 * dropped). A one-word text is its own single "bigram".
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
import { normalizeForMatch } from '../extract';

export const TITLE_THRESHOLD = 0.8;
export const TEXT_THRESHOLD = 0.6;
export const MIN_SUBSET_WORDS = 2;

/** Words that say nothing about what a title is about; shared with reconcile's title matching. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  'a an the of on in at to for from by with and or not no is are was were be been it its this that these those as into via per than then there their our your which who whom when where while can could may might should would will shall do does did has have had without within over under about against between'.split(
    ' ',
  ),
);

export function words(text: string): string[] {
  const normalized = normalizeForMatch(text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '')).text;
  return [...normalized.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => stem(m[0]));
}

function stem(w: string): string {
  return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
}

export function bigrams(text: string): Set<string> {
  const ws = words(text);
  if (ws.length === 1) return new Set(ws);
  const out = new Set<string>();
  for (let i = 0; i + 1 < ws.length; i++) out.add(`${ws[i]} ${ws[i + 1]}`);
  return out;
}

export function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return (2 * shared) / (a.size + b.size);
}

/** Dice on word bigrams of two texts. */
export function textSimilarity(a: string, b: string): number {
  return dice(bigrams(a), bigrams(b));
}

export function contentWords(text: string): Set<string> {
  return new Set(words(text).filter((w) => !STOPWORDS.has(w)));
}

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
