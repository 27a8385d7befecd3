/**
 * Generated reports (pdf-lib, real text extraction) for each kind of summary the completeness check reads: a
 * severity table labelled "Critical Risk 0 / ... / Gas Optimizations / Total Issues", a "Severity | Count" table in
 * row form, counts in prose, a table split across a page break, an "ID | Description | Severity | Status" summary
 * table, and a contents list numbering findings 5.1.1 under severity groups with wrapped and hyphenated titles.
 * Each layout: its totals read exactly, "Complete" when every finding is found, and with one finding left out,
 * that finding's entry named first, with its page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, rankSeverity, type MergedFinding } from '../../../shared/findings';
import { checkCompleteness } from '../../../electron/engine/completeness';
import { ingestFile } from '../../../electron/engine/pdf';
import { makeTextPdf, writeFixture, type Block } from '../../fixtures/pdfFactory';

const dir = mkdtempSync(join(tmpdir(), 'summary-layouts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Planted {
  number: string;
  id?: string;
  title: string;
  severity: string;
}

/** Five findings: a High, two Mediums, a Low, a Gas optimization. */
const PLANTED: Planted[] = [
  { number: '5.1.1', id: 'ACM-01', title: 'Attackers can drain the vault through a malicious yield token', severity: 'High' },
  { number: '5.2.1', id: 'ACM-02', title: 'Withdrawals would revert when the queue holds a zero amount', severity: 'Medium' },
  { number: '5.2.2', id: 'ACM-03', title: 'Oracle price is read without a staleness check', severity: 'Medium' },
  { number: '5.3.1', id: 'ACM-04', title: 'Exit fee differs from the documented rate', severity: 'Low' },
  { number: '5.4.1', id: 'ACM-05', title: 'Cache the array length outside of the loop', severity: 'Gas' },
];

function merged(planted: readonly Planted[]): MergedFinding[] {
  return planted.map((p, i) => {
    const rank = rankSeverity(DEFAULT_PROFILE, p.severity);
    return {
      id: i + 1,
      runId: 1,
      documentId: 1,
      findingKey: p.id ?? null,
      printedNumber: p.number,
      modelLabels: [],
      title: p.title,
      type: 'vulnerability',
      severity: p.severity,
      severityCanonical: rank.canonical,
      severityRank: rank.rank,
      description: '',
      mainPage: 4,
      mainFindingId: i + 1,
      grounded: true,
      sources: [],
      absorbedFindingIds: [],
    };
  });
}

/** A detailed section: its heading and a description of several lines (sections are never a list of findings). */
const detail = (p: Planted): Block[] => [
  { kind: 'heading', text: `${p.number} ${p.title}`, size: 12.5 },
  {
    kind: 'body',
    lines: [
      `Severity: ${p.severity}`,
      'The contract accepts the input as given.',
      'An attacker can use this to move funds.',
      'The tests do not cover this path.',
      'Validate the input before use.',
      'The team fixed it in the second commit.',
    ],
  },
];
const detailPages: Block[][] = [[{ kind: 'heading', text: '5 Findings' }, ...PLANTED.slice(0, 3).flatMap(detail)], PLANTED.slice(3).flatMap(detail)];

async function verdictOf(name: string, summaryPages: Block[][], planted: readonly Planted[] = PLANTED) {
  const file = writeFixture(
    join(dir, `${name}.pdf`),
    await makeTextPdf({ title: name, footer: 'Acme Vault Review | Page', pages: [...summaryPages, ...detailPages].map((blocks) => ({ blocks })) }),
  );
  const { document } = await ingestFile(file);
  const { verdict } = await checkCompleteness({
    doc: document,
    profile: DEFAULT_PROFILE,
    idPatterns: DEFAULT_PROFILE.idPatterns,
    findings: merged(planted),
    unreviewedMentions: [],
    failedChunks: [],
  });
  return verdict;
}

const statedOf = (verdict: Awaited<ReturnType<typeof verdictOf>>) => verdict.stated.map((c) => [c.label, c.count]);
const withoutSecondMedium = PLANTED.filter((p) => p.number !== '5.2.2');

