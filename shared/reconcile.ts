/**
 * Reconcile a document against a population (issue 41): every item the
 * document prints (a release note's changes, a report's findings) tied to a
 * row of a tracker export (tickets, a findings tracker), and the exceptions
 * both ways. Shared by the engine (electron/engine/reconcile), the CLI, the
 * exporters and the renderer.
 */

/** A population may hold at most this many data rows. */
export const MAX_POPULATION_ROWS = 200_000;

/** What a population file may be: comma- (or tab-, semicolon-) separated text, or an Excel workbook. */
export const POPULATION_KINDS = ['csv', 'xlsx'] as const;
export type PopulationKind = (typeof POPULATION_KINDS)[number];

/** File names the import accepts, for the picker and the sentences that name them. */
export const POPULATION_EXTENSIONS = ['.csv', '.tsv', '.xlsx'] as const;

/** A row of the population as it was read: its cells in the header's column order. */
export interface PopulationRow {
  /** 1 for the first data row under the header (a blank row in between still counts, so `headerRow + row` is its line or sheet row). */
  row: number;
  cells: string[];
}

/** A row left out of the tie-out, and why: the first row with the same key is used; a "Total" row is no item; a row with neither key nor title names nothing. */
export interface SkippedRow {
  row: number;
  reason: 'duplicate-key' | 'total-row' | 'no-key-or-title';
  /** For a duplicate: the row whose key it repeats. */
  firstRow?: number;
  key?: string;
}

/** A duplicate key: every row that holds it, the first of which is used. */
export interface DuplicateKey {
  key: string;
  rows: number[];
}

/** The population as imported (the rows with their own columns) and what the import proposes. */
export interface Population {
  /** The stored population (null before it is stored). */
  id: number | null;
  file: string;
  sha256: string;
  kind: PopulationKind;
  /** The sheet read (XLSX; null for CSV). */
  sheet: string | null;
  /** The line (CSV) or sheet row (XLSX) of the header, 1-based. */
  headerRow: number;
  columns: string[];
  rows: PopulationRow[];
  /** Rows after the header that hold nothing (kept out of `rows`, still counted in the numbering). */
  blankRows: number;
}

/** The columns the import proposes: the key (values shaped like IDs, like the document's when it prints any) and the title (the longest text). */
export interface ColumnProposal {
  keyColumn: string | null;
  titleColumn: string | null;
  /** Why, in one sentence each, for the picker and the CLI. */
  keyReason: string;
  titleReason: string;
}

/** What the app shows after a population file is read: its columns, a few rows, what the import proposes. */
export interface PopulationPreview {
  populationId: number;
  file: string;
  kind: PopulationKind;
  sheet: string | null;
  headerRow: number;
  columns: string[];
  rows: number;
  sample: PopulationRow[];
  proposal: ColumnProposal;
}

/**
 * How a row was tied to the document:
 * - id: the row's key is the ID the document prints for the item (case, dashes and zero padding ignored)
 * - title: the row's title and the item's, as one best assignment (one row to one item) with its score
 * - mention: the document prints the row's key only in passing (not as an item of its own): tied to that place
 * - auditor: matched by hand
 */
export const MATCH_REASONS = ['id', 'title', 'mention', 'auditor'] as const;
export type MatchReason = (typeof MATCH_REASONS)[number];

/** Where the document states an item (or mentions a key): enough to open the page and highlight it. */
export interface DocumentItem {
  /** The ID the document prints for it, or null. */
  id: string | null;
  title: string;
  page: number | null;
  /** Every page it is stated on, the main one first. */
  pages: number[];
  quote: string;
  start: number | null;
  end: number | null;
  /** The merged finding it is (null when read from the printed IDs, or for a mention). */
  mergedId: number | null;
  /** What identifies it across re-runs: its printed ID, else its title's words; a mention's is "mention:<id>". */
  key: string;
}

/** The auditor's review of one entry of the tie-out. */
export interface TieOutReview {
  /** unreviewed: nobody looked yet; confirmed: the auditor agrees with the match (a match by hand is confirmed by making it). */
  state: 'unreviewed' | 'confirmed';
  reviewer: string | null;
  at: string | null;
  notes: { reviewer: string; at: string; text: string }[];
}

export interface MatchedEntry {
  row: number;
  /** What identifies the row across re-runs (its key, else its title's words): the auditor's decisions are kept under it. */
  rowKey: string;
  key: string | null;
  title: string;
  cells: string[];
  finding: DocumentItem;
  by: MatchReason;
  /** 0..1: 1 for an ID, a mention or the auditor; the title similarity for a title match. */
  score: number;
  review: TieOutReview;
}

