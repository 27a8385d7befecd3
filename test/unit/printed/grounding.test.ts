import { describe, expect, it } from 'vitest';
import { joinPages } from '../../../shared/canonical';
import { FUZZY_THRESHOLD, fuzzyFind, groundEvidence, normalizeEvidence, normalizeForMatch } from '../../../electron/engine/printed/grounding';

const doc = (pages: string[]) => joinPages(pages.map((text) => ({ text, hasTextLayer: true })));
const whole = (text: string) => ({ chunk: { start: 0, end: text.length } });

describe('grounding', () => {
  it('exact match gives offsets and the page', () => {
    const { text, pages } = doc(['Intro page.', 'The gateway crashed twice during the batch run.']);
    const g = groundEvidence(text, pages, ' The gateway crashed twice ', whole(text));
    expect(g).toMatchObject({ status: 'grounded', match: 'exact', score: 1, page: 2, inContextOnly: false });
    expect(text.slice(g.start!, g.end!)).toBe('The gateway crashed twice');
  });

  it('normalised match: hyphenation, line breaks, curly quotes, dashes, invisible characters, case; offsets map back', () => {
    const source = 'Note: the \u201Cadmin\u201D ac\u200Bcount is shared \u2013 its pass-\nword never\n  expires.';
    const { text, pages } = doc([source]);
    const g = groundEvidence(text, pages, 'The "admin" account is shared - its password never expires.', whole(text));
    expect(g).toMatchObject({ status: 'grounded', match: 'normalized', page: 1 });
    expect(text.slice(g.start!, g.end!)).toBe('the \u201Cadmin\u201D ac\u200Bcount is shared \u2013 its pass-\nword never\n  expires');
  });

  it('normalises every ASCII character by the rules (the fast path for plain characters agrees with the general one)', () => {
    for (let code = 0; code < 128; code++) {
      const c = String.fromCharCode(code);
      const v = normalizeForMatch(`Q${c}z`);
      // White space becomes one space, the backtick a straight quote, the dash stays a dash; anything else is kept, lowered.
      const expected = /\s/.test(c) ? ' ' : c === '`' ? "'" : c.toLowerCase();
      expect({ code, text: v.text, map: Array.from(v.map) }).toEqual({ code, text: `q${expected}z`, map: [0, 1, 2] });
    }
    // A dash at a line end before a lower-case letter joins the word, after a plain ASCII letter as after any other.
    expect(normalizeForMatch('Pass-\n word').text).toBe('password');
  });

  it('normalisation keeps a map to source offsets and strips page markers from evidence', () => {
    const v = normalizeForMatch('A\u00ADB  C\uFB01x', 0);
    expect(v.text).toBe('ab cfix');
    expect(Array.from(v.map)).toEqual([0, 2, 3, 5, 6, 6, 7]);
    expect(normalizeEvidence('"[page 3] Some  quote..."')).toBe('some quote');
  });

  it('fuzzy: grounded at >= 75% of evidence tokens aligned in order, ungrounded below', () => {
    const sentence = 'The staging gateway still presents a certificate that expired on 3 March and clients are configured to ignore the error.';
    const { text, pages } = doc(['Filler text here. ' + sentence + ' More filler.']);
    const light = groundEvidence(
      text,
      pages,
      'The staging gateway presents a certificate that expired on 3 March and clients are set to ignore the error.',
      whole(text),
    );
    expect(light.status).toBe('grounded');
    expect(light.match).toBe('fuzzy');
    expect(light.score!).toBeGreaterThanOrEqual(FUZZY_THRESHOLD);
    expect(text.slice(light.start!, light.end!)).toBe(
      'The staging gateway still presents a certificate that expired on 3 March and clients are configured to ignore the error',
    );
    // 8 tokens, 5 aligned (62.5%): below the threshold.
    const below = groundEvidence(text, pages, 'staging gateway presents old expired keys to users', whole(text));
    expect(below.status).toBe('ungrounded');
    expect(below.score).not.toBeNull();
    expect(below.score!).toBeLessThan(FUZZY_THRESHOLD);
  });

  it('exactly at the threshold: 3 of 4 tokens is grounded', () => {
    const m = fuzzyFind('alpha beta gamma delta', 'alpha beta gamma omega');
    expect(m!.score).toBe(0.75);
    const { text, pages } = doc(['alpha beta gamma delta']);
    expect(groundEvidence(text, pages, 'alpha beta gamma omega', whole(text)).match).toBe('fuzzy');
  });

  it('short quotes never match fuzzily', () => {
    const { text, pages } = doc(['alpha beta gamma']);
    expect(groundEvidence(text, pages, 'alpha beta delta', whole(text)).status).toBe('ungrounded');
  });

  it('evidence only in the previous chunk tail is grounded but marked context-only; straddling evidence belongs to the chunk', () => {
    const { text, pages } = doc(['First sentence in the tail. Second part starts', 'and ends on the next page. Other text.']);
    const chunk = { start: pages[1]!.start, end: pages[1]!.end };
    const context = { start: 0, end: pages[0]!.end };
    const onlyTail = groundEvidence(text, pages, 'First sentence in the tail.', { chunk, context });
    expect(onlyTail).toMatchObject({ status: 'grounded', inContextOnly: true, page: 1 });
    const straddle = groundEvidence(text, pages, 'Second part starts and ends on the next page.', { chunk, context });
    expect(straddle).toMatchObject({ status: 'grounded', match: 'normalized', inContextOnly: false, page: 1 });
    // Without the context region it is not found in the chunk alone.
    expect(groundEvidence(text, pages, 'First sentence in the tail.', { chunk }).status).toBe('ungrounded');
  });

  it('invented evidence is ungrounded with no offsets', () => {
    const { text, pages } = doc(['The login endpoint accepts unlimited attempts.']);
    const g = groundEvidence(text, pages, 'The administrator password is hard-coded as admin123 in the script.', whole(text));
    expect(g).toMatchObject({ status: 'ungrounded', match: null, start: null, end: null, page: null });
  });
});
