/**
 * Title matching of the tie-out (issue 41): reworded titles match, titles naming other versions never do, the
 * assignment is the best total (not each row's best item in turn), and forbidden pairs stay apart.
 */
import { describe, expect, it } from 'vitest';
import { assignTitles, scoreTitles, titleTerms, TITLE_MATCH_THRESHOLD } from '../../../electron/engine/reconcile';

const score = (row: string, item: string, others: string[] = []) => scoreTitles([row], [item, ...others]).find((p) => p.item === 0)?.score ?? 0;

describe('title terms', () => {
  it('keeps words with digits whole, folds plurals and accents, drops stop words and invisible characters', () => {
    const t = titleTerms('Upgrade the Guava librar\u00ADies to 31.1-jre (CVE-2023-2976) in Café');
    expect([...t.digits].sort()).toEqual(['2023-2976', '31.1']);
    expect(t.all.has('31.1-jre') && t.all.has('cve-2023-2976')).toBe(true);
    expect(t.all.has('upgrade') && t.all.has('guava') && t.all.has('libraries'.slice(0, -1)) && t.all.has('cafe')).toBe(true);
    expect(t.all.has('the') || t.all.has('to') || t.all.has('in')).toBe(false);
  });
});

describe('scoring titles', () => {
  const others = ['Remove jaeger document from site index', 'Update dependency-check-maven version', 'Shade guava 29.0-jre in hadoop thirdparty'];

  it('a reworded title matches; an unrelated one does not', () => {
    expect(score('Bump Guava to 31.1-jre in thirdparty', 'Upgrade guava in hadoop-thirdparty to 31.1-jre', others)).toBeGreaterThanOrEqual(
      TITLE_MATCH_THRESHOLD,
    );
    expect(score('Add .asf.yaml to hadoop-thirdparty', 'Add .asf.yaml to hadoop-thirdparty', others)).toBe(1);
    expect(score('Rotate signing keys for release managers', 'Update dependency-check-maven version', others.slice(0, 2))).toBe(0);
  });

  it('titles naming other versions of one thing are no match at any score', () => {
    expect(score('Upgrade to Avro 1.11.1', 'upgrade avro in hadoop-thirdparty to 1.11.3', others)).toBe(0);
    expect(score('Upgrade to Avro 1.11.1', 'Upgrade to Avro 1.11.1', others)).toBe(1);
    // The same version written into another word is the same number.
    expect(
      score('Remove hadoop-shaded-jaeger from the 1.1.0 release', 'Remove hadoop-shaded-jaeger from hadoop-thirdparty-1.1.0 release', others),
    ).toBeGreaterThanOrEqual(TITLE_MATCH_THRESHOLD);
    // A number only one side gives is no disagreement.
    expect(score('Bump Guava for CVE-2023-2976', 'Guava version 32.0.1 bump to fix CVE-2023-2976 (PR#23)', others)).toBeGreaterThanOrEqual(
      TITLE_MATCH_THRESHOLD,
    );
  });

  it('a word nearly every item holds makes no candidate on its own, and still counts for a pair found by a rarer word', () => {
    const items = Array.from({ length: 60 }, (_, i) => `Item ${['alpha', 'beta', 'gamma', 'delta'][i % 4]} release note entry ${i}`);
    const pairs = scoreTitles(['release note entry', 'gamma release note entry 2'], items);
    expect(pairs.filter((p) => p.row === 0)).toEqual(pairs.filter((p) => p.row === 0 && items[p.item]!.startsWith('Item')));
    expect(pairs.find((p) => p.row === 1 && p.item === 2)?.score).toBeGreaterThan(0.8);
  });

  it('never pairs what `allowed` forbids', () => {
    expect(scoreTitles(['Add a cache'], ['Add a cache'], () => false)).toEqual([]);
  });
});

describe('one best assignment', () => {
  it('takes the best total, not each row’s best item in turn', () => {
    // Row 0 reads most like item 0, but row 1 reads like item 0 only: the total is best with 0->1 and 1->0.
    const chosen = assignTitles([
      { row: 0, item: 0, score: 0.9 },
      { row: 0, item: 1, score: 0.85 },
      { row: 1, item: 0, score: 0.88 },
      { row: 2, item: 5, score: 0.6 },
    ]);
    expect(chosen).toEqual([
      { row: 0, item: 1, score: 0.85 },
      { row: 1, item: 0, score: 0.88 },
      { row: 2, item: 5, score: 0.6 },
    ]);
  });
});
