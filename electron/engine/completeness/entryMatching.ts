/**
 * Which merged findings each entry of a document's listing (summary-table
 * row, contents line; see listedEntries.ts) stands for.
 *
 * Sure matches first, each taking its entry away from findings that only
 * resemble it by title:
 *  - the finding's printed ID is the entry's;
 *  - one of the finding's sources is the entry itself (its quote lies on the
 *    row: the model, or the rules, read that row as this finding);
 *  - the finding's printed number is the entry's ("7", "5.1.6"), no other
 *    finding carries that number (a document may number its detailed
 *    sections apart from its list), and the titles do not contradict it.
 * Then the rest by title words, as one assignment over the listing (one
 * finding per entry, the best total), not each finding taking its best entry
 * in turn: near-identical siblings ("Unused errors / constants can be
 * removed"), the later one also read under the earlier one's title, would
 * otherwise both go to the first row and leave the second "without a
 * finding". A duplicate the merge kept apart (it reads most like an entry a
 * sure match took, or the assignment leaves it over: the listing has no other
 * row for it) joins the entry it matches best, after the entry's own finding,
 * so it is not "in none of the lists" either, and covers no other row.
 *
 * A listing can hold thousands of rows (a release note's issue table): a finding is scored only against the entries
 * it can score with (entries sharing a title word, a rare letter trigram or its printed number), the others score 0
 * as they always did, and sure matches look their entries up by ID, number and position.
 */
import type { MergedFinding } from '../../../shared/findings';
import type { ListedEntry } from '../../../shared/completeness';
import { contentWords, type Listing } from '../printed';
import { runToEnd, type Steps } from '../util';
import { bestAssignmentSteps } from './bestAssignment';

/** Share of a finding title's content words an entry must contain (or of the entry's in the title). */
export const ENTRY_MATCH_THRESHOLD = 0.7;
const NUMBER_BONUS = 0.25;

/** How a finding was matched to an entry, strongest first: the entry's first finding is its own. */
type SureKind = 'row' | 'id' | 'number';
const SURE_ORDER: readonly SureKind[] = ['row', 'id', 'number'];

export function matchEntries(listings: readonly Listing[], findings: readonly MergedFinding[]): Listing[] {
  return runToEnd(matchEntrySteps(listings, findings));
}

/** matchEntries pausing after each finding it scores or places (util/slices.ts), to run in slices. */
export function* matchEntrySteps(listings: readonly Listing[], findings: readonly MergedFinding[]): Steps<Listing[]> {
  const numberHolders = new Map<string, number>();
  for (const f of findings) if (f.printedNumber !== null) numberHolders.set(f.printedNumber, (numberHolders.get(f.printedNumber) ?? 0) + 1);
  const out: Listing[] = [];
  for (const listing of listings) out.push({ ...listing, entries: yield* matchListing(listing.entries, findings, numberHolders) });
  return out;
}

