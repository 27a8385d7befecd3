import { describe, expect, it } from 'vitest';
import { onlyListedNote } from '../../../shared/completeness';
import { DEFAULT_PROFILE, LISTED_ENTRY_TYPE, rankSeverity, type MergedFinding } from '../../../shared/findings';
import { checkCompleteness } from '../../../electron/engine/completeness';
import { findListings, textLines } from '../../../electron/engine/printed';
import { normalizeId } from '../../../electron/engine/rules';
import { documentFromPages } from '../../helpers/documents';

const FOOTER = 'Acme Security Review | Confidential';

function finding(id: number, title: string, severity: string, page: number, findingKey: string | null = null): MergedFinding {
  const rank = rankSeverity(DEFAULT_PROFILE, severity);
  return {
    id,
    runId: 1,
    documentId: 1,
    findingKey,
    printedNumber: null,
    modelLabels: [],
    title,
    type: 'vulnerability',
    severity,
    severityCanonical: rank.canonical,
    severityRank: rank.rank,
    description: '',
    mainPage: page,
    mainFindingId: id,
    grounded: true,
    sources: [],
    absorbedFindingIds: [],
  };
}

/** A small report: totals, a summary table wrapping across a page break, a contents list, detailed sections. */
function reportPages(opts: { mediumStated?: number } = {}): string[] {
  return [
    `Contents\nExecutive Summary 2\nSummary of Findings 3\nDetailed Findings 4\n1. Missing rate limiting on the login endpoint ..... 4\n2. Session tokens never expire 4\n3. Verbose error messages reveal stack traces 5\nAppendix A 6\n${FOOTER} 1`,
    `Executive Summary\nWe reviewed the portal.\nHigh 1\nMedium ${opts.mediumStated ?? 1}\nLow 1\n${FOOTER} 2`,
    `Summary of Findings\nNo Title Severity Status\n1 Missing rate limiting on the login High Open\nendpoint\n2 Session tokens never expire Medium Fixed\n${FOOTER} 3`,
    `3 Verbose error messages reveal stack Low Open\ntraces\nDetailed Findings\n1. Missing rate limiting on the login endpoint\nSeverity: High\nThe login endpoint accepts unlimited attempts.\nAn attacker can guess passwords at full speed.\nNothing slows them down.\nNo alert is raised.\nNo account is locked.\n2. Session tokens never expire\nSeverity: Medium\n${FOOTER} 4`,
    `3. Verbose error messages reveal stack traces\nSeverity: Low\n${FOOTER} 5`,
    `Appendix A\nNothing here.\n${FOOTER} 6`,
  ];
}

const allFindings = () => [
  finding(11, 'Missing rate limiting on the login endpoint', 'High', 4),
  finding(12, 'Session tokens never expire', 'Medium', 4),
  finding(13, 'Verbose error messages reveal stack traces', 'Low', 5),
];

async function verdictOf(pages: string[], findings: MergedFinding[], extra: { pagesWithoutText?: boolean } = {}) {
  const doc = documentFromPages(pages);
  if (extra.pagesWithoutText) doc.pages[5]!.hasTextLayer = false;
  return (
    await checkCompleteness({ doc, profile: DEFAULT_PROFILE, idPatterns: DEFAULT_PROFILE.idPatterns, findings, unreviewedMentions: [], failedChunks: [] })
  ).verdict;
}

