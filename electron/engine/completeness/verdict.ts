/**
 * The completeness verdict: every available check held together. "Complete"
 * only when the document states totals and every check agrees; a document
 * that states nothing gets the neutral "no stated totals to check against";
 * anything that disagrees becomes a place to check, with its page.
 */
import { verdictHeadline } from '../../../shared/runOutcome';
import { formatPageRanges } from '../../../shared/canonical';
import {
  entryName,
  LISTING_NAMES,
  type CheckPlace,
  type CompletenessVerdict,
  type ListedEntry,
  type SeverityTally,
  type StatedCount,
} from '../../../shared/completeness';
import { rankSeverity, type ExtractionProfile, type MergedFinding } from '../../../shared/findings';
import type { UncoveredItem, Listing } from '../printed';

export interface VerdictInput {
  profile: ExtractionProfile;
  stated: readonly StatedCount[];
  listings: readonly Listing[];
  findings: readonly MergedFinding[];
  /** Findings known only from their listed row (not counted as found: their entries are named instead). */
  onlyListed?: readonly MergedFinding[];
  unreviewedMentions: readonly { id: string; pages: number[] }[];
  /** Items of lists of findings that no finding covers (itemLists.ts); none when omitted. */
  uncoveredItems?: readonly UncoveredItem[];
  failedChunks: readonly { nodeIndex: number; pageStart: number; pageEnd: number }[];
  pagesWithoutText: readonly number[];
  usedLlm: boolean;
}

export function composeVerdict(input: VerdictInput): CompletenessVerdict {
  const { stated, findings } = input;
  // Counting a table's rows per severity needs a severity on every row.
  const table = input.listings.find((l) => l.kind === 'summary-table' && l.entries.every((e) => e.severityCanonical !== null)) ?? null;
  const keyOf = tallyKeys(input.profile, stated);
  // Counted as found: the grounded findings. One the text does not show (made up, or quoted beyond recognition) is
  // listed apart and never counted as a finding of its severity.
  const counted = findings.filter((f) => f.grounded);
  const tallies = tallyBySeverity(input.profile, keyOf, stated, table, counted, input.onlyListed ?? []);
  const perSeverity = stated.filter((c) => c.severity !== null);
  const total = stated.find((c) => c.severity === null) ?? null;
  const matchedIds = new Set(input.listings.flatMap((l) => l.entries.flatMap((e) => e.findingIds)));
  const findingsWithoutEntry =
    input.listings.length === 0
      ? []
      : findings.filter((f) => !matchedIds.has(f.id)).map((f) => ({ findingId: f.id, title: f.title, severity: f.severity, page: f.mainPage }));
  const places: CheckPlace[] = [
    ...countPlaces({ stated, counted, tallies, table, keyOf }),
    ...severityDifferences(input.listings, findings),
    ...unmatchedEntryGroups(input.listings).map(entryPlace),
    ...findingsWithoutEntry.map(
      (f): CheckPlace => ({
        kind: 'finding-without-entry',
        page: f.page,
        severity: f.severity,
        message: `Finding "${f.title}" (${f.severity}${f.page === null ? '' : `, page ${f.page}`}) is in none of the document's lists of findings.`,
      }),
    ),
    ...coveragePlaces(input),
  ];

  // A list of the document's findings is a statement too: every entry found, and nothing else disagreeing, is complete.
  const states = stated.length > 0 || input.listings.some((l) => l.entries.length > 0);
  const status = places.length > 0 ? 'check' : states ? 'complete' : 'no-stated-totals';
  return {
    status,
    headline: verdictHeadline({ status, placesToCheck: places.length }),
    places: rankPlaces(places),
    stated: [...stated],
    tallies,
    statedTotal: total?.count ?? (perSeverity.length > 0 ? perSeverity.reduce((n, c) => n + c.count, 0) : null),
    foundTotal: counted.length,
    listed: input.listings.flatMap((l) => l.entries),
    findingsWithoutEntry,
    unreviewedMentions: input.unreviewedMentions.map((m) => ({ id: m.id, pages: [...m.pages] })),
    failedChunks: [...input.failedChunks],
    pagesWithoutText: [...input.pagesWithoutText],
    usedLlm: input.usedLlm,
  };
}

