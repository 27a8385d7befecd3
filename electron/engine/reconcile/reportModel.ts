/**
 * The tie-out as one report model that every readable format lays out
 * (Markdown, HTML and the PDF printed from it; the XLSX workpaper takes its
 * words from here too): every heading, sentence, tick mark and cell is worded
 * once, so the formats cannot say different things. Text from the document
 * and the population stays literal here; each renderer escapes every string.
 */
import {
  countsSentence,
  MATCH_REASON_TEXT,
  type DocumentItem,
  type DocumentOnlyEntry,
  type MatchedEntry,
  type PopulationOnlyEntry,
  type Reconciliation,
  type TieOutReview,
} from '../../../shared/reconcile';

/** The tick mark of an exception: in one list and not the other. */
export const EXCEPTION_MARK = '✗';

export interface ReconcileListModel {
  key: 'matched' | 'only-in-document' | 'only-in-population';
  heading: string;
  note: string;
  empty: string;
  head: readonly string[];
  rows: readonly { mark: string; cells: readonly string[]; page: number | null }[];
}

export interface ReconcileReportModel {
  title: string;
  facts: readonly { label: string; value: string }[];
  counts: string;
  legend: readonly { mark: string; text: string }[];
  warnings: readonly string[];
  lists: readonly ReconcileListModel[];
}

export const pageText = (page: number | null) => (page === null ? 'page unknown' : `p. ${page}`);

/** "HADOOP-18282 Add .asf.yaml to hadoop-thirdparty", or the title alone. */
export function itemText(item: DocumentItem): string {
  return [item.id, item.title].filter(Boolean).join(' ');
}

/** "printed ID", "title (82%)", "key mentioned in the text", "matched by hand". */
export function reasonText(m: Pick<MatchedEntry, 'by' | 'score'>): string {
  return m.by === 'title' ? `${MATCH_REASON_TEXT.title.text} (${Math.round(m.score * 100)}%)` : MATCH_REASON_TEXT[m.by].text;
}

/** "confirmed by A. Auditor, 2025-01-02" or "not reviewed", then the notes. */
export function reviewText(review: TieOutReview): string {
  const state =
    review.state === 'confirmed' ? `confirmed by ${review.reviewer ?? 'the auditor'}${review.at ? `, ${review.at.slice(0, 10)}` : ''}` : 'not reviewed';
  const notes = review.notes.map((n) => `note (${n.reviewer}): ${n.text}`);
  return [state, ...notes].join('; ');
}

function brokenText(entry: PopulationOnlyEntry): string {
  return entry.broken.length === 0 ? '' : `; match broken by the auditor with ${entry.broken.join(', ')}`;
}

export const LIST_HEADINGS = {
  matched: 'Matched: row ↔ item of the document',
  'only-in-document': 'Only in the document: printed, in no row of the population',
  'only-in-population': 'Only in the population: rows the document never mentions',
} as const;

function matchedList(entries: readonly MatchedEntry[]): ReconcileListModel {
  return {
    key: 'matched',
    heading: `${LIST_HEADINGS.matched} (${entries.length})`,
    note: 'Each row traced to the document, with the page it is printed on and how it was traced.',
    empty: 'No row of the population was found in the document.',
    head: ['', 'Row', 'Key', 'Title (population)', 'In the document', 'Page', 'Matched by', 'Review'],
    rows: entries.map((m) => ({
      mark: MATCH_REASON_TEXT[m.by].mark,
      page: m.finding.page,
      cells: [String(m.row), m.key ?? '', m.title, itemText(m.finding), pageText(m.finding.page), reasonText(m), reviewText(m.review)],
    })),
  };
}

function documentOnlyList(entries: readonly DocumentOnlyEntry[]): ReconcileListModel {
  return {
    key: 'only-in-document',
    heading: `${LIST_HEADINGS['only-in-document']} (${entries.length})`,
    note: 'Printed in the document, in no row of the population: a change without a ticket, a finding missing from the tracker.',
    empty: 'None: every item the document prints is in the population.',
    head: ['', 'ID', 'Title', 'Page', 'Quote', 'Review'],
    rows: entries.map((e) => ({
      mark: EXCEPTION_MARK,
      page: e.finding.page,
      cells: [e.finding.id ?? '', e.finding.title, pageText(e.finding.page), e.finding.quote, reviewText(e.review)],
    })),
  };
}

function populationOnlyList(entries: readonly PopulationOnlyEntry[]): ReconcileListModel {
  return {
    key: 'only-in-population',
    heading: `${LIST_HEADINGS['only-in-population']} (${entries.length})`,
    note: 'Rows whose key and title the document never prints: a ticket the release note leaves out, a finding the report does not carry.',
    empty: 'None: every row of the population is in the document.',
    head: ['', 'Row', 'Key', 'Title', 'Review'],
    rows: entries.map((e) => ({ mark: EXCEPTION_MARK, page: null, cells: [String(e.row), e.key ?? '', e.title, reviewText(e.review) + brokenText(e)] })),
  };
}

/** What the import left out: repeated keys (the first row used) and total rows. */
export function warningsOf(r: Reconciliation): string[] {
  const out = r.population.duplicates.map(
    (d) => `Key ${d.key} is on rows ${d.rows.join(', ')}: row ${d.rows[0]} is used, the others are left out (POPULATION_DUPLICATE_KEYS).`,
  );
  const totals = r.population.skipped.filter((s) => s.reason === 'total-row').map((s) => s.row);
  if (totals.length > 0)
    out.push(`Row${totals.length > 1 ? 's' : ''} ${totals.join(', ')} ${totals.length > 1 ? 'are totals' : 'is a total'}, not an item: left out.`);
  const empty = r.population.skipped.filter((s) => s.reason === 'no-key-or-title').map((s) => s.row);
  if (empty.length > 0) out.push(`Row${empty.length > 1 ? 's' : ''} ${empty.join(', ')} ${empty.length > 1 ? 'have' : 'has'} neither key nor title: left out.`);
  return out;
}

export function buildReconcileModel(r: Reconciliation): ReconcileReportModel {
  const p = r.population;
  return {
    title: `Tie-out: ${r.document.file} against ${p.file}`,
    facts: [
      {
        label: 'Document',
        value: `${r.document.file} (run ${r.document.runId}, ${r.document.mode === 'full' ? 'findings of the analysis' : 'IDs the document prints (no model)'})`,
      },
      { label: 'Population', value: `${p.file}${p.sheet ? `, sheet "${p.sheet}"` : ''}, header on ${p.kind === 'csv' ? 'line' : 'row'} ${p.headerRow}` },
      { label: 'Key column', value: p.keyColumn ?? 'none (matched by title only)' },
      { label: 'Title column', value: p.titleColumn },
      { label: 'Reconciled', value: r.createdAt },
    ],
    counts: countsSentence(r.counts),
    legend: [
      ...Object.values(MATCH_REASON_TEXT).map((m) => ({ mark: m.mark, text: `traced to the document by ${m.text}` })),
      { mark: EXCEPTION_MARK, text: 'exception: in one list and not the other' },
    ],
    warnings: warningsOf(r),
    lists: [matchedList(r.matched), documentOnlyList(r.onlyInDocument), populationOnlyList(r.onlyInPopulation)],
  };
}
