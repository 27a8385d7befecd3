/**
 * The merge's groups: a union-find over one document's raw findings that knows, per group, what the document says
 * about it (its printed ID, the printed ID its model claims, its printed numbers, its printed titles) and which
 * groups must stay apart (recorded conflicts). Every join goes through `join`, which refuses what the document
 * contradicts, and is recorded as an edge (the merge decision).
 */
import type { MergeReason } from '../../../shared/findings';
import { comparableId, titlesDistinct, uniqueTitles, type ContentTitle } from '../printed';

/** What the document says about a group: its printed ID (at most one), the printed ID its model claims, and its printed numbers. */
export interface GroupIdentity {
  key: string | null;
  /** comparableId of a printed ID a member's model gave, where the document keys none of the group's members. */
  claim: string | null;
  numbers: Set<string>;
}

export interface Edge {
  a: number;
  b: number;
  reason: MergeReason;
  score: number;
}

/** The printed ID a group stands for: its key, else what its members' model claims. */
const idOf = (g: GroupIdentity): string | null => (g.key ? comparableId(g.key) : g.claim);

/** Joins that text alone proposes: the document's printed titles can veto them. */
const TEXT_REASONS: readonly MergeReason[] = ['similar-text', 'boundary-overlap'];

export class Groups {
  private readonly parent: number[];
  /** Per group root. */
  private readonly identity: GroupIdentity[];
  /** Per group root: the content words of each distinct title the document prints for its members. */
  private readonly titles: ContentTitle[][];
  /** Per group root: the roots of the groups it must stay apart from. */
  private readonly apart = new Map<number, Set<number>>();
  /** Every join, in the order it was made. */
  readonly edges: Edge[] = [];

  constructor(identity: GroupIdentity[], titles: ContentTitle[][]) {
    this.parent = identity.map((_, i) => i);
    this.identity = identity;
    this.titles = titles;
  }

  find(i: number): number {
    const parent = this.parent;
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  }

  /** The document's printed ID for the group of `root`, when it has one. */
  keyOf(root: number): string | null {
    return this.identity[root]!.key;
  }

  /** Nothing the document prints keeps the two groups (roots) apart: no different IDs or numbers, no recorded conflict. */
  canJoin(ra: number, rb: number): boolean {
    const ia = this.identity[ra]!;
    const ib = this.identity[rb]!;
    if (ia.key && ib.key && ia.key !== ib.key) return false;
    const [idA, idB] = [idOf(ia), idOf(ib)];
    if (idA && idB && idA !== idB) return false;
    if (numbersClash(ia.numbers, ib.numbers)) return false;
    return !this.apart.get(ra)?.has(rb);
  }

  /** Every title the document prints for one group differs in a distinguishing word from every one it prints for the other. */
  titlesDistinct(ra: number, rb: number): boolean {
    return titlesDistinct(this.titles[ra]!, this.titles[rb]!);
  }

  /** Text may join two groups only when the titles the document prints for them are not all distinct. */
  textMayJoin(ra: number, rb: number): boolean {
    return this.canJoin(ra, rb) && !this.titlesDistinct(ra, rb);
  }

  /** Joins the groups of findings a and b, unless the document keeps them apart; false when it does (or they are one already). */
  join(a: number, b: number, reason: MergeReason, score: number): boolean {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb || !this.canJoin(ra, rb)) return false;
    if (TEXT_REASONS.includes(reason) && this.titlesDistinct(ra, rb)) return false;
    const [root, child] = ra < rb ? [ra, rb] : [rb, ra];
    this.parent[child] = root;
    const [ia, ib] = [this.identity[ra]!, this.identity[rb]!];
    this.identity[root] = { key: ia.key ?? ib.key, claim: ia.claim ?? ib.claim, numbers: new Set([...ia.numbers, ...ib.numbers]) };
    this.titles[root] = uniqueTitles([...this.titles[ra]!, ...this.titles[rb]!]);
    this.moveApart(child, root);
    this.edges.push({ a, b, reason, score });
    return true;
  }

  /** The two groups (roots) stay apart from now on, whatever joins either of them later. */
  keepApart(ra: number, rb: number): void {
    this.apartOf(ra).add(rb);
    this.apartOf(rb).add(ra);
  }

  /** Members of each group, by root, each list in index order. */
  members(): Map<number, number[]> {
    const groups = new Map<number, number[]>();
    for (let i = 0; i < this.parent.length; i++) {
      const r = this.find(i);
      const g = groups.get(r);
      if (g) g.push(i);
      else groups.set(r, [i]);
    }
    return groups;
  }

  private apartOf(root: number): Set<number> {
    let set = this.apart.get(root);
    if (!set) this.apart.set(root, (set = new Set()));
    return set;
  }

  /** A child's conflicts become its new root's: the groups kept apart from it are kept apart from the joined group. */
  private moveApart(child: number, root: number): void {
    const own = this.apart.get(child);
    if (!own) return;
    this.apart.delete(child);
    for (const other of own) {
      const theirs = this.apart.get(other)!;
      theirs.delete(child);
      theirs.add(root);
      this.apartOf(root).add(other);
    }
  }
}

/** "7" and "9" clash; "7" and "3.2" do not (a table row number and its section number can differ in shape). */
export function numbersClash(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size === 0 || b.size === 0) return false;
  const shape = (x: string) => x.split('.').length;
  for (const x of a) {
    const sameShape = [...b].filter((y) => shape(y) === shape(x));
    if (sameShape.length > 0 && !sameShape.includes(x)) return true;
  }
  return false;
}