describe('listed findings', () => {
  it('finds the summary table (rows wrapped, across a page break and its footer) and the contents list, and not the detailed sections', () => {
    const pages = reportPages();
    pages[0] = pages[0]!.replace('2. Session tokens never expire 4', '2. Low entropy in session tokens 4');
    const doc = documentFromPages(pages);
    const listings = findListings(textLines(doc), doc.text, DEFAULT_PROFILE, DEFAULT_PROFILE.idPatterns);
    expect(listings.map((l) => [l.kind, l.entries.length, l.entries[0]!.page])).toEqual([
      ['contents', 3, 1],
      ['summary-table', 3, 3],
    ]);
    const table = listings[1]!.entries;
    expect(table.map((e) => [e.number, e.severity, e.page])).toEqual([
      ['1', 'High', 3],
      ['2', 'Medium', 3],
      ['3', 'Low', 4],
    ]);
    expect(table[0]!.title).toBe('Missing rate limiting on the login endpoint');
    expect(table[2]!.text).not.toContain(FOOTER);
    // A severity word inside a contents title is part of the title.
    expect(listings[0]!.entries.map((e) => [e.title, e.severity])).toEqual([
      ['Missing rate limiting on the login endpoint', null],
      ['Low entropy in session tokens', null],
      ['Verbose error messages reveal stack traces', null],
    ]);
  });

  it('reads the ID printed in a row and matches the finding with that ID, whatever its title', async () => {
    const pages = ['Summary of Findings\n1 TOB-ACME-001 Unbounded loop in the scheduler High\n2 TOB-ACME-002 Stale cache entries Low'];
    const doc = documentFromPages(pages);
    const [listing] = findListings(textLines(doc), doc.text, DEFAULT_PROFILE, DEFAULT_PROFILE.idPatterns);
    expect(listing!.entries.map((e) => e.id)).toEqual([normalizeId('TOB-ACME-001'), normalizeId('TOB-ACME-002')]);
    const verdict = await verdictOf(pages, [
      finding(1, 'Scheduler can spin forever', 'High', 1, normalizeId('TOB-ACME-001')),
      finding(2, 'Stale cache entries', 'Low', 1),
    ]);
    expect(verdict.listed.map((e) => e.findingIds)).toEqual([[1], [2]]);
  });

  it('joins a title wrapped at a hyphen: a cut identifier whole again, a hyphenated word kept (trial 2026-11-28 row 31)', () => {
    const doc = documentFromPages([
      'Summary of Findings\nNo Title Severity Status\n1 Missing check in _validate- High Open\nOrdersAndPrepareToFulfill\n2 Use of error- Medium Open\nprone pattern in transfers\n3 Unchecked return value of transfer Low Open',
    ]);
    const [listing] = findListings(textLines(doc), doc.text, DEFAULT_PROFILE, DEFAULT_PROFILE.idPatterns);
    expect(listing!.entries.map((e) => e.title)).toEqual([
      'Missing check in _validateOrdersAndPrepareToFulfill',
      'Use of error-prone pattern in transfers',
      'Unchecked return value of transfer',
    ]);
  });

  it('reads section-numbered lists ("4.1", "4.2") as one listing', () => {
    const doc = documentFromPages([
      'Findings\n4.1 Reentrancy in withdraw Critical\n4.2 Unchecked return value Low\n4.3 Missing event Informational\n5 Conclusion',
    ]);
    const [listing] = findListings(textLines(doc), doc.text, DEFAULT_PROFILE, DEFAULT_PROFILE.idPatterns);
    expect(listing!.entries.map((e) => [e.number, e.severityCanonical])).toEqual([
      ['4.1', 'Critical'],
      ['4.2', 'Low'],
      ['4.3', 'Informational'],
    ]);
  });

  it('a summary table whose last row is followed by the detailed section numbered under it keeps that row: "3.1" is no child of row 3', () => {
    const doc = documentFromPages([
      'Findings Summary\n# | Title | Severity\n1 | Oracle price is stale | High\n2 | Unused constants | Low\n3 | Gateway can include itself | Medium',
      '3.1 Oracle price is stale\nThe price feed is used without checking its update time.',
    ]);
    const [listing] = findListings(textLines(doc), doc.text, DEFAULT_PROFILE, DEFAULT_PROFILE.idPatterns);
    expect(listing!.entries.map((e) => [e.number, e.title])).toEqual([
      ['1', 'Oracle price is stale'],
      ['2', 'Unused constants'],
      ['3', 'Gateway can include itself'],
    ]);
  });

  it('a grouped contents list still keeps its findings under each group line, a group with no finding included', () => {
    const doc = documentFromPages([
      'Findings\n5.1 Critical Risk\n5.2 High Risk\n5.2.1 Reentrancy in withdraw\n5.2.2 Unchecked return value\n5.3 Medium Risk\n5.3.1 Missing event',
    ]);
    const [listing] = findListings(textLines(doc), doc.text, DEFAULT_PROFILE, DEFAULT_PROFILE.idPatterns);
    expect(listing!.entries.map((e) => e.number)).toEqual(['5.2.1', '5.2.2', '5.3.1']);
  });
});

