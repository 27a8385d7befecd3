import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, rankSeverity } from '../../../shared/findings';
import { previousTailFor, splitPoint } from '../../../electron/engine/extract';
import { renderWithPageMarkers } from '../../../electron/engine/printed';
import { documentFromPages } from '../../helpers/documents';

describe('extraction helpers', () => {
  it('ranks severities, mapping firm vocabularies without losing the word', () => {
    expect(rankSeverity(DEFAULT_PROFILE, 'critical')).toEqual({ original: 'critical', canonical: 'Critical', rank: 0 });
    expect(rankSeverity(DEFAULT_PROFILE, 'Major')).toEqual({ original: 'Major', canonical: 'High', rank: 1 });
    expect(rankSeverity(DEFAULT_PROFILE, 'Minor')).toEqual({ original: 'Minor', canonical: 'Low', rank: 3 });
    expect(rankSeverity(DEFAULT_PROFILE, 'Undetermined')).toMatchObject({ canonical: 'Medium', rank: 2 });
    expect(rankSeverity(DEFAULT_PROFILE, 'Severity: Low.')).toMatchObject({ canonical: 'Low', rank: 3 });
    expect(rankSeverity(DEFAULT_PROFILE, 'Best Practice')).toMatchObject({ canonical: 'Informational', rank: 4 });
    expect(rankSeverity(DEFAULT_PROFILE, 'whatever')).toEqual({ original: 'whatever', canonical: null, rank: 5 });
  });

  it('renders page markers at the start and at every page break', () => {
    const doc = documentFromPages(['one', 'two', 'three']);
    expect(renderWithPageMarkers(doc, doc.pages[1]!.start, doc.pages[2]!.end, 2)).toBe('[page 2]\ntwo\n[page 3]\nthree');
  });

  it('splits near the middle at a paragraph boundary', () => {
    const text = 'a'.repeat(100) + '.\n\n' + 'b'.repeat(90) + '. ' + 'c'.repeat(100);
    const at = splitPoint(text, 0, text.length);
    expect(text.slice(at, at + 1)).toBe('b');
  });

  it('gives the previous leaf tail ending where the leaf starts, starting at a clean boundary', () => {
    const doc = documentFromPages(['First sentence. Second sentence ends here.', 'Next page.']);
    const leaves = [
      { start: 0, end: doc.pages[0]!.end },
      { start: doc.pages[1]!.start, end: doc.pages[1]!.end },
    ] as never;
    expect(previousTailFor(doc, leaves, 0)).toBeUndefined();
    const tail = previousTailFor(doc, leaves, 1, 30)!;
    expect(doc.text.endsWith(tail + doc.text.slice(doc.pages[1]!.start))).toBe(true);
    expect(tail).toBe('Second sentence ends here.\n\f\n');
  });

  it('gives no tail to a leaf that opens a section at a heading: nothing before it is cut', () => {
    const doc = documentFromPages(['First sentence. Second sentence ends here.', '2. Next section\nIts text.']);
    const leaf = (page: number, origin: string) => ({ start: doc.pages[page]!.start, end: doc.pages[page]!.end, origin });
    for (const origin of ['heading', 'outline']) expect(previousTailFor(doc, [leaf(0, 'page'), leaf(1, origin)] as never, 1), origin).toBeUndefined();
    // A page or sentence split, or a line the model's tree split chose, can cut a finding: its leaf keeps the tail.
    for (const origin of ['page', 'sentence', 'llm'])
      expect(previousTailFor(doc, [leaf(0, 'heading'), leaf(1, origin)] as never, 1), origin).toContain('Second sentence ends here.');
  });
});
