import { describe, expect, it } from 'vitest';
import { joinPages } from '../../../shared/canonical';
import { DEFAULT_ID_PATTERNS, findIdMentions, normalizeId, validatePatterns } from '../../../electron/engine/rules';

function mentionsIn(pageTexts: string[]) {
  const { text, pages } = joinPages(pageTexts.map((t) => ({ text: t, hasTextLayer: true })));
  return { text, mentions: findIdMentions(text, pages, DEFAULT_ID_PATTERNS) };
}

describe('findIdMentions', () => {
  it('finds the default kinds with their pages and exact offsets', () => {
    const { text, mentions } = mentionsIn(['Fixed in PBI-1234 and cr-42.', 'See CVE-2021-44228 and TOB-ACME-12, TOB-MOSQ-CR-1 and LID-02.']);
    expect(mentions.map((m) => [m.normalized, m.page, m.patternName])).toEqual([
      ['PBI-1234', 1, 'PBI'],
      ['CR-42', 1, 'CR'],
      ['CVE-2021-44228', 2, 'CVE'],
      ['TOB-ACME-12', 2, 'finding'],
      ['TOB-MOSQ-CR-1', 2, 'finding'],
      ['LID-02', 2, 'finding'],
    ]);
    for (const m of mentions) expect(text.slice(m.start, m.end)).toBe(m.raw);
  });

  it('keeps the longest match when patterns overlap (CR-1 inside TOB-MOSQ-CR-1)', () => {
    const { mentions } = mentionsIn(['TOB-MOSQ-CR-1']);
    expect(mentions).toHaveLength(1);
    expect(mentions[0]!.normalized).toBe('TOB-MOSQ-CR-1');
  });

  it('counts IDs broken by zero-width characters, bidi controls and line ends', () => {
    const { text, mentions } = mentionsIn(['A: TOB-\u200BETCD-001.\nB: \u202DTOB-MOSQ-CR-2\u202C.\nC: TOB-MOSQ-\nCR-3 and PBI-\n77.\nD: CR\u2011500']);
    expect(mentions.map((m) => m.normalized)).toEqual(['TOB-ETCD-001', 'TOB-MOSQ-CR-2', 'TOB-MOSQ-CR-3', 'PBI-77', 'CR-500']);
    const broken = mentions[2]!;
    expect(broken.raw).toBe('TOB-MOSQ-\nCR-3');
    expect(text.slice(broken.start, broken.end)).toBe('TOB-MOSQ-\nCR-3');
  });

  it('does not take standards and ordinary words for finding IDs', () => {
    const { mentions } = mentionsIn(['Uses SHA-256, UTF-8, ISO-27001, CWE-79, a well-known 2-step flow, covid-19, x-1.']);
    expect(mentions).toEqual([]);
  });

  it('gives each mention the page its first character is on', () => {
    const { mentions } = mentionsIn(['nothing here', 'still nothing', 'end: PBI-9']);
    expect(mentions).toHaveLength(1);
    expect(mentions[0]!.page).toBe(3);
  });
});

describe('normalizeId and validatePatterns', () => {
  it('normalises case, dashes and invisible characters', () => {
    expect(normalizeId('tob\u2013acme\u200b-12')).toBe('TOB-ACME-12');
  });

  it('reports patterns that do not compile or match empty text', () => {
    const problems = validatePatterns([
      { name: 'ok', source: 'AB-\\d+' },
      { name: 'broken', source: '(' },
      { name: 'empty', source: 'x*' },
    ]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/broken/);
    expect(problems[1]).toMatch(/empty/);
  });
});
