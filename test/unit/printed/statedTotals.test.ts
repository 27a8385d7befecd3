import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../../shared/findings';
import { findStatedTotals, textLines } from '../../../electron/engine/printed';
import { documentFromPages } from '../../helpers/documents';

function stated(pages: string[]) {
  const doc = documentFromPages(pages);
  return { doc, counts: findStatedTotals(textLines(doc), DEFAULT_PROFILE) };
}

const brief = (counts: ReturnType<typeof stated>['counts']) => counts.map((c) => [c.label, c.severity, c.count]);

describe('stated totals by layout rules', () => {
  it('reads "Total X-Severity Issues N" lines and the total under them, each grounded to its text and page', () => {
    const { doc, counts } = stated([
      'Cover page',
      'Project Dashboard\nVulnerability Summary\nTotal High-Severity Issues 1 ◼\nTotal Medium-Severity Issues 6 ◼◼◼◼◼◼\nTotal Low-Severity Issues 6\nTotal Informational-Severity Issues 4\nTotal 17\nCategory Breakdown\nData Validation 5\nTotal 17',
    ]);
    expect(brief(counts)).toEqual([
      ['High', 'High', 1],
      ['Medium', 'Medium', 6],
      ['Low', 'Low', 6],
      ['Informational', 'Informational', 4],
      ['Total', null, 17],
    ]);
    for (const c of counts) {
      expect(c.page).toBe(2);
      expect(doc.text.slice(c.start, c.end).replace(/\s+/g, ' ')).toBe(c.text);
    }
    expect(counts[1]!.text).toBe('Total Medium-Severity Issues 6');
  });

  it('reads a severity table printed beside another table, mapping firm words onto the profile scale', () => {
    const { counts } = stated([
      'EXPOSURE ANALYSIS CATEGORY BREAKDOWN\nSeverity Count Category Count\nHigh 9 Cryptography 3\nMedium 3 Data Exposure 3\nLow 1 Data Validation 6\nInformational 2 Denial of Service 1\nUndetermined 1 Timing 1',
    ]);
    expect(brief(counts)).toEqual([
      ['High', 'High', 9],
      ['Medium', 'Medium', 3],
      ['Low', 'Low', 1],
      ['Informational', 'Informational', 2],
      ['Undetermined', 'Medium', 1],
    ]);
  });

  it('reads several counts on one line and counts written in prose, number words included', () => {
    expect(brief(stated(['Results\nCritical: 0 | High: 2 | Medium: 5 | Low: 3']).counts)).toEqual([
      ['Critical', 'Critical', 0],
      ['High', 'High', 2],
      ['Medium', 'Medium', 5],
      ['Low', 'Low', 3],
    ]);
    expect(
      brief(stated(['Executive summary\nDuring the review we identified two high-severity issues, 5 medium-severity issues and one minor issue.']).counts),
    ).toEqual([
      ['High', 'High', 2],
      ['Medium', 'Medium', 5],
      ['Minor', 'Low', 1],
    ]);
  });

  it('ignores severity words beside numbers that state nothing about findings', () => {
    // A code listing, a severity definition table, a risk matrix cell, a date.
    expect(
      stated(['Figure 3\nconst level = High 3;\nSeverity Description\nHigh The flaw could affect many users\nMedium-High -\nLow 2023-03-10 release']).counts,
    ).toEqual([]);
    // One count alone, in a sentence about something else.
    expect(stated(['The fan speed was set to high 3 times during the test.']).counts).toEqual([]);
  });

  it('takes the first block of counts (the executive summary), not a later one (a fix review)', () => {
    const { counts } = stated(['Summary\nHigh 2\nMedium 1', 'Appendix: fix review\nHigh 1\nMedium 0']);
    expect(brief(counts)).toEqual([
      ['High', 'High', 2],
      ['Medium', 'Medium', 1],
    ]);
    expect(counts.every((c) => c.page === 1)).toBe(true);
  });

  it('reads a total stated alone in the summary, and not one in a later chapter', () => {
    expect(brief(stated(['Executive Summary\nOur review identified 12 issues in the bridge contracts.', 'Scope', 'Details']).counts)).toEqual([
      ['Total', null, 12],
    ]);
    expect(stated(['Executive Summary', 'Scope', 'Details', 'Module X', 'Module Y', 'The fuzzer found 3 issues in module Y.']).counts).toEqual([]);
  });

  it('reads a severity table in column form, each count grounded on its own cell', () => {
    const { doc, counts } = stated([
      'Summary\nCritical Risk High Risk Medium Risk Low Risk Informational Gas Optimizations Total Issues\n1 1 16 7 20 5 50\nTotal Commits 71',
    ]);
    expect(brief(counts)).toEqual([
      ['Critical', 'Critical', 1],
      ['High', 'High', 1],
      ['Medium', 'Medium', 16],
      ['Low', 'Low', 7],
      ['Informational', 'Informational', 20],
      ['Gas', 'Informational', 5],
      ['Total', null, 50],
    ]);
    expect(counts.map((c) => doc.text.slice(c.start, c.end))).toEqual(['1', '1', '16', '7', '20', '5', '50']);
    // A row label before the counts, "Severity" heading the labels, and a dash for none.
    expect(brief(stated(['Severity | Critical | High | Medium | Low\nFindings | - | 2 | 3 | 1']).counts)).toEqual([
      ['Critical', 'Critical', 0],
      ['High', 'High', 2],
      ['Medium', 'Medium', 3],
      ['Low', 'Low', 1],
    ]);
  });

  it('reads only the "Total" row of a column-form table with several rows of counts, and nothing in doubt', () => {
    const fixedTable = 'Low | Medium | High | Critical | Total\nNot fixed | 7 | 1 | - | - | 8\nFixed | 8 | 2 | 1 | - | 11';
    expect(brief(stated([`${fixedTable}\nTotal | 15 | 3 | 1 | 0 | 19`]).counts)).toEqual([
      ['Low', 'Low', 15],
      ['Medium', 'Medium', 3],
      ['High', 'High', 1],
      ['Critical', 'Critical', 0],
      ['Total', null, 19],
    ]);
    // Two rows and no total row: which one states the findings is not said.
    expect(stated([fixedTable]).counts).toEqual([]);
    // A number too many under the header (another table's "71" on the same line): read nothing rather than a wrong count.
    expect(stated(['Critical High Medium Low Informational Gas\n71 1 1 16 7 20 5']).counts).toEqual([]);
    // A risk matrix: severities under a likelihood, no counts.
    expect(stated(['Likelihood: High Critical High Medium\nLikelihood: Medium High Medium Low']).counts).toEqual([]);
    // Years under severity columns are not counts.
    expect(stated(['High Medium Low\n2021 2022 2023']).counts).toEqual([]);
  });

  it('finds nothing in a report that states no totals', () => {
    expect(stated(['Trail of Bits does not report any significant security findings.', 'We discuss privacy impacts in prose.']).counts).toEqual([]);
  });
});