describe('completeness verdict', () => {
  it('is "Complete" when stated totals, the summary table, the contents and the findings all agree', async () => {
    const verdict = await verdictOf(reportPages(), allFindings());
    expect(verdict.status).toBe('complete');
    expect(verdict.headline).toBe('Complete');
    expect(verdict.places).toEqual([]);
    expect(verdict.tallies).toEqual([
      { severity: 'High', stated: 1, listed: 1, found: 1 },
      { severity: 'Medium', stated: 1, listed: 1, found: 1 },
      { severity: 'Low', stated: 1, listed: 1, found: 1 },
    ]);
    expect(verdict.listed.every((e) => e.findingIds.length === 1)).toBe(true);
  });

  it('names a missing finding by its severity, its summary-table row and page, and its contents entry', async () => {
    const verdict = await verdictOf(
      reportPages(),
      allFindings().filter((f) => f.id !== 12),
    );
    expect(verdict.status).toBe('check');
    expect(verdict.headline).toBe('Check these 2 places');
    // The entry names the missing finding and its page: it comes first, before the count it leaves short.
    expect(verdict.places[0]).toMatchObject({ kind: 'entry-without-finding', severity: 'Medium', page: 3 });
    expect(verdict.places[0]!.message).toBe(
      'Summary table row 2 on page 3, "Session tokens never expire" (Medium), matches no finding reported from the text (at most its own row was read). Also listed in the contents on page 1.',
    );
    expect(verdict.places[1]).toMatchObject({
      kind: 'stated-vs-found',
      severity: 'Medium',
      page: 2,
      message: 'The document states Medium 1 on page 2; 0 Medium findings found.',
    });
  });

  it('says the document disagrees with itself when its summary says Medium 2 but it lists one Medium finding', async () => {
    const verdict = await verdictOf(reportPages({ mediumStated: 2 }), allFindings());
    expect(verdict.status).toBe('check');
    expect(verdict.places).toHaveLength(1);
    expect(verdict.places[0]).toMatchObject({ kind: 'document-disagrees', page: 2, severity: 'Medium' });
    expect(verdict.places[0]!.message).toBe(
      'The document disagrees with itself: it states Medium 2 on page 2, but its summary table (page 3) lists 1 Medium finding; 1 found.',
    );
  });

  it('names a finding the document lists nowhere, and pages without text', async () => {
    const verdict = await verdictOf(reportPages(), [...allFindings(), finding(14, 'Invented cross-site scripting in search', 'High', 5)], {
      pagesWithoutText: true,
    });
    const kinds = verdict.places.map((p) => [p.kind, p.page]);
    // A page that cannot be read may hide findings: it ranks before a finding the lists do not hold.
    expect(kinds).toEqual([
      ['stated-vs-found', 2],
      ['pages-without-text', 6],
      ['finding-without-entry', 5],
    ]);
    expect(verdict.places[2]!.message).toContain('"Invented cross-site scripting in search" (High, page 5)');
  });

  it('a page OCR read and found no words on (pictures only) is no place to check; a page without text left unread is', async () => {
    const doc = documentFromPages(reportPages());
    doc.pages[5] = { ...doc.pages[5]!, hasTextLayer: false, textSource: 'ocr' };
    const check = async () =>
      (
        await checkCompleteness({
          doc,
          profile: DEFAULT_PROFILE,
          idPatterns: DEFAULT_PROFILE.idPatterns,
          findings: allFindings(),
          unreviewedMentions: [],
          failedChunks: [],
        })
      ).verdict;
    const pictures = await check();
    // The terminal's headline and the report's are one number (the report counted picture pages out on its own before).
    expect(pictures.places).toEqual([]);
    expect(pictures.headline).toBe('Complete');
    expect(pictures.pagesWithoutText).toEqual([]);
    doc.pages[5] = { ...doc.pages[5]!, textSource: undefined };
    const unread = await check();
    expect(unread.places.map((p) => [p.kind, p.page])).toEqual([['pages-without-text', 6]]);
    expect(unread.headline).toBe('Check this place');
  });

  it('counts findings known only from their listed row apart from those found in the text, and says why in a sentence', async () => {
    const [a, b, c] = allFindings();
    const listed = { ...b!, type: LISTED_ENTRY_TYPE };
    const verdict = await verdictOf(reportPages(), [a!, listed, c!]);
    // The row's own finding is not counted as found, so its row stays a place to check...
    expect(verdict.tallies.find((t) => t.severity === 'Medium')).toEqual({ severity: 'Medium', stated: 1, listed: 1, found: 0, onlyListed: 1 });
    expect(verdict.tallies.find((t) => t.severity === 'High')).toEqual({ severity: 'High', stated: 1, listed: 1, found: 1 });
    expect(verdict.places.some((p) => p.kind === 'entry-without-finding')).toBe(true);
    // ...and the table never reads "0 found" unexplained beside a finding the report lists.
    expect(onlyListedNote(verdict)).toBe(
      "1 finding is known only from its row in the document's own list: the analysis reported nothing for its section. It is listed with the findings but not counted as found, and each row is a place to check below.",
    );
    expect(onlyListedNote(await verdictOf(reportPages(), allFindings()))).toBeNull();
  });

  it('matches a reworded finding to its row when the document prints the same number before its title, and not on words alone', async () => {
    const reworded = (printedNumber: string | null) => [
      allFindings()[0]!,
      { ...finding(12, 'Tokens of a session last forever', 'Medium', 4), printedNumber },
      allFindings()[2]!,
    ];
    const withNumber = await verdictOf(reportPages(), reworded('2'));
    expect(withNumber.status).toBe('complete');
    expect(withNumber.listed.filter((e) => e.number === '2').map((e) => e.findingIds)).toEqual([[12], [12]]);
    const withoutNumber = await verdictOf(reportPages(), reworded(null));
    expect(withoutNumber.places.map((p) => p.kind)).toEqual(['entry-without-finding', 'finding-without-entry']);
  });

  it('gives a document that states nothing the neutral verdict, never "Complete"', async () => {
    const verdict = await verdictOf(['A memo.', 'Nothing about findings here.'], []);
    expect(verdict.status).toBe('no-stated-totals');
    expect(verdict.headline).toBe('No stated totals to check against');
    expect(verdict.statedTotal).toBeNull();
  });

  it('says so when a total disagrees with the counts per severity printed beside it', async () => {
    const verdict = await verdictOf(['Summary\nHigh 1\nMedium 1\nTotal 3'], [finding(1, 'A', 'High', 1), finding(2, 'B', 'Medium', 1)]);
    expect(verdict.places).toEqual([
      {
        kind: 'document-disagrees',
        page: 1,
        message: 'The document disagrees with itself: its total on page 1 is 3, but its counts per severity add up to 2.',
      },
    ]);
  });
});

