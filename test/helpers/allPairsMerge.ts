/**
 * The merge as it was before candidate blocking (main 40db172, electron/engine/merge/mergeFindings.ts): every pair of
 * findings compared, in order, with the same rules. Kept as the oracle the blocked merge is held to
 * (test/unit/merge/mergeBlocking.test.ts: the same result on generated finding sets) and as the bench's baseline
 * (test/bench/mergeBench.ts). Not used by the product. When the merge's rules change, change them here too, or the
 * differential test says so.
 */
import { CONTENTS_LINE_END } from '../../shared/canonical';
import { LISTED_ENTRY_TYPE, type FindingSource, type MergeConflictDraft, type MergeDecision, type MergedFindingDraft, type MergeReason, type StoredFinding } from '../../shared/findings';
import { comparableId } from '../../electron/engine/extract';
import { compareFindings, contentWords, textSimilarity, words } from '../../electron/engine/merge';
import { listedSources } from '../../electron/engine/merge/result';

export interface MergeOptions {
  /** Share of the shorter evidence span two spans must overlap to be the same text. Default 0.5. */
  overlapRatio?: number;
  /** Turn off the similar-text pass (IDs, numbers and overlaps only). Default true. */
  similarText?: boolean;
  /**
   * The document's canonical text: a finding's title printed in it is the document's own title, and two distinct
   * printed titles keep sightings apart. Without it no title keeps findings apart (text alone decides).
   */
  documentText?: string;
  /**
   * The IDs the document prints (comparableId form). A finding the document gives no key but whose model ID is one
   * of them claims that ID: it never joins a group keyed or claimed by another printed ID (a duplicate costs a
   * click, a wrong merge costs a finding). Without it no claim counts.
   */
  printedIds?: ReadonlySet<string>;
}

export interface MergeResult {
  merged: MergedFindingDraft[];
  decisions: MergeDecision[];
  /** Findings sharing a printed ID or number that were kept apart because they clearly disagree. */
  conflicts: MergeConflictDraft[];
}

interface Edge {
  a: number;
  b: number;
  reason: MergeReason;
  score: number;
}

/** What the document says about a group: its printed ID (at most one), the printed ID its model claims, and its printed numbers. */
interface GroupIdentity {
  key: string | null;
  /** comparableId of a printed ID a member's model gave, where the document keys none of the group's members. */
  claim: string | null;
  numbers: Set<string>;
}

/** The printed ID a group stands for: its key, else what its members' model claims. */
const idOf = (g: GroupIdentity): string | null => (g.key ? comparableId(g.key) : g.claim);

interface PendingConflict {
  kind: MergeConflictDraft['kind'];
  key: string;
  a: number;
  b: number;
  score: number;
}

