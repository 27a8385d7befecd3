/**
 * Which columns of a population hold each row's key and title: the import
 * proposes them (the key: values shaped like the document's IDs, else like
 * IDs at all; the title: the longest text), the user may choose others by
 * name (or by spreadsheet letter), and the rows are then read as keyed items:
 * a repeated key is listed and its first row used, a "Total" row is no item.
 */
import { AppError, ErrorCode } from '../../../shared/errors';
import type { ColumnProposal, DuplicateKey, Population, SkippedRow } from '../../../shared/reconcile';
import { comparableId, words } from '../printed';
import { looksLikeData } from './population';

/** A population row as the tie-out reads it. */
export interface TieOutRow {
  row: number;
  /** The key as the file writes it (null: no key column, or the cell is empty). */
  key: string | null;
  /** The key compared: case, dashes and zero padding ignored ("REL-0042" = "rel-42"). */
  keyId: string | null;
  title: string;
  cells: string[];
  /** What identifies the row across re-runs: "key:<keyId>", else "title:<title words>". */
  rowKey: string;
}

/** The share of values a column must have in a shape for the shape to say what the column is. */
const SHAPE_SHARE = 0.8;

/** A value that is one ID: letters, then (after a dash or not) digits: "HADOOP-18282", "TOB-ETCD-01", "CR 42", "LID01". */
export function isIdShaped(value: string): boolean {
  const v = value.trim();
  return v.length <= 40 && /^[A-Za-z][A-Za-z0-9]*(?:[-_ .][A-Za-z0-9]+)*?[-_ .#]?\d+[A-Za-z]?$/.test(v) && /[A-Za-z]/.test(v);
}

/** The letters of an ID without its numbers: "TOB-ETCD-001" -> "TOB-ETCD". Two IDs of one family name items of one list. */
export function idFamilyOf(id: string): string {
  return familyOfComparable(comparableId(id));
}

/** The same for an ID already in its compared form ("TOB-ETCD-1"). */
export function familyOfComparable(comparable: string): string {
  return comparable
    .split('-')
    .filter((part) => !/^\d+$/.test(part))
    .join('-');
}

/** Values a column's proposal is judged on: the first rows tell what a column holds as well as all of them. */
const PROPOSAL_SAMPLE = 2000;
const wordCount = (value: string) => value.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

const columnLetter = (i: number): string => (i < 26 ? String.fromCharCode(65 + i) : columnLetter(Math.floor(i / 26) - 1) + String.fromCharCode(65 + (i % 26)));

/**
 * The column a user named: its header (letter case and spacing aside), else a spreadsheet letter ("C") when no
 * header is called that. A name that is neither is refused with the columns there are.
 */
export function resolveColumn(population: Pick<Population, 'columns' | 'file'>, name: string, role: 'key' | 'title'): number {
  const wanted = name.trim().replace(/\s+/g, ' ').toLowerCase();
  const byName = population.columns.findIndex((c) => c.toLowerCase() === wanted);
  if (byName >= 0) return byName;
  if (/^[a-z]{1,2}$/.test(wanted)) {
    const byLetter = population.columns.findIndex((_, i) => columnLetter(i).toLowerCase() === wanted);
    if (byLetter >= 0) return byLetter;
  }
  throw new AppError(
    ErrorCode.POPULATION_COLUMN_NOT_FOUND,
    `${population.file} has no column "${name}" for the ${role}: its columns are ${population.columns.map((c) => `"${c}"`).join(', ')}. Choose one of them (--${role}-column "<name>", or its letter).`,
    { file: population.file, column: name, columns: population.columns },
  );
}

function columnValues(population: Population, index: number): string[] {
  return population.rows
    .slice(0, PROPOSAL_SAMPLE)
    .map((r) => r.cells[index] ?? '')
    .filter((v) => v !== '');
}

const share = (values: readonly string[], test: (v: string) => boolean) => (values.length === 0 ? 0 : values.filter(test).length / values.length);
const NAMED_LIKE_KEY = /\b(key|id|ids|ticket|issue|no|number|ref|reference|cr|pbi)\b/i;

/**
 * Proposes the key column and the title column. The key: the column whose values are most often IDs of the
 * document's own families (the IDs it prints), else most often ID-shaped at all, else a column named like a
 * key whose values are all different; none when no column qualifies (a tracker of titles only). The title: of
 * the other columns that hold text (not numbers or dates), the one with the most words per value.
 */
export function proposeColumns(population: Population, documentIds: readonly string[]): ColumnProposal {
  const families = new Set(documentIds.map(idFamilyOf).filter(Boolean));
  const stats = population.columns.map((name, index) => {
    const values = columnValues(population, index);
    const unique = values.length === 0 ? 0 : new Set(values.map((v) => v.toLowerCase())).size / values.length;
    return {
      name,
      index,
      values,
      unique,
      filled: values.length / Math.min(population.rows.length, PROPOSAL_SAMPLE),
      ownFamily: share(values, (v) => isIdShaped(v) && families.has(idFamilyOf(v))),
      idShaped: share(values, isIdShaped),
      data: share(values, looksLikeData),
      wordsPerValue: values.length === 0 ? 0 : values.reduce((n, v) => n + wordCount(v), 0) / values.length,
    };
  });
  // Repeated keys are allowed (they are listed and the first row used), so the document's own IDs need no uniqueness.
  const keyable = stats.filter((s) => s.filled >= 0.5);
  const byOwn = keyable.filter((s) => s.ownFamily >= 0.5).sort((a, b) => b.ownFamily - a.ownFamily)[0];
  const byShape = keyable.filter((s) => s.idShaped >= SHAPE_SHARE && s.unique >= 0.8).sort((a, b) => b.idShaped - a.idShaped)[0];
  const byName = keyable.filter((s) => NAMED_LIKE_KEY.test(s.name) && s.unique === 1 && s.wordsPerValue <= 3)[0];
  const key = byOwn ?? byShape ?? byName ?? null;
  const keyReason = byOwn
    ? `"${byOwn.name}": ${Math.round(byOwn.ownFamily * 100)}% of its values are IDs of the families the document prints (${[...families].slice(0, 3).join(', ')}).`
    : byShape
      ? `"${byShape.name}": ${Math.round(byShape.idShaped * 100)}% of its values are shaped like IDs${families.size > 0 ? ', though not of the families the document prints' : ''}.`
      : byName
        ? `"${byName.name}": named like a key, every value different.`
        : 'No column holds IDs: rows are matched by title only.';
  const titled = stats
    .filter((s) => s !== key && s.values.length > 0 && s.data < 0.5 && s.idShaped < SHAPE_SHARE)
    .sort((a, b) => b.wordsPerValue - a.wordsPerValue || a.index - b.index)[0];
  return {
    keyColumn: key?.name ?? null,
    titleColumn: titled?.name ?? null,
    keyReason,
    titleReason: titled ? `"${titled.name}": the longest text, ${titled.wordsPerValue.toFixed(1)} words per row.` : 'No column holds text to use as a title.',
  };
}

/** A "Total", "Grand total" or "Sum" row under the data: a label and numbers, no item. */
function isTotalRow(cells: readonly string[]): boolean {
  const filledCells = cells.filter((c) => c !== '');
  const label = filledCells[0] ?? '';
  return /^(?:grand\s+)?(?:totals?|sum|count)\b\s*:?\s*[\d.,]*$/i.test(label) && filledCells.slice(1).every((c) => looksLikeData(c));
}

/**
 * The rows as keyed items. A key repeated in later rows is listed with every row that holds it; the first row
 * is used, the others skipped. Rows without a key or a title, and total rows, are skipped too.
 */
export function tieOutRows(
  population: Population,
  keyIndex: number | null,
  titleIndex: number,
): { rows: TieOutRow[]; duplicates: DuplicateKey[]; skipped: SkippedRow[] } {
  const rows: TieOutRow[] = [];
  const skipped: SkippedRow[] = [];
  const firstOf = new Map<string, { row: number; key: string; rows: number[] }>();
  for (const r of population.rows) {
    const key = keyIndex === null ? null : r.cells[keyIndex] || null;
    const title = r.cells[titleIndex] ?? '';
    if (isTotalRow(r.cells)) {
      skipped.push({ row: r.row, reason: 'total-row' });
      continue;
    }
    if (key === null && words(title).length === 0) {
      skipped.push({ row: r.row, reason: 'no-key-or-title' });
      continue;
    }
    const keyId = key === null ? null : comparableId(key) || key.toLowerCase();
    if (key !== null && keyId !== null) {
      const first = firstOf.get(keyId);
      if (first) {
        first.rows.push(r.row);
        skipped.push({ row: r.row, reason: 'duplicate-key', firstRow: first.row, key });
        continue;
      }
      firstOf.set(keyId, { row: r.row, key, rows: [r.row] });
    }
    rows.push({ row: r.row, key, keyId, title, cells: r.cells, rowKey: keyId !== null ? `key:${keyId}` : `title:${words(title).join(' ')}` });
  }
  const duplicates = [...firstOf.values()].filter((f) => f.rows.length > 1).map((f) => ({ key: f.key, rows: f.rows }));
  return { rows, duplicates, skipped };
}