export interface DocumentOnlyEntry {
  finding: DocumentItem;
  review: TieOutReview;
}

export interface PopulationOnlyEntry {
  row: number;
  rowKey: string;
  key: string | null;
  title: string;
  cells: string[];
  /** The document items the auditor said this row is not (broken matches), by their keys. */
  broken: string[];
  review: TieOutReview;
}

/** The counts, taken from the lists: rows = matched + only in the population; items = matched items + only in the document. */
export interface TieOutCounts {
  rows: number;
  matched: number;
  onlyInDocument: number;
  onlyInPopulation: number;
  /** The document's items (findings): matched to them (mentions aside) + only in the document. */
  documentItems: number;
  /** Matched rows by reason. */
  byReason: Record<MatchReason, number>;
  confirmed: number;
}

export interface Reconciliation {
  /** The stored reconciliation (null when not stored). */
  id: number | null;
  document: { documentId: number; runId: number; file: string; sha256: string; mode: 'full' | 'rules-only' };
  population: {
    populationId: number | null;
    file: string;
    sha256: string;
    kind: PopulationKind;
    sheet: string | null;
    headerRow: number;
    columns: string[];
    keyColumn: string | null;
    titleColumn: string;
    /** Rows tied out: every data row but the skipped ones. */
    rows: number;
    duplicates: DuplicateKey[];
    skipped: SkippedRow[];
  };
  matched: MatchedEntry[];
  onlyInDocument: DocumentOnlyEntry[];
  onlyInPopulation: PopulationOnlyEntry[];
  counts: TieOutCounts;
  createdAt: string;
}

/** The formats a reconciliation is exported in: the workpaper (XLSX) and the report formats. */
export const RECONCILE_FORMATS = ['xlsx', 'md', 'html', 'pdf', 'csv', 'json'] as const;
export type ReconcileFormat = (typeof RECONCILE_FORMATS)[number];

/** Where the host wrote an exported reconciliation (the exports folder under the data folder). */
export interface ReconcileExportResult {
  reconciliationId: number;
  format: ReconcileFormat;
  path: string;
  fileName: string;
  bytes: number;
}

/** The auditor's review actions on the tie-out (the same trail as findings' review). */
export const TIE_OUT_ACTIONS = ['confirm', 'break', 'match', 'undo', 'note'] as const;
export type TieOutAction = (typeof TIE_OUT_ACTIONS)[number];

/** What each reason is called, and its tick mark in the workpaper (HTML, PDF, XLSX). */
export const MATCH_REASON_TEXT: Readonly<Record<MatchReason, { mark: string; text: string }>> = {
  id: { mark: '✓', text: 'printed ID' },
  title: { mark: '≈', text: 'title' },
  mention: { mark: '†', text: 'key mentioned in the text' },
  auditor: { mark: '✎', text: 'matched by hand' },
};

/** The counts taken from the three lists (never kept apart from them). */
export function countTieOut(r: Pick<Reconciliation, 'matched' | 'onlyInDocument' | 'onlyInPopulation'>): TieOutCounts {
  const byReason: Record<MatchReason, number> = { id: 0, title: 0, mention: 0, auditor: 0 };
  for (const m of r.matched) byReason[m.by]++;
  const itemsMatched = r.matched.filter((m) => m.by !== 'mention').length;
  const confirmed = [...r.matched, ...r.onlyInDocument, ...r.onlyInPopulation].filter((e) => e.review.state === 'confirmed').length;
  return {
    rows: r.matched.length + r.onlyInPopulation.length,
    matched: r.matched.length,
    onlyInDocument: r.onlyInDocument.length,
    onlyInPopulation: r.onlyInPopulation.length,
    documentItems: itemsMatched + r.onlyInDocument.length,
    byReason,
    confirmed,
  };
}

/** "12 rows: 9 matched + 3 only in the population; 10 items in the document: 8 matched + 2 only in the document". */
export function countsSentence(c: TieOutCounts): string {
  const mentions = c.byReason.mention > 0 ? ` (${c.byReason.mention} of them to a mention of the key, not an item)` : '';
  return `${c.rows} rows: ${c.matched} matched${mentions} + ${c.onlyInPopulation} only in the population; ${c.documentItems} items in the document: ${c.matched - c.byReason.mention} matched + ${c.onlyInDocument} only in the document.`;
}
