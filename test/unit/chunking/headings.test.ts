import { describe, expect, it } from 'vitest';
import { detectHeadings, isPageNumberLine, parseNumbering } from '../../../electron/engine/chunking';
import { buildDocument, prose } from './buildDocument';

const titles = (doc: ReturnType<typeof buildDocument>) => detectHeadings(doc).headings.map((h) => [h.title, h.level, h.kind]);

describe('numbering patterns', () => {
  it.each([
    ['1. Introduction', '1', 1],
    ['1.2 Scope', '1.2', 2],
    ['1.2.3 Details', '1.2.3', 3],
    ['1.2. Scope', '1.2', 2],
    ['A.1 Terms', 'A.1', 2],
    ['A. Annex material', 'A', 1],
    ['Chapter 4 Results', 'Chapter 4', 1],
    ['Appendix B: Glossary', 'Appendix B', 1],
    ['Section 2.4 Controls', 'Section 2.4', 2],
    ['IV. Findings', 'IV', 1],
  ])('%s', (text, numbering, depth) => {
    expect(parseNumbering(text)).toMatchObject({ numbering, depth });
  });

  it('rejects non-roman letter runs and four-digit numbers', () => {
    expect(parseNumbering('IIII. Nope')).toBeNull();
    expect(parseNumbering('2023 Annual report')).toBeNull();
  });

  it('numbered lines become headings with level = numbering depth', () => {
    const doc = buildDocument([['1. Introduction', prose(300), '1.1 Purpose', prose(300), '1.1.1 Detail', prose(200), 'Appendix A', prose(100)]]);
    expect(titles(doc)).toEqual([
      ['1. Introduction', 1, 'numbered'],
      ['1.1 Purpose', 2, 'numbered'],
      ['1.1.1 Detail', 3, 'numbered'],
      ['Appendix A', 1, 'numbered'],
    ]);
  });

  it('a numbered list item that reads like a sentence is not a heading', () => {
    const doc = buildDocument([['1. the system shall log all events.', '2. Every account is reviewed each quarter by the owner of the process.']]);
    expect(titles(doc)).toEqual([]);
  });

  it('"1 Title" without a dot needs bold or large type', () => {
    const doc = buildDocument([['1 Introduction', prose(300), { text: '2 Scope', bold: true }, prose(300)]]);
    expect(titles(doc)).toEqual([['2 Scope', 1, 'numbered']]);
  });
});

describe('typography', () => {
  it('body size is the most common size by characters; larger fonts rank as levels', () => {
    const doc = buildDocument([
      [{ text: 'Annual Audit Report', fontSize: 20 }, prose(500), { text: 'Background', fontSize: 14 }, prose(500), { text: 'Fine print', fontSize: 8 }],
    ]);
    const analysis = detectHeadings(doc);
    expect(analysis.bodyFontSize).toBe(10);
    expect(analysis.headings.map((h) => [h.title, h.level, h.kind])).toEqual([
      ['Annual Audit Report', 1, 'font'],
      ['Background', 2, 'font'],
    ]);
  });

  it('a slightly larger font (< 1.15x) is not a heading', () => {
    const doc = buildDocument([[{ text: 'Almost a heading', fontSize: 11 }, prose(500)]]);
    expect(titles(doc)).toEqual([]);
  });

  it('bold body-size text without numbering is not a heading', () => {
    const doc = buildDocument([[{ text: 'Important note', bold: true }, prose(500)]]);
    expect(titles(doc)).toEqual([]);
  });

  it('all-caps short lines are headings; long caps lines and single letters are not', () => {
    const doc = buildDocument([['SCOPE OF WORK', prose(200), 'A', 'THIS LINE HAS FAR TOO MANY WORDS TO BE A REAL HEADING HERE', prose(100)]]);
    expect(titles(doc)).toEqual([['SCOPE OF WORK', 1, 'caps']]);
  });

  it('large lines ending like a sentence are not headings', () => {
    const doc = buildDocument([[{ text: 'This large line continues a paragraph,', fontSize: 16 }, prose(500)]]);
    expect(titles(doc)).toEqual([]);
  });
});

