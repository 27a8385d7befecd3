/**
 * The stated-totals and listing parsers on text lines as the corpus reports print them (copied from the extracted
 * text of ../shared/corpus, each in the layout it comes in, and in the " | " row form table extraction gives), so a
 * layout the parsers read is pinned without the PDFs.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, rankSeverity, type MergedFinding } from '../../../shared/findings';
import { checkCompleteness } from '../../../electron/engine/completeness';
import { findListings, findStatedTotals, ownIdFamilies, splitMentions, textLines } from '../../../electron/engine/printed';
import { documentFromPages } from '../../helpers/documents';

const brief = (pages: string[]) => findStatedTotals(textLines(documentFromPages(pages)), DEFAULT_PROFILE).map((c) => [c.label, c.count]);
const listings = (pages: string[]) => {
  const doc = documentFromPages(pages);
  return findListings(textLines(doc), doc.text, DEFAULT_PROFILE, DEFAULT_PROFILE.idPatterns);
};

// Cyfrin: a contents list numbering findings under severity groups, dot leaders, and "Issues Found" with a Gas row.
const CYFRIN_CONTENTS = [
  'Contents',
  '1 About Cyfrin 2',
  '6 Executive Summary 2',
  '7 Findings 4',
  '7.1 High Risk . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 4',
  '7.1.1 Attackers can use a malicious yield token to steal funds from users . . . . . . . . . . . . . . . 4',
  '7.1.2 Inflation attack can cause early users to lose their deposit . . . . . . . . . . . . . . . . . . . . 4',
  '7.2 Medium Risk . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 5',
  '7.2.1 A malicious user can grief a StakePet contract by creating massive number of pets . . . . . 5',
  '7.3 Gas Optimizations . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 6',
  '7.3.1 Using bools for storage incurs overhead . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 6',
  "7.3.2 ++i costs less gas than i++, especially when it's used in for-loops (--i/i-- too) . . . . . . . 8",
  '7.4 Informational . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 9',
  '1',
].join('\n');
const CYFRIN_SUMMARY = [
  '6 Executive Summary',
  'Over the course of 6 days, the Cyfrin team conducted an audit on the StakePet smart contracts provided by',
  'StakePet. In this period, a total of 12 issues were found.',
  'Summary',
  'Project Name StakePet',
  'Commit 48d46306e7ad. . .',
  'Audit Timeline Sep 1st - Sep 8th',
].join('\n');
const CYFRIN_ISSUES = [
  'Issues Found',
  'Critical Risk 0',
  'High Risk 2',
  'Medium Risk 2',
  'Low Risk 2',
  'Informational 0',
  'Gas Optimizations 6',
  'Total Issues 12',
  '3',
].join('\n');

describe('stated totals on corpus lines', () => {
  it('Cyfrin: reads "Issues Found" with its Gas row and total, not the section numbers of the contents ("7.1 High Risk")', () => {
    expect(brief([CYFRIN_CONTENTS, CYFRIN_SUMMARY, CYFRIN_ISSUES])).toEqual([
      ['Critical', 0],
      ['High', 2],
      ['Medium', 2],
      ['Low', 2],
      ['Informational', 0],
      ['Gas', 6],
      ['Total', 12],
    ]);
    // Gas optimizations are counted with the informational ones on the profile scale.
    expect(rankSeverity(DEFAULT_PROFILE, 'Gas Optimizations').canonical).toBe('Informational');
  });

  it('Spearbit: a "Severity Count Fixed Acknowledged" table, its total row carrying the other columns; also as " | " rows', () => {
    const plain = [
      'Issues Found',
      'Severity Count Fixed Acknowledged',
      'Critical Risk 0 0 0',
      'High Risk 0 0 0',
      'Medium Risk 1 1 0',
      'Low Risk 3 2 1',
      'Gas Optimizations 0 0 0',
      'Informational 3 3 0',
      'Total 7 6 1',
    ];
    const expected = [
      ['Critical', 0],
      ['High', 0],
      ['Medium', 1],
      ['Low', 3],
      ['Gas', 0],
      ['Informational', 3],
      ['Total', 7],
    ];
    expect(brief([plain.join('\n')])).toEqual(expected);
    const piped = plain.map((l, i) => (i === 0 ? l : l.replace(/ (?=\d)/g, ' | ').replace(/^(\w+) (Count)/, '$1 | $2')));
    expect(piped[2]).toBe('Critical Risk | 0 | 0 | 0');
    expect(brief([piped.join('\n')])).toEqual(expected);
  });

  it('Zellic: prefers the "Impact Level Count" table to the prose before it ("no critical issues", "discovered 3 findings")', () => {
    const page = [
      '2 Executive Summary',
      'Zellic conducted an audit for LayerZero Labs from April 4th to April 15th, 2022 on the',
      'scoped contracts and discovered 3 findings. Fortunately, no critical issues were found.',
      'We applaud LayerZero Labs for their attention to detail and diligence in maintaining',
      'Of the 4 findings, 1 was of high severity, and 2 of were low severity. The remaining findings were informational in nature.',
      'Our general overview of the code is that it was very well-organized and structured.',
      'The code coverage is high and tests are included for the majority of the functions. The',
      'documentation was adequate, although it could be improved. The code was easy to',
      'comprehend, and in most cases, intuitive.',
      'Breakdown of Finding Impacts',
      'Impact Level Count',
      'Critical 0',
      'High 1',
      'Medium 0',
      'Low 1',
      'Informational 2',
      'Zellic 6 LayerZero Labs',
    ].join('\n');
    expect(brief([page])).toEqual([
      ['Critical', 0],
      ['High', 1],
      ['Medium', 0],
      ['Low', 1],
      ['Informational', 2],
    ]);
  });

  it('Sigma Prime: counts in prose, number words with their digits in brackets, and the total', () => {
    const page = [
      'The testing team identified a total of eighteen (18) issues during this assessment, of which:',
      '• Five (5) are classified as medium risk,',
      '• Eight (8) are classified as low risk,',
      '• Five (5) are classified as informational.',
      'Page | 4',
    ].join('\n');
    expect(brief([page])).toEqual([
      ['Medium', 5],
      ['Low', 8],
      ['Informational', 5],
      ['Total', 18],
    ]);
  });

  it('Trail of Bits: a severity table beside a category table, split from its heading by a page footer', () => {
    const pages = [
      'Summary of Findings\nThe original audit uncovered significant flaws that could impact system confidentiality,\nEXPOSURE ANALYSIS CATEGORY BREAKDOWN\nSeverity Count Category Count\nHigh 3 Data Validation 8\nMedium 3 Economic 3\nTrail of Bits 5 Beanstalk Fix Review\nPUBLIC',
      'Low 1 Undefined Behavior 2\nInformational 3\nUndetermined 3\nTrail of Bits 6 Beanstalk Fix Review\nPUBLIC',
      'Overview\nTrail of Bits 7 Beanstalk Fix Review\nPUBLIC',
    ];
    expect(brief(pages)).toEqual([
      ['High', 3],
      ['Medium', 3],
      ['Low', 1],
      ['Informational', 3],
      ['Undetermined', 3],
    ]);
  });

  it('reads nothing from a contents list, a risk matrix, a year or an ID beside a severity word', () => {
    expect(brief([CYFRIN_CONTENTS])).toEqual([]);
    expect(
      brief(['3 Risk Classification\nImpact: High Impact: Medium Impact: Low\nLikelihood: High Critical High Medium\nLikelihood: Medium High Medium Low']),
    ).toEqual([]);
    expect(brief(['Timeline\nHigh 2022-04-04 kick-off\nMedium LID-02 follow-up\nLow 2023 release'])).toEqual([]);
  });
});

function finding(id: number, title: string, severity: string, extra: Partial<MergedFinding> = {}): MergedFinding {
  const rank = rankSeverity(DEFAULT_PROFILE, severity);
  return {
    id,
    runId: 1,
    documentId: 1,
    findingKey: null,
    printedNumber: null,
    modelLabels: [],
    title,
    type: 'vulnerability',
    severity,
    severityCanonical: rank.canonical,
    severityRank: rank.rank,
    description: '',
    mainPage: 5,
    mainFindingId: id,
    grounded: true,
    sources: [],
    absorbedFindingIds: [],
    ...extra,
  };
}

describe('listed entries on corpus lines', () => {
  it('Cyfrin/Spearbit contents: only the findings under the severity groups, numbered 7.1.1, titles without leaders and pages', () => {
    const [list, ...rest] = listings([CYFRIN_CONTENTS]);
    expect(rest).toEqual([]);
    expect(list!.kind).toBe('contents');
    expect(list!.entries.map((e) => e.number)).toEqual(['7.1.1', '7.1.2', '7.2.1', '7.3.1', '7.3.2']);
    expect(list!.entries[0]!.title).toBe('Attackers can use a malicious yield token to steal funds from users');
    expect(list!.entries[4]!.title).toBe("++i costs less gas than i++, especially when it's used in for-loops (--i/i-- too)");
  });

  it('Spearbit contents: titles wrapped over two lines, and a title hyphenated at a line end, still match their findings', async () => {
    const page = [
      '5 Findings 4',
      '5.1 Medium Risk . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 4',
      '5.1.1 GeneralAdapter1.morphoRepay() incorrectly fetches the borrowShares of initiator instead of onBehalf . . . . . . . . . . . . . . . 4',
      '5.2 Low Risk . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 4',
      '5.2.1 Lack of onlyBundler modifier inside functions of ParaswapAdapter adapter allows stealing',
      'funds . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 4',
      '5.2.2 Calls to the adapter with a zero amount would re-',
      'vert instead of doing nothing . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 5',
      '6 Appendix 9',
    ].join('\n');
    const doc = documentFromPages([page, 'Detailed findings']);
    const findings = [
      finding(1, 'GeneralAdapter1.morphoRepay() incorrectly fetches the borrowShares of initiator instead of onBehalf', 'Medium'),
      finding(2, 'Lack of onlyBundler modifier inside functions of ParaswapAdapter adapter allows stealing funds', 'Low'),
      finding(3, 'Calls to the adapter with a zero amount would revert instead of doing nothing', 'Low'),
    ];
    const { verdict } = await checkCompleteness({
      doc,
      profile: DEFAULT_PROFILE,
      idPatterns: DEFAULT_PROFILE.idPatterns,
      findings,
      unreviewedMentions: [],
      failedChunks: [],
    });
    expect(verdict.listed.map((e) => [e.number, e.findingIds])).toEqual([
      ['5.1.1', [1]],
      ['5.2.1', [2]],
      ['5.2.2', [3]],
    ]);
    expect(verdict.status).toBe('complete');
    // Without the third finding, its entry is named with its page, first.
    const { verdict: short } = await checkCompleteness({
      doc,
      profile: DEFAULT_PROFILE,
      idPatterns: DEFAULT_PROFILE.idPatterns,
      findings: findings.slice(0, 2),
      unreviewedMentions: [],
      failedChunks: [],
    });
    expect(short.places.map((p) => [p.kind, p.page])).toEqual([['entry-without-finding', 1]]);
    // The title wrapped after "re-" is joined without the line break's space (the hyphen is kept: it may be the word's own).
    expect(short.places[0]!.message).toBe(
      'Contents entry 5.2.2 on page 1, "Calls to the adapter with a zero amount would re-vert instead of doing nothing", matches no finding reported from the text (at most its own row was read).',
    );
  });

  it('Cyfrin contents as OCR reads it: group lines garbled ("74 HighRisk", "72 MediumRisk"), words glued, page numbers misread', async () => {
    // The contents page of cyfrin-stakepet-2023 as the pipeline's OCR gives it.
    const ocr = [
      '7 Findings 4',
      '74 HighRisk . o.oo eee... 4',
      '7.1.1 Attackers can use a malicious yield token to steal funds fromusers . . . . ........... 4',
      '7.1.2 Inflation attack can cause early users to lose theirdeposit . . . . ................ 4',
      '72 MediumRisk . . .. eee ees... b',
      '7.2.1 A malicious user can grief a StakePet contract by creating massive number ofpets ..... 5',
      '7.3 LowRIisk . . . ee ieee. B',
      '7.3.1 Closedown condition is inconsistent with the stated documentation of majority agreement . . 5',
      '7.3.2 Exit fees implementation is inconsistent with documentation. . . . . .............. 6',
      '7.4 GasOptimizations . . . . . .. ei ies... B',
      '7.4.1 Using bools for storage incursoverhead . . . . .......................... 6',
      '7.4.2 Cache array length outside ofloop . . . .............................. 6b',
      "7.4.3 Don'tinitialize variables with defaultvalue . . . . ......................... 7",
      "7.4.4 ++i costs less gas than i++, especially when it's used in for-loops (--i/i--too) . ...... 8",
      '7.4.5 Use shift Right/Left instead of division/multiplication if possible . . . .............. 8',
      '7.4.6 Use |=0 instead of > 0 for unsigned integer comparison . . . .................. 9',
      '1',
    ].join('\n');
    const doc = documentFromPages([ocr, 'Details']);
    const titles = [
      'Attackers can use a malicious yield token to steal funds from users',
      'Inflation attack can cause early users to lose their deposit',
      'A malicious user can grief a StakePet contract by creating massive number of pets',
      'Closedown condition is inconsistent with the stated documentation of majority agreement',
      'Exit fees implementation is inconsistent with documentation',
      'Using bools for storage incurs overhead',
      'Cache array length outside of loop',
      "Don't initialize variables with default value",
      "++i costs less gas than i++, especially when it's used in for-loops (--i/i-- too)",
      'Use shift Right/Left instead of division/multiplication if possible',
      'Use != 0 instead of > 0 for unsigned integer comparison',
    ];
    const findings = titles.map((t, i) => finding(i + 1, t, 'Low'));
    const { verdict } = await checkCompleteness({
      doc,
      profile: DEFAULT_PROFILE,
      idPatterns: DEFAULT_PROFILE.idPatterns,
      findings,
      unreviewedMentions: [],
      failedChunks: [],
    });
    // 7.1.1 opens the list although "7.1" is unreadable; 7.2.1 follows 7.1.2 as the next group's first entry.
    expect(verdict.listed.map((e) => e.number)).toEqual(['7.1.1', '7.1.2', '7.2.1', '7.3.1', '7.3.2', '7.4.1', '7.4.2', '7.4.3', '7.4.4', '7.4.5', '7.4.6']);
    // Glued words ("incursoverhead", "Don'tinitialize") and "|=" for "!=" still match their findings.
    expect(verdict.listed.map((e) => e.findingIds)).toEqual(titles.map((_, i) => [i + 1]));
    expect(verdict.places).toEqual([]);
  });

  it('Spearbit contents as OCR reads it: a digit misread as a letter ("Adapterl"), words glued ("Lido\'s1-2weicornercase")', async () => {
    const doc = documentFromPages([
      "5 Findings 4\n5.2 Low Risk . . . . . . . . 4\n5.2.1 Lack of onlyBundler modifier inside functions of ParaswapAdapter adapter allows stealing funds . . . 4\n5.2.2 EthereumGeneralAdapterl.wrapStEth() leaves dust amounts of stETH behind due to\nLido's1-2weicornercase ui\n6 Appendix 9",
      'Details',
    ]);
    const findings = [
      finding(1, 'Lack of onlyBundler modifier inside functions of ParaswapAdapter adapter allows stealing funds', 'Low'),
      finding(2, "EthereumGeneralAdapter1.wrapStEth() leaves dust amounts of stETH behind due to Lido's 1-2 wei corner case", 'Low'),
    ];
    const { verdict } = await checkCompleteness({
      doc,
      profile: DEFAULT_PROFILE,
      idPatterns: DEFAULT_PROFILE.idPatterns,
      findings,
      unreviewedMentions: [],
      failedChunks: [],
    });
    expect(verdict.listed.map((e) => [e.number, e.findingIds])).toEqual([
      ['5.2.1', [1]],
      ['5.2.2', [2]],
    ]);
    // A different finding with a few words in common is not taken for the entry.
    const { verdict: other } = await checkCompleteness({
      doc,
      profile: DEFAULT_PROFILE,
      idPatterns: DEFAULT_PROFILE.idPatterns,
      findings: [findings[0]!, finding(3, 'EthereumGeneralAdapter1.unwrapStEth() reverts on zero amounts', 'Low')],
      unreviewedMentions: [],
      failedChunks: [],
    });
    expect(other.listed.map((e) => e.findingIds)).toEqual([[1], []]);
  });

  it('a finding is listed by its printed section number alone when it has several parts (5.2.1), whatever its title', async () => {
    const doc = documentFromPages([
      '5 Findings 4\n5.1 Low Risk . . . . . . . . 4\n5.1.1 Lack of checks . . . . . . 4\n5.1.2 Unused variable . . . . . 5\n6 Appendix 9',
      'Details',
    ]);
    const findings = [finding(1, 'Missing validation of the amount', 'Low', { printedNumber: '5.1.1' }), finding(2, 'Unused variable', 'Low')];
    const { verdict } = await checkCompleteness({
      doc,
      profile: DEFAULT_PROFILE,
      idPatterns: DEFAULT_PROFILE.idPatterns,
      findings,
      unreviewedMentions: [],
      failedChunks: [],
    });
    expect(verdict.listed.map((e) => e.findingIds)).toEqual([[1], [2]]);
  });

  it('Sigma Prime: an ID | Description | Severity | Status table is a summary table; a row whose severity differs from its finding is named', async () => {
    const rows = [
      'Summary of Findings',
      'ID Description Severity Status',
      'LID-01 Node Operator Rewards Unevenly Leaked Medium Resolved',
      'LID-02 Possible Market Manipulation Medium Closed',
      'LID-06 Stopped Validators Do Not Contribute Towards the Operator’s Staking',
      'Low Open',
      'Limit',
      'LID-03 Outdated dc4bc Dependencies and Forks Medium Resolved',
      'LID-04 Potential Gas Saving Optimisation in Memutils.memcpy Informational Resolved',
      '6',
    ];
    // The third row as the PDF prints it is out of order (LID-06): the table ends at LID-02.
    const doc = documentFromPages([rows.filter((_, i) => i < 4 || i > 6).join('\n'), 'Detailed Findings']);
    const list = findListings(textLines(doc), doc.text, DEFAULT_PROFILE, DEFAULT_PROFILE.idPatterns);
    expect(list).toHaveLength(1);
    expect(list[0]!.kind).toBe('summary-table');
    expect(list[0]!.entries.map((e) => [e.number, e.id, e.severity, e.title])).toEqual([
      ['LID-01', 'LID-01', 'Medium', 'Node Operator Rewards Unevenly Leaked'],
      ['LID-02', 'LID-02', 'Medium', 'Possible Market Manipulation'],
      ['LID-03', 'LID-03', 'Medium', 'Outdated dc4bc Dependencies and Forks'],
      ['LID-04', 'LID-04', 'Informational', 'Potential Gas Saving Optimisation in Memutils.memcpy'],
    ]);
    const findings = [
      finding(1, 'Node Operator Rewards Unevenly Leaked', 'Medium', { findingKey: 'LID-01' }),
      finding(2, 'Possible Market Manipulation', 'Low', { findingKey: 'LID-02' }),
      finding(3, 'Outdated dc4bc Dependencies and Forks', 'Medium', { findingKey: 'LID-03' }),
      finding(4, 'Potential Gas Saving Optimisation in Memutils.memcpy', 'Informational', { findingKey: 'LID-04' }),
    ];
    const { verdict } = await checkCompleteness({
      doc,
      profile: DEFAULT_PROFILE,
      idPatterns: DEFAULT_PROFILE.idPatterns,
      findings,
      unreviewedMentions: [],
      failedChunks: [],
    });
    expect(verdict.places.map((p) => p.kind)).toEqual(['severity-differs']);
    expect(verdict.places[0]!.message).toBe(
      'Finding "Possible Market Manipulation" was found as Low, but summary table row LID-02 on page 1 lists it as Medium.',
    );
  });

  it('Sigma Prime: a wrapped row (its severity and status on the next line) keeps its severity; also as " | " rows', () => {
    const plain = [
      'Summary of Findings',
      'ID Description Severity Status',
      'LID-05 DKG Susceptible to Rogue Key Attack Medium Resolved',
      'LID-06 Stopped Validators Do Not Contribute Towards the Operator’s Staking',
      'Low Open',
      'Limit',
      'LID-07 Insufficient Protection for Uninitialized Contracts Low Resolved',
    ];
    const renumbered = plain.map((l) => l.replace('LID-05', 'LID-01').replace('LID-06', 'LID-02').replace('LID-07', 'LID-03'));
    const [list] = listings([renumbered.join('\n')]);
    expect(list!.entries.map((e) => [e.number, e.severity])).toEqual([
      ['LID-01', 'Medium'],
      ['LID-02', 'Low'],
      ['LID-03', 'Low'],
    ]);
    const piped = [
      'Summary of Findings',
      'ID | Description | Severity | Status',
      'LID-01 | DKG Susceptible to Rogue Key Attack | Medium | Resolved',
      'LID-02 | Stopped Validators Do Not Contribute Towards the Operator’s Staking Limit | Low | Open',
      'LID-03 | Insufficient Protection for Uninitialized Contracts | Low | Resolved',
    ];
    const [rowForm] = listings([piped.join('\n')]);
    expect(rowForm!.entries.map((e) => [e.number, e.severity, e.title])).toEqual([
      ['LID-01', 'Medium', 'DKG Susceptible to Rogue Key Attack'],
      ['LID-02', 'Low', 'Stopped Validators Do Not Contribute Towards the Operator’s Staking Limit'],
      ['LID-03', 'Low', 'Insufficient Protection for Uninitialized Contracts'],
    ]);
  });

  it('Oak: a wrapped title ending in "gas" does not make "gas" the row severity', () => {
    const [list] = listings([
      'Summary of Findings\nNo Description Severity Status\n1 Cache hit counters can be used to crash nodes and Critical Resolved\nhalt a chain\n2 Gas counting in vm backend does not correctly Minor Resolved\nadd externally used gas\n3 Overflow in gas counting might halt block Minor Acknowledged\nproduction',
    ]);
    expect(list!.entries.map((e) => e.severity)).toEqual(['Critical', 'Minor', 'Minor']);
  });
});

describe('ID mentions that are finding IDs', () => {
  const mentions = [
    'EIP-4844',
    'EIP-1559',
    'ERC-4626',
    'ERC-6909',
    'ERC-20',
    'BIP-0332',
    'AGPL-3',
    'GPL-2',
    'CVE-2021-22569',
    'TOB-BEANS-7',
    'TOB-BEANS-12',
  ].map((id) => ({ id, pages: [3] }));

  it("only the family of the document's own finding IDs counts; standards, licences and advisories are references", () => {
    const families = ownIdFamilies(['TOB-BEANS-1', null, '7.1.1'], []);
    expect([...families]).toEqual(['TOB']);
    const { findingIds, references } = splitMentions(mentions, families, DEFAULT_PROFILE.idPatterns);
    expect(findingIds.map((m) => m.id)).toEqual(['TOB-BEANS-7', 'TOB-BEANS-12']);
    expect(references).toHaveLength(9);
  });

  it("an ID of the profile's own patterns counts beside the document's family; the generic shape of another family does not", () => {
    const { findingIds } = splitMentions(
      [...mentions, { id: 'CR-2041', pages: [1] }, { id: 'ACME-9', pages: [2] }],
      ownIdFamilies(['TOB-BEANS-1'], []),
      DEFAULT_PROFILE.idPatterns,
    );
    expect(findingIds.map((m) => m.id)).toEqual(['TOB-BEANS-7', 'TOB-BEANS-12', 'CR-2041']);
  });

  it("with no ID family known (no finding has an ID), only IDs of the profile's own patterns count, not the generic shape", () => {
    const { findingIds } = splitMentions(
      [...mentions, { id: 'PBI-12', pages: [4] }, { id: 'FAA-2020', pages: [1] }, { id: 'IEEE-754', pages: [5] }],
      ownIdFamilies([null], []),
      DEFAULT_PROFILE.idPatterns,
    );
    expect(findingIds.map((m) => m.id)).toEqual(['PBI-12']);
  });

  it('an ID a found finding names in its title, or printed in a listed row a finding was matched to, is accounted for', async () => {
    const doc = documentFromPages([
      'Summary of Findings\nID Description Severity Status\nACM-01 Vault drained by a malicious token High Open\nACM-02 Oracle price read without staleness check Medium Open',
      'ACM-03 port ACM-77 fix to the bridge',
    ]);
    const rank = rankSeverity(DEFAULT_PROFILE, 'High');
    const found = (id: number, title: string, findingKey: string | null): MergedFinding => ({
      id,
      runId: 1,
      documentId: 1,
      findingKey,
      printedNumber: null,
      modelLabels: [],
      title,
      type: 'vulnerability',
      severity: 'High',
      severityCanonical: rank.canonical,
      severityRank: rank.rank,
      description: '',
      mainPage: 2,
      mainFindingId: id,
      grounded: true,
      sources: [],
      absorbedFindingIds: [],
    });
    // ACM-01 is found without its key (the model left the ID out); ACM-03 is found and names ACM-77; ACM-02 is missed.
    const findings = [found(1, 'Vault drained by a malicious token', null), found(3, 'port ACM-77 fix to the bridge', 'ACM-03')];
    const unreviewedMentions = ['ACM-01', 'ACM-02', 'ACM-77'].map((id) => ({ id, pages: [1] }));
    const { verdict } = await checkCompleteness({
      doc,
      profile: DEFAULT_PROFILE,
      idPatterns: DEFAULT_PROFILE.idPatterns,
      findings,
      unreviewedMentions,
      failedChunks: [],
    });
    expect(verdict.unreviewedMentions.map((m) => m.id)).toEqual(['ACM-02']);
  });
});