function* matchListing(listed: readonly ListedEntry[], findings: readonly MergedFinding[], numberHolders: ReadonlyMap<string, number>): Steps<ListedEntry[]> {
  const entries = listed.map((e) => ({ ...e, findingIds: [] as number[] }));
  // Scored when needed: a finding placed by its row or ID (every row of a register read by the rules) needs no title scores.
  const index = new EntryIndex(entries);
  const scored: Map<number, number>[] = [];
  const scoresOf = (fi: number) => (scored[fi] ??= titleScores(index, findings[fi]!));
  const score = (fi: number, ei: number) => scoresOf(fi).get(ei) ?? 0;
  /** Per entry: how many findings' titles match it (counted on first use). */
  let matchedBy: Int32Array | undefined;
  function* countMatched(): Steps<Int32Array> {
    const counts = new Int32Array(entries.length);
    for (let fi = 0; fi < findings.length; fi++) {
      for (const [ei, value] of scoresOf(fi)) if (value >= ENTRY_MATCH_THRESHOLD) counts[ei]!++;
      yield;
    }
    return counts;
  }
  /** The finding shares no title words with the entry, and another finding's title matches it: the number is another list's. */
  const titlesContradict = (fi: number, ei: number) => score(fi, ei) === 0 && matchedBy![ei]! > 0;
  const byId = indexBy(entries, (e) => e.id);
  const byNumber = indexBy(entries, (e) => e.number);
  const rows = new EntryRows(entries);
  const sure = entries.map(() => [] as { finding: number; kind: SureKind }[]);
  const placed = new Set<number>();

  for (let fi = 0; fi < findings.length; fi++) {
    const f = findings[fi]!;
    const row = rows.ofSources(f);
    // A row the finding was read from says which entry is its own: its printed number does not add another.
    const numbered = row < 0 && f.printedNumber !== null && numberHolders.get(f.printedNumber) === 1;
    // Whether another finding's title matches an entry its number names: counted once, when first needed.
    if (numbered && matchedBy === undefined && byNumber.has(f.printedNumber!)) matchedBy = yield* countMatched();
    // Per entry the strongest kind: its row, else its ID, else its number (the entries each kind can name, looked up).
    const kinds = new Map<number, SureKind>();
    if (numbered) for (const ei of byNumber.get(f.printedNumber!) ?? []) if (!titlesContradict(fi, ei)) kinds.set(ei, 'number');
    if (f.findingKey !== null) for (const ei of byId.get(f.findingKey) ?? []) kinds.set(ei, 'id');
    if (row >= 0) kinds.set(row, 'row');
    for (const [ei, kind] of kinds) {
      sure[ei]!.push({ finding: fi, kind });
      placed.add(fi);
    }
    yield;
  }
  sure.forEach((list, ei) => {
    list.sort((a, b) => SURE_ORDER.indexOf(a.kind) - SURE_ORDER.indexOf(b.kind) || a.finding - b.finding);
    entries[ei]!.findingIds.push(...list.map((s) => findings[s.finding]!.id));
  });

  const weight = (fi: number, ei: number) => (score(fi, ei) >= ENTRY_MATCH_THRESHOLD ? score(fi, ei) : 0);
  /** The entry the finding matches best among those `among` accepts (the first of the best, in entry order), or -1. */
  const bestOf = (fi: number, among: (ei: number) => boolean) => {
    let best = -1;
    for (const ei of [...scoresOf(fi).keys()].sort((a, b) => a - b)) if (among(ei) && weight(fi, ei) > (best < 0 ? 0 : weight(fi, best))) best = ei;
    return best;
  };
  const isTaken = (ei: number) => sure[ei]!.length > 0;
  const isOpen = (ei: number) => !isTaken(ei);
  const openEntries = entries.map((_, ei) => ei).filter(isOpen);
  // A finding that reads most like an entry a sure match took is a duplicate of that entry's finding (the row read as a
  // finding of its own, say, beside its detailed section): it joins that entry and competes for no other, or it would
  // cover a sibling's row whose finding the run missed.
  const duplicates = new Map<number, number>();
  for (let fi = 0; fi < findings.length; fi++) {
    if (placed.has(fi)) continue;
    const taken = bestOf(fi, isTaken);
    const open = bestOf(fi, isOpen);
    if (taken >= 0 && (open < 0 || weight(fi, taken) >= weight(fi, open))) duplicates.set(fi, taken);
    yield;
  }

  // The rest by title, as one assignment among the findings and entries no sure match took.
  const openFindings = findings.map((_, fi) => fi).filter((fi) => !placed.has(fi) && !duplicates.has(fi));
  const assigned = yield* bestAssignmentSteps(openFindings.map((fi) => openEntries.map((ei) => weight(fi, ei))));
  openFindings.forEach((fi, k) => {
    const ei = openEntries[assigned[k]!];
    if (ei === undefined) return;
    entries[ei]!.findingIds.push(findings[fi]!.id);
    placed.add(fi);
  });

  // Left over: no row of its own in this listing; it reads as the entry it matches best, after that entry's own finding.
  for (const fi of openFindings) {
    if (placed.has(fi)) continue;
    const best = bestOf(fi, () => true);
    if (best >= 0) duplicates.set(fi, best);
    yield;
  }
  for (const [fi, ei] of duplicates) entries[ei]!.findingIds.push(findings[fi]!.id);
  return entries;
}

