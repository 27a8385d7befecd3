/**
 * The tie-out of one analysed document against one population: every row
 * matched to the item the document prints for it, and the exceptions both
 * ways. Rules, each on what the earlier ones left:
 *
 *  0. the auditor's matches by hand;
 *  1. the printed ID: the row's key is the ID the document prints for an item
 *     (compared without case, dashes or zero padding: "REL-0042" = "rel-42");
 *  2. a mention: the document prints the row's key only in passing (in prose,
 *     in another item's title), never as an item of its own: the row is tied
 *     to that place with its page, not listed as missing;
 *  3. the title, as one best assignment over what is left (titleMatch.ts),
 *     never between a row and an item that both carry IDs of one family (two
 *     different IDs of one tracker are two different items, however alike
 *     their titles read).
 * A match the auditor broke is never made again; a confirmation holds while
 * the same row and item are matched. The document's items are its merged,
 * grounded findings, or (no model, or --rules-only) the IDs it prints where
 * it announces an item (a table row, a heading), as the comparison reads them.
 */
import type { Database } from 'better-sqlite3';
import { AppError, ErrorCode } from '../../../shared/errors';
import {
  countTieOut,
  type DocumentItem,
  type DocumentOnlyEntry,
  type MatchedEntry,
  type MatchReason,
  type Population,
  type PopulationOnlyEntry,
  type Reconciliation,
  type TieOutReview,
} from '../../../shared/reconcile';
import type { IdMention } from '../../../shared/types';
import { findingKeyOf, loadFindingsOf, type DocumentFindings } from '../compare';
import { comparableId } from '../printed';
import { familyOfComparable, idFamilyOf, proposeColumns, resolveColumn, tieOutRows, type TieOutRow } from './columns';
import { listTieOutDecisions, listTieOutNotes, type StoredTieOutDecision, type StoredTieOutNote } from './store';
import { assignTitles, scoreTitles } from './titleMatch';

export interface ReconcileInput {
  documentId: number;
  population: Population;
  /** The key column's name or letter; null: none (match by title only); absent: the one proposed. */
  keyColumn?: string | null;
  /** The title column's name or letter; absent: the one proposed. */
  titleColumn?: string;
  /** Default: the document's latest analysis (with findings, else the latest run that read it). */
  runId?: number;
  /** rules-only: the items are the IDs the document prints, even where a model analysis exists. */
  mode?: 'auto' | 'rules-only';
  now?: string;
}

/** The subject a note is kept under: a row, or a document item. */
export const rowSubject = (rowKey: string) => `row:${rowKey}`;
export const itemSubject = (itemKey: string) => `item:${itemKey}`;

/** A table row read as an item's title ("Add .asf.yaml to hadoop-thirdparty | Major | build | ..."): its first cell after the ID. */
function shownTitle(title: string): string {
  const cells = title.split(/\s+\|\s+/).map((c) => c.trim());
  return cells.length > 1 ? (cells.find((c) => /\p{L}/u.test(c)) ?? title) : title;
}

function itemsOf(side: DocumentFindings): DocumentItem[] {
  return side.items.map((item) => ({
    id: item.side.id,
    title: item.side.mergedId === null ? shownTitle(item.side.title) : item.side.title,
    page: item.side.page,
    pages: item.side.pages,
    quote: item.side.quote,
    start: item.side.start,
    end: item.side.end,
    mergedId: item.side.mergedId,
    key: findingKeyOf(item.side),
  }));
}

/** The first place each ID is printed, as an item to tie a row to (the line it stands on is the quote). */
function mentionsById(text: string, mentions: readonly IdMention[]): Map<string, DocumentItem> {
  const byId = new Map<string, DocumentItem>();
  for (const m of mentions) {
    const id = comparableId(m.normalized);
    const known = byId.get(id);
    if (known) {
      if (!known.pages.includes(m.page)) known.pages.push(m.page);
      continue;
    }
    const lineStart = text.lastIndexOf('\n', m.start - 1) + 1;
    const newline = text.indexOf('\n', m.end);
    const line = text.slice(lineStart, newline === -1 ? text.length : newline).trim();
    byId.set(id, {
      id: m.normalized,
      title: line.slice(0, 200),
      page: m.page,
      pages: [m.page],
      quote: line,
      start: m.start,
      end: m.end,
      mergedId: null,
      key: `mention:${id}`,
    });
  }
  return byId;
}

