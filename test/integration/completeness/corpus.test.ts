/**
 * The rules and the matching on the real corpus PDFs (engine ingest), with
 * the truth files' findings standing in for merged findings: every printed
 * total is read right, a removed finding is named by severity, row and page,
 * and documents that state nothing get the neutral verdict.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { DEFAULT_PROFILE, rankSeverity, type MergedFinding } from '../../../shared/findings';
import type { ListedEntry } from '../../../shared/completeness';
import type { ExtractedDocument } from '../../../shared/types';
import { checkCompleteness, tallyKeys } from '../../../electron/engine/completeness';
import { ingestFile } from '../../../electron/engine/pdf';
import { corpusFile, wholeCorpusDocuments } from '../../helpers/corpus';
import { CORPUS, corpusDocuments, corpusGapStandIns, describeNeeding } from '../../helpers/requirements';

interface Truth {
  findings: { id: string | null; title: string; detail_title?: string; severity: string; page: number }[];
  stated_counts: Record<string, number> | null;
  /** What the PDF itself prints where it differs from stated_counts. */
  pdf_stated_counts?: Record<string, number> | null;
}

const truthOf = (name: string) => JSON.parse(readFileSync(corpusFile(name, 'truth'), 'utf8')) as Truth;
const printedOf = (truth: Truth) => truth.pdf_stated_counts ?? truth.stated_counts ?? {};
const docs = new Map<string, ExtractedDocument>();

async function documentOf(name: string): Promise<ExtractedDocument> {
  const cached = docs.get(name);
  if (cached) return cached;
  const { document } = await ingestFile(corpusFile(name, 'pdf'));
  docs.set(name, document);
  return document;
}

function mergedFrom(truth: Truth, omit?: Truth['findings'][number]): MergedFinding[] {
  return truth.findings
    .filter((f) => f.title !== omit?.title)
    .map((f, i) => {
      const rank = rankSeverity(DEFAULT_PROFILE, f.severity);
      return {
        id: i + 1,
        runId: 1,
        documentId: 1,
        findingKey: f.id,
        printedNumber: null,
        modelLabels: [],
        title: f.detail_title ?? f.title,
        type: 'vulnerability',
        severity: f.severity,
        severityCanonical: rank.canonical,
        severityRank: rank.rank,
        description: '',
        mainPage: f.page,
        mainFindingId: i + 1,
        grounded: true,
        sources: [],
        absorbedFindingIds: [],
      };
    });
}

async function verdictFor(name: string, omit?: Truth['findings'][number]) {
  const doc = await documentOf(name);
  const { verdict } = await checkCompleteness({
    doc,
    profile: DEFAULT_PROFILE,
    idPatterns: DEFAULT_PROFILE.idPatterns,
    findings: mergedFrom(truthOf(name), omit),
    unreviewedMentions: [],
    failedChunks: [],
  });
  return { doc, verdict };
}

/** Counts per canonical severity ("Informational 0" and "Gas 6" are Informational 6). */
function canonical(counts: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [label, n] of Object.entries(counts)) {
    const c = rankSeverity(DEFAULT_PROFILE, label).canonical!;
    out[c] = (out[c] ?? 0) + n;
  }
  return out;
}