/** Indexes of the entries by a key of theirs (null: none), in entry order. */
function indexBy(entries: readonly ListedEntry[], keyOf: (e: ListedEntry) => string | null): Map<string, number[]> {
  const out = new Map<string, number[]>();
  entries.forEach((e, ei) => {
    const key = keyOf(e);
    if (key === null) return;
    const list = out.get(key);
    if (list) list.push(ei);
    else out.set(key, [ei]);
  });
  return out;
}

/** The entries by where they are printed, so the rows a quote lies on are found without visiting every row. */
class EntryRows {
  /** Entry indexes by start, and the furthest end among each one and those before it. */
  private readonly order: number[];
  private readonly reach: number[];

  constructor(private readonly entries: readonly ListedEntry[]) {
    this.order = entries.map((_, ei) => ei).sort((a, b) => entries[a]!.start - entries[b]!.start || a - b);
    let furthest = -Infinity;
    this.reach = this.order.map((ei) => (furthest = Math.max(furthest, entries[ei]!.end)));
  }

  /**
   * The entry one of the finding's sources was read from: its grounded quote lies mostly on that entry (a quote over
   * several rows belongs to none). Of equal shares, the first source's, then the first entry's.
   */
  ofSources(f: MergedFinding): number {
    let best = -1;
    let bestShare = 0.5;
    for (const s of f.sources) {
      if (!s.grounded || s.evidenceStart === null || s.evidenceEnd === null || s.evidenceEnd <= s.evidenceStart) continue;
      const length = s.evidenceEnd - s.evidenceStart;
      for (const ei of this.overlapping(s.evidenceStart, s.evidenceEnd)) {
        const e = this.entries[ei]!;
        const share = (Math.min(e.end, s.evidenceEnd) - Math.max(e.start, s.evidenceStart)) / length;
        if (share > bestShare) {
          best = ei;
          bestShare = share;
        }
      }
    }
    return best;
  }

  /** Entries printed over some of [start, end), in entry order. */
  private overlapping(start: number, end: number): number[] {
    // The entries that start before `end`; walking back from the last of them, none earlier reaches past `start` once the furthest end does not.
    let hi = this.order.length;
    for (let lo = 0; lo < hi; ) {
      const mid = (lo + hi) >> 1;
      if (this.entries[this.order[mid]!]!.start < end) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let k = hi - 1; k >= 0 && this.reach[k]! > start; k--) if (this.entries[this.order[k]!]!.end > start) out.push(this.order[k]!);
    return out.sort((a, b) => a - b);
  }
}

/**
 * What the finding's titles have in common with each entry (0..1): the most
 * title words in common (an entry's text also holds the type, severity and
 * status columns, so the finding's title words are looked up in it, and the
 * other way round for shortened titles), or its letters alone; a printed
 * number the two share adds to it. The entries it scores above 0 with; any
 * other entry scores 0 (EntryIndex finds every entry that can score).
 */
