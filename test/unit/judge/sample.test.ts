import { describe, expect, it } from 'vitest';
import { JUDGE_MIN_SAMPLE_CHARS, JUDGE_SAMPLE_CHARS, judgeSampleChars, sampleText } from '../../../electron/engine/judge';

describe("the judge's sample size", () => {
  it('is a tenth of the document, between the stated minimum and maximum', () => {
    expect(judgeSampleChars(8_000)).toBe(JUDGE_MIN_SAMPLE_CHARS);
    expect(judgeSampleChars(30_000)).toBe(3_000);
    expect(judgeSampleChars(1_000_000)).toBe(JUDGE_SAMPLE_CHARS);
  });

  it('keeps a short document from being read whole by the judge', () => {
    const text = Array.from({ length: 200 }, (_, i) => `Line ${i} of a short report with a few observations.`).join('\n');
    const sample = sampleText(text, judgeSampleChars(text.length));
    expect(text.length).toBeGreaterThan(10_000);
    expect(sample.length).toBeLessThan(JUDGE_MIN_SAMPLE_CHARS + 100);
  });
});
