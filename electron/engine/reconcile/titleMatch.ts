/**
 * Matching rows to items by their titles, for the rows and items no printed
 * ID tied: reworded titles included ("Upgrade guava in hadoop-thirdparty to
 * 31.1-jre" / "Bump Guava to 31.1-jre"), as ONE best assignment (one row to
 * one item, the best total), never each row taking its best item in turn
 * (the first of two near-identical items would take both rows' best match).
 *
 * Score: the terms two titles share, each weighted by how rare it is among
 * all the titles (a product name or a version counts far more than
 * "update"), as the mean of two shares: of both titles together (weighted
 * Dice) and of the shorter one (a document's table row carries more words
 * than the tracker's summary). Terms are words as the merge reads them (its
 * stop words out, plurals folded), and a word with digits is kept whole
 * ("1.11.1", "31.1-jre", "CVE-2021-22569"): two titles naming different
 * versions of the same thing ("Upgrade to Avro 1.11.1" / "... 1.11.3") are
 * no match at any score.
 *
 * Scale: candidates come from an index of terms to items, so only pairs that
 * share a term are scored, and a term most items hold ("case", "release")
 * adds to a pair's score without making every item a candidate; the
 * assignment is solved per group of rows and items linked by a candidate
 * pair, which stays small for real titles.
 */
import { STOPWORDS } from '../printed';
import { bestAssignment } from '../completeness';

/** A title pair scoring this much or more is a match (when the assignment gives it). */
export const TITLE_MATCH_THRESHOLD = 0.5;
/** Above this many cells a group is assigned greedily, best pair first, instead of by the exact method. */
const EXACT_ASSIGNMENT_CELLS = 250_000;

/** A term this share of the items holds or more is "common": it counts in the score but makes no candidates. */
const COMMON_SHARE = 0.2;