/** Where the counts the document states (per severity, in total) and what was found disagree, or the document with itself. */
function countPlaces(input: {
  stated: VerdictInput['stated'];
  counted: VerdictInput['findings'];
  tallies: ReturnType<typeof tallyBySeverity>;
  table: VerdictInput['listings'][number] | null;
  keyOf: ReturnType<typeof tallyKeys>;
}): CheckPlace[] {
  const { stated, counted, tallies, table, keyOf } = input;
  const perSeverity = stated.filter((c) => c.severity !== null);
  // Findings the document prints no severity for (and the model gave none): said in words, never counted as 0 of a severity silently.
  const unrated = counted.filter((f) => f.severity.trim() === '').length;
  const unratedNote =
    unrated === 0
      ? ''
      : ` (${plural(unrated, 'finding')} found ${unrated === 1 ? 'has' : 'have'} no severity: the document prints none for ${unrated === 1 ? 'it' : 'them'})`;
  const total = stated.find((c) => c.severity === null) ?? null;
  const places: CheckPlace[] = [];
  // "States no High count" only holds against a full breakdown: a table of three severities or more, or counts that add up to
  // the document's own total. A sentence naming two severities says nothing about the others.
  const statedSum = perSeverity.reduce((n, c) => n + c.count, 0);
  const fullBreakdown = perSeverity.length >= 3 || (total !== null && total.count === statedSum);

  for (const tally of tallies) {
    if (tally.severity === null || perSeverity.length === 0) continue;
    const counts = perSeverity.filter((c) => keyOf(c.label, c.severity) === tally.severity);
    if (counts.length === 0 && !fullBreakdown) continue;
    const statedCount = tally.stated ?? 0;
    const where = counts[0] ?? perSeverity[0]!;
    const said =
      counts.length === 0
        ? `states no ${tally.severity} count (${describeCounts(perSeverity)}, page ${where.page})`
        : `states ${describeCounts(counts)} on page ${where.page}`;
    if (table && tally.listed !== null && tally.listed !== statedCount && (tally.listed === tally.found || statedCount === tally.found)) {
      places.push({
        kind: 'document-disagrees',
        page: where.page,
        severity: tally.severity,
        message: `The document disagrees with itself: it ${said}, but its summary table (page ${table.entries[0]!.page}) lists ${plural(tally.listed, `${tally.severity} finding`)}; ${tally.found} found.`,
      });
    } else if (statedCount !== tally.found) {
      const note = tally.found < statedCount ? unratedNote : '';
      places.push({
        kind: 'stated-vs-found',
        page: where.page,
        severity: tally.severity,
        message: `The document ${said}; ${plural(tally.found, `${tally.severity} finding`)} found${note}.`,
      });
    }
  }
  if (total) {
    if (perSeverity.length > 0 && statedSum !== total.count) {
      places.push({
        kind: 'document-disagrees',
        page: total.page,
        message: `The document disagrees with itself: its total on page ${total.page} is ${total.count}, but its counts per severity add up to ${statedSum}.`,
      });
    } else if (perSeverity.length === 0 && total.count !== counted.length) {
      places.push({
        kind: 'stated-vs-found',
        page: total.page,
        message: `The document states ${total.count} findings in total on page ${total.page}; ${counted.length} found.`,
      });
    }
  }
  return places;
}