describe("IDs printed in a found finding's heading block", () => {
  const text = [
    'Detailed Findings',
    '5. TOCTOU of gateway endpoint authentication',
    'Severity: Low Difficulty: Low',
    'Type: Authentication Finding ID: TOB-ACME-005',
    'Description',
    'The gateway only authenticates endpoints as documented in TOB-ACME-004, and only once.',
    'An attacker who changes the settings later is never checked again.',
  ].join('\n');
  const quote = 'The gateway only authenticates endpoints as documented in TOB-ACME-004, and only once.';
  /** The finding found from its description, without the key its heading block prints (the quote cites another ID). */
  const found = (title: string): MergedFinding => {
    const start = text.indexOf(quote);
    return {
      ...finding(5, title, 'Low', 1),
      sources: [
        {
          findingId: 50,
          nodeIndex: 0,
          page: 1,
          title,
          evidence: quote,
          evidenceStart: start,
          evidenceEnd: start + quote.length,
          grounded: true,
          match: 'exact',
          inContextOnly: false,
          isMain: true,
          modelId: null,
        },
      ],
    };
  };
  const mentions = [
    { id: normalizeId('TOB-ACME-005'), pages: [1] },
    { id: normalizeId('TOB-ACME-006'), pages: [1] },
  ];
  // A finding keyed TOB-ACME-001 makes TOB-ACME the document's own ID family.
  const keyed = finding(1, 'Gateway TLS endpoint validation only confirms TCP reachability', 'Medium', 1, normalizeId('TOB-ACME-001'));
  const placesOf = async (findings: MergedFinding[]) =>
    (
      await checkCompleteness({
        doc: documentFromPages([text]),
        profile: DEFAULT_PROFILE,
        idPatterns: DEFAULT_PROFILE.idPatterns,
        findings: [keyed, ...findings],
        unreviewedMentions: mentions,
        failedChunks: [],
      })
    ).verdict.places;

  it("count as found: the one ID between the finding's heading and its quote is its own", async () => {
    const places = await placesOf([found('TOCTOU of gateway endpoint authentication')]);
    // TOB-ACME-006 is printed nowhere near a found finding: still named.
    expect(places.filter((p) => p.kind === 'unreviewed-id').map((p) => p.message)).toEqual([
      'ID TOB-ACME-006 is mentioned on page 1 but no finding covers it.',
    ]);
  });

  it('do not count when the finding found is another one (its title is not the heading above the quote)', async () => {
    const places = await placesOf([found('Gateway TLS authentication only applies to SRV endpoints')]);
    expect(places.filter((p) => p.kind === 'unreviewed-id').map((p) => p.message)).toEqual([
      'ID TOB-ACME-005 is mentioned on page 1 but no finding covers it.',
      'ID TOB-ACME-006 is mentioned on page 1 but no finding covers it.',
    ]);
  });
});