function loadDocument(db: Database, input: Pick<ReconcileInput, 'documentId' | 'runId' | 'mode'>): DocumentFindings {
  try {
    return loadFindingsOf(db, input.documentId, input.runId, input.mode);
  } catch (error) {
    if (error instanceof AppError && error.code === ErrorCode.COMPARE_NOT_ANALYSED)
      throw new AppError(ErrorCode.RECONCILE_NOT_ANALYSED, error.message, error.details);
    throw error;
  }
}

/** The IDs a stored document prints, for proposing a population's key column; refused when it was never analysed. */
export function printedIdsOf(db: Database, documentId: number): string[] {
  return documentIdsOf(loadDocument(db, { documentId, mode: 'auto' }));
}

/** The IDs the document prints (its items' and its mentions'): what a key column's values should look like. */
export function documentIdsOf(side: DocumentFindings): string[] {
  return [...new Set([...side.items.map((i) => i.side.id), ...side.mentions.map((m) => m.normalized)].filter((id): id is string => id !== null))];
}

/** Which columns to read: those chosen, else those proposed; a title column is needed either way. */
function chooseColumns(population: Population, side: DocumentFindings, input: ReconcileInput): { keyIndex: number | null; titleIndex: number } {
  const proposal = proposeColumns(population, documentIdsOf(side));
  const keyName = input.keyColumn === undefined ? proposal.keyColumn : input.keyColumn;
  const keyIndex = keyName === null ? null : resolveColumn(population, keyName, 'key');
  const titleName = input.titleColumn ?? proposal.titleColumn;
  if (titleName === null) {
    throw new AppError(
      ErrorCode.POPULATION_COLUMN_NOT_FOUND,
      `${population.file} has no column of text to read as each row's title: its columns are ${population.columns.map((c) => `"${c}"`).join(', ')}. Choose one (--title-column "<name>").`,
      { file: population.file, columns: population.columns },
    );
  }
  return { keyIndex, titleIndex: resolveColumn(population, titleName, 'title') };
}

interface Pairing {
  row: TieOutRow;
  item: DocumentItem;
  by: MatchReason;
  score: number;
}

/** Rules 0-3 (see the top of this file): the pairs, each row and item at most once. */
function pairRows(
  rows: readonly TieOutRow[],
  items: readonly DocumentItem[],
  mentions: ReadonlyMap<string, DocumentItem>,
  decisions: readonly StoredTieOutDecision[],
): Pairing[] {
  const broken = new Set(decisions.filter((d) => d.decision === 'broken').map((d) => `${d.rowKey}|${d.itemKey}`));
  const isBroken = (row: TieOutRow, item: DocumentItem) => broken.has(`${row.rowKey}|${item.key}`);
  const pairs: Pairing[] = [];
  const pairedRows = new Set<TieOutRow>();
  const pairedItems = new Set<DocumentItem>();
  const pair = (row: TieOutRow, item: DocumentItem, by: MatchReason, score: number) => {
    pairs.push({ row, item, by, score });
    pairedRows.add(row);
    pairedItems.add(item);
  };

  // 0. By hand.
  const rowByKey = new Map(rows.map((r) => [r.rowKey, r]));
  const itemByKey = new Map([...items, ...mentions.values()].map((i) => [i.key, i]));
  for (const d of decisions) {
    if (d.decision !== 'matched') continue;
    const row = rowByKey.get(d.rowKey);
    const item = itemByKey.get(d.itemKey);
    if (row && item && !pairedRows.has(row) && !pairedItems.has(item)) pair(row, item, 'auditor', 1);
  }

  // 1. The printed ID.
  const itemsById = new Map<string, DocumentItem[]>();
  for (const item of items) {
    if (item.id === null) continue;
    const id = comparableId(item.id);
    itemsById.set(id, [...(itemsById.get(id) ?? []), item]);
  }
  for (const row of rows) {
    if (row.keyId === null || pairedRows.has(row)) continue;
    const item = itemsById.get(row.keyId)?.find((i) => !pairedItems.has(i) && !isBroken(row, i));
    if (item) pair(row, item, 'id', 1);
  }

  // 2. A key the document prints only in passing (no item carries it).
  for (const row of rows) {
    if (row.keyId === null || pairedRows.has(row) || itemsById.has(row.keyId)) continue;
    const mention = mentions.get(row.keyId);
    if (mention && !pairedItems.has(mention) && !isBroken(row, mention)) pair(row, mention, 'mention', 1);
  }

  // 3. The title, one best assignment over what is left.
  const openRows = rows.filter((r) => !pairedRows.has(r));
  const openItems = items.filter((i) => !pairedItems.has(i));
  const rowFamily = openRows.map((r) => (r.keyId === null ? null : familyOfComparable(r.keyId)));
  const itemFamily = openItems.map((i) => (i.id === null ? null : idFamilyOf(i.id)));
  const allowed = (r: number, i: number) =>
    (rowFamily[r] === null || itemFamily[i] === null || rowFamily[r] !== itemFamily[i]) && !isBroken(openRows[r]!, openItems[i]!);
  const scored = scoreTitles(
    openRows.map((r) => r.title),
    openItems.map((i) => i.title),
    allowed,
  );
  for (const p of assignTitles(scored)) pair(openRows[p.row]!, openItems[p.item]!, 'title', p.score);
  return pairs;
}