/** What the analysis could not cover: list items and IDs no finding covers, parts that failed, pages without text. */
function coveragePlaces(input: VerdictInput): CheckPlace[] {
  const places: CheckPlace[] = (input.uncoveredItems ?? []).map(itemPlace);
  for (const m of input.unreviewedMentions) {
    places.push({
      kind: 'unreviewed-id',
      page: m.pages[0] ?? null,
      message: `ID ${m.id} is mentioned on page${m.pages.length > 1 ? 's' : ''} ${formatPageRanges(m.pages)} but no finding covers it.`,
    });
  }
  for (const c of input.failedChunks) {
    const pages = c.pageStart === c.pageEnd ? `page ${c.pageStart}` : `pages ${c.pageStart}-${c.pageEnd}`;
    places.push({ kind: 'failed-chunk', page: c.pageStart, message: `The part on ${pages} could not be analysed: findings there may be missing.` });
  }
  for (const range of pageRanges(input.pagesWithoutText)) {
    places.push({
      kind: 'pages-without-text',
      page: range[0],
      message: `${range[0] === range[1] ? `Page ${range[0]} has` : `Pages ${range[0]}-${range[1]} have`} no text to read (a scan or an image): findings there cannot be seen.`,
    });
  }
  return places;
}

/**
 * The places that matter first come first: what the document lists or
 * states and the run did not find (each names a missing finding and its
 * page), then parts the run could not read, then IDs without a finding, then
 * the rest (disagreements, findings the lists do not hold).
 */
const PLACE_ORDER: readonly CheckPlace['kind'][] = [
  'entry-without-finding',
  'item-without-finding',
  'stated-vs-found',
  'failed-chunk',
  'unreviewed-id',
  'pages-without-text',
  'severity-differs',
  'document-disagrees',
  'finding-without-entry',
];

function rankPlaces(places: readonly CheckPlace[]): CheckPlace[] {
  // Stable: within one kind the document's order stays.
  return places
    .map((p, i) => ({ p, i }))
    .sort((a, b) => PLACE_ORDER.indexOf(a.p.kind) - PLACE_ORDER.indexOf(b.p.kind) || a.i - b.i)
    .map((x) => x.p);
}

/**
 * A summary-table row whose severity is not the severity of the finding matched to it. Only the row's own finding
 * (its first): a finding that merely reads like the row (a duplicate the listing has no row for) says nothing about it.
 */
function severityDifferences(listings: readonly Listing[], findings: readonly MergedFinding[]): CheckPlace[] {
  const byId = new Map(findings.map((f) => [f.id, f]));
  const places: CheckPlace[] = [];
  for (const listing of listings) {
    if (listing.kind !== 'summary-table') continue;
    for (const entry of listing.entries) {
      const own = entry.findingIds[0];
      const f = own === undefined ? undefined : byId.get(own);
      if (entry.severityCanonical === null || !f || f.severityCanonical === null || f.severityCanonical === entry.severityCanonical) continue;
      places.push({
        kind: 'severity-differs',
        page: entry.page,
        severity: entry.severityCanonical,
        message: `Finding "${f.title}" was found as ${f.severity}, but summary table row ${entry.number} on page ${entry.page} lists it as ${entry.severity}.`,
      });
    }
  }
  return places;
}

/** Under which tally a severity word is counted (see tallyKeys): a word the document counts on its own, its scale word, or null. */
type TallyKey = (word: string | null, canonical: string | null) => string | null;

/**
 * A severity word the document states a count for under its own name, though the profile's scale maps it onto another
 * ("Undetermined 3" beside "Medium 3", "Gas Optimizations 6" beside "Informational 0", "Major 2"), is counted on its
 * own, as printed: folding it into its scale word would let a finding rated Medium pass for an Undetermined one. Every
 * other word counts under its scale word; a word off the scale under null.
 */
export function tallyKeys(profile: ExtractionProfile, stated: readonly Pick<StatedCount, 'label' | 'severity'>[]): TallyKey {
  const scale = new Set(profile.severities.map((s) => s.toLowerCase()));
  const own = new Map(
    stated.filter((c) => c.severity !== null && !scale.has(c.label.trim().toLowerCase())).map((c) => [c.label.trim().toLowerCase(), c.label.trim()]),
  );
  return (word, canonical) => own.get((word ?? '').trim().toLowerCase()) ?? canonical;
}