const CONTENTS: Block[] = [
  { kind: 'heading', text: 'Contents' },
  {
    kind: 'body',
    lines: [
      '1 About Acme 2',
      '4 Executive Summary 2',
      '5 Findings 3',
      '5.1 High Risk . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 3',
      '5.1.1 Attackers can drain the vault through a malicious yield token . . . . . 3',
      '5.2 Medium Risk . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 3',
      '5.2.1 Withdrawals would re-',
      'vert when the queue holds a zero amount . . . . . . . . . . . . . . . 3',
      '5.2.2 Oracle price is read without a staleness',
      'check . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 3',
      '5.3 Low Risk . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 4',
      '5.3.1 Exit fee differs from the documented rate . . . . . . . . . . . . . . 4',
      '5.4 Gas Optimizations . . . . . . . . . . . . . . . . . . . . . . . . . 4',
      '5.4.1 Cache the array length outside of the loop . . . . . . . . . . . . . 4',
      '6 Appendix 5',
    ],
  },
];

describe('summary layouts of generated reports', () => {
  it('"Issues Found" rows with a Gas row and "Total Issues", after a contents list of 5.1.1-numbered findings', async () => {
    const summary: Block[] = [
      { kind: 'heading', text: '4 Executive Summary' },
      {
        kind: 'body',
        lines: [
          'In this period, a total of 5 issues were found.',
          'Issues Found',
          'Critical Risk 0',
          'High Risk 1',
          'Medium Risk 2',
          'Low Risk 1',
          'Informational 0',
          'Gas Optimizations 1',
          'Total Issues 5',
        ],
      },
    ];
    const verdict = await verdictOf('issues-found', [CONTENTS, summary]);
    expect(statedOf(verdict)).toEqual([
      ['Critical', 0],
      ['High', 1],
      ['Medium', 2],
      ['Low', 1],
      ['Informational', 0],
      ['Gas', 1],
      ['Total', 5],
    ]);
    expect(verdict.listed.map((e) => [e.number, e.page, e.findingIds.length])).toEqual(PLANTED.map((p) => [p.number, 1, 1]));
    expect(verdict.status).toBe('complete');
    const short = await verdictOf('issues-found-short', [CONTENTS, summary], withoutSecondMedium);
    expect(short.places.map((p) => [p.kind, p.page])).toEqual([
      ['entry-without-finding', 1],
      ['stated-vs-found', 2],
    ]);
    expect(short.places[0]!.message).toBe(
      'Contents entry 5.2.2 on page 1, "Oracle price is read without a staleness check", matches no finding reported from the text (at most its own row was read).',
    );
  });

  it('a "Severity | Count" table in row form, with its total row', async () => {
    const summary: Block[] = [
      { kind: 'heading', text: 'Executive Summary' },
      {
        kind: 'body',
        lines: ['Severity | Count | Fixed', 'Critical | 0 | 0', 'High | 1 | 1', 'Medium | 2 | 1', 'Low | 1 | 0', 'Gas | 1 | 1', 'Total | 5 | 3'],
      },
    ];
    const verdict = await verdictOf('severity-count-rows', [CONTENTS, summary]);
    expect(statedOf(verdict)).toEqual([
      ['Critical', 0],
      ['High', 1],
      ['Medium', 2],
      ['Low', 1],
      ['Gas', 1],
      ['Total', 5],
    ]);
    expect(verdict.status).toBe('complete');
  });

  it('counts in prose, number words with digits in brackets', async () => {
    const summary: Block[] = [
      { kind: 'heading', text: 'Executive Summary' },
      {
        kind: 'body',
        lines: [
          'The team identified a total of five (5) issues during this assessment, of which:',
          '- One (1) is classified as high risk,',
          '- Two (2) are classified as medium risk,',
          '- One (1) is classified as low risk,',
          '- One (1) is classified as informational.',
        ],
      },
    ];
    const verdict = await verdictOf('prose-counts', [CONTENTS, summary]);
    expect(statedOf(verdict)).toEqual([
      ['High', 1],
      ['Medium', 2],
      ['Low', 1],
      ['Informational', 1],
      ['Total', 5],
    ]);
    expect(verdict.status).toBe('complete');
  });

  it('a severity table split across a page break (the footer between its rows)', async () => {
    const pageOne: Block[] = [
      { kind: 'heading', text: 'Executive Summary' },
      { kind: 'body', lines: [...Array.from({ length: 40 }, (_, i) => `Scope line ${i + 1} of the engagement.`), 'Severity Count', 'High 1', 'Medium 2'] },
    ];
    const pageTwo: Block[] = [{ kind: 'body', lines: ['Low 1', 'Gas 1', 'Total 5', 'Category Count', 'Data Validation 3'] }];
    const verdict = await verdictOf('split-table', [pageOne, pageTwo, CONTENTS]);
    expect(statedOf(verdict)).toEqual([
      ['High', 1],
      ['Medium', 2],
      ['Low', 1],
      ['Gas', 1],
      ['Total', 5],
    ]);
    expect(verdict.stated.map((c) => c.page)).toEqual([1, 1, 2, 2, 2]);
    expect(verdict.status).toBe('complete');
  });

  it('an "ID | Description | Severity | Status" summary table: its rows are the stated findings, a changed severity is named', async () => {
    const summary: Block[] = [
      { kind: 'heading', text: 'Summary of Findings' },
      {
        kind: 'body',
        lines: ['ID Description Severity Status', ...PLANTED.map((p) => `${p.id} ${p.title} ${p.severity === 'Gas' ? 'Informational' : p.severity} Resolved`)],
      },
    ];
    const verdict = await verdictOf('id-table', [summary]);
    expect(verdict.listed.map((e) => [e.kind, e.id, e.severityCanonical, e.findingIds])).toEqual(
      PLANTED.map((p, i) => ['summary-table', p.id, rankSeverity(DEFAULT_PROFILE, p.severity).canonical, [i + 1]]),
    );
    expect(verdict.status).toBe('complete');
    const short = await verdictOf('id-table-short', [summary], withoutSecondMedium);
    expect(short.places.map((p) => p.kind)).toEqual(['entry-without-finding']);
    expect(short.places[0]!.message).toBe(
      'Summary table row ACM-03 on page 1, "Oracle price is read without a staleness check" (Medium), matches no finding reported from the text (at most its own row was read).',
    );
    const downgraded = await verdictOf(
      'id-table-severity',
      [summary],
      PLANTED.map((p) => (p.id === 'ACM-02' ? { ...p, severity: 'Low' } : p)),
    );
    expect(downgraded.places.map((p) => [p.kind, p.page])).toEqual([['severity-differs', 1]]);
  });
});

