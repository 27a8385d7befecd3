/**
 * Holds a reconciliation against what a generated population must give (test/fixtures/populations.ts): every
 * expected row matched to its own item (and page), no other match, both exception lists exact, the counts
 * taken from the lists.
 */
import { expect } from 'vitest';
import type { Reconciliation } from '../../../shared/reconcile';
import type { Expected, TruthItem } from '../../fixtures/populations';

const idOf = (id: string | null) =>
  id === null ? null : (id.toUpperCase().match(/[A-Z]+|\d+/g) ?? []).map((r) => (/^\d+$/.test(r) ? String(Number(r)) : r)).join('-');
/** A title's words: a merged title may drop a leading "++" or a quote mark the truth keeps. */
const titleOf = (t: string) => (t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
const sameItem = (finding: { id: string | null; title: string }, item: TruthItem) =>
  item.id !== null && finding.id !== null ? idOf(finding.id) === idOf(item.id) : titleOf(finding.title) === titleOf(item.title);

export function expectTieOut(r: Reconciliation, items: readonly TruthItem[], expected: Expected, options: { pages?: boolean } = {}): void {
  const byRow = new Map(r.matched.map((m) => [m.row, m]));
  const wrong: string[] = [];
  for (const [row, i] of expected.matched) {
    const m = byRow.get(row);
    const item = items[i]!;
    if (!m) wrong.push(`row ${row} (${item.id ?? item.title}) not matched`);
    else if (!sameItem(m.finding, item))
      wrong.push(`row ${row} matched to ${m.finding.id ?? m.finding.title}, not ${item.id ?? item.title} (by ${m.by}, ${m.score})`);
    else if (options.pages !== false && m.finding.page !== item.page)
      wrong.push(`row ${row} (${item.id ?? item.title}) on page ${m.finding.page}, not ${item.page}`);
  }
  for (const [row, key] of expected.mentions) {
    const m = byRow.get(row);
    if (!m || m.by !== 'mention' || idOf(m.finding.id) !== idOf(key))
      wrong.push(`row ${row} (${key}) not tied to its mention: ${m ? `${m.by} ${m.finding.id}` : 'unmatched'}`);
  }
  const expectedRows = new Set([...expected.matched.keys(), ...expected.mentions.keys()]);
  for (const m of r.matched)
    if (!expectedRows.has(m.row))
      wrong.push(`row ${m.row} (${m.key ?? m.title}) matched wrongly to ${m.finding.id ?? m.finding.title} (by ${m.by}, ${m.score})`);
  expect(wrong).toEqual([]);
  expect(r.onlyInPopulation.map((p) => p.row)).toEqual([...expected.onlyInPopulation].sort((a, b) => a - b));
  const documentOnly = r.onlyInDocument.map((d) => d.finding);
  const name = (f: { id: string | null; title: string }) => (f.id !== null ? idOf(f.id)! : titleOf(f.title));
  expect(documentOnly.map(name).sort()).toEqual(expected.onlyInDocument.map((i) => name(items[i]!)).sort());
  for (const f of documentOnly) expect(expected.onlyInDocument.some((i) => sameItem(f, items[i]!))).toBe(true);
  expect(r.counts).toMatchObject({
    rows: r.matched.length + r.onlyInPopulation.length,
    matched: expected.matched.size + expected.mentions.size,
    onlyInPopulation: expected.onlyInPopulation.length,
    onlyInDocument: expected.onlyInDocument.length,
  });
}