export function allPairsMerge(reported: readonly StoredFinding[], options: MergeOptions = {}): MergeResult {
  let findings = reported;
  const overlapRatio = options.overlapRatio ?? 0.5;
  const n = findings.length;
  const parent = findings.map((_, i) => i);
  const isPrinted = printedTitleTest(options.documentText);
  findings = ownRowTitles(findings, isPrinted);
  const claimOf = (f: StoredFinding): string | null => {
    if (f.findingKey || !f.id || !options.printedIds) return null;
    const claimed = comparableId(f.id);
    return options.printedIds.has(claimed) ? claimed : null;
  };
  const identity: GroupIdentity[] = findings.map((f) => ({ key: f.findingKey, claim: claimOf(f), numbers: new Set(f.printedNumber ? [f.printedNumber] : []) }));
  /** Per group root: the content words of each distinct title the document prints for its members. */
  const titles: ContentTitle[][] = findings.map((f) => (isPrinted(f.title) ? [contentTitle(f.title)] : []));
  /** Pairs of group roots that must stay apart (recorded conflicts). */
  const apart: [number, number][] = [];
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const kept = (a: number, b: number) => apart.some(([x, y]) => (find(x) === a && find(y) === b) || (find(x) === b && find(y) === a));
  const canJoin = (ra: number, rb: number): boolean => {
    const ia = identity[ra]!;
    const ib = identity[rb]!;
    if (ia.key && ib.key && ia.key !== ib.key) return false;
    const [idA, idB] = [idOf(ia), idOf(ib)];
    if (idA && idB && idA !== idB) return false;
    if (numbersClash(ia.numbers, ib.numbers)) return false;
    return !kept(ra, rb);
  };
  const edges: Edge[] = [];
  /** Text may join two groups only when the titles the document prints for them are not all distinct. */
  const textMayJoin = (ra: number, rb: number) => canJoin(ra, rb) && !titlesDistinct(titles[ra]!, titles[rb]!);
  const union = (a: number, b: number, reason: MergeReason, score: number): boolean => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb || !canJoin(ra, rb)) return false;
    if ((reason === 'similar-text' || reason === 'boundary-overlap') && titlesDistinct(titles[ra]!, titles[rb]!)) return false;
    const [root, child] = ra < rb ? [ra, rb] : [rb, ra];
    parent[child] = root;
    identity[root] = { key: identity[ra]!.key ?? identity[rb]!.key, claim: identity[ra]!.claim ?? identity[rb]!.claim, numbers: new Set([...identity[ra]!.numbers, ...identity[rb]!.numbers]) };
    titles[root] = uniqueTitles([...titles[ra]!, ...titles[rb]!]);
    edges.push({ a, b, reason, score });
    return true;
  };
  const conflicts: PendingConflict[] = [];

  // 1. same document-printed ID, 2. same printed number: join members that agree, keep and record the ones that clash.
  for (const [kind, keyOf, reason] of [
    ['id', (f: StoredFinding) => f.findingKey, 'same-id'],
    ['number', (f: StoredFinding) => f.printedNumber, 'same-number'],
  ] as const) {
    for (const [key, members] of bucket(findings, keyOf)) {
      for (let x = 0; x < members.length; x++) {
        for (let y = 0; y < x; y++) {
          const a = members[y]!;
          const b = members[x]!;
          if (find(a) === find(b)) continue;
          if (agree(findings[a]!, findings[b]!)) union(a, b, reason, 1);
        }
      }
      // Members of this bucket that ended in different groups although they share the key: a conflict when their
      // groups could otherwise have been joined (the ID or number is the document's, the titles say otherwise).
      const roots = [...new Set(members.map(find))];
      for (let x = 0; x < roots.length; x++) {
        for (let y = 0; y < x; y++) {
          const [a, b] = [roots[y]!, roots[x]!];
          if (!canJoin(a, b)) continue;
          apart.push([a, b]);
          conflicts.push({ kind, key, a, b, score: round(textSimilarity(findings[a]!.title, findings[b]!.title)) });
        }
      }
    }
  }

  // 3. boundary overlap (grounded spans of different chunks)
  for (let i = 0; i < n; i++) {
    const a = findings[i]!.grounding;
    if (a.status !== 'grounded' || a.start === null || a.end === null) continue;
    for (let j = i + 1; j < n; j++) {
      const b = findings[j]!.grounding;
      if (b.status !== 'grounded' || b.start === null || b.end === null) continue;
      if (findings[i]!.nodeIndex === findings[j]!.nodeIndex) continue;
      const overlap = Math.min(a.end, b.end) - Math.max(a.start, b.start);
      if (overlap <= 0) continue;
      const ratio = overlap / Math.max(1, Math.min(a.end - a.start, b.end - b.start));
      if (ratio < overlapRatio) continue;
      if (!union(i, j, 'boundary-overlap', round(ratio))) keptApartByTitle(i, j);
    }
  }

  // 4. similar text
  if (options.similarText ?? true) {
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        if (find(i) === find(j) || !canJoin(find(i), find(j))) continue;
        const s = compareFindings(findings[i]!, findings[j]!);
        if (s.same && !union(i, j, 'similar-text', s.score)) keptApartByTitle(i, j);
      }
    }
  }

  /** Siblings text alone would have joined, kept apart by their printed titles: a conflict when the titles are near (not merely described alike). */
  function keptApartByTitle(i: number, j: number): void {
    const [ra, rb] = [find(i), find(j)];
    if (ra === rb || !canJoin(ra, rb) || textMayJoin(ra, rb)) return;
    const [ta, tb] = [contentTitle(findings[i]!.title), contentTitle(findings[j]!.title)];
    if (sharedShare(ta, tb) < SIBLING_SHARE) return;
    apart.push([ra, rb]);
    conflicts.push({ kind: 'title', key: distinguishingWords(findings[i]!.title, findings[j]!.title), a: ra, b: rb, score: round(textSimilarity(findings[i]!.title, findings[j]!.title)) });
  }

  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const r = find(i);
    const g = groups.get(r);
    if (g) g.push(i);
    else groups.set(r, [i]);
  }

  const drafts = [...groups.entries()].map(([root, members]) => ({ root, draft: buildDraft(members.map((i) => findings[i]!), identity[root]!.key, isPrinted) }));
  drafts.sort((x, y) => position(x.draft) - position(y.draft) || x.draft.mainFindingId - y.draft.mainFindingId);
  const indexOfRoot = new Map(drafts.map((d, i) => [d.root, i]));
  const decisions: MergeDecision[] = edges.map((e) => ({
    mergedIndex: indexOfRoot.get(find(e.a))!,
    keptFindingId: findings[e.a]!.findingId,
    absorbedFindingId: findings[e.b]!.findingId,
    reason: e.reason,
    score: e.score,
  }));
  const seen = new Set<string>();
  const mergeConflicts: MergeConflictDraft[] = [];
  for (const c of conflicts) {
    const pair = [indexOfRoot.get(find(c.a))!, indexOfRoot.get(find(c.b))!].sort((x, y) => x - y) as [number, number];
    const id = `${c.kind}:${c.key}:${pair.join(',')}`;
    if (pair[0] === pair[1] || seen.has(id)) continue;
    seen.add(id);
    mergeConflicts.push({ kind: c.kind, key: c.key, mergedIndexes: pair, score: c.score });
  }
  return { merged: drafts.map((d) => d.draft), decisions, conflicts: mergeConflicts };
}

