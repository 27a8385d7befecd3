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

describe('findings found without a severity (trial 2026-11-28 row 10)', () => {
  /** A report states its counts per severity on page 5; the model rated none of the 50 findings it found. */
  function unrated(): CompletenessVerdict {
    const counts = [
      ['Critical', 1],
      ['High', 1],
      ['Medium', 16],
      ['Low', 7],
      ['Informational', 25],
    ] as const;
    return {
      ...verdict(),
      places: [
        ...counts.map(([severity, count]) => ({
          kind: 'stated-vs-found' as const,
          page: 5,
          severity,
          message: `The document states ${severity} ${count} on page 5; 0 ${severity} findings found.`,
        })),
        { kind: 'unreviewed-id' as const, page: 2, message: 'ID X-1 is mentioned on page 2 but no finding covers it.' },
      ],
      stated: counts.map(([severity, count]) => ({
        severity,
        label: severity,
        count,
        page: 5,
        text: `${severity} ${count}`,
        start: 0,
        end: 0,
        source: 'rules' as const,
      })),
      tallies: [
        ...counts.map(([severity, count]) => ({ severity, stated: count, listed: null, found: 0 })),
        { severity: null, stated: null, listed: null, found: 50 },
      ],
      statedTotal: 50,
      foundTotal: 50,
      pagesWithoutText: [],
    };
  }

  it('says once that none is rated, instead of "0 Critical found" for each severity', () => {
    expect(placesToCheckOf(unrated(), []).map((p) => [p.page, p.message])).toEqual([
      [5, '50 findings found, none rated: rate them to compare with the stated Critical 1, High 1, Medium 16, Low 7, Informational 25.'],
      [2, 'ID X-1 is mentioned on page 2 but no finding covers it.'],
    ]);
    expect(summarizeVerdict(unrated(), [])).toMatchObject({ placesToCheck: 2 });
  });

  it('keeps the places per severity once some findings are rated', () => {
    const some = unrated();
    some.tallies[2] = { ...some.tallies[2]!, found: 16 };
    expect(placesToCheckOf(some, []).filter((p) => p.kind === 'stated-vs-found')).toHaveLength(5);
  });
});