describe('lines that are never headings', () => {
  it('TOC lines with dot leaders or trailing page numbers are rejected', () => {
    const doc = buildDocument([
      ['CONTENTS', 'Introduction ........ 3', '1.1 Purpose . . . . 4', '1.2 Scope 5', '1.3 Terms 6', '2 Method 7', '2.1 Sampling\t8'],
      ['1. Introduction', prose(300), '1.2 Scope', prose(300)],
    ]);
    const analysis = detectHeadings(doc);
    expect(analysis.headings.map((h) => h.title)).toEqual(['CONTENTS', '1. Introduction', '1.2 Scope']);
    expect(analysis.rejected.filter((r) => r.reason === 'table-of-contents').map((r) => r.text)).toEqual([
      'Introduction ........ 3',
      '1.1 Purpose . . . . 4',
      '1.2 Scope 5',
      '1.3 Terms 6',
      '2 Method 7',
      '2.1 Sampling 8',
    ]);
  });

  it('a lone heading ending in a number is kept', () => {
    const doc = buildDocument([['2.1 Requirements of ISO 9001', prose(400)]]);
    expect(titles(doc)).toEqual([['2.1 Requirements of ISO 9001', 2, 'numbered']]);
  });

  it('running headers and footers on 10 pages are rejected', () => {
    const pages = Array.from({ length: 10 }, (_, i) => [
      'ACME Corp — Confidential',
      i === 0 ? 'EXECUTIVE SUMMARY' : `${i}. Chapter title ${i}`,
      prose(300, i),
      `Page ${i + 1} of 10`,
    ]);
    const analysis = detectHeadings(buildDocument(pages));
    expect(analysis.headings.map((h) => h.title)).not.toContain('ACME Corp — Confidential');
    expect(analysis.headings).toHaveLength(10);
    const reasons = new Set(analysis.rejected.map((r) => `${r.reason}:${r.text.replace(/\d+/g, '#')}`));
    expect(reasons).toEqual(new Set(['running-header-footer:ACME Corp — Confidential', 'page-number:Page # of #']));
  });

  it('an all-caps running header would otherwise be a heading', () => {
    const pages = Array.from({ length: 4 }, (_, i) => ['ACME CONFIDENTIAL', prose(200, i), `- ${i + 1} -`]);
    const analysis = detectHeadings(buildDocument(pages));
    expect(analysis.headings).toEqual([]);
    expect(analysis.rejected.map((r) => r.reason)).toEqual([
      'running-header-footer',
      'page-number',
      'running-header-footer',
      'page-number',
      'running-header-footer',
      'page-number',
      'running-header-footer',
      'page-number',
    ]);
  });

  it('a heading repeated on only two pages is not a running header', () => {
    const pages = [
      ['SUMMARY', prose(200)],
      ['SUMMARY', prose(200)],
      ['DETAILS', prose(200)],
      ['OTHER', prose(200)],
    ];
    expect(detectHeadings(buildDocument(pages)).headings).toHaveLength(4);
  });

  it.each(['Page 3 of 10', '- 3 -', '3', 'Page 12', 'iv', '3/10'])('page number %s', (text) => {
    expect(isPageNumberLine(text)).toBe(true);
  });
});

describe('markdown', () => {
  it('uses markdownLevel only and strips the hashes', () => {
    const doc = buildDocument(
      [
        [
          { text: '# Title', markdownLevel: 1 },
          'text',
          { text: '## Part one', markdownLevel: 2 },
          '1. a list item',
          'PLAIN CAPS',
          { text: '### Deep', markdownLevel: 3 },
        ],
      ],
      { kind: 'md', bodySize: 0 },
    );
    expect(titles(doc)).toEqual([
      ['Title', 1, 'markdown'],
      ['Part one', 2, 'markdown'],
      ['Deep', 3, 'markdown'],
    ]);
  });
});
