import { describe, expect, it } from 'vitest';
import type { CompletenessVerdict } from '../../../shared/completeness';
import { placesToCheckOf, summarizeVerdict, verdictHeadline } from '../../../shared/runOutcome';

/** A verdict with one ID to check and two runs of pages without text: 5 alone, and 8-9. */
function verdict(): CompletenessVerdict {
  return {
    status: 'check',
    headline: 'Check these 3 places',
    places: [
      { kind: 'unreviewed-id', page: 2, message: 'ID X-1 is mentioned on page 2 but no finding covers it.' },
      { kind: 'pages-without-text', page: 5, message: 'Page 5 has no text to read.' },
      { kind: 'pages-without-text', page: 8, message: 'Pages 8-9 have no text to read.' },
    ],
    stated: [],
    tallies: [],
    statedTotal: null,
    foundTotal: 2,
    listed: [],
    findingsWithoutEntry: [],
    unreviewedMentions: [{ id: 'X-1', pages: [2] }],
    failedChunks: [],
    pagesWithoutText: [5, 8, 9],
    usedLlm: false,
  };
}

describe('places to check beside pages that hold only pictures', () => {
  it('leaves out a run of pages without text only when every page of it holds only pictures', () => {
    expect(placesToCheckOf(verdict(), [5, 8]).map((p) => p.page)).toEqual([2, 8]);
    expect(placesToCheckOf(verdict(), [5, 8, 9]).map((p) => p.page)).toEqual([2]);
    expect(placesToCheckOf(verdict(), []).map((p) => p.page)).toEqual([2, 5, 8]);
  });

  it('counts and heads the verdict the same way', () => {
    const summary = summarizeVerdict(verdict(), [5, 8, 9]);
    expect(summary).toMatchObject({ status: 'check', placesToCheck: 1 });
    expect(verdictHeadline(summary)).toBe('Check this place');
    const onlyPictures = { ...verdict(), places: verdict().places.slice(1), unreviewedMentions: [] };
    const quiet = summarizeVerdict(onlyPictures, [5, 8, 9]);
    expect(quiet).toMatchObject({ status: 'no-stated-totals', placesToCheck: 0 });
    expect(verdictHeadline(quiet)).toBe('No stated totals to check against');
  });
});
