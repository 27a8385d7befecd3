/**
 * Matching findings to listed entries as it was before its scores were computed only for pairs that can score (main
 * 40db172, electron/engine/completeness/entryMatching.ts): every finding scored against every entry. Kept as the
 * oracle test/unit/completeness/entryMatchingScale.test.ts holds the near-linear matching to. Not used by the product.
 */
import type { MergedFinding } from '../../shared/findings';
import type { ListedEntry } from '../../shared/completeness';
import { contentWords } from '../../electron/engine/printed';
import { bestAssignment } from '../../electron/engine/completeness/bestAssignment';
import type { Listing } from '../../electron/engine/printed/listedEntries';

/** Share of a finding title's content words an entry must contain (or of the entry's in the title). */
const ENTRY_MATCH_THRESHOLD = 0.7;
const NUMBER_BONUS = 0.25;

/** How a finding was matched to an entry, strongest first: the entry's first finding is its own. */
type SureKind = 'row' | 'id' | 'number';
const SURE_ORDER: readonly SureKind[] = ['row', 'id', 'number'];

export function allPairsMatchEntries(listings: readonly Listing[], findings: readonly MergedFinding[]): Listing[] {
  const numberHolders = new Map<string, number>();
  for (const f of findings) if (f.printedNumber !== null) numberHolders.set(f.printedNumber, (numberHolders.get(f.printedNumber) ?? 0) + 1);
  return listings.map((listing) => ({ ...listing, entries: matchListing(listing.entries, findings, numberHolders) }));
}

function matchListing(listed: readonly ListedEntry[], findings: readonly MergedFinding[], numberHolders: ReadonlyMap<string, number>): ListedEntry[] {
  const entries = listed.map((e) => ({ ...e, findingIds: [] as number[] }));
  const scores = titleScores(entries, findings);
  const sure = entries.map(() => [] as { finding: number; kind: SureKind }[]);
  const placed = new Set<number>();

  findings.forEach((f, fi) => {
    const row = rowOfSources(f, entries);
    // A row the finding was read from says which entry is its own: its printed number does not add another.
    const byNumber = row < 0 && f.printedNumber !== null && numberHolders.get(f.printedNumber) === 1;
    entries.forEach((e, ei) => {
      const kind: SureKind | null =
        ei === row
          ? 'row'
          : e.id !== null && e.id === f.findingKey
            ? 'id'
            : byNumber && f.printedNumber === e.number && !titlesContradict(scores, fi, ei)
              ? 'number'
              : null;
      if (kind === null) return;
      sure[ei]!.push({ finding: fi, kind });
      placed.add(fi);
    });
  });
  sure.forEach((list, ei) => {
    list.sort((a, b) => SURE_ORDER.indexOf(a.kind) - SURE_ORDER.indexOf(b.kind));
    entries[ei]!.findingIds.push(...list.map((s) => findings[s.finding]!.id));
  });

  const weight = (fi: number, ei: number) => (scores[fi]![ei]! >= ENTRY_MATCH_THRESHOLD ? scores[fi]![ei]! : 0);
  const bestOf = (fi: number, among: readonly number[]) => among.reduce((best, ei) => (weight(fi, ei) > (best < 0 ? 0 : weight(fi, best)) ? ei : best), -1);
  const openEntries = entries.map((_, ei) => ei).filter((ei) => sure[ei]!.length === 0);
  const takenEntries = entries.map((_, ei) => ei).filter((ei) => sure[ei]!.length > 0);
  // A finding that reads most like an entry a sure match took is a duplicate of that entry's finding (the row read as a
  // finding of its own, say, beside its detailed section): it joins that entry and competes for no other, or it would
  // cover a sibling's row whose finding the run missed.
  const duplicates = new Map<number, number>();
  for (let fi = 0; fi < findings.length; fi++) {
    if (placed.has(fi)) continue;
    const taken = bestOf(fi, takenEntries);
    const open = bestOf(fi, openEntries);
    if (taken >= 0 && (open < 0 || weight(fi, taken) >= weight(fi, open))) duplicates.set(fi, taken);
  }

  // The rest by title, as one assignment among the findings and entries no sure match took.
  const openFindings = findings.map((_, fi) => fi).filter((fi) => !placed.has(fi) && !duplicates.has(fi));
  const assigned = bestAssignment(openFindings.map((fi) => openEntries.map((ei) => weight(fi, ei))));
  openFindings.forEach((fi, k) => {
    const ei = openEntries[assigned[k]!];
    if (ei === undefined) return;
    entries[ei]!.findingIds.push(findings[fi]!.id);
    placed.add(fi);
  });

  // Left over: no row of its own in this listing; it reads as the entry it matches best, after that entry's own finding.
  for (const fi of openFindings) {
    if (placed.has(fi)) continue;
    const best = bestOf(
      fi,
      entries.map((_, ei) => ei),
    );
    if (best >= 0) duplicates.set(fi, best);
  }
  for (const [fi, ei] of duplicates) entries[ei]!.findingIds.push(findings[fi]!.id);
  return entries;
}

