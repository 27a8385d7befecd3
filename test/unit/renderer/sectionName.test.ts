/**
 * How the source beside a finding names its section (renderer/src/sourceCache.ts sectionName): the last numbered
 * heading before the place, else the chunk's path. A leaf that opens with the front matter is named after the title
 * that follows ("Front matter, J sigma orime (+2)" when that title is an OCR'd logo): a place in it is named
 * "Front matter" (trial 2026-11-28 row 30).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { sectionName as SectionName } from '../../../renderer/src/sourceCache';

let sectionName: typeof SectionName;
beforeAll(async () => {
  // The renderer's api module picks its transport when it loads; no engine is asked here.
  (globalThis as { window?: unknown }).window = { location: { hash: '', search: '' } };
  ({ sectionName } = await import('../../../renderer/src/sourceCache'));
});

describe('the section a place is in', () => {
  it('names a place in the front matter "Front matter", whatever title follows it', () => {
    expect(sectionName(['Front matter, J sigma orime (+2)'], 'Sigma Prime\nSecurity Assessment Report', 5)).toBe('Front matter');
    expect(sectionName(['Front matter and Executive Summary'], 'Lido\nPrepared for', 3)).toBe('Front matter');
  });

  it('never names a place after a line of the contents', () => {
    const contents =
      'Contents\n7 Findings . . . . . . . . . . . . . . 7\n7.1 Critical Risk . . . . . . . . . . . . 7\n7.1.1 TokenSaleProposal::buy assumes 18 decimals . . . . 7';
    expect(sectionName(['Front matter, Contents (+1)'], contents, contents.length - 5)).toBe('Front matter');
  });

  it('keeps the last numbered heading before the place, and other paths as they are', () => {
    expect(sectionName(['Findings'], '2 Findings\n2.1 Missing check\nThe function does not check.', 40)).toBe('2.1 Missing check');
    expect(sectionName(['Appendix', 'Appendix (+1)'], 'Nothing numbered here.', 5)).toBe('Appendix');
  });
});
