/**
 * A recorded finding the model names by its number is read by the rules from its detailed section in the text the
 * model was shown (extract/recordedDetails.ts): heading line as evidence, the section's opening sentence as
 * description, severity and ID from its metadata block, the title as the heading prints it.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, RECORDED_FINDING_TYPE } from '../../../shared/findings';
import { DEFAULT_ID_PATTERNS } from '../../../shared/idPatterns';
import { findListings, textLines, hiddenSpansOf, listsToRead, recordedList } from '../../../electron/engine/printed';
import { recordedDetail } from '../../../electron/engine/extract';
import { documentFromPages } from '../../helpers/documents';

// A summary table without IDs whose title cells run into the type column, then the detailed sections: one with its
// ID on a metadata line, one whose heading wraps over two lines, one the report words differently from its row.
const doc = documentFromPages([
  [
    'Findings Summary',
    '# | Title | Type | Severity',
    '1 | Gateway TLS endpoint validation only confirms TCP reachability | Cryptography | Medium',
    '2 | Unused constants can be removed | Code Quality | Informational',
    '3 | Unused errors can be removed in the vault and the router contracts | Code Quality | Informational',
    '4 | Insecure ciphers are enabled by default | Cryptography | Low',
  ].join('\n'),
  [
    '1. Gateway TLS endpoint validation only confirms TCP reachability',
    'Severity: Medium',
    'Type: Cryptography',
    'Finding ID: TOB-GW-1',
    'Description The gateway checks that an endpoint accepts TCP connections but never completes a TLS handshake with it.',
    'An attacker on the network path can therefore pose as an endpoint.',
    '2. Unused constants can be removed',
    'Several constants in the vault contract are declared but never read by any function of the system.',
  ].join('\n'),
  [
    '3. Unused errors can be removed in the vault and the router',
    'contracts',
    'Difficulty: Low',
    'The router declares custom errors that no code path ever reverts with, which misleads readers of the code.',
    '4. Insecure ciphers are allowed by default',
    'Severity: Low',
    'The TLS configuration accepts cipher suites without forward secrecy when no list is configured.',
  ].join('\n'),
]);
const listings = listsToRead(doc.text, findListings(textLines(doc), doc.text, DEFAULT_PROFILE, DEFAULT_ID_PATTERNS));
const hidden = hiddenSpansOf(listings);
const entries = recordedList(listings).entries;
const whole = { start: 0, end: doc.text.length };
const detail = (n: number, unit = whole) => recordedDetail(doc, DEFAULT_PROFILE, entries[n - 1]!, unit, hidden);

describe('a recorded finding read from its detailed section', () => {
  it('the table is recorded line by line, its rows hidden from the model', () => {
    expect(entries.map((e) => e.number)).toEqual(['1', '2', '3', '4']);
    expect(hidden).toHaveLength(1);
  });

  it('quotes the heading, not the hidden row; takes the opening sentence past the metadata lines, and the ID line of the heading block', () => {
    const f = detail(1)!;
    expect(f.type).toBe(RECORDED_FINDING_TYPE);
    expect(f.evidence).toBe('1. Gateway TLS endpoint validation only confirms TCP reachability');
    expect(f.page).toBe(2);
    expect(f.grounding).toMatchObject({ status: 'grounded', match: 'exact', page: 2 });
    expect(doc.text.slice(f.grounding.start!, f.grounding.end!)).toBe(f.evidence);
    // The row's title carried its type cell ("... reachability Cryptography"): the heading's words are the title.
    expect(f.title).toBe('Gateway TLS endpoint validation only confirms TCP reachability');
    // The label printed on the sentence's line is not part of the description.
    expect(f.description).toBe('The gateway checks that an endpoint accepts TCP connections but never completes a TLS handshake with it.');
    expect(f).toMatchObject({ severity: 'Medium', severityCanonical: 'Medium', id: 'TOB-GW-1', findingKey: 'TOB-GW-1', printedNumber: '1' });
  });

  it('a sibling with a near-identical title gets its own section, and a heading wrapped over two lines keeps the whole title', () => {
    const constants = detail(2)!;
    expect(constants.evidence).toBe('2. Unused constants can be removed');
    expect(constants.description).toMatch(/^Several constants in the vault contract/);
    // No severity line in its section: the table's.
    expect(constants.severity).toBe('Informational');
    const errors = detail(3)!;
    // The heading's whole wrapped title is its evidence.
    expect(errors.evidence).toBe('3. Unused errors can be removed in the vault and the router\ncontracts');
    expect(errors.title).toBe('Unused errors can be removed in the vault and the router contracts');
    expect(errors.description).toMatch(/^The router declares custom errors/);
  });

  it('a heading worded differently from its row is found by its number and most of its words, titled as the heading prints it', () => {
    const ciphers = detail(4)!;
    expect(ciphers.evidence).toBe('4. Insecure ciphers are allowed by default');
    expect(ciphers.title).toBe('Insecure ciphers are allowed by default');
    expect(ciphers.page).toBe(3);
  });

  it('reads the metadata blocks of other firms: labels without colons, several on one line, the description after its label', () => {
    const firms = documentFromPages([
      [
        'Findings Summary',
        '# | Title | Type | Severity',
        '1 | Lack of input validations | Data Validation | Low',
        '2 | Invalid creation of unbonding TX | Coding Mistakes | Medium',
        '3 | Gateway can include itself | Denial of Service | High',
      ].join('\n'),
      [
        'Detailed Findings',
        // Two-column block read row by row, then a "Description" label line.
        '5.1. Lack of input validations',
        'Target BTC Staking TS and Go',
        'Category Code Maturity Severity Critical',
        'Likelihood Low Impact Low',
        'Description',
        'The code does not properly validate user inputs in several areas of the staking library.',
        // Label and text on one line, a long "Context:" metadata line before it.
        '5.2. Invalid creation of unbonding TX',
        'Severity: Medium Difficulty: Low',
        'Context: StakingAdapter.sol#L67, StakingAdapter.sol#L105, UnbondingAdapter.sol#L129, MigrationAdapter.sol#L50',
        'Description: The unbonding transaction is built with a fee output that the chain rejects later on.',
        // A "Rating" line that holds the severity among other labels.
        '5.3. Gateway can include itself',
        'Asset v0.2.1 : contracts/Gateway.sol',
        'Rating Severity: High Impact: Low Likelihood: High',
        'Description',
        'The gateway accepts its own address as an endpoint and forwards requests to itself forever.',
      ].join('\n'),
    ]);
    const lists = listsToRead(firms.text, findListings(textLines(firms), firms.text, DEFAULT_PROFILE, DEFAULT_ID_PATTERNS));
    const rows = recordedList(lists).entries;
    const read = (n: number) => recordedDetail(firms, DEFAULT_PROFILE, rows[n - 1]!, { start: 0, end: firms.text.length }, hiddenSpansOf(lists))!;
    // The section's own severity wins over the table's; "Low" after "Likelihood" or "Impact" is not it.
    expect(read(1)).toMatchObject({
      severity: 'Critical',
      description: 'The code does not properly validate user inputs in several areas of the staking library.',
    });
    expect(read(2)).toMatchObject({ severity: 'Medium', description: 'The unbonding transaction is built with a fee output that the chain rejects later on.' });
    expect(read(3)).toMatchObject({
      severity: 'High',
      description: 'The gateway accepts its own address as an endpoint and forwards requests to itself forever.',
    });
  });

  it('a standard its heading names is no ID of the finding: no key to join other findings by', () => {
    const erc = documentFromPages([
      [
        'Findings Summary',
        '# | Title | Type | Severity',
        '1 | Unsafe ERC-20 approve in the router | Data Validation | Medium',
        '2 | Missing event on owner change | Auditing | Low',
      ].join('\n'),
      [
        'Detailed Findings',
        '1. Unsafe ERC-20 approve in the router',
        'The router approves the full balance of every token it touches, and never resets the approval.',
      ].join('\n'),
    ]);
    const lists = listsToRead(erc.text, findListings(textLines(erc), erc.text, DEFAULT_PROFILE, DEFAULT_ID_PATTERNS));
    const f = recordedDetail(erc, DEFAULT_PROFILE, recordedList(lists).entries[0]!, { start: 0, end: erc.text.length }, hiddenSpansOf(lists))!;
    expect(f.evidence).toBe('1. Unsafe ERC-20 approve in the router');
    expect(f).toMatchObject({ id: null, findingKey: null, printedNumber: '1' });
  });

  it('gives nothing when the text shown holds no heading of it (only its hidden row)', () => {
    const firstPage = { start: 0, end: doc.pages[0]!.end };
    expect(detail(1, firstPage)).toBeNull();
    expect(detail(4, { start: doc.pages[1]!.start, end: doc.pages[1]!.end })).toBeNull();
  });
});