/**
 * The entry one of the finding's sources was read from: its grounded quote
 * lies mostly on that entry (a quote over several rows belongs to none).
 */
function rowOfSources(f: MergedFinding, entries: readonly ListedEntry[]): number {
  let best = -1;
  let bestShare = 0.5;
  for (const s of f.sources) {
    if (!s.grounded || s.evidenceStart === null || s.evidenceEnd === null || s.evidenceEnd <= s.evidenceStart) continue;
    const length = s.evidenceEnd - s.evidenceStart;
    entries.forEach((e, ei) => {
      const share = (Math.min(e.end, s.evidenceEnd!) - Math.max(e.start, s.evidenceStart!)) / length;
      if (share > bestShare) {
        best = ei;
        bestShare = share;
      }
    });
  }
  return best;
}

/** The finding shares no title words with the entry, and another finding's title matches it: the number is another list's. */
function titlesContradict(scores: readonly (readonly number[])[], fi: number, ei: number): boolean {
  return scores[fi]![ei]! === 0 && scores.some((row, other) => other !== fi && row[ei]! >= ENTRY_MATCH_THRESHOLD);
}

/**
 * What each finding's titles have in common with each entry (0..1): the most
 * title words in common (an entry's text also holds the type, severity and
 * status columns, so the finding's title words are looked up in it, and the
 * other way round for shortened titles), or its letters alone; a printed
 * number the two share adds to it.
 */
function titleScores(entries: readonly ListedEntry[], findings: readonly MergedFinding[]): number[][] {
  const entryWords = entries.map((e) => titleVariants(e.title).map((t) => contentWords(t)));
  const squashedEntries = entries.map((e) => squash(e.title));
  const entryTrigrams = squashedEntries.map(trigrams);
  return findings.map((finding) => {
    const own = titleForms(finding.title);
    const others = [...new Set(finding.sources.map((s) => s.title))].filter((t) => t !== finding.title).map(titleForms);
    return entries.map((entry, i) => {
      const byTitle = Math.max(
        titleScore(own, entryWords[i]!, squashedEntries[i]!, entryTrigrams[i]!),
        ...others.map((t) => titleScore(t, entryWords[i]!, squashedEntries[i]!, entryTrigrams[i]!) - OTHER_TITLE_DISCOUNT),
      );
      return Math.min(1, Math.max(0, byTitle) + numberScore(finding.printedNumber, entry.number, byTitle));
    });
  });
}

/**
 * What a title the model gave the finding elsewhere (another sighting's) is worth against its own: a little less,
 * so a finding also read under a sibling's title leans to the row of its own title when two rows match alike.
 */
const OTHER_TITLE_DISCOUNT = 0.05;

function titleForms(title: string): { words: ReadonlySet<string>; squashed: string | null } {
  const squashed = squash(title);
  return { words: contentWords(title), squashed: squashed.length >= MIN_SQUASHED_CHARS ? squashed : null };
}

function titleScore(
  title: ReturnType<typeof titleForms>,
  entryWords: readonly ReadonlySet<string>[],
  squashedEntry: string,
  entryTrigrams: ReadonlySet<string>,
): number {
  // Letters and digits alone: a title whose words a scan glued together ("incursoverhead") or a line end split,
  // or whose letters it misread here and there ("Adapterl" for "Adapter1").
  const glued = title.squashed === null ? 0 : squashedEntry.includes(title.squashed) ? 1 : trigramCover(title.squashed, entryTrigrams);
  return Math.max(glued, ...entryWords.map((w) => overlap(title.words, w)));
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
function trigramCover(squashedTitle: string, entry: ReadonlySet<string>): number {
  const own = trigrams(squashedTitle);
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
