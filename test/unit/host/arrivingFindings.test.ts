/**
 * The findings a run has reported so far, counted once for the status bar, the library and the Findings view's
 * Arriving list (arrivingFindings): a finding two chunks report, or a row of the document's own list beside its
 * detailed section under the same key and title, counts once; a finding seen only in a chunk's context not at all.
 */
import { describe, expect, it } from 'vitest';
import type { StoredFinding } from '../../../shared/findings';
import { arrivingFindings } from '../../../electron/engine/pipeline';

const reported = (findingId: number, findingKey: string | null, title: string, inContextOnly = false): StoredFinding =>
  ({ findingId, findingKey, title, grounding: { status: 'grounded', inContextOnly } }) as unknown as StoredFinding;

describe('arrivingFindings', () => {
  it('counts a finding reported twice once, by key and title, and leaves out context-only sightings', () => {
    const found = arrivingFindings([
      reported(1, 'id:ACME-1', 'Lack of input validation'),
      reported(2, 'id:ACME-1', 'lack of input validation '),
      reported(3, 'id:ACME-2', 'Use alternative lib'),
      reported(4, 'id:ACME-3', 'Seen in the context only', true),
      reported(5, null, 'Untitled by ID'),
      reported(6, null, 'Untitled by ID'),
    ]);
    expect(found.map((f) => f.findingId)).toEqual([1, 3, 5]);
  });

  it('keeps two findings that share a title under different keys (siblings are never joined here)', () => {
    expect(arrivingFindings([reported(1, 'id:ACME-4', 'Missing check'), reported(2, 'id:ACME-5', 'Missing check')])).toHaveLength(2);
  });
});