function tallyBySeverity(
  profile: ExtractionProfile,
  keyOf: TallyKey,
  stated: readonly StatedCount[],
  table: Listing | null,
  findings: readonly MergedFinding[],
  onlyListed: readonly MergedFinding[],
): SeverityTally[] {
  const tallies: SeverityTally[] = [];
  // The scale in order, each word the document counts on its own right after its scale word ("Medium", "Undetermined").
  const ownWords = [...new Set(stated.map((c) => keyOf(c.label, c.severity)))].filter((k): k is string => k !== null && !profile.severities.includes(k));
  const keys = [...profile.severities.flatMap((s) => [s, ...ownWords.filter((w) => rankSeverity(profile, w).canonical === s)]), null];
  for (const severity of keys) {
    const counts = stated.filter((c) => c.severity !== null && keyOf(c.label, c.severity) === severity);
    const found = findings.filter((f) => keyOf(f.severity, f.severityCanonical) === severity).length;
    const fromRows = onlyListed.filter((f) => keyOf(f.severity, f.severityCanonical) === severity).length;
    const listed = table ? table.entries.filter((e) => keyOf(e.severity, e.severityCanonical) === severity).length : null;
    if (counts.length === 0 && found === 0 && fromRows === 0 && !listed) continue;
    tallies.push({
      severity,
      stated: counts.length > 0 ? counts.reduce((n, c) => n + c.count, 0) : null,
      listed,
      found,
      ...(fromRows > 0 ? { onlyListed: fromRows } : {}),
    });
  }
  return tallies;
}

/** "High 9" or "Medium 3 + Undetermined 1". */
function describeCounts(counts: readonly StatedCount[]): string {
  return counts.map((c) => `${c.label} ${c.count}`).join(' + ');
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * The same finding missing from a summary table and from the contents is one
 * place, not two: entries without a finding are grouped by their number.
 */
function unmatchedEntryGroups(listings: readonly Listing[]): ListedEntry[][] {
  const groups = new Map<string, ListedEntry[]>();
  for (const listing of [...listings].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'summary-table' ? -1 : 1))) {
    for (const entry of listing.entries) {
      if (entry.findingIds.length > 0) continue;
      const group = groups.get(entry.number) ?? [];
      group.push(entry);
      groups.set(entry.number, group);
    }
  }
  return [...groups.values()];
}

function entryPlace(group: readonly ListedEntry[]): CheckPlace {
  const [first, ...others] = group;
  // A contents line carries the plain title; a table row interleaves it with its other columns.
  const title = group.find((e) => e.kind === 'contents')?.title ?? first!.title;
  const what = entryName(first!);
  const also = others.map((e) => ` Also listed in the ${LISTING_NAMES[e.kind].list} on page ${e.page}.`).join('');
  return {
    kind: 'entry-without-finding',
    page: first!.page,
    severity: first!.severityCanonical,
    message: `${what} on page ${first!.page}, "${title}"${first!.severity ? ` (${first!.severity})` : ''}, matches no finding reported from the text (at most its own row was read).${also}`,
  };
}

/** Longer items are cut in the message: the page and the opening words find it. */
const ITEM_SHOWN_CHARS = 140;

function itemPlace({ item, covered, total }: UncoveredItem): CheckPlace {
  const text = item.text.length > ITEM_SHOWN_CHARS ? `${item.text.slice(0, ITEM_SHOWN_CHARS - 1)}\u2026` : item.text;
  return {
    kind: 'item-without-finding',
    page: item.page,
    message: `List item on page ${item.page}, "${text}", matches no finding, while ${covered} of the ${total} items of its list were reported as findings.`,
  };
}

function pageRanges(pages: readonly number[]): [number, number][] {
  const sorted = [...new Set(pages)].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const p of sorted) {
    const last = ranges.at(-1);
    if (last && p === last[1] + 1) last[1] = p;
    else ranges.push([p, p]);
  }
  return ranges;
}
