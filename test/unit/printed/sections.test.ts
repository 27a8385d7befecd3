/**
 * What the document prints around a finding's heading, read by the rules (printed/sections.ts): the heading
 * itself (never a contents line or the entry of a list), its metadata block's severity field (Impact first where the
 * document counts by impact), the ID of its heading block, the severity group heading it stands under, and the whole
 * severity a finding takes from them (field, else its row's cell, else its group), as the printed word.
 */
import { describe, expect, it } from 'vitest';
import type { ListedEntry } from '../../../shared/completeness';
import { DEFAULT_PROFILE } from '../../../shared/findings';
import {
  fieldSeverity,
  groupAbove,
  headingBlockId,
  headingGroups,
  headsSection,
  readAsPrinted,
  severityGroupLines,
  titleHeading,
} from '../../../electron/engine/printed';

const lineAt = (text: string, needle: string) => {
  const start = text.indexOf(needle);
  const nl = text.indexOf('\n', start);
  return { start, end: nl < 0 ? text.length : nl };
};

// A Cyfrin-style report: a contents list, a methodology chapter naming severities, then findings under group headings.
const REPORT = [
  'Contents',
  '3 Risk Classification 2',
  '5.1 High Risk . . . . . . . . . . 4',
  '5.1.1 Anyone can drain the reward pool by replaying a signed claim . . . . . 4',
  '5.2 Gas Optimizations . . . . . . . . . 5',
  '5.2.1 Cache the array length outside of the loop . . . . . 5',
  '3 Risk Classification',
  '3.1 High Risk',
  'Funds are directly at risk, or a severe disruption of the protocol can happen at any time at all.',
  'Issues Found',
  'High Risk 1',
  'Gas Optimizations 1',
  '5 Findings',
  '5.1 High Risk',
  '5.1.1 Anyone can drain the reward pool by replaying a signed claim',
  'Description: A signed claim carries no nonce, so the same signature can be submitted again until the pool is empty.',
  'Impact: An attacker can take every reward.',
  '5.2 Gas Optimizations',
  '5.2.1 Cache the array length outside of the loop',
  'Description: The loops over the validator set read the length of the storage array in every iteration of them.',
].join('\n');

describe('severity group headings', () => {
  it('reads a severity word with its qualifier or its section number as a group heading, never a count, a contents line or a definition list', () => {
    const groups = severityGroupLines(REPORT, DEFAULT_PROFILE);
    expect(groups.map((g) => [REPORT.slice(g.start, g.end), g.number, g.word])).toEqual([
      ['3.1 High Risk', '3.1', 'High'],
      ['5.1 High Risk', '5.1', 'High'],
      ['5.2 Gas Optimizations', '5.2', 'Gas'],
    ]);
  });

  it('a group heads findings only where a finding heading follows it closely: the methodology chapter rates nothing', () => {
    const groups = severityGroupLines(REPORT, DEFAULT_PROFILE);
    // The findings' headings in the findings chapter (their contents lines come first in the text).
    const headings = [REPORT.lastIndexOf('5.1.1 Anyone can drain'), REPORT.lastIndexOf('5.2.1 Cache the array')];
    const heading = headingGroups(groups, headings);
    expect(heading.map((g) => g.number)).toEqual(['5.1', '5.2']);
    expect(groupAbove(heading, headings[1]!, '5.2.1')?.word).toBe('Gas');
    // A numbered finding stands only under a group whose number opens its own.
    expect(groupAbove(heading, headings[1]!, '5.3.1')).toBeNull();
    expect(groupAbove(heading, headings[0]!, null)?.word).toBe('High');
  });
});

