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

  it('finds nothing for words the page does not print', () => {
    expect(quoteBoxes(row, 'LID-03 | Outdated Dependencies')).toEqual([]);
  });
});
