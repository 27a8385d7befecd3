import { describe, expect, it } from 'vitest';
import { areSiblings, pairFindings, type PairingItem } from '../../../electron/engine/compare';

const item = (over: Partial<PairingItem> & Pick<PairingItem, 'title'>): PairingItem => ({ id: null, number: null, description: '', evidence: '', ...over });

describe('pairing an earlier and a later version of a report', () => {
  it('printed-id: the same printed ID pairs across a reworded title and another spelling of the ID', () => {
    const earlier = [
      item({ id: 'TOB-ACME-001', title: 'Lack of a two-step process for ownership transfer', evidence: 'transferOwnership sets the new owner at once' }),
    ];
    const later = [
      item({ id: 'TOB-ACME-2', title: 'Unrelated finding about fees', evidence: 'fees are rounded down' }),
      item({ id: 'tob acme 1', title: 'Ownership transfer lacks a two-step process', evidence: 'transferOwnership sets the new owner at once' }),
    ];
    const { matches, candidates } = pairFindings(earlier, later);
    expect(matches).toEqual([{ earlier: 0, later: 1, rule: 'printed-id', score: 1 }]);
    expect(candidates).toEqual([]);
  });

  it('printed-id: an ID reused for another finding after a renumbering is not paired by the ID; the moved finding is found by its title', () => {
    const earlier = [
      item({ id: 'ACME-04', title: 'Hard-coded admin key in deployment script', evidence: 'The deployment script contains the private key.' }),
      item({ id: 'ACME-05', title: 'Unchecked return value of token transfer', evidence: 'The result of the token transfer call is ignored.' }),
    ];
    const later = [item({ id: 'ACME-04', title: 'Unchecked return value of token transfer', evidence: 'The result of the token transfer call is ignored.' })];
    const { matches, candidates } = pairFindings(earlier, later);
    expect(matches).toEqual([expect.objectContaining({ earlier: 1, later: 0, rule: 'similarity' })]);
    // Earlier ACME-04 stays unpaired (no longer present), not offered against the finding that now carries its ID.
    expect(candidates).toEqual([]);
  });

  it('printed-id: a shared ID with disagreeing titles and nothing better is a candidate, never a pair', () => {
    const earlier = [item({ id: 'ACME-04', title: 'Hard-coded admin key in deployment script', evidence: 'The deployment script contains the private key.' })];
    const later = [item({ id: 'ACME-04', title: 'Front-running of price updates', evidence: 'Price updates can be traded against.' })];
    const { matches, candidates } = pairFindings(earlier, later);
    expect(matches).toEqual([]);
    expect(candidates).toEqual([expect.objectContaining({ earlier: 0, later: 0, reason: expect.stringMatching(/Both print ACME-04/) })]);
  });

  it('number-title: without IDs, the same printed number and a title the merge calls the same pair', () => {
    const earlier = [item({ number: '3', title: 'Insufficient logging' }), item({ number: '4', title: 'Weak password policy' })];
    const later = [
      item({ number: '4', title: 'Weak password policy for administrators' }),
      item({ number: '3', title: 'Insufficient logging of administrative actions' }),
    ];
    const { matches } = pairFindings(earlier, later);
    expect(matches).toEqual([
      { earlier: 0, later: 1, rule: 'number-title', score: 1 },
      { earlier: 1, later: 0, rule: 'number-title', score: 1 },
    ]);
  });

  it('similarity: a retitled and renumbered finding without an ID pairs by title and evidence', () => {
    const earlier = [
      item({ number: '6', title: 'Outdated compiler version', evidence: 'The contracts are compiled with a compiler release from three years ago.' }),
    ];
    const later = [
      item({
        number: '5',
        title: 'Use of an outdated Solidity compiler version',
        evidence: 'The contracts are compiled with a compiler release from three years ago.',
      }),
      item({ number: '6', title: 'Front-running of price updates', evidence: 'Price updates can be traded against.' }),
    ];
    const { matches, candidates } = pairFindings(earlier, later);
    expect(matches).toEqual([expect.objectContaining({ earlier: 0, later: 0, rule: 'similarity' })]);
    expect(candidates).toEqual([]);
  });

  it('similarity never joins siblings: near-identical titles that differ in what they are about are only a candidate', () => {
    const boilerplate = 'accepts a zero amount and an empty receiver and does not check its arguments before use';
    const earlier = [
      item({
        title: 'Missing input validation in deposit',
        description: `The deposit function ${boilerplate}.`,
        evidence: `The deposit function ${boilerplate}.`,
      }),
    ];
    const later = [
      item({
        title: 'Missing input validation in withdraw',
        description: `The withdraw function ${boilerplate}.`,
        evidence: `The withdraw function ${boilerplate}.`,
      }),
    ];
    expect(areSiblings(earlier[0]!, later[0]!)).toBe(true);
    const { matches, candidates } = pairFindings(earlier, later);
    expect(matches).toEqual([]);
    expect(candidates).toEqual([expect.objectContaining({ earlier: 0, later: 0, reason: expect.stringMatching(/siblings/) })]);
  });

  it('framing words ("Lack of" / "Missing") never make two titles siblings', () => {
    expect(areSiblings({ title: 'Lack of input validation in setFee' }, { title: 'Missing input validation in setFee' })).toBe(false);
    expect(areSiblings({ title: 'Missing rate limiting on login' }, { title: 'Missing rate limiting on password reset' })).toBe(true);
  });

  it('a finding similar to two on the other side is a candidate for each, not a guess', () => {
    const earlier = [item({ title: 'Denial of service through unbounded loop', evidence: 'The loop over all users has no bound.' })];
    const later = [
      item({ title: 'Denial of service through unbounded loop in claim', evidence: 'The loop over all users has no bound.' }),
      item({ title: 'Denial of service through unbounded loop in stake', evidence: 'The loop over all users has no bound.' }),
    ];
    const { matches, candidates } = pairFindings(earlier, later);
    expect(matches).toEqual([]);
    expect(candidates.map((c) => c.later).sort()).toEqual([0, 1]);
  });

  it('unrelated findings stay unpaired and are not offered', () => {
    const { matches, candidates } = pairFindings(
      [item({ title: 'Reentrancy in withdraw', evidence: 'sends ether before updating' })],
      [item({ title: 'Front-running of price updates', evidence: 'mempool' })],
    );
    expect(matches).toEqual([]);
    expect(candidates).toEqual([]);
  });
});
