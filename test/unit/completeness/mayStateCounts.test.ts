/**
 * The stated-totals call is made only where a count could be quoted (completeness/llmTotals.ts mayStateCounts): a
 * count the model gives is kept only when its quote shows a number and its label, so text without such a place is
 * not sent. Each layout a report states its totals in still is.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../../shared/findings';
import { mayStateCounts } from '../../../electron/engine/completeness';

const may = (text: string) => mayStateCounts(text, DEFAULT_PROFILE);

describe('a place where a count could be quoted', () => {
  it('is found in every layout of stated totals', () => {
    expect(may('Severity breakdown: High 2, Medium 5')).toBe(true);
    expect(may('Severity | Count\nHigh | 2')).toBe(true);
    expect(may('Total: 7 findings')).toBe(true);
    expect(may('We found five medium-severity issues and no critical ones.')).toBe(true);
    expect(may('Of the findings, one was rated high.')).toBe(true);
    expect(may('Critical\n0\nHigh\n2')).toBe(true);
    expect(may('Critical High Medium Low\n0 2 5 3')).toBe(true);
  });

  it('is not found where a number is an ID, a version or a case number away from any severity word', () => {
    expect(may('Login page drops records after a restart in case 113\nReported as PBI-10014 (priority Medium) and fixed in this release.')).toBe(false);
    expect(may('Reported as CR-2001 (priority High) and fixed in this release.')).toBe(false);
    expect(may('Release Notes 7.4 covers high availability.')).toBe(false);
    expect(may('The team was responsive.')).toBe(false);
  });
});