/** The document's lists of findings, in order: a new list where the kind changes or the numbering starts again (5.2.1 after 5.1.3 goes on). */
function listsOf(entries: readonly ListedEntry[]): ListedEntry[][] {
  const parts = (n: string) => n.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  const after = (a: string, b: string) => {
    const [x, y] = [parts(a), parts(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
    return false;
  };
  const lists: ListedEntry[][] = [];
  for (const e of entries) {
    const last = lists.at(-1)?.at(-1);
    if (!last || last.kind !== e.kind || !after(e.number, last.number)) lists.push([]);
    lists.at(-1)!.push(e);
  }
  return lists;
}

describeNeeding([CORPUS], 'completeness on the corpus', () => {
  // Only documents with both their PDF and their truth file; each half document is a skipped test that names it.
  const names = wholeCorpusDocuments();
  const withTotals = names.filter((n) => Object.keys(printedOf(truthOf(n))).length > 0);
  // The encrypted file needs its password to be read at all (its own tests cover that).
  const withoutTotals = names.filter((n) => !withTotals.includes(n) && !n.includes('encrypted'));
  corpusGapStandIns('completeness on');

  describeNeeding([corpusDocuments(['tob-zcash-2019'])], 'the corpus mix', () => {
    it('the corpus has reports with printed totals and documents without', () => {
      expect(withTotals.length).toBeGreaterThanOrEqual(2);
      expect(withoutTotals).toContain('tob-zcash-2019');
    });
  });

  for (const name of withTotals) {
    it(`${name}: reads every printed total, each grounded where the document prints it; the only places are counts the PDF itself gets wrong`, async () => {
      const { doc, verdict } = await verdictFor(name);
      const truth = truthOf(name);
      const read: Record<string, number> = {};
      for (const c of verdict.stated) if (c.severity !== null) read[c.severity] = (read[c.severity] ?? 0) + c.count;
      expect(read).toEqual(canonical(printedOf(truth)));
      for (const c of verdict.stated) {
        expect(doc.text.slice(c.start, c.end).replace(/\s+/g, ' ')).toBe(c.text);
        expect(c.text).toContain(String(c.count));
        const page = doc.pages.find((p) => p.pageNumber === c.page)!;
        expect(c.start >= page.start && c.end <= page.end, `${c.label} on page ${c.page}`).toBe(true);
      }
      const inTruth = canonical(Object.fromEntries(truth.findings.map((f) => [f.severity, truth.findings.filter((g) => g.severity === f.severity).length])));
      const wrongInPdf = Object.entries(canonical(printedOf(truth)))
        .filter(([s, n]) => (inTruth[s] ?? 0) !== n)
        .map(([s]) => s);
      const pagesWithoutText = verdict.pagesWithoutText.length > 0;
      expect(verdict.places.filter((p) => p.kind !== 'pages-without-text').map((p) => [p.kind, p.severity])).toEqual(
        wrongInPdf.map((s) => ['stated-vs-found', s]),
      );
      expect(verdict.status).toBe(wrongInPdf.length > 0 || pagesWithoutText ? 'check' : 'complete');
      // Every finding is held by each of the document's lists (a list starts at its entry 1: a fix review's contents and
      // its summary of results are two lists of one kind).
      for (const listing of listsOf(verdict.listed)) {
        expect(
          listing.filter((e) => e.findingIds.length > 0),
          `${listing[0]!.kind} on page ${listing[0]!.page} of ${name}`,
        ).toHaveLength(truth.findings.length);
      }
    });

    it(`${name}: with one finding missing, names its listed entry and that entry's page first, else its severity`, async () => {
      const truth = truthOf(name);
      const missing = truth.findings[Math.floor(truth.findings.length / 2)]!;
      const { verdict: full } = await verdictFor(name);
      const { verdict } = await verdictFor(name, missing);
      // Counted under its own word where the document counts that word on its own ("Gas 6"), else under its scale word.
      const severity = tallyKeys(DEFAULT_PROFILE, full.stated)(missing.severity, rankSeverity(DEFAULT_PROFILE, missing.severity).canonical);
      expect(verdict.status).toBe('check');
      const entries = verdict.listed.filter((e) => e.findingIds.length === 0);
      if (full.listed.length > 0) {
        expect(entries.length).toBeGreaterThan(0);
        // The entry that lost its finding is the one the full run matched to it.
        const own = full.listed.filter((e) => e.findingIds.includes(truth.findings.findIndex((f) => f.title === missing.title) + 1));
        expect(entries.map((e) => [e.kind, e.number])).toEqual(own.map((e) => [e.kind, e.number]));
        expect(verdict.places[0]).toMatchObject({
          kind: 'entry-without-finding',
          page: entries.find((e) => e.kind === 'summary-table')?.page ?? entries[0]!.page,
        });
        expect(verdict.places[0]!.message).toContain(entries.find((e) => e.kind === 'summary-table')?.number ?? entries[0]!.number);
      }
      expect(verdict.places.some((p) => p.kind === 'stated-vs-found' && p.severity === severity)).toBe(true);
      expect(verdict.places.every((p) => p.kind === 'entry-without-finding' || p.kind === 'stated-vs-found' || p.kind === 'pages-without-text')).toBe(true);
    });
  }

  for (const name of withoutTotals) {
    it(`${name}: states no totals; "Complete" only when it lists its findings and all are found`, { timeout: 180_000 }, async () => {
      const { doc, verdict } = await verdictFor(name);
      expect(verdict.stated).toEqual([]);
      const blank = doc.pages.filter((p) => !p.hasTextLayer).length;
      // Neutral, unless pages without text must be looked at, or the document lists its findings (then all must be found).
      expect(verdict.status).toBe(blank > 0 ? 'check' : verdict.listed.length > 0 ? 'complete' : 'no-stated-totals');
      if (truthOf(name).findings.length > 0) expect(verdict.listed.filter((e) => e.findingIds.length === 0)).toEqual([]);
    });
  }
});
