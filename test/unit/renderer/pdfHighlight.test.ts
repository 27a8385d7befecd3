import { describe, expect, it } from 'vitest';
import { quoteBoxes, type TextItemLike } from '../../../renderer/src/pdfHighlight';

/** An item at (x, y) in PDF user space, 5 units per character. */
const item = (str: string, x: number, y: number): TextItemLike => ({ str, transform: [10, 0, 0, 10, x, y], width: str.length * 5, height: 10 });

describe('quoteBoxes', () => {
  const row = [item('LID-02', 40, 700), item('Possible Market Manipulation', 90, 700), item('Medium', 400, 700), item('Closed', 480, 700)];

  it('places a quote of a table row whose cells the canonical text separates with " | "', () => {
    const boxes = quoteBoxes(row, 'LID-02 | Possible Market Manipulation | Medium');
    expect(boxes.map((b) => b.x0)).toEqual([40, 90, 400]);
    expect(boxes[2]!.x1).toBe(400 + 6 * 5);
  });

  it('places a quote whose word pdf.js splits at a ligature into items that touch ("speci", "fi", "ed")', () => {
    // Astroport's justified p. 11: the "fi" ligature is its own item, flush with the items either side of it.
    const rest = 'ed by the user will be used to claim rewards from the pool.';
    const line = [item('vector speci', 72, 268), item('fi', 132, 268), item(rest, 142, 268)];
    const boxes = quoteBoxes(line, 'vector specified by the user will be used to claim rewards from the pool.');
    expect(boxes.map((b) => [b.x0, b.x1])).toEqual([
      [72, 72 + 12 * 5],
      [132, 142],
      [142, 142 + rest.length * 5],
    ]);
  });

  it('still needs the words in order: a quote that only shares letters with the page is not placed', () => {
    expect(quoteBoxes(row, 'Market Manipulation Possible')).toEqual([]);
  });

  it('finds nothing for words the page does not print', () => {
    expect(quoteBoxes(row, 'LID-03 | Outdated Dependencies')).toEqual([]);
  });
});
