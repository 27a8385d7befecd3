import { describe, expect, it } from 'vitest';
import { cleanText, markdownHeadingLevels } from '../../../electron/engine/pdf';

describe('cleanText', () => {
  it('removes zero-width, bidi and soft-hyphen characters', () => {
    expect(cleanText('TOB-\u200BETCD-0\u200C01 \u202Aa\u202E \u2066b\u2069 co\u00ADoperate\uFEFF\u2060')).toBe('TOB-ETCD-001 a b cooperate');
  });
  it('expands every presentation ligature and nothing else', () => {
    expect(cleanText('\uFB00 \uFB01 \uFB02 \uFB03 \uFB04 \uFB05 \uFB06 x\u00B2 \uFF21')).toBe('ff fi fl ffi ffl st st x\u00B2 \uFF21');
  });
  it('marks broken-ligature control characters instead of gluing words', () => {
    expect(cleanText('Insu\u0000cient\f')).toBe('Insu\uFFFDcient\uFFFD');
  });
});

describe('markdownHeadingLevels', () => {
  it('finds ATX headings outside fenced code', () => {
    const lines = [
      '# Title',
      'text',
      '```',
      '# not a heading',
      '```',
      '###### Six',
      '####### seven',
      '#nospace',
      '   ## Indented',
      '~~~~',
      '## inside',
      '~~~',
      '## still inside',
      '~~~~',
      '##',
    ];
    expect(markdownHeadingLevels(lines)).toEqual([
      1,
      undefined,
      undefined,
      undefined,
      undefined,
      6,
      undefined,
      undefined,
      2,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      2,
    ]);
  });
});