function titleScores(index: EntryIndex, finding: MergedFinding): Map<number, number> {
  const own = titleForms(finding.title);
  const others = [...new Set(finding.sources.map((s) => s.title))].filter((t) => t !== finding.title).map(titleForms);
  const forms = [own, ...others];
  // Per form, the entries it may match by letters; with those it may match by words and those printing its number.
  const byLetters = forms.map((form) => index.letterCandidates(form));
  const candidates = new Set(finding.printedNumber === null ? [] : index.printing(finding.printedNumber));
  forms.forEach((form, k) => {
    for (const i of index.wordCandidates(form)) candidates.add(i);
    for (const i of byLetters[k]!) candidates.add(i);
  });
  const scores = new Map<number, number>();
  for (const i of [...candidates].sort((a, b) => a - b)) {
    const byTitle = Math.max(
      index.titleScore(own, i, byLetters[0]!.has(i)),
      ...others.map((t, k) => index.titleScore(t, i, byLetters[k + 1]!.has(i)) - OTHER_TITLE_DISCOUNT),
    );
    const value = Math.min(1, Math.max(0, byTitle) + numberScore(finding.printedNumber, index.numberOf(i), byTitle));
    if (value !== 0) scores.set(i, value);
  }
  return scores;
}

/**
 * A listing's entries as titles are scored against them, indexed so that a title is scored only against the entries
 * that can score with it: those holding at least as many of its words as a word overlap needs, those holding one of
 * the rarest letter trigrams a letter match needs (prefix filtering: an entry with 85% of a title's trigrams holds
 * one of any 15% + 1 of them, so of its rarest), and those printing its number. Every other entry scores 0.
 */
class EntryIndex {
  private readonly words: ReadonlySet<string>[][];
  private readonly squashed: string[];
  private readonly trigrams: ReadonlySet<string>[];
  private readonly byWord = new Map<string, number[]>();
  private readonly byTrigram = new Map<string, number[]>();
  private readonly byNumber = new Map<string, number[]>();

  constructor(private readonly entries: readonly ListedEntry[]) {
    this.words = entries.map((e) => titleVariants(e.title).map((t) => contentWords(t)));
    this.squashed = entries.map((e) => squash(e.title));
    this.trigrams = this.squashed.map(trigrams);
    const add = (map: Map<string, number[]>, key: string, i: number) => {
      const list = map.get(key);
      if (!list) map.set(key, [i]);
      else if (list.at(-1) !== i) list.push(i);
    };
    entries.forEach((e, i) => {
      for (const variant of this.words[i]!) for (const w of variant) add(this.byWord, w, i);
      for (const t of this.trigrams[i]!) add(this.byTrigram, t, i);
      add(this.byNumber, e.number, i);
    });
  }

  /** The entries printing this number. */
  printing(number: string): readonly number[] {
    return this.byNumber.get(number) ?? [];
  }

  /** The entries holding as many of the title's words as a word overlap needs (min(2, its words)), and perhaps a few more. */
  wordCandidates(form: TitleForms): Set<number> {
    return this.holdingEnough([...form.words], this.byWord, Math.min(2, form.words.size));
  }

  /** The entries that may hold TRIGRAM_COVER of the title's letter trigrams (or all of them, printed whole); none for a short title. */
  letterCandidates(form: TitleForms): Set<number> {
    return form.trigrams ? this.holdingEnough([...form.trigrams], this.byTrigram, Math.ceil(TRIGRAM_COVER * form.trigrams.size - 1e-9)) : new Set();
  }

  /**
   * Adds the entries that may hold at least `needed` of the tokens: an entry that does misses at most
   * tokens - needed of them, so among the rarest few it holds at least that many fewer than it looked at. Only the
   * rarest tokens' entries are visited (common ones, "case" in every row, would visit every entry).
   */
  private holdingEnough(tokens: string[], index: ReadonlyMap<string, readonly number[]>, needed: number): Set<number> {
    const out = new Set<number>();
    if (needed <= 0 || tokens.length < needed) return out;
    const posting = (t: string) => index.get(t)?.length ?? 0;
    tokens.sort((a, b) => posting(a) - posting(b) || (a < b ? -1 : a > b ? 1 : 0));
    const missable = tokens.length - needed;
    // The rarest missable + 1 always suffice (one hit among them); a few more make a hit among them a stronger sign.
    const looked = Math.min(tokens.length, missable + 1 + RAREST_EXTRA);
    const hits = new Map<number, number>();
    for (const t of tokens.slice(0, looked)) for (const i of index.get(t) ?? []) hits.set(i, (hits.get(i) ?? 0) + 1);
    for (const [i, n] of hits) if (n >= looked - missable) out.add(i);
    return out;
  }