/** A title's content words (similarity.ts: normalised, stemmed, stop words dropped). */
interface ContentTitle {
  words: ReadonlySet<string>;
  key: string;
}

function contentTitle(title: string): ContentTitle {
  const words = contentWords(title);
  return { words, key: [...words].sort().join(' ') };
}

function uniqueTitles(list: readonly ContentTitle[]): ContentTitle[] {
  const seen = new Map<string, ContentTitle>();
  for (const t of list) if (!seen.has(t.key)) seen.set(t.key, t);
  return [...seen.values()];
}

/** Two titles differ in a distinguishing word when each has a content word the other lacks (one inside the other is a shorter wording). */
function distinctTitles(a: ContentTitle, b: ContentTitle): boolean {
  if (a.words.size === 0 || b.words.size === 0) return false;
  const extra = (x: ReadonlySet<string>, y: ReadonlySet<string>) => [...x].some((w) => !y.has(w));
  return extra(a.words, b.words) && extra(b.words, a.words);
}

/** Every printed title of one group is distinct from every printed title of the other. */
function titlesDistinct(a: readonly ContentTitle[], b: readonly ContentTitle[]): boolean {
  return a.length > 0 && b.length > 0 && a.every((x) => b.every((y) => distinctTitles(x, y)));
}

/** Titles sharing at least this share of the shorter one's content words are siblings worth a conflict note. */
const SIBLING_SHARE = 0.5;

function sharedShare(a: ContentTitle, b: ContentTitle): number {
  const shared = [...a.words].filter((w) => b.words.has(w)).length;
  return shared / Math.max(1, Math.min(a.words.size, b.words.size));
}

/** "errors / constants": the words of each title the other lacks, for the conflict's key. */
function distinguishingWords(a: string, b: string): string {
  const wa = contentWords(a);
  const wb = contentWords(b);
  const only = (x: ReadonlySet<string>, y: ReadonlySet<string>) => [...x].filter((w) => !y.has(w)).join(' ');
  return `${only(wa, wb)} / ${only(wb, wa)}`;
}

/**
 * Whether the document prints a title: its words, in order, in the document's words (case, punctuation, line
 * breaks and invisible characters aside). Without the text, none does.
 */
function printedTitleTest(text: string | undefined): (title: string) => boolean {
  if (text === undefined) return () => false;
  const documentWords = ` ${words(text).join(' ')} `;
  const cache = new Map<string, boolean>();
  return (title) => {
    let printed = cache.get(title);
    if (printed === undefined) {
      const titleWords = words(title);
      printed = titleWords.length > 0 && documentWords.includes(` ${titleWords.join(' ')} `);
      cache.set(title, printed);
    }
    return printed;
  };
}

