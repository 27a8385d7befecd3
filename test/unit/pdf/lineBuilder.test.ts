import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPageLines, type RawItem, type RawPage } from '../../../electron/engine/pdf';

/** An upright item at (x, baseline y) in viewport space; width from a crude 0.5 em per character. */
function item(str: string, x: number, y: number, extra: Partial<RawItem> = {}): RawItem {
  const fontSize = extra.fontSize ?? 10;
  return { str, x, y, dx: 1, dy: 0, width: str.length * fontSize * 0.5, fontSize, bold: false, hasEOL: false, ...extra };
}

function page(items: RawItem[]): RawPage {
  return { pageNumber: 1, width: 612, height: 792, items };
}

const texts = (items: RawItem[]): string[] => buildPageLines(page(items)).map((line) => line.text);

describe('buildPageLines', () => {
  it('groups by baseline, orders top-down and left-right, and spaces by gap', () => {
    const lines = texts([item('world', 130, 100), item('Hello', 72, 100.8), item('second', 72, 114), item('line', 72 + 6 * 5 + 0.5, 114)]);
    // 'second' ends at 102, 'line' starts at 102.5: a kerning gap, not a word space.
    expect(lines).toEqual(['Hello world', 'secondline']);
  });

  it('keeps a superscript on its line', () => {
    expect(texts([item('E = mc', 72, 100), item('2', 102, 96, { fontSize: 6 }), item('next', 72, 114)])).toEqual(['E = mc2', 'next']);
  });

  it('strips invisible and bidi characters and expands ligatures', () => {
    expect(texts([item('\u202DTOB-MOSQ-CR-1\u202C', 72, 100), item('e\uFB03\u200Bcient \uFB01le', 72, 114)])).toEqual(['TOB-MOSQ-CR-1', 'efficient file']);
  });

  it('joins hyphenated line ends only before a lowercase letter', () => {
    expect(texts([item('the docu-', 72, 100), item('ment is fine', 72, 114), item('see TOB-', 72, 128), item('ACME-1 now', 72, 142)])).toEqual([
      'the document is fine',
      'see TOB-',
      'ACME-1 now',
    ]);
  });

  it('reports dominant font size by characters and bold by majority', () => {
    const [line] = buildPageLines(page([item('1', 72, 100, { fontSize: 18, bold: true }), item('Introduction to it', 90, 100, { fontSize: 16, bold: true })]));
    expect(line).toEqual({ text: '1 Introduction to it', fontSize: 16, bold: true });
  });

  it('reads two columns one after the other, a spanning title first', () => {
    const left = Array.from({ length: 12 }, (_, i) => `left column sentence part ${i} goes on`);
    const right = Array.from({ length: 12 }, (_, i) => `right column sentence part ${i} goes on`);
    const items = [item('A title that spans both of the columns of the page here ok', 72, 60)];
    left.forEach((text, i) => items.push(item(text, 54, 100 + i * 12)));
    right.forEach((text, i) => items.push(item(text, 318, 100 + i * 12)));
    expect(texts(items)).toEqual([items[0]!.str, ...left, ...right]);
  });

  it('keeps a table (short cells with empty vertical bands) in row order', () => {
    const items: RawItem[] = [];
    for (let row = 0; row < 12; row++) ['State', '18,870', '23,022', '1'].forEach((cell, col) => items.push(item(cell, 54 + col * 120, 100 + row * 12)));
    expect(texts(items)[0]).toBe('State 18,870 23,022 1');
  });

  it('writes a table whose rows are full lines as rows with cell separators; wrapped prose with wide gaps stays prose', () => {
    const items: RawItem[] = [];
    ['Severity', 'Count', 'Status'].forEach((cell, col) => items.push(item(cell, 54 + col * 150, 100)));
    for (let row = 0; row < 3; row++) ['High Risk', String(row), 'Fixed'].forEach((cell, col) => items.push(item(cell, 54 + col * 150, 114 + row * 12)));
    // Two justified lines whose word gaps reach a cell gap: no table.
    items.push(item('Command cmake is', 54, 200), item('not commonly', 160, 200), item('installed here', 260, 200));
    items.push(item('and where it is,', 54, 212), item('it might not be', 160, 212), item('on the path now', 260, 212));
    expect(texts(items)).toEqual([
      'Severity | Count | Status',
      'High Risk | 0 | Fixed',
      'High Risk | 1 | Fixed',
      'High Risk | 2 | Fixed',
      'Command cmake is not commonly installed here',
      'and where it is, it might not be on the path now',
    ]);
  });

  it('joins a cell wrapped inside a padded table into its row, a hyphen at the cell line end kept', () => {
    const items: RawItem[] = [];
    const rows = [
      ['ID', 'Title', 'Severity'],
      ['TOB-', 'A title that wraps', 'High'],
      ['ABC-', 'Short', 'Low'],
    ];
    let y = 100;
    rows.forEach((cells, row) => {
      cells.forEach((cell, col) => items.push(item(cell, 54 + col * 120, y)));
      if (row > 0) {
        items.push(item(`${row}2`, 54, y + 12));
        if (row === 1) items.push(item('onto two lines', 174, y + 12));
        y += 12;
      }
      y += 20;
    });
    expect(texts(items)).toEqual(['ID | Title | Severity', 'TOB-12 | A title that wraps onto two lines | High', 'ABC-22 | Short | Low']);
  });

  it('reads text rotated by 90 degrees (baseline running down the viewport)', () => {
    const rotated = (str: string, x: number, y: number): RawItem => ({ ...item(str, x, y), dx: 0, dy: 1 });
    // Baselines run downwards; the next line is further left.
    expect(texts([rotated('first line', 500, 50), rotated('second line', 486, 50)])).toEqual(['first line', 'second line']);
  });

  it('never emits empty lines or lines with untrimmed whitespace (property)', () => {
    const arbitraryItem = fc.record({
      str: fc.string({ maxLength: 12 }),
      x: fc.double({ min: 0, max: 600, noNaN: true }),
      y: fc.double({ min: 0, max: 780, noNaN: true }),
      fontSize: fc.double({ min: 4, max: 30, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(arbitraryItem, { maxLength: 60 }), (raw) => {
        const lines = buildPageLines(page(raw.map((r) => item(r.str, r.x, r.y, { fontSize: r.fontSize }))));
        for (const line of lines) {
          expect(line.text.length).toBeGreaterThan(0);
          expect(line.text).toBe(line.text.trim());
          expect(line.text).not.toMatch(/[\n\f\u200B\u202D]/);
        }
      }),
      { numRuns: 200 },
    );
  });
});