describe('more summary layouts of generated reports', () => {
  it('a severity table in column form: the severities in its header row, their counts in the row below', async () => {
    const summary: Block[] = [
      { kind: 'heading', text: 'Executive Summary' },
      {
        kind: 'body',
        lines: [
          'The review covered the vault and its oracle adapters.',
          'Critical High Medium Low Informational Gas Total',
          '0 1 2 1 0 1 5',
          'Each finding is described in section 5.',
        ],
      },
    ];
    const verdict = await verdictOf('column-table', [CONTENTS, summary]);
    expect(statedOf(verdict)).toEqual([
      ['Critical', 0],
      ['High', 1],
      ['Medium', 2],
      ['Low', 1],
      ['Informational', 0],
      ['Gas', 1],
      ['Total', 5],
    ]);
    expect(verdict.stated.every((c) => c.page === 2)).toBe(true);
    expect(verdict.status).toBe('complete');
    const short = await verdictOf('column-table-short', [CONTENTS, summary], withoutSecondMedium);
    expect(short.places.map((p) => [p.kind, p.page])).toEqual([
      ['entry-without-finding', 1],
      ['stated-vs-found', 2],
    ]);
  });

  it('counts on one line ("Critical 0 High 1 Medium 2 ..."), with another table\'s number beside them never read as a count', async () => {
    const summary: Block[] = [
      { kind: 'heading', text: 'Executive Summary' },
      {
        kind: 'body',
        lines: [
          'Summary',
          'Project Name Acme Vault',
          'Total Commits 71',
          'Issues Found',
          'Critical 0 High 1 Medium 2 Low 1 Informational 0 Gas 1',
          'Methods Manual Review 71',
        ],
      },
    ];
    const verdict = await verdictOf('one-line-counts', [CONTENTS, summary]);
    expect(statedOf(verdict)).toEqual([
      ['Critical', 0],
      ['High', 1],
      ['Medium', 2],
      ['Low', 1],
      ['Informational', 0],
      ['Gas', 1],
    ]);
    expect(verdict.stated.some((c) => c.count === 71)).toBe(false);
    expect(verdict.status).toBe('complete');
  });

  it('an "Impact Level | Count" table that starts with "Critical 0", beside prose that names a total', async () => {
    const summary: Block[] = [
      { kind: 'heading', text: '2 Executive Summary' },
      {
        kind: 'body',
        lines: [
          'Acme conducted an audit from April 4th to April 15th, 2022 on the scoped contracts',
          'and discovered 5 findings. Fortunately, no critical issues were found.',
          'Breakdown of Finding Impacts',
          'Impact Level Count',
          'Critical 0',
          'High 1',
          'Medium 2',
          'Low 1',
          'Informational 1',
        ],
      },
    ];
    const verdict = await verdictOf('impact-levels', [CONTENTS, summary]);
    expect(statedOf(verdict).filter(([label]) => label !== 'Total')).toEqual([
      ['Critical', 0],
      ['High', 1],
      ['Medium', 2],
      ['Low', 1],
      ['Informational', 1],
    ]);
    // The sentence's total is the table's sum: read or not, it never disagrees with it.
    expect(verdict.stated.filter((c) => c.severity === null).map((c) => c.count)).not.toContain(3);
    expect(verdict.status).toBe('complete');
  });

  it('an "Undetermined" row counted as its own word (ranked with Medium, never folded into it)', async () => {
    const summary: Block[] = [
      { kind: 'heading', text: 'Executive Summary' },
      {
        kind: 'body',
        lines: [
          'EXPOSURE ANALYSIS CATEGORY BREAKDOWN',
          'Severity Count Category Count',
          'High 1 Data Validation 3',
          'Medium 1 Access Controls 1',
          'Undetermined 1 Timing 1',
          'Low 1',
          'Gas 1',
        ],
      },
    ];
    const planted = PLANTED.map((p) => (p.number === '5.2.2' ? { ...p, severity: 'Undetermined' } : p));
    const verdict = await verdictOf('undetermined-row', [CONTENTS, summary], planted);
    expect(verdict.stated.map((c) => [c.label, c.severity, c.count])).toEqual([
      ['High', 'High', 1],
      ['Medium', 'Medium', 1],
      ['Undetermined', 'Medium', 1],
      ['Low', 'Low', 1],
      ['Gas', rankSeverity(DEFAULT_PROFILE, 'Gas').canonical, 1],
    ]);
    expect(verdict.status).toBe('complete');
    expect(verdict.tallies.map((t) => [t.severity, t.stated, t.found])).toEqual([
      ['High', 1, 1],
      ['Medium', 1, 1],
      ['Undetermined', 1, 1],
      ['Low', 1, 1],
      ['Gas', 1, 1],
    ]);
    // The Undetermined finding found as Medium: the counts say so (folded together they would agree).
    const misrated = await verdictOf('undetermined-as-medium', [CONTENTS, summary], PLANTED);
    expect(misrated.places.filter((p) => p.kind === 'stated-vs-found').map((p) => p.message)).toEqual([
      'The document states Medium 1 on page 2; 2 Medium findings found.',
      'The document states Undetermined 1 on page 2; 0 Undetermined findings found.',
    ]);
    // The Undetermined finding missing: its row and its count are named.
    const short = await verdictOf(
      'undetermined-row-short',
      [CONTENTS, summary],
      planted.filter((p) => p.number !== '5.2.2'),
    );
    expect(short.places.map((p) => p.kind)).toEqual(['entry-without-finding', 'stated-vs-found']);
  });
});
