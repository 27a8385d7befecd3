/**
 * printedTitleTest (printed/titles.ts): whether the document prints a title, read in steps so a long document's
 * words never hold the host's thread in one go, with the same answers as reading the text whole.
 */
import { describe, expect, it } from 'vitest';
import { printedTitleTest, printedTitleTestSteps } from '../../../electron/engine/printed';

/** Filler sentences until the text is at least `length` characters long. */
function filler(length: number, seed: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = seed; size < length; i++) {
    const line = `Paragraph ${i} says the vault keeps the deposits of user ${i % 97} safe.`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

describe('printedTitleTest in steps', () => {
  it('pauses many times on a long document and answers as the whole text does, a title across a piece boundary included', () => {
    const titles = ['Attackers can drain the reward pool through reentrancy', 'Withdrawals revert when the queue is long', 'Price oracle can be manipulated'];
    // The first title starts 30 characters before the first piece could end (20,000 characters in): it spans the cut.
    const head = filler(19_970 - '7.3.1 '.length, 0).slice(0, 19_970 - '7.3.1 '.length);
    const text = [`${head}\n7.3.1 ${titles[0]} when the vault keeps deposits`, titles[1], filler(200_000, 500), `- ${titles[2]}`, filler(100_000, 9000)].join(
      '\n',
    );
    expect(text.indexOf(titles[0]!)).toBeLessThan(20_000);
    expect(text.indexOf(titles[0]!) + titles[0]!.length).toBeGreaterThan(20_000);
    const steps = printedTitleTestSteps(text);
    let pauses = 0;
    let next = steps.next();
    while (!next.done) {
      pauses++;
      next = steps.next();
    }
    const inSteps = next.value;
    expect(pauses).toBeGreaterThan(text.length / 40_000);
    const whole = printedTitleTest(text);
    for (const title of [...titles, 'Paragraph 12 says the vault', 'Unbounded loop in the end blocker', 'reward pool through']) {
      expect(inSteps(title), title).toBe(whole(title));
    }
    expect(titles.map(inSteps)).toEqual([true, true, true]);
    expect(inSteps('Unbounded loop in the end blocker')).toBe(false);
  });

  it('without the text no title is printed', () => {
    expect(printedTitleTest(undefined)('Anything')).toBe(false);
  });
});
