/**
 * The words of a title or text, as every stage compares them: normalised (lower case, accents, quotes and dashes
 * unified), words = runs of letters/digits, a trailing plural "s" dropped; content words are those left once the
 * stop words are removed. The merge, the completeness check, compare and reconcile all read titles this way, so two
 * stages never disagree about whether two printed titles share their words.
 *
 * Text similarity: the Dice coefficient 2|A∩B| / (|A|+|B|) on the sets of word bigrams of two texts. A one-word
 * text is its own single "bigram".
 */
import { normalizeForMatch } from './grounding';

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
