/**
 * The rules and the matching on the real corpus PDFs (engine ingest), with
 * the truth files' findings standing in for merged findings: every printed
 * total is read right, a removed finding is named by severity, row and page,
 * and documents that state nothing get the neutral verdict.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, rankSeverity, type MergedFinding } from '../../../shared/findings';
import type { ExtractedDocument } from '../../../shared/types';
import { checkCompleteness } from '../../../electron/engine/completeness';
import { ingestFile } from '../../../electron/engine/pdf';

const CORPUS = resolve(import.meta.dirname, '../../../../shared/corpus');

interface Truth {
  findings: { id: string | null; title: string; detail_title?: string; severity: string; page: number }[];
  stated_counts: Record<string, number> | null;
}

const names = readdirSync(join(CORPUS, 'truth')).map((f) => f.replace(/\.json$/, '')).sort();
const truthOf = (name: string) => JSON.parse(readFileSync(join(CORPUS, 'truth', `${name}.json`), 'utf8')) as Truth;
const docs = new Map<string, ExtractedDocument>();

async function documentOf(name: string): Promise<ExtractedDocument> {
  const cached = docs.get(name);
  if (cached) return cached;
  const { document } = await ingestFile(join(CORPUS, 'pdfs', `${name}.pdf`));
  docs.set(name, document);
  return document;
}

function mergedFrom(truth: Truth, omit?: string): MergedFinding[] {
  return truth.findings
    .filter((f) => f.id !== omit)
    .map((f, i) => {
      const rank = rankSeverity(DEFAULT_PROFILE, f.severity);
      return { id: i + 1, runId: 1, documentId: 1, findingKey: f.id, printedNumber: null, modelLabels: [], title: f.detail_title ?? f.title, type: 'vulnerability', severity: f.severity, severityCanonical: rank.canonical, severityRank: rank.rank, description: '', mainPage: f.page, mainFindingId: i + 1, grounded: true, sources: [], absorbedFindingIds: [] };
    });
}

async function verdictFor(name: string, omit?: string) {
  const doc = await documentOf(name);
  const { verdict } = await checkCompleteness({ doc, profile: DEFAULT_PROFILE, idPatterns: DEFAULT_PROFILE.idPatterns, findings: mergedFrom(truthOf(name), omit), unreviewedMentions: [], failedChunks: [] });
  return { doc, verdict };
}

const withTotals = names.filter((n) => Object.keys(truthOf(n).stated_counts ?? {}).length > 0);
// The encrypted file needs its password to be read at all (its own tests cover that).
const withoutTotals = names.filter((n) => !withTotals.includes(n) && !n.includes('encrypted'));

describe('completeness on the corpus', () => {
  it('the corpus has reports with printed totals and documents without', () => {
    expect(withTotals.length).toBeGreaterThanOrEqual(2);
    expect(withoutTotals).toContain('tob-zcash-2019');
  });

  for (const name of withTotals) {
    it(`${name}: reads every printed total, each grounded where the document prints it, and finds it complete`, async () => {
      const { doc, verdict } = await verdictFor(name);
      const perSeverity = Object.fromEntries(verdict.stated.filter((c) => c.severity !== null).map((c) => [c.label, c.count]));
      expect(perSeverity).toEqual(truthOf(name).stated_counts);
      for (const c of verdict.stated) {
        expect(doc.text.slice(c.start, c.end).replace(/\s+/g, ' ')).toBe(c.text);
        expect(c.text).toContain(String(c.count));
        const page = doc.pages.find((p) => p.pageNumber === c.page)!;
        expect(c.start >= page.start && c.end <= page.end, `${c.label} on page ${c.page}`).toBe(true);
      }
      expect(verdict.status).toBe('complete');
      expect(verdict.listed.filter((e) => e.kind === 'summary-table')).toHaveLength(truthOf(name).findings.length);
    });

    it(`${name}: with one finding missing, names its severity, its summary-table row and that row's page`, async () => {
      const truth = truthOf(name);
      const missing = truth.findings[Math.floor(truth.findings.length / 2)]!;
      const number = String(truth.findings.indexOf(missing) + 1);
      const { doc, verdict } = await verdictFor(name, missing.id!);
      const canonical = rankSeverity(DEFAULT_PROFILE, missing.severity).canonical;
      expect(verdict.status).toBe('check');
      const statedPlace = verdict.places.find((p) => p.kind === 'stated-vs-found');
      expect(statedPlace?.severity).toBe(canonical);
      const row = verdict.listed.find((e) => e.kind === 'summary-table' && e.number === number)!;
      expect(row.findingIds).toEqual([]);
      // The row as printed: its number, then its title (in a cell of its own when ingestion rebuilt the table: "9 | Title | ...").
      expect(doc.text.slice(row.start, row.end)).toMatch(new RegExp(`^${number}\\s+(?:\\|\\s+)?${missing.title.split(' ')[0]}`));
      const entryPlace = verdict.places.find((p) => p.kind === 'entry-without-finding')!;
      expect(entryPlace).toMatchObject({ page: row.page, severity: canonical });
      expect(entryPlace.message).toContain(`Summary table row ${number} on page ${row.page}, "${missing.title}" (${missing.severity})`);
      expect(verdict.places).toHaveLength(2);
    });
  }

  for (const name of withoutTotals) {
    it(`${name}: states no totals, so it is never called complete`, { timeout: 180_000 }, async () => {
      const { doc, verdict } = await verdictFor(name);
      expect(verdict.stated).toEqual([]);
      const blank = doc.pages.filter((p) => !p.hasTextLayer).length;
      // Neutral, unless pages without text must be looked at.
      expect(verdict.status).toBe(blank > 0 ? 'check' : 'no-stated-totals');
      if (truthOf(name).findings.length > 0) expect(verdict.listed.filter((e) => e.findingIds.length === 0)).toEqual([]);
    });
  }
});
