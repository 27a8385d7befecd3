/**
 * A finding's description from the document (printed/sourceDescription.ts): the sentence its grounded quote stands
 * in, over wrapped lines, never over a heading, a page break or into the next sentence; none for a row or heading.
 */
import { describe, expect, it } from 'vitest';
import { PAGE_SEPARATOR } from '../../../shared/canonical';
import type { Grounding } from '../../../shared/findings';
import { MAX_DESCRIPTION_CHARS, sourceDescription } from '../../../electron/engine/printed/sourceDescription';

const at = (text: string, quote: string): Grounding => {
  const start = text.indexOf(quote);
  if (start < 0) throw new Error(`quote not in text: ${quote}`);
  return { status: 'grounded', match: 'exact', score: 1, start, end: start + quote.length, page: 1, inContextOnly: false };
};

const section = [
  '5. TOCTOU of gateway endpoint authentication',
  'Severity: Low Difficulty: High',
  'Description',
  'The gateway only authenticates endpoints detected from DNS SRV records. An attacker who',
  'controls the network can race the check and the use of the endpoint, so that the gateway',
  'connects to a host it never checked. Recommendation follows below.',
].join('\n');

describe('a description taken from the document', () => {
  it('the whole sentence a quote stands in, over its wrapped lines, and no other sentence', () => {
    expect(sourceDescription(section, at(section, 'race the check and the use'))).toBe(
      'An attacker who controls the network can race the check and the use of the endpoint, so that the gateway connects to a host it never checked.',
    );
    expect(sourceDescription(section, at(section, 'only authenticates endpoints'))).toBe(
      'The gateway only authenticates endpoints detected from DNS SRV records.',
    );
  });

  it('a heading or a table row quoted: no description, never the metadata around it', () => {
    expect(sourceDescription(section, at(section, 'TOCTOU of gateway endpoint authentication'))).toBe('');
    const table = 'ID | Title | Severity\nTOB-1 | Gateway TLS validation | Medium\nTOB-2 | TOCTOU of gateway endpoint authentication | Low';
    expect(sourceDescription(table, at(table, 'TOCTOU of gateway endpoint authentication'))).toBe('');
  });

  it('an item of a list: the item, wrapped line included, never the items after it', () => {
    const list = [
      'Version 3.8.0',
      '- Fix nightly invoice export failing on more than ten thousand rows for EU tenants (#4000), which',
      'also affected the scheduled exports',
      '- Handle customer portal login accepting expired session tokens after the nightly restart (#4003)',
      '1. Prevent payroll batch double posting entries on a retry on the first business day',
    ].join('\n');
    expect(sourceDescription(list, at(list, 'Fix nightly invoice export failing on more than ten thousand rows'))).toBe(
      '- Fix nightly invoice export failing on more than ten thousand rows for EU tenants (#4000), which also affected the scheduled exports',
    );
    expect(sourceDescription(list, at(list, 'Handle customer portal login accepting expired session tokens'))).toBe(
      '- Handle customer portal login accepting expired session tokens after the nightly restart (#4003)',
    );
  });

  it('stops at a page break, is clipped at a word, and is empty for a quote the text does not hold', () => {
    const broken = `The first page ends in the middle of a sentence that goes on${PAGE_SEPARATOR}onto the next page, where it ends.`;
    expect(sourceDescription(broken, at(broken, 'middle of a sentence'))).toBe('The first page ends in the middle of a sentence that goes on');
    const long = `${'word '.repeat(120)}ends here.`;
    const clipped = sourceDescription(long, at(long, 'word word'));
    expect(clipped.length).toBeLessThanOrEqual(MAX_DESCRIPTION_CHARS + 1);
    expect(clipped.endsWith('word…')).toBe(true);
    expect(sourceDescription(section, { status: 'ungrounded', match: null, score: 0.2, start: null, end: null, page: null, inContextOnly: false })).toBe('');
  });
});
