/**
 * Matching findings to listed entries scores a finding only against the entries it can score with (entryMatching.ts
 * EntryIndex) instead of every entry: it must match exactly as scoring every pair did. Held against the all-pairs
 * matching it replaced (test/helpers/allPairsEntryMatching.ts) on generated listings: summary tables and contents of
 * generated finding sets (test/fixtures/findingSets.ts) with IDs, numbers, siblings one word apart, titles glued
 * together by a scan, shortened, carrying a neighbour cell, and rows whose finding the run missed.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, rankSeverity, type MergedFinding } from '../../../shared/findings';
import type { ListedEntry } from '../../../shared/completeness';
import { matchEntries } from '../../../electron/engine/completeness';
import type { Listing } from '../../../electron/engine/printed';
import { mergeFindings } from '../../../electron/engine/merge';
import { generateFindingSet, type FindingSetOptions } from '../../fixtures/findingSets';
import { allPairsMatchEntries } from '../../helpers/allPairsEntryMatching';

/** A small seeded generator (LCG). */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** The set's findings merged, and its summary table (and, when asked, a contents list numbered apart) as listings. */
function scenario(options: FindingSetOptions, contents: boolean): { listings: Listing[]; findings: MergedFinding[] } {
  const set = generateFindingSet(options);
  const next = random(options.seed ?? 1);
  const merged = mergeFindings(set.findings, { documentText: set.documentText, printedIds: set.printedIds }).merged;
  // Some findings the run missed: their rows stay open.
  const findings = merged.filter(() => next() > 0.1).map((m, i) => ({ ...m, id: i + 1, runId: 1, documentId: 1 }));
  const entry = (row: (typeof set.rows)[number], kind: ListedEntry['kind'], number: string): ListedEntry => {
    const r = next();
    // How a listing prints a title: as is, glued by a scan, shortened, with the next cell read into it.
    const title =
      r < 0.15 ? row.title.replace(/ /g, '') : r < 0.3 ? row.title.split(' ').slice(0, 4).join(' ') : r < 0.4 ? `${row.title} ${row.severity}` : row.title;
    return {
      kind,
      number,
      id: kind === 'summary-table' ? row.key : null,
      title,
      severity: row.severity,
      severityCanonical: rankSeverity(DEFAULT_PROFILE, row.severity).canonical,
      findingIds: [],
      start: row.start,
      end: row.end,
      page: 1,
      text: title,
    };
  };
  const listings: Listing[] = [{ kind: 'summary-table', entries: set.rows.map((row, k) => entry(row, 'summary-table', row.number ?? String(k + 1))) }];
  if (contents)
    listings.push({
      kind: 'contents',
      entries: set.rows.map((row, k) => ({
        ...entry(row, 'contents', `4.${k + 1}`),
        start: set.documentText.length + k * 10,
        end: set.documentText.length + k * 10 + 5,
      })),
    });
  return { listings, findings };
}

describe('matching listed entries, scored only where a score can be', () => {
  const cases: { label: string; options: FindingSetOptions; contents?: boolean }[] = [
    { label: 'a summary table without IDs', options: { findings: 220, seed: 21 } },
    { label: 'a summary table with IDs and numbers, and a contents list', options: { findings: 220, seed: 22, keyed: 0.6, numbered: 0.5 }, contents: true },
    { label: 'siblings one word apart, numbered', options: { findings: 220, seed: 23, siblings: 0.6, numbered: 0.7 }, contents: true },
    { label: 'many findings per chunk, few IDs', options: { findings: 260, seed: 24, keyed: 0.2, perChunk: 40 } },
  ];
  it('scores where only two words are in common: a short row inside a long title, and a half-matching title with its number', () => {
    const row = (number: string, title: string, start: number): ListedEntry => ({
      kind: 'summary-table',
      number,
      id: null,
      title,
      severity: 'High',
      severityCanonical: 'High',
      findingIds: [],
      start,
      end: start + 40,
      page: 1,
      text: title,
    });
    const listing: Listing = {
      kind: 'summary-table',
      entries: [row('7', 'Weak ciphers', 0), row('8', 'Unused errors can be removed', 50), row('9', 'Missing rate limiting on login', 100)],
    };
    const found = (id: number, title: string, printedNumber: string | null): MergedFinding =>
      ({
        id,
        runId: 1,
        documentId: 1,
        findingKey: null,
        printedNumber,
        modelLabels: [],
        title,
        type: 'vulnerability',
        severity: 'High',
        severityCanonical: 'High',
        severityRank: 1,
        description: '',
        mainPage: 3,
        mainFindingId: id,
        grounded: true,
        sources: [],
        absorbedFindingIds: [],
      }) as MergedFinding;
    // Row 7's two words are both in the long title (2 of 2): its row. Two of four words in common with row 9 (0.5) and
    // its number (+0.25): that row. The numbers alone decide nothing here (two findings print each).
    const findings = [
      found(1, 'Weak cipher configuration on gateway', null),
      found(2, 'Missing rate checks elsewhere', '9'),
      found(3, 'Audit trail not kept', '9'),
    ];
    const actual = matchEntries([listing], findings);
    expect(actual).toEqual(allPairsMatchEntries([listing], findings));
    expect(actual[0]!.entries.map((e) => e.findingIds)).toEqual([[1], [], [2]]);
  });

  for (const c of cases) {
    it(c.label, () => {
      const { listings, findings } = scenario(c.options, c.contents ?? false);
      const expected = allPairsMatchEntries(listings, findings);
      const actual = matchEntries(listings, findings);
      // Entries matched every way, and some left open.
      const entries = expected.flatMap((l) => l.entries);
      expect(entries.filter((e) => e.findingIds.length > 0).length).toBeGreaterThan(entries.length / 3);
      expect(entries.some((e) => e.findingIds.length === 0)).toBe(true);
      expect(actual).toEqual(expected);
    });
  }
});
