import { describe, expect, it } from 'vitest';
import { matchFindings, spanOverlap, type CandidateMerged, type ReviewedCandidate } from '../../../electron/engine/review/matching';

const reviewed = (id: number, over: Partial<ReviewedCandidate> = {}): ReviewedCandidate => ({
  id,
  keys: [],
  title: `Reviewed ${id}`,
  description: '',
  spans: [],
  ...over,
});
const merged = (id: number, over: Partial<CandidateMerged> = {}): CandidateMerged => ({
  id,
  findingKey: null,
  title: `Merged ${id}`,
  description: '',
  sources: [],
  ...over,
});
const src = (findingId: number, start: number, end: number) => ({ findingId, start, end });

describe('spanOverlap', () => {
  it('is the overlap share of the shorter span', () => {
    expect(spanOverlap({ start: 0, end: 100 }, { start: 50, end: 60 })).toBe(1);
    expect(spanOverlap({ start: 0, end: 10 }, { start: 5, end: 15 })).toBe(0.5);
    expect(spanOverlap({ start: 0, end: 10 }, { start: 10, end: 20 })).toBe(0);
  });
});

describe('matchFindings', () => {
  it('matches by normalised ID first, even when the text and position changed', () => {
    const r = matchFindings(
      [reviewed(1, { keys: ['PBI-1'], title: 'SQL injection', spans: [{ start: 0, end: 50 }] })],
      [merged(10, { findingKey: 'PBI-1', title: 'Completely different words', sources: [src(100, 500, 550)] })],
    );
    expect(r.assignments).toEqual([{ reviewedId: 1, mergedId: 10, sourceIds: [100], whole: true, rule: 'id', score: 1 }]);
    expect(r.unmatchedMerged).toEqual([]);
    expect(r.unmatchedReviewed).toEqual([]);
  });

  it('matches a finding without ID by evidence position, and never across two different IDs', () => {
    const r = matchFindings(
      [reviewed(1, { spans: [{ start: 100, end: 200 }] }), reviewed(2, { keys: ['PBI-2'], spans: [{ start: 300, end: 400 }] })],
      [merged(10, { title: 'Reworded', sources: [src(1, 110, 190)] }), merged(11, { findingKey: 'PBI-3', title: 'Other', sources: [src(2, 300, 400)] })],
    );
    expect(r.assignments).toEqual([{ reviewedId: 1, mergedId: 10, sourceIds: [1], whole: true, rule: 'position', score: 1 }]);
    expect(r.unmatchedMerged).toEqual([11]);
    expect(r.unmatchedReviewed).toEqual([2]);
  });

  it('falls back to title/description similarity, one-to-one, best score first', () => {
    const r = matchFindings(
      [reviewed(1, { title: 'Missing rate limiting on login' }), reviewed(2, { title: 'Missing rate limiting on password reset' })],
      [
        merged(10, { title: 'Login rate limiting missing' }),
        merged(11, { title: 'Missing rate limiting on the password reset' }),
        merged(12, { title: 'Expired certificate' }),
      ],
    );
    const pairs = r.assignments.map((a) => [a.mergedId, a.reviewedId, a.rule]);
    expect(pairs).toContainEqual([10, 1, 'similarity']);
    expect(pairs).toContainEqual([11, 2, 'similarity']);
    expect(r.unmatchedMerged).toEqual([12]);
    expect(r.unmatchedReviewed).toEqual([]);
  });

  it('does not match findings that only share a few words', () => {
    const r = matchFindings(
      [reviewed(1, { title: 'Missing rate limiting on login', description: 'Unlimited login attempts.' })],
      [merged(10, { title: 'Audit log deletable', description: 'Operators delete entries.' })],
    );
    expect(r.assignments).toEqual([]);
    expect(r.unmatchedReviewed).toEqual([1]);
    expect(r.unmatchedMerged).toEqual([10]);
  });

  it('lets two merged findings match one reviewed finding the auditor merged (both IDs)', () => {
    const r = matchFindings([reviewed(1, { keys: ['A-1', 'A-2'] })], [merged(10, { findingKey: 'A-1' }), merged(11, { findingKey: 'A-2' })]);
    expect(r.assignments.map((a) => [a.mergedId, a.reviewedId])).toEqual([
      [10, 1],
      [11, 1],
    ]);
    expect(r.unmatchedReviewed).toEqual([]);
  });

  it('distributes the sources of one merged finding over a split family by position', () => {
    // Reviewed 1 (table row + detail) was split: the table row (span 0-40) went to reviewed 2.
    const r = matchFindings(
      [
        reviewed(1, { keys: ['X-1'], spans: [{ start: 500, end: 600 }] }),
        reviewed(2, { keys: ['X-1'], spans: [{ start: 0, end: 40 }], splitFrom: 1 }),
        reviewed(3, { spans: [{ start: 0, end: 40 }] }),
      ],
      [merged(10, { findingKey: 'X-1', sources: [src(100, 0, 40), src(101, 500, 600), src(102, 900, 950)] })],
    );
    const byReviewed = Object.fromEntries(r.assignments.map((a) => [a.reviewedId, a]));
    expect(byReviewed[1]).toMatchObject({ mergedId: 10, sourceIds: [101, 102], whole: false, rule: 'id' });
    expect(byReviewed[2]).toMatchObject({ mergedId: 10, sourceIds: [100], whole: false, rule: 'position' });
    // Not in the family: never takes a source of a finding matched elsewhere.
    expect(byReviewed[3]).toBeUndefined();
    expect(r.unmatchedReviewed).toEqual([3]);
  });

  it('picks, among reviewed findings sharing an ID, the one whose evidence overlaps', () => {
    const r = matchFindings(
      [reviewed(1, { keys: ['X-1'], spans: [{ start: 0, end: 40 }] }), reviewed(2, { keys: ['X-1'], spans: [{ start: 500, end: 600 }] })],
      [merged(10, { findingKey: 'X-1', sources: [src(1, 505, 595)] })],
    );
    expect(r.assignments.map((a) => a.reviewedId)).toEqual([2]);
  });
});
