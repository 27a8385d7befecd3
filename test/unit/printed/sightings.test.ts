import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, type GroundedFinding } from '../../../shared/findings';
import type { PageSpan } from '../../../shared/types';
import { groundFinding } from '../../../electron/engine/extract';
import { rowOwnTitle, titleLines, withEveryTitleSighting } from '../../../electron/engine/printed';
import { NormalizedViews } from '../../../electron/engine/printed/grounding';
import { printedNowhere } from '../../../electron/engine/printed/sections';

// Page 1: the summary table; page 2: a contents line; page 3: the detailed section; page 4: another finding citing it mid-sentence.
const pageTexts = [
  'Summary of findings\n3.1 Lack of input validations Low Open\n3.2 Use alternative lib Informational Open',
  'Contents\n3.1. Lack of input validations . . . . . 3',
  '3. Detailed Findings 3.1. Lack of input validations\nSeverity: Low\nDescription\nThe code does not validate user inputs.',
  '3.2. Use alternative lib\nAs with Lack of input validations above, the library is unchecked.',
];
const text = pageTexts.join('\n\f');
const pages: PageSpan[] = [];
let at = 0;
for (const [i, p] of pageTexts.entries()) {
  pages.push({ pageNumber: i + 1, start: at, end: at + p.length } as PageSpan);
  at += p.length + 2;
}
const doc = { text, pages };
const unit = { start: 0, end: text.length };
const reported = (title: string, evidence: string): GroundedFinding =>
  groundFinding(
    doc,
    DEFAULT_PROFILE,
    { id: null, type: 'vulnerability', title, severity: 'Low', description: 'Inputs are not validated.', evidence },
    { chunk: unit },
  );

describe('every sighting of a finding in the unit', () => {
  it('finds the title where a line prints it (row, contents line, heading after its chapter title), never inside a sentence', () => {
    const lines = titleLines(text, 'Lack of input validations', 0, text.length).map((l) => text.slice(l.start, l.end));
    expect(lines).toEqual([
      '3.1 Lack of input validations Low Open',
      '3.1. Lack of input validations . . . . . 3',
      '3. Detailed Findings 3.1. Lack of input validations',
    ]);
  });

  it('a finding quoted once at its table row gains its contents line and its detailed heading, on their pages', () => {
    const row = reported('Lack of input validations', '3.1 Lack of input validations Low Open');
    expect(row.grounding).toMatchObject({ status: 'grounded', page: 1 });
    const all = withEveryTitleSighting(doc, DEFAULT_PROFILE, [row], unit);
    expect(all.map((f) => f.grounding.page)).toEqual([1, 2, 3]);
    expect(
      all.every((f) => f.title === row.title && f.grounding.status === 'grounded' && text.slice(f.grounding.start!, f.grounding.end!) === f.evidence),
    ).toBe(true);
    // The number printed before the title comes with each sighting, so the merge joins them.
    expect(all.map((f) => f.printedNumber)).toEqual(['3.1', '3.1', '3.1']);
  });

  it('adds nothing when the model also quoted the description (it saw the detailed section)', () => {
    const row = reported('Lack of input validations', '3.1 Lack of input validations Low Open');
    const described = reported('Lack of input validations', 'The code does not validate user inputs.');
    expect(described.grounding).toMatchObject({ status: 'grounded', page: 3 });
    expect(withEveryTitleSighting(doc, DEFAULT_PROFILE, [row, described], unit)).toHaveLength(2);
  });

  it('adds nothing where a reported finding already stands, nothing for an ungrounded title, nothing outside the unit', () => {
    const row = reported('Lack of input validations', '3.1 Lack of input validations Low Open');
    const detail = reported('Lack of input validations', '3. Detailed Findings 3.1. Lack of input validations');
    expect(withEveryTitleSighting(doc, DEFAULT_PROFILE, [row, detail], unit)).toHaveLength(3);
    const invented = reported('Lack of input validations', 'a quote the document never prints anywhere at all');
    expect(invented.grounding.status).toBe('ungrounded');
    expect(withEveryTitleSighting(doc, DEFAULT_PROFILE, [invented], unit)).toHaveLength(1);
    expect(withEveryTitleSighting(doc, DEFAULT_PROFILE, [row], { start: 0, end: pages[0]!.end })).toHaveLength(1);
  });
});

describe('a table row the model titled like its sibling', () => {
  // An unnumbered summary table of near-identical siblings, then each one's detailed section.
  const sibPages = [
    'Summary of findings\nTitle Severity Status\nUnused errors can be removed Informational Open\nUnused constants can be removed Informational Open',
    'Unused errors can be removed\nSeverity: Informational\nSeveral custom errors are declared but never used.',
    'Unused constants can be removed\nSeverity: Informational\nSeveral constants are declared but never used.',
  ];
  const sibText = sibPages.join('\n\f');
  const sibDoc = { text: sibText, pages: [] as PageSpan[] };
  let from = 0;
  for (const [i, p] of sibPages.entries()) {
    sibDoc.pages.push({ pageNumber: i + 1, start: from, end: from + p.length } as PageSpan);
    from += p.length + 2;
  }
  const whole = { start: 0, end: sibText.length };
  const row = (title: string, evidence: string) =>
    groundFinding(
      sibDoc,
      DEFAULT_PROFILE,
      { id: null, type: 'other', title, severity: 'Informational', description: 'Unused code.', evidence },
      { chunk: whole },
    );

  it('takes the title the row prints when the unit prints it as a heading too; its own sightings follow that title', () => {
    const misTitled = row('Unused errors can be removed', 'Unused constants can be removed Informational Open');
    expect(rowOwnTitle(sibText, DEFAULT_PROFILE, misTitled, whole)).toBe('Unused constants can be removed');
    const [fixed, heading] = withEveryTitleSighting(sibDoc, DEFAULT_PROFILE, [misTitled], whole);
    expect(fixed!.title).toBe('Unused constants can be removed');
    expect(heading!.grounding.page).toBe(3);
  });

  it('keeps the model title of a row that opens with it, and of a quote that is no row', () => {
    expect(rowOwnTitle(sibText, DEFAULT_PROFILE, row('Unused errors can be removed', 'Unused errors can be removed Informational Open'), whole)).toBeNull();
    // A sentence with a lower-case severity word is no table row.
    const sentence = row('Unused errors can be removed', 'Several custom errors are declared but never used.');
    expect(rowOwnTitle(sibText, DEFAULT_PROFILE, sentence, whole)).toBeNull();
  });
});

describe('titles printed nowhere', () => {
  it('tells a title printed nowhere in the range from one printed anywhere, at a line start or mid-sentence', () => {
    const views = new NormalizedViews(text);
    expect(printedNowhere(text, 'Lack of input', 0, text.length, views)).toBe(false);
    // Printed only inside a sentence on page 4: no title line, but printed.
    expect(printedNowhere(text, 'Lack of input validations above', 0, text.length, views)).toBe(false);
    expect(titleLines(text, 'Lack of input validations above', 0, text.length, views)).toEqual([]);
    expect(printedNowhere(text, 'Lack of output', 0, text.length, views)).toBe(true);
    // Outside the range it is not looked at.
    expect(printedNowhere(text, 'Use alternative lib', 0, pages[1]!.end, views)).toBe(false);
    expect(printedNowhere(text, 'Use alternative lib', pages[2]!.start, pages[2]!.end, views)).toBe(true);
    // A title too short to be a heading is never said to be printed nowhere: its longer wordings may be.
    expect(printedNowhere(text, 'Use', 0, text.length, views)).toBe(false);
  });
});