function reviewOf(decision: StoredTieOutDecision | undefined, notes: readonly StoredTieOutNote[]): TieOutReview {
  const shown = notes.map((n) => ({ reviewer: n.reviewer, at: n.at, text: n.text }));
  if (decision && (decision.decision === 'confirmed' || decision.decision === 'matched'))
    return { state: 'confirmed', reviewer: decision.reviewer, at: decision.at, notes: shown };
  return { state: 'unreviewed', reviewer: null, at: null, notes: shown };
}

export function reconcileDocument(db: Database, input: ReconcileInput): Reconciliation {
  const side = loadDocument(db, input);
  const { keyIndex, titleIndex } = chooseColumns(input.population, side, input);
  const { rows, duplicates, skipped } = tieOutRows(input.population, keyIndex, titleIndex);
  const items = itemsOf(side);
  const mentions = mentionsById(side.text, side.mentions);
  const decisions = listTieOutDecisions(db, input.documentId);
  const pairs = pairRows(rows, items, mentions, decisions);

  const decisionOf = new Map(decisions.map((d) => [`${d.rowKey}|${d.itemKey}`, d]));
  const notesBySubject = new Map<string, StoredTieOutNote[]>();
  for (const n of listTieOutNotes(db, input.documentId)) notesBySubject.set(n.subject, [...(notesBySubject.get(n.subject) ?? []), n]);
  const notesOf = (...subjects: string[]) => subjects.flatMap((s) => notesBySubject.get(s) ?? []).sort((a, b) => a.id - b.id);

  const matched: MatchedEntry[] = pairs
    .map((p) => ({
      row: p.row.row,
      rowKey: p.row.rowKey,
      key: p.row.key,
      title: p.row.title,
      cells: p.row.cells,
      finding: p.item,
      by: p.by,
      score: p.score,
      review: reviewOf(decisionOf.get(`${p.row.rowKey}|${p.item.key}`), notesOf(rowSubject(p.row.rowKey), itemSubject(p.item.key))),
    }))
    .sort((a, b) => a.row - b.row);
  const pairedRows = new Set(pairs.map((p) => p.row));
  const pairedItems = new Set(pairs.map((p) => p.item));
  const onlyInPopulation: PopulationOnlyEntry[] = rows
    .filter((r) => !pairedRows.has(r))
    .map((r) => ({
      row: r.row,
      rowKey: r.rowKey,
      key: r.key,
      title: r.title,
      cells: r.cells,
      broken: decisions.filter((d) => d.decision === 'broken' && d.rowKey === r.rowKey).map((d) => d.itemKey),
      review: reviewOf(undefined, notesOf(rowSubject(r.rowKey))),
    }));
  const onlyInDocument: DocumentOnlyEntry[] = items
    .filter((i) => !pairedItems.has(i))
    .sort((a, b) => (a.page ?? Infinity) - (b.page ?? Infinity) || (a.start ?? Infinity) - (b.start ?? Infinity))
    .map((finding) => ({ finding, review: reviewOf(undefined, notesOf(itemSubject(finding.key))) }));

  const lists = { matched, onlyInDocument, onlyInPopulation };
  const population = input.population;
  return {
    id: null,
    document: { documentId: input.documentId, runId: side.ref.runId, file: side.ref.file, sha256: side.ref.sha256, mode: side.ref.mode },
    population: {
      populationId: population.id,
      file: population.file,
      sha256: population.sha256,
      kind: population.kind,
      sheet: population.sheet,
      headerRow: population.headerRow,
      columns: population.columns,
      keyColumn: keyIndex === null ? null : population.columns[keyIndex]!,
      titleColumn: population.columns[titleIndex]!,
      rows: rows.length,
      duplicates,
      skipped,
    },
    ...lists,
    counts: countTieOut(lists),
    createdAt: input.now ?? new Date().toISOString(),
  };
}
