/**
 * The completeness check: what a document says about its own findings
 * (totals per severity, a summary table, a table of contents of findings)
 * held against the findings the engine merged, plus the other signs that
 * something may be missing (unreviewed ID mentions, failed chunks, pages
 * without text). Shared by the engine, the reports and the UI.
 */

/** Where a statement sits in the canonical text, like a finding's evidence. */
export interface TextPlace {
  /** [start, end) in the canonical text. */
  start: number;
  end: number;
  page: number;
  /** The document's text at that place, on one line. */
  text: string;
}

/** One count the document prints about its own findings: "High 9", "Total 17", "2 medium-severity issues". */
export interface StatedCount extends TextPlace {
  /** The label as the document wrote it ("High", "Undetermined", "Total"). */
  label: string;
  /** The profile severity the label maps to; null for a total over all severities. */
  severity: string | null;
  count: number;
  /** Found by the layout rules, or by the LLM call on the summary parts (then grounded like evidence). */
  source: 'rules' | 'llm';
}

/**
 * A summary table or a contents list names findings described elsewhere in the document; a register's rows are the
 * findings themselves (a release note's issue table, a list of change requests: printed/registers.ts).
 */
export type ListingKind = 'summary-table' | 'contents' | 'register';

/** How each kind of listing and its entries are named in messages and reports (lower case; capitalise to start a sentence). */
export const LISTING_NAMES: Record<ListingKind, { list: string; entry: string }> = {
  'summary-table': { list: 'summary table', entry: 'summary table row' },
  contents: { list: 'contents', entry: 'contents entry' },
  register: { list: 'register', entry: 'register row' },
};

const capitalised = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);
/** "Summary table row 7", "Register row PBI-10001". */
export const entryName = (entry: { kind: ListingKind; number: string }) => `${capitalised(LISTING_NAMES[entry.kind].entry)} ${entry.number}`;
/** "Summary table", "Register". */
export const listingName = (kind: ListingKind) => capitalised(LISTING_NAMES[kind].list);

/** One entry of a list of findings the document prints (a summary-table row, a contents line). */
export interface ListedEntry extends TextPlace {
  kind: ListingKind;
  /** The entry's number in the list ("7"). */
  number: string;
  /** An ID printed in the entry (normalised), when there is one. */
  id: string | null;
  /** The entry text without its number, page reference and leaders. */
  title: string;
  /** Severity word printed in the entry (summary tables), as written. */
  severity: string | null;
  severityCanonical: string | null;
  /**
   * Merged findings this entry stands for (ids); empty when none matched. The first is the entry's own finding
   * (matched by its ID, its row, its number or, one finding per entry, its title); any after it only read like the
   * entry (duplicates the listing has no other row for).
   */
  findingIds: number[];
}

/** Stated, listed and found per severity of the profile scale. */
export interface SeverityTally {
  /**
   * Canonical severity; or a word the document counts on its own though the scale maps it onto another ("Undetermined"
   * beside "Medium", "Gas" beside "Informational"), as printed; or null for findings whose severity is off the scale
   * or missing (completeness/verdict.ts tallyKeys).
   */
  severity: string | null;
  /** What the document states (null when it states nothing for this severity). */
  stated: number | null;
  /** How many entries of the document's summary table carry this severity (null without such a table). */
  listed: number | null;
  /** Findings reported from the text (a finding known from its listed row alone is not among them: see onlyListed). */
  found: number;
  /**
   * Findings known only from their row in the document's own list (type "listed entry": the rules read the row, the
   * analysis reported nothing for its section). Not counted as found, each one's entry is a place to check; counted
   * here so the table never reads "0 found" beside findings the report lists. Absent in verdicts stored before it.
   */
  onlyListed?: number;
}

export type CheckPlaceKind =
  | 'stated-vs-found'
  | 'document-disagrees'
  /** A summary-table row whose severity differs from the finding found for it. */
  | 'severity-differs'
  | 'entry-without-finding'
  /** An item of an itemised list most of whose items are findings, that no finding covers (printed/itemLists.ts). */
  | 'item-without-finding'
  | 'finding-without-entry'
  | 'unreviewed-id'
  | 'failed-chunk'
  | 'pages-without-text';

/** One place an auditor should look at, with its page. */
export interface CheckPlace {
  kind: CheckPlaceKind;
  page: number | null;
  /** One sentence saying what disagrees. */
  message: string;
  /** The canonical severity concerned, when there is one. */
  severity?: string | null;
}

export type CompletenessStatus = 'complete' | 'check' | 'no-stated-totals';

export interface CompletenessVerdict {
  status: CompletenessStatus;
  /** "Complete", "Check these 3 places", "No stated totals to check against". */
  headline: string;
  places: CheckPlace[];
  stated: StatedCount[];
  /** Per severity of the profile scale (only severities stated, listed or found), then off-scale findings. */
  tallies: SeverityTally[];
  statedTotal: number | null;
  foundTotal: number;
  listed: ListedEntry[];
  findingsWithoutEntry: { findingId: number; title: string; severity: string; page: number | null }[];
  unreviewedMentions: { id: string; pages: number[] }[];
  failedChunks: { nodeIndex: number; pageStart: number; pageEnd: number }[];
  pagesWithoutText: number[];
  /** True when the stated totals came from the LLM call (no layout rule matched). */
  usedLlm: boolean;
}

export const COMPLETENESS_STATUSES: readonly CompletenessStatus[] = ['complete', 'check', 'no-stated-totals'];

/**
 * "15 findings are known only from their row ...": said beside the table whenever some are, so "0 found" never stands
 * unexplained beside findings the report lists (a model that answered nothing, the simulator).
 */
export function onlyListedNote(verdict: CompletenessVerdict): string | null {
  const count = verdict.tallies.reduce((n, t) => n + (t.onlyListed ?? 0), 0);
  if (count === 0) return null;
  const them = count === 1 ? 'It is' : 'They are';
  return `${count === 1 ? '1 finding is' : `${count} findings are`} known only from ${count === 1 ? 'its row' : 'their rows'} in the document's own list: the analysis reported nothing for ${count === 1 ? 'its section' : 'their sections'}. ${them} listed with the findings but not counted as found, and each row is a place to check below.`;
}