/**
 * A sighting belongs to the finding of its own row or heading: when its quote opens with another reported title
 * the document prints (after a number or ID: "7.5.10 Unused constants can be removed"), distinct from the title
 * the model gave it, itself a printed title, the document's row says which finding it is (a model that gave a
 * sibling's row its neighbour's title). The quote is the document's words; the title only the model's.
 */
function ownRowTitles(findings: readonly StoredFinding[], isPrinted: (title: string) => boolean): readonly StoredFinding[] {
  const printed = [...new Set(findings.map((f) => f.title))].filter(isPrinted).map((title) => ({ title, words: words(title) }));
  if (printed.length < 2) return findings;
  // Longest first: a title that opens another ("Unused errors" / "Unused errors can be removed") loses to the longer.
  printed.sort((a, b) => b.words.length - a.words.length);
  return findings.map((f) => {
    // Only a title the document prints for another finding is a sibling mix-up; a claim the document never names stays the model's (and a conflict where it takes an ID).
    if (f.grounding.status !== 'grounded' || !isPrinted(f.title)) return f;
    const quote = words(f.evidence);
    // Skip what may precede a title on its row: a number ("7.5.10" = 7 5 10) or an ID ("LID-05" = lid 05), at most four words.
    const lead = quote.findIndex((w) => !/\d/.test(w) && !/^[a-z]{1,5}$/.test(w));
    for (let at = 0; at <= Math.min(Math.max(lead, 0), 4); at++) {
      const own = printed.find((t) => t.words.length > 0 && t.words.every((w, i) => quote[at + i] === w));
      if (!own) continue;
      if (own.title === f.title || !distinctTitles(contentTitle(own.title), contentTitle(f.title))) return f;
      // The number found before the model's title belongs to that other row; the row's own is the one its quote opens with.
      return { ...f, title: own.title, printedNumber: /^\s*(?:#|no\.?\s*)?(\d{1,3}(?:\.\d{1,3}){0,3})[.):]?\s/i.exec(f.evidence)?.[1] ?? null };
    }
    return f;
  });
}

/** Indexes of the findings that carry each non-null key, in document order of first appearance. */
function bucket(findings: readonly StoredFinding[], keyOf: (f: StoredFinding) => string | null): Map<string, number[]> {
  const out = new Map<string, number[]>();
  findings.forEach((f, i) => {
    const key = keyOf(f);
    if (!key) return;
    const list = out.get(key);
    if (list) list.push(i);
    else out.set(key, [i]);
  });
  return out;
}

/** "7" and "9" clash; "7" and "3.2" do not (a table row number and its section number can differ in shape). */
function numbersClash(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size === 0 || b.size === 0) return false;
  const shape = (x: string) => x.split('.').length;
  for (const x of a) {
    const sameShape = [...b].filter((y) => shape(y) === shape(x));
    if (sameShape.length > 0 && !sameShape.includes(x)) return true;
  }
  return false;
}

/**
 * Whether two sightings that share a printed ID or number speak of the same finding: their titles are alike
 * (the similar-text rules, or half their words or bigrams shared, which covers a heading that words the table's
 * title differently), or their evidence overlaps. A clear disagreement keeps them apart.
 */
function agree(a: StoredFinding, b: StoredFinding): boolean {
  if (compareFindings(a, b).same) return true;
  if (textSimilarity(a.title, b.title) >= 0.5) return true;
  const wa = contentWords(a.title);
  const wb = contentWords(b.title);
  const shared = [...wa].filter((w) => wb.has(w)).length;
  if (Math.min(wa.size, wb.size) > 0 && shared / Math.min(wa.size, wb.size) >= 0.6) return true;
  const ga = a.grounding;
  const gb = b.grounding;
  return ga.start !== null && ga.end !== null && gb.start !== null && gb.end !== null && Math.min(ga.end, gb.end) > Math.max(ga.start, gb.start);
}

function position(d: MergedFindingDraft): number {
  const main = d.sources.find((s) => s.isMain);
  return (d.mainPage ?? 1e9) * 1e9 + (main?.evidenceStart ?? 0);
}

/**
 * How strongly a source speaks for its finding: grounded in its own chunk, then the detailed section's heading
 * (a line that prints the title and nothing else but its number or ID: not a table row with its cells, not a
 * contents line with its page), then text length; table rows lose.
 */
function mainScore(f: StoredFinding): number {
  const g = f.grounding;
  const grounded = g.status === 'grounded' ? (g.inContextOnly ? 500_000 : 1_000_000) : 0;
  const tableLike = /\||\t/.test(f.evidence) || f.evidence.split('\n').some((l) => CONTENTS_LINE_END.test(l)) ? -1000 : 0;
  // A row the rules read (extract/listedRows.ts) has no type or description of the model's: any reported sighting leads.
  const listedRow = f.type === LISTED_ENTRY_TYPE ? -2000 : 0;
  const heading = g.status === 'grounded' && isHeadingLine(f.evidence, f.title) ? 200 : 0;
  return grounded + tableLike + listedRow + heading + f.description.length + f.evidence.length;
}

/** The quote is the title's heading line: the title's words, after a number or an ID at most. */
function isHeadingLine(evidence: string, title: string): boolean {
  const quote = words(evidence);
  const own = words(title);
  if (own.length === 0 || quote.length < own.length || quote.length > own.length + 4) return false;
  const at = quote.length - own.length;
  return quote.slice(0, at).every((w) => /\d/.test(w) || /^[a-z]{1,5}$/.test(w)) && own.every((w, i) => quote[at + i] === w);
}

function buildDraft(members: StoredFinding[], key: string | null, isPrinted: (title: string) => boolean): MergedFindingDraft {
  const ranked = [...members].sort((a, b) => mainScore(b) - mainScore(a) || a.findingId - b.findingId);
  const main = ranked[0]!;
  // A main source whose model wrote a title the document prints nowhere, about something else than the title the
  // document prints for its group (a row's ID keyed a sighting the model titled otherwise), keeps its description and
  // page but takes the group's best printed title. A mere rewording ("Audit log entries deletable by support
  // operators" for "Audit log deletable by operators") stays the model's title, as before.
  const printedTitle = isPrinted(main.title) ? undefined : ranked.find((f) => isPrinted(f.title))?.title;
  const title = printedTitle && distinctTitles(contentTitle(main.title), contentTitle(printedTitle)) ? printedTitle : main.title;
  const top = [...members].sort((a, b) => a.severityRank - b.severityRank || (a === main ? -1 : b === main ? 1 : 0))[0]!;
  // The sources listed as the merge lists them (result.ts): only the grounded sightings of a finding the text shows.
  const { sources, unfoundSightings } = listedSources(members.map((f) => toFindingSource(f, f === main)));
  const keyForm = key ? comparableId(key) : null;
  const labels = members.map((f) => f.id).filter((id): id is string => id !== null && (keyForm === null || comparableId(id) !== keyForm));
  return {
    findingKey: key,
    printedNumber: main.printedNumber ?? mostCommon(members.map((f) => f.printedNumber)),
    // The model's labels matter only where the document prints no ID of its own.
    modelLabels: key ? [] : [...new Set(labels)],
    title,
    type: main.type,
    severity: top.severity,
    severityCanonical: top.severityCanonical,
    severityRank: top.severityRank,
    description: main.description,
    mainPage: main.grounding.page ?? main.page,
    mainFindingId: main.findingId,
    grounded: members.some((f) => f.grounding.status === 'grounded'),
    sources,
    absorbedFindingIds: members.filter((f) => f !== main).map((f) => f.findingId),
    ...(unfoundSightings > 0 ? { unfoundSightings } : {}),
  };
}

function mostCommon(values: readonly (string | null)[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** One raw finding as a source of a merged finding: where it was stated and whether its quote was found. */
function toFindingSource(f: StoredFinding, isMain: boolean): FindingSource {
  return {
    findingId: f.findingId,
    nodeIndex: f.nodeIndex,
    page: f.grounding.page ?? f.page,
    title: f.title,
    evidence: f.evidence,
    evidenceStart: f.grounding.start,
    evidenceEnd: f.grounding.end,
    grounded: f.grounding.status === 'grounded',
    match: f.grounding.match,
    inContextOnly: f.grounding.inContextOnly,
    isMain,
    modelId: f.id,
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