describe('a finding\u2019s heading', () => {
  it('is the line that prints its title and heads a section, not its contents line; an entry followed by its next sibling heads nothing', () => {
    const heading = titleHeading(REPORT, 'Anyone can drain the reward pool by replaying a signed claim', { start: 0, end: REPORT.length })!;
    expect(heading.heads).toBe(true);
    expect(REPORT.slice(heading.start, heading.end)).toBe('5.1.1 Anyone can drain the reward pool by replaying a signed claim');
    expect(heading.start).toBeGreaterThan(REPORT.indexOf('5 Findings'));
    const list = 'o PBI-12: Login page drops records after a restart in case 112\no PBI-13: Invoice export shows wrong totals at month end in case 113\n';
    expect(headsSection(list, lineAt(list, 'o PBI-12'))).toBe(false);
  });

  it('takes the ID its heading block prints: on its line, alone above it, or labelled in its metadata; never one named in its prose', () => {
    const block = [
      '3. Gateway accepts unsigned tokens',
      'Severity: High Difficulty: Low',
      'Type: Authentication Finding ID: TOB-GW-7',
      'Description',
      'The gateway verifies tokens as described in TOB-GW-2 only.',
    ].join('\n');
    expect(headingBlockId(block, DEFAULT_PROFILE, lineAt(block, '3. Gateway'), block.indexOf('Description'))).toBe('TOB-GW-7');
    const above = ['LID-05', 'DKG Susceptible to Rogue Key Attack', 'The key can be chosen by the last party.'].join('\n');
    expect(headingBlockId(above, DEFAULT_PROFILE, lineAt(above, 'DKG'), above.length)).toBe('LID-05');
    const prose = ['4. Fee rounding favours the caller', 'The fee is rounded down, as in ACME-02 before the fix.'].join('\n');
    expect(headingBlockId(prose, DEFAULT_PROFILE, lineAt(prose, '4. Fee'), prose.indexOf('The fee'))).toBeNull();
  });

  it('reads the severity field of its metadata block as the printed word; Impact first where the document counts by impact', () => {
    const block = [
      '3.1 Lack of input validations',
      'Target BTC Staking',
      'Category Code Maturity Severity Medium',
      'Likelihood Low Impact Low',
      'Description',
      'The input is not checked before it is used by the node.',
    ].join('\n');
    const from = block.indexOf('\n');
    const to = block.indexOf('Description');
    expect(fieldSeverity(block, from, to, DEFAULT_PROFILE)).toMatchObject({ original: 'Medium', canonical: 'Medium', from: 'field' });
    const countsByImpact = `Breakdown of Finding Impacts\nImpact Level Count\nLow 1\n${block}`;
    const offset = countsByImpact.indexOf(block);
    expect(fieldSeverity(countsByImpact, offset + from, offset + to, DEFAULT_PROFILE)).toMatchObject({ original: 'Low', from: 'field' });
    const spearbit = '5.1.1 Oracle price is stale\nSeverity: Medium Risk\nContext: Oracle.sol#L12';
    expect(fieldSeverity(spearbit, spearbit.indexOf('\n'), spearbit.length, DEFAULT_PROFILE)).toMatchObject({ original: 'Medium', canonical: 'Medium' });
    const undetermined = '7. Pods may never ripen\nSeverity: Undetermined Difficulty: High\n';
    expect(fieldSeverity(undetermined, undetermined.indexOf('\n'), undetermined.length, DEFAULT_PROFILE)).toMatchObject({
      original: 'Undetermined',
      canonical: 'Medium',
    });
  });
});

describe('the severity a finding takes', () => {
  const row = (text: string, needle: string, severity: string | null): ListedEntry => {
    const { start, end } = lineAt(text, needle);
    return {
      kind: 'summary-table',
      number: '1',
      id: null,
      title: needle,
      severity,
      severityCanonical: severity,
      findingIds: [],
      start,
      end,
      page: 1,
      text: text.slice(start, end),
    };
  };

  it('its section\u2019s field first, else its row\u2019s cell, else its group heading; none where the document prints none', () => {
    const text = [
      'Summary of Findings',
      '1 | Fee changes apply to earlier orders | Low | Fixed',
      '2 | Pausing does not stop transfers | High | Fixed',
      '5 Findings',
      '5.1 Medium Risk',
      '5.1.1 Fee changes apply to earlier orders',
      'Severity: Low',
      'Description: The fee is read when an order is settled rather than when it was placed, so raises hit.',
      '5.1.2 Pausing does not stop transfers',
      'Description: Transfers already queued keep being released by the relayer while the bridge is paused.',
      '5.1.3 Roles can be renounced by the admin',
      'Description: The admin role can renounce itself, after which no account can grant roles any more.',
      'Appendix',
      'Unrelated closing words that rate nothing at all.',
    ].join('\n');
    const rows = [row(text, '1 | Fee', 'Low'), row(text, '2 | Pausing', 'High')];
    const place = (needle: string) => ({ start: text.lastIndexOf(needle), end: text.lastIndexOf(needle) + needle.length });
    const printed = readAsPrinted(
      text,
      DEFAULT_PROFILE,
      [
        {
          titles: ['Fee changes apply to earlier orders'],
          printedNumber: '5.1.1',
          places: [place('5.1.1 Fee changes apply to earlier orders'), place('1 | Fee')],
        },
        {
          titles: ['Pausing does not stop transfers'],
          printedNumber: null,
          places: [place('Transfers already queued keep being released'), place('2 | Pausing')],
        },
        { titles: ['Roles can be renounced by the admin'], printedNumber: '5.1.3', places: [place('5.1.3 Roles can be renounced by the admin')] },
        { titles: ['Unrelated closing words'], printedNumber: null, places: [place('Unrelated closing words')] },
      ],
      rows,
    );
    expect(printed.map((p) => [p.severity?.original ?? null, p.severity?.from ?? null])).toEqual([
      ['Low', 'field'],
      ['High', 'row'],
      ['Medium', 'group'],
      // A quote after the findings, under no heading of its own (an appendix): no group rates it.
      [null, null],
    ]);
    // The heading of a finding known by a quote of its description is the title line printed before it, with its number.
    expect(printed[1]).toMatchObject({ number: '5.1.2' });
    expect(text.slice(printed[1]!.heading!.start, printed[1]!.heading!.end)).toBe('5.1.2 Pausing does not stop transfers');
  });
});
