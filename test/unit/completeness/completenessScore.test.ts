/**
 * The eval's completeness score (test/eval/completenessScore.ts): a verdict from the real check on a small report,
 * held against a truth, so that a false place, a wrong total or an unnamed missed finding is counted as such.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, rankSeverity, type MergedFinding } from '../../../shared/findings';
import { checkCompleteness } from '../../../electron/engine/completeness';
import { completenessGate, scoreCompleteness, totalsRead } from '../../eval/completenessScore';
import type { TruthDocument } from '../../eval/truthResponder';
import { documentFromPages } from '../../helpers/documents';

const TRUTH: TruthDocument = {
  name: 'acme',
  statedCounts: { High: 1, Medium: 2 },
  findings: [
    { id: 'ACM-01', title: 'Vault drained by a malicious token', severity: 'High', page: 2 },
    { id: 'ACM-02', title: 'Oracle price read without staleness check', severity: 'Medium', page: 2 },
    { id: 'ACM-03', title: 'Withdrawal queue blocks on zero amounts', severity: 'Medium', page: 2 },
  ],
};

function merged(titles: readonly string[], extra: Partial<MergedFinding> = {}): MergedFinding[] {
  return titles.map((title, i) => {
    const t = TRUTH.findings.find((f) => f.title === title);
    const severity = extra.severity ?? t?.severity ?? 'Low';
    const rank = rankSeverity(DEFAULT_PROFILE, severity);
    return {
      id: i + 1,
      runId: 1,
      documentId: 1,
      findingKey: t?.id ?? null,
      printedNumber: null,
      modelLabels: [],
      title,
      type: 'vulnerability',
      severity,
      severityCanonical: rank.canonical,
      severityRank: rank.rank,
      description: '',
      mainPage: 2,
      mainFindingId: i + 1,
      grounded: true,
      sources: [],
      absorbedFindingIds: [],
    };
  });
}

const PAGES = [
  `Executive Summary\nHigh 1\nMedium 2\nSummary of Findings\nID Description Severity Status\n${TRUTH.findings.map((f) => `${f.id} ${f.title} ${f.severity} Open`).join('\n')}`,
  TRUTH.findings.map((f) => `${f.id}: ${f.title}\nSeverity: ${f.severity}`).join('\n'),
];

async function scored(findings: MergedFinding[], truth: TruthDocument = TRUTH, pages = PAGES, unreviewed: { id: string; pages: number[] }[] = []) {
  const { verdict } = await checkCompleteness({
    doc: documentFromPages(pages),
    profile: DEFAULT_PROFILE,
    idPatterns: DEFAULT_PROFILE.idPatterns,
    findings,
    unreviewedMentions: unreviewed,
    failedChunks: [],
  });
  return { verdict, score: scoreCompleteness(truth, findings, verdict) };
}

describe('completeness score of the eval', () => {
  it('a run that found everything: Complete, no place, totals exact', async () => {
    const { score } = await scored(merged(TRUTH.findings.map((f) => f.title)));
    expect(score).toMatchObject({ status: 'complete', places: 0, falsePlaces: 0, totals: 'exact', printsTotals: true, missed: 0, missedNamed: 0 });
  });

  it('a missed finding: its row and its ID are true places and name it; its count left short is true too', async () => {
    const { score, verdict } = await scored(merged([TRUTH.findings[0]!.title, TRUTH.findings[2]!.title]), TRUTH, PAGES, [{ id: 'ACM-02', pages: [2] }]);
    expect(verdict.places.map((p) => p.kind)).toEqual(['entry-without-finding', 'stated-vs-found', 'unreviewed-id']);
    expect(score).toMatchObject({ falsePlaces: 0, missed: 1, missedNamed: 1 });
  });

  it('a document that prints a count its findings do not bear out: that place is true; a count misread is a wrong total and a false place', async () => {
    const truth = { ...TRUTH, pdfStatedCounts: { High: 1, Medium: 3 } };
    const pages = [PAGES[0]!.replace('Medium 2', 'Medium 3'), PAGES[1]!];
    const { score } = await scored(merged(TRUTH.findings.map((f) => f.title)), truth, pages);
    expect(score).toMatchObject({ places: 1, falsePlaces: 0, totals: 'exact' });
    // The same document scored against a truth that says it prints Medium 2: the count read is wrong, its place false.
    const { score: misread } = await scored(merged(TRUTH.findings.map((f) => f.title)), TRUTH, pages);
    expect(misread).toMatchObject({ places: 1, falsePlaces: 1, totals: 'wrong' });
  });

  it('a finding found with another severity than its row: true, and the count it leaves short false; an invented finding in no list: true; an ID no missed finding stands behind: false', async () => {
    const findings = [
      ...merged([TRUTH.findings[0]!.title]),
      ...merged([TRUTH.findings[1]!.title], { severity: 'Low' }).map((f) => ({ ...f, id: 2 })),
      ...merged([TRUTH.findings[2]!.title]).map((f) => ({ ...f, id: 3 })),
      ...merged(['Invented reentrancy in the router']).map((f) => ({ ...f, id: 4 })),
    ];
    const { verdict, score } = await scored(findings, TRUTH, PAGES, [{ id: 'ACM-77', pages: [2] }]);
    const kinds = verdict.places.map((p) => p.kind);
    expect(kinds).toContain('severity-differs');
    expect(kinds).toContain('finding-without-entry');
    expect(kinds).toContain('unreviewed-id');
    const falseKinds = verdict.places.filter((p) => score.problems.includes(`false place: ${p.message}`)).map((p) => p.kind);
    // The Medium count left short by the finding found as Low is false: the document's count is right, the run rated the
    // finding otherwise than its document prints (the severity-differs place names that).
    expect(falseKinds).toEqual(['stated-vs-found', 'unreviewed-id']);
  });

  it('totals read where the document prints none are wrong; none read where it prints some is "none"', async () => {
    const { verdict } = await scored(merged(TRUTH.findings.map((f) => f.title)));
    expect(totalsRead({ ...TRUTH, statedCounts: null }, verdict)).toBe('wrong');
    expect(totalsRead(TRUTH, { ...verdict, stated: [] })).toBe('none');
  });

  it('the gate: 90% of reports without a false place and no wrong total on a faithful run; every missed finding named when skipping', () => {
    const row = (name: string, over: Partial<ReturnType<typeof scoreCompleteness>>) => ({
      name,
      completeness: {
        status: 'complete' as const,
        places: 0,
        falsePlaces: 0,
        totals: 'exact' as const,
        printsTotals: true,
        missed: 0,
        missedNamed: 0,
        problems: [],
        ...over,
      },
    });
    const clean = Array.from({ length: 9 }, (_, i) => row(`r${i}`, {}));
    expect(completenessGate([...clean, row('noisy', { falsePlaces: 3, places: 3 })], false)).toEqual([]);
    expect(completenessGate([...clean.slice(0, 8), row('a', { falsePlaces: 1 }), row('b', { falsePlaces: 2 })], false)).toEqual([
      '0 false places on 8 of 10 reports (at least 9 needed): a 1, b 2',
    ]);
    expect(completenessGate([row('w', { totals: 'wrong' })], false)).toEqual(['w: stated totals read wrong']);
    expect(completenessGate([row('s', { missed: 3, missedNamed: 2 })], true)).toEqual(['s: 1 of 3 missed findings not named']);
    expect(completenessGate([row('s', { missed: 3, missedNamed: 3, falsePlaces: 5 })], true)).toEqual([]);
  });
});