/** A word with a digit in it, with the parts joined to it by dots, dashes or slashes: "1.11.1", "31.1-jre", "CVE-2021-22569". */
const DIGIT_WORD = /(?:[\p{L}\p{N}]+[._\-/#])*[\p{L}\p{N}]*\p{N}[\p{L}\p{N}]*(?:[._\-/#][\p{L}\p{N}]+)*/gu;
/** Zero-width characters and soft hyphens a PDF or an export leaves inside words. */
const INVISIBLE = /[\u200B-\u200F\u2060-\u2064\uFEFF\u00AD]/g;
const fold = (w: string) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

/** The number in a word with digits ("2023-2976" in "CVE-2023-2976", "1.1.0" in "thirdparty-1.1.0"): what two versions are compared by. */
const NUMBER = /\p{N}+(?:[._\-/]\p{N}+)*/gu;

/**
 * A title's terms: words with digits whole and their numbers apart, the other words lower case without accents,
 * plurals folded, stop words out (the merge's reading of a title, made without its offset map: thousands of
 * rows are read at once). `digits` holds the numbers, which say which version or case a title is about.
 */
export function titleTerms(title: string): { all: Set<string>; digits: Set<string> } {
  const normalized = title
    .replace(INVISIBLE, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const digitWords = (normalized.match(DIGIT_WORD) ?? []).map((w) => w.replace(/^[._\-/#]+|[._\-/#]+$/g, '')).filter(Boolean);
  const digits = new Set(digitWords.flatMap((w) => w.match(NUMBER) ?? []));
  const words = (normalized.replace(DIGIT_WORD, ' ').match(/[\p{L}\p{N}]+/gu) ?? []).map(fold).filter((w) => !STOPWORDS.has(w));
  return { all: new Set([...words, ...digitWords, ...digits]), digits };
}

/** Two titles naming different versions or numbers of one thing: each has a number the other lacks. */
function numbersDisagree(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const own = (x: ReadonlySet<string>, y: ReadonlySet<string>) => [...x].some((d) => !y.has(d));
  return a.size > 0 && b.size > 0 && own(a, b) && own(b, a);
}

export interface TitlePair {
  row: number;
  item: number;
  score: number;
}

/**
 * Every row-item pair (indexes into the two lists) whose titles score at least the threshold, by the weighted
 * shares above; `allowed` says which pairs may match at all (a row and an item of one ID family with different
 * IDs may not).
 */
export function scoreTitles(
  rowTitles: readonly string[],
  itemTitles: readonly string[],
  allowed: (row: number, item: number) => boolean = () => true,
): TitlePair[] {
  const rows = rowTitles.map(titleTerms);
  const items = itemTitles.map(titleTerms);
  const df = new Map<string, number>();
  for (const t of [...rows, ...items]) for (const term of t.all) df.set(term, (df.get(term) ?? 0) + 1);
  const total = rows.length + items.length;
  const weight = (term: string) => Math.log(1 + total / (df.get(term) ?? 1));
  const mass = (t: { all: Set<string> }) => [...t.all].reduce((sum, term) => sum + weight(term), 0);
  const itemMass = items.map(mass);
  const itemCount = new Map<string, number>();
  for (const t of items) for (const term of t.all) itemCount.set(term, (itemCount.get(term) ?? 0) + 1);
  const common = (term: string) => (itemCount.get(term) ?? 0) > Math.max(20, items.length * COMMON_SHARE);
  const postings = new Map<string, number[]>();
  items.forEach((t, i) => {
    for (const term of t.all) {
      const list = postings.get(term);
      if (list) list.push(i);
      else postings.set(term, [i]);
    }
  });
  const pairs: TitlePair[] = [];
  rows.forEach((r, ri) => {
    const rowMass = mass(r);
    if (rowMass === 0) return;
    // Candidates from the row's distinctive terms (all its terms when it has none), then its common terms added.
    const terms = [...r.all];
    const distinctive = terms.filter((term) => !common(term));
    const seeds = distinctive.length > 0 ? distinctive : terms;
    const shared = new Map<number, number>();
    for (const term of seeds) for (const i of postings.get(term) ?? []) shared.set(i, (shared.get(i) ?? 0) + weight(term));
    if (seeds !== terms) {
      const rest = terms.filter(common);
      for (const i of shared.keys()) for (const term of rest) if (items[i]!.all.has(term)) shared.set(i, shared.get(i)! + weight(term));
    }
    for (const [i, sharedMass] of shared) {
      const dice = (2 * sharedMass) / (rowMass + itemMass[i]!);
      const overlap = sharedMass / Math.min(rowMass, itemMass[i]!);
      const score = Math.round(((dice + overlap) / 2) * 1000) / 1000;
      if (score < TITLE_MATCH_THRESHOLD || numbersDisagree(r.digits, items[i]!.digits) || !allowed(ri, i)) continue;
      pairs.push({ row: ri, item: i, score });
    }
  });
  return pairs;
}

/** The one-to-one assignment of the scored pairs with the best total score, solved per linked group. */
export function assignTitles(pairs: readonly TitlePair[]): TitlePair[] {
  // Groups: rows and items linked through candidate pairs (union-find over "r<row>" and "i<item>").
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root)!;
    parent.set(x, root);
    return root;
  };
  for (const p of pairs) {
    const a = find(`r${p.row}`);
    const b = find(`i${p.item}`);
    if (a !== b) parent.set(a, b);
  }
  const groups = new Map<string, TitlePair[]>();
  for (const p of pairs) {
    const root = find(`r${p.row}`);
    const group = groups.get(root);
    if (group) group.push(p);
    else groups.set(root, [p]);
  }
  const chosen: TitlePair[] = [];
  for (const group of groups.values()) {
    const rowIds = [...new Set(group.map((p) => p.row))];
    const itemIds = [...new Set(group.map((p) => p.item))];
    if (rowIds.length * itemIds.length > EXACT_ASSIGNMENT_CELLS) {
      chosen.push(...greedy(group));
      continue;
    }
    const rowAt = new Map(rowIds.map((r, k) => [r, k]));
    const itemAt = new Map(itemIds.map((i, k) => [i, k]));
    const weights = rowIds.map(() => new Array<number>(itemIds.length).fill(0));
    for (const p of group) weights[rowAt.get(p.row)!]![itemAt.get(p.item)!] = p.score;
    bestAssignment(weights).forEach((k, r) => {
      if (k < 0) return;
      chosen.push({ row: rowIds[r]!, item: itemIds[k]!, score: weights[r]![k]! });
    });
  }
  return chosen.sort((a, b) => a.row - b.row);
}

function greedy(group: readonly TitlePair[]): TitlePair[] {
  const takenRows = new Set<number>();
  const takenItems = new Set<number>();
  const out: TitlePair[] = [];
  for (const p of [...group].sort((a, b) => b.score - a.score || a.row - b.row || a.item - b.item)) {
    if (takenRows.has(p.row) || takenItems.has(p.item)) continue;
    takenRows.add(p.row);
    takenItems.add(p.item);
    out.push(p);
  }
  return out;
}