  numberOf(i: number): string {
    return this.entries[i]!.number;
  }

  /** `byLetters`: the entry is one of the title's letter candidates (any other has too few of its trigrams to match by letters). */
  titleScore(title: TitleForms, i: number, byLetters: boolean): number {
    // Letters and digits alone: a title whose words a scan glued together ("incursoverhead") or a line end split,
    // or whose letters it misread here and there ("Adapterl" for "Adapter1").
    const glued = title.squashed === null || !byLetters ? 0 : this.squashed[i]!.includes(title.squashed) ? 1 : trigramCover(title.trigrams!, this.trigrams[i]!);
    return Math.max(glued, ...this.words[i]!.map((w) => overlap(title.words, w)));
  }
}

/** Tokens looked at beyond the fewest a candidate needs one of: each more must also be in the entry (prefix filtering with a count). */
const RAREST_EXTRA = 3;

/**
 * What a title the model gave the finding elsewhere (another sighting's) is worth against its own: a little less,
 * so a finding also read under a sibling's title leans to the row of its own title when two rows match alike.
 */
const OTHER_TITLE_DISCOUNT = 0.05;

interface TitleForms {
  words: ReadonlySet<string>;
  /** Letters and digits only, when long enough to match by them; and their trigrams. */
  squashed: string | null;
  trigrams: ReadonlySet<string> | null;
}

function titleForms(title: string): TitleForms {
  const squashed = squash(title);
  const long = squashed.length >= MIN_SQUASHED_CHARS;
  return { words: contentWords(title), squashed: long ? squashed : null, trigrams: long ? trigrams(squashed) : null };
}

/**
 * What the printed number adds. A section number of several parts ("5.1.6")
 * names one finding on its own; a plain "7" only backs a title match (a
 * contents list and the detailed sections may number differently).
 */
function numberScore(printed: string | null, number: string, byTitle: number): number {
  if (printed === null || printed !== number) return 0;
  if (/^\d+(?:\.\d+)+$/.test(number)) return 1;
  return byTitle > 0 ? NUMBER_BONUS : 0;
}

/** Titles shorter than this, squashed, are too common to match inside an entry by their letters alone. */
const MIN_SQUASHED_CHARS = 16;

/** Share of a squashed title's letter trigrams an entry must hold to match on letters alone. */
const TRIGRAM_COVER = 0.85;

function trigrams(squashed: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + 3 <= squashed.length; i++) out.add(squashed.slice(i, i + 3));
  return out;
}

/** The share of the title's trigrams in the entry, when it reaches TRIGRAM_COVER; else 0. */
function trigramCover(own: ReadonlySet<string>, entry: ReadonlySet<string>): number {
  let shared = 0;
  for (const t of own) if (entry.has(t)) shared++;
  const cover = own.size === 0 ? 0 : shared / own.size;
  return cover >= TRIGRAM_COVER ? cover : 0;
}

/** Lower-case letters and digits only. */
function squash(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** A title as printed and with words hyphenated at a line end joined again ("would re- vert" is "would revert"). */
function titleVariants(title: string): string[] {
  const joined = title.replace(/(\p{Ll})-\s+(\p{Ll})/gu, '$1$2');
  return joined === title ? [title] : [title, joined];
}

function overlap(title: ReadonlySet<string>, entry: ReadonlySet<string>): number {
  if (title.size === 0 || entry.size === 0) return 0;
  let shared = 0;
  for (const w of title) if (entry.has(w)) shared++;
  // One shared word is chance, unless the title is one word.
  if (shared < Math.min(2, title.size)) return 0;
  return Math.max(shared / title.size, shared / entry.size);
}
