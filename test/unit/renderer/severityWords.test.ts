import { describe, expect, it } from 'vitest';
import { printedSeverityWords, severityHeading } from '../../../renderer/src/severityWords';

const rated = (severity: string, severityCanonical: string | null) => ({ severityCanonical, effective: { severity } });

describe("the document's own severity words in the completeness tally", () => {
  // Astroport (Oak Security): Critical, Major, Minor, Informational; the scale maps Major to High and Minor to Low.
  const oak = [rated('Critical', 'Critical'), rated('Major', 'High'), rated('Major', 'High'), rated('Minor', 'Low'), rated('Informational', 'Informational')];

  it('names the document\'s word beside the scale\'s: "Major (High)", "Minor (Low)"', () => {
    const words = printedSeverityWords(oak);
    expect(severityHeading('High', words)).toBe('Major (High)');
    expect(severityHeading('Low', words)).toBe('Minor (Low)');
    expect(severityHeading('Critical', words)).toBe('Critical');
    expect(severityHeading('Medium', words)).toBe('Medium');
  });

  it("keeps the scale's word where the findings of a severity use several words, or differ only in case", () => {
    const words = printedSeverityWords([
      rated('Major', 'High'),
      rated('High', 'High'),
      rated('low', 'Low'),
      rated('LOW', 'Low'),
      rated('', 'Medium'),
      rated('Odd', null),
    ]);
    expect(severityHeading('High', words)).toBe('High');
    expect(severityHeading('Low', words)).toBe('Low');
    expect(words.size).toBe(0);
  });
});
