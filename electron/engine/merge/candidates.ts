/**
 * Candidate pairs for the merge: the pairs of findings a join rule could accept, found without comparing all pairs.
 * Each function returns a superset of the pairs its rule accepts (usually exactly those), as pairs (i < j) sorted by
 * i, then j: the order the merge's passes have always visited pairs in, so blocking changes how fast the merge is,
 * never what it decides.
 *
 * - Overlapping evidence: spans sorted by start; each is paired with the spans that start before it ends.
 * - Similar text (similarity.ts `compareFeatures`): a title Dice of at least TITLE_THRESHOLD, a title's content words
 *   all in the other's, or a title+description Dice of at least TEXT_THRESHOLD. The Dice pairs come from prefix
 *   filtering (Bayardo et al., "Scaling up all pairs similarity search", 2007): with each set's tokens ordered
 *   rarest first, two sets whose Dice reaches t share a token among the first |x| - ceil(j|x|) + 1 of each, where
 *   j = t / (2 - t) is the Jaccard equivalent. Common tokens ("in case", "can be") sit at the end of that order and
 *   pair nothing; rare ones (a title's distinguishing words) pair the few sets that hold them.
 */
import { runToEnd, type Steps } from '../util';
import { MIN_SUBSET_WORDS, TEXT_THRESHOLD, TITLE_THRESHOLD, type TextFeatures } from './similarity';

/** A set of pairs (i < j) of indexes below `size`. */
class Pairs {
  private readonly keys = new Set<number>();
  constructor(private readonly size: number) {}

  add(a: number, b: number): void {
    if (a === b) return;
    this.keys.add(a < b ? a * this.size + b : b * this.size + a);
  }

  /** The pairs sorted by their first index, then their second. */
  sorted(): [number, number][] {
    const keys = Float64Array.from(this.keys).sort();
    return Array.from(keys, (k) => [Math.floor(k / this.size), k % this.size] as [number, number]);
  }
}

export interface Span {
  start: number;
  end: number;
}

/** Pairs of spans (null: none) that overlap by more than nothing. */
export function overlappingPairs(spans: readonly (Span | null)[]): [number, number][] {
  return runToEnd(overlappingPairSteps(spans));
}

export function* overlappingPairSteps(spans: readonly (Span | null)[]): Steps<[number, number][]> {
  const pairs = new Pairs(spans.length);
  const order = spans.flatMap((s, i) => (s ? [i] : [])).sort((a, b) => spans[a]!.start - spans[b]!.start || a - b);
  for (let k = 0; k < order.length; k++) {
    const a = spans[order[k]!]!;
    // Every later span that starts before this one ends overlaps it; the first that starts at or past its end ends the run.
    for (let m = k + 1; m < order.length; m++) {
      const b = spans[order[m]!]!;
      if (b.start >= a.end) break;
      if (Math.min(a.end, b.end) - Math.max(a.start, b.start) > 0) pairs.add(order[k]!, order[m]!);
    }
    yield;
  }
  return pairs.sorted();
}

/** Pairs of findings `compareFeatures` may call the same: a superset of those it does. */
export function similarTextPairs(features: readonly TextFeatures[]): [number, number][] {
  return runToEnd(similarTextPairSteps(features));
}

export function* similarTextPairSteps(features: readonly TextFeatures[]): Steps<[number, number][]> {
  const pairs = new Pairs(features.length);
  yield* addDicePairs(
    features.map((f) => f.titleBigrams),
    TITLE_THRESHOLD,
    pairs,
  );
  yield* addSubsetPairs(
    features.map((f) => f.titleWords),
    MIN_SUBSET_WORDS,
    pairs,
  );
  yield* addDicePairs(
    features.map((f) => f.textBigrams),
    TEXT_THRESHOLD,
    pairs,
  );
  return pairs.sorted();
}

/**
 * Each set as the ranks of its tokens, rarest first: a token's rank orders tokens by how many sets hold it (then by
 * first appearance, so the order is the same on every run). Integers, so overlaps are counted by merging sorted arrays.
 */
function rankedSets(sets: readonly ReadonlySet<string>[]): Int32Array[] {
  const count = new Map<string, number>();
  for (const set of sets) for (const token of set) count.set(token, (count.get(token) ?? 0) + 1);
  const tokens = [...count.keys()];
  const firstSeen = new Map(tokens.map((t, i) => [t, i]));
  tokens.sort((a, b) => count.get(a)! - count.get(b)! || firstSeen.get(a)! - firstSeen.get(b)!);
  const rank = new Map(tokens.map((t, i) => [t, i]));
  return sets.map((set) => Int32Array.from(set, (token) => rank.get(token)!).sort());
}

/** Tokens two sorted rank arrays share. */
function overlapOf(a: Int32Array, b: Int32Array): number {
  let shared = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return shared;
}

/**
 * The pairs whose Dice coefficient 2|x∩y| / (|x|+|y|) reaches `threshold` (computed as printed/titleWords.ts `dice` does).
 * Prefix filtering finds the candidates; positional filtering (Xiao et al., "Efficient similarity joins for
 * near duplicate detection", 2008) drops a candidate as soon as the tokens left after a shared one cannot make up
 * the overlap the pair needs, so sets that share only common tokens are never compared whole.
 */
function* addDicePairs(sets: readonly ReadonlySet<string>[], threshold: number, pairs: Pairs): Steps<void> {
  const ranked = rankedSets(sets);
  const jaccard = threshold / (2 - threshold);
  /** Per token rank: the sets whose prefix holds it, and the token's position in each. */
  const index = new Map<number, { set: number[]; at: number[] }>();
  /** Per set: tokens shared with the set being probed so far (-1: ruled out). */
  const shared = new Int32Array(sets.length);
  for (let x = 0; x < sets.length; x++) {
    const tokens = ranked[x]!;
    const size = tokens.length;
    if (size === 0) continue;
    // A pair needs at least this overlap (a hair less, so rounding never shortens the prefix).
    const prefix = size - Math.max(1, Math.ceil(jaccard * size - 1e-9)) + 1;
    const touched: number[] = [];
    for (let i = 0; i < prefix; i++) {
      const holders = index.get(tokens[i]!);
      if (!holders) continue;
      for (let k = 0; k < holders.set.length; k++) {
        const y = holders.set[k]!;
        if (shared[y] === -1) continue;
        const other = ranked[y]!.length;
        const needed = Math.ceil((threshold * (size + other)) / 2 - 1e-9);
        if (shared[y] === 0) touched.push(y);
        // The tokens from this one on, in either set, bound what the pair can still share.
        if (shared[y]! + Math.min(size - i, other - holders.at[k]!) >= needed) shared[y]!++;
        else shared[y] = -1;
      }
    }
    for (const y of touched) {
      if (shared[y]! > 0 && (2 * overlapOf(tokens, ranked[y]!)) / (size + ranked[y]!.length) >= threshold) pairs.add(y, x);
      shared[y] = 0;
    }
    for (let i = 0; i < prefix; i++) {
      const holders = index.get(tokens[i]!);
      if (holders) {
        holders.set.push(x);
        holders.at.push(i);
      } else index.set(tokens[i]!, { set: [x], at: [i] });
    }
    yield;
  }
}

/** The pairs where the smaller set, of at least `minSize` tokens, lies inside the larger. */
function* addSubsetPairs(sets: readonly ReadonlySet<string>[], minSize: number, pairs: Pairs): Steps<void> {
  const ranked = rankedSets(sets);
  const holders = new Map<number, number[]>();
  ranked.forEach((tokens, i) => {
    for (const token of tokens) {
      const list = holders.get(token);
      if (list) list.push(i);
      else holders.set(token, [i]);
    }
  });
  for (let i = 0; i < sets.length; i++) {
    const small = ranked[i]!;
    if (small.length < minSize) continue;
    // A set holding all of this one's tokens holds its rarest.
    for (const j of holders.get(small[0]!)!) {
      const large = ranked[j]!;
      if (j !== i && large.length >= small.length && overlapOf(small, large) === small.length) pairs.add(i, j);
    }
    yield;
  }
}
