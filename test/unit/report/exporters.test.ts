import { describe, expect, it } from 'vitest';
import type { ChunkNode } from '../../../shared/types';
import {
  contextWords,
  csvCell,
  csvField,
  escapeHtml,
  findChromium,
  formatFromPath,
  html,
  neutralizeFormula,
  outlineEntries,
  SafeHtml,
} from '../../../electron/engine/report';

describe('escapeHtml and the html tag', () => {
  it('escapes the five HTML metacharacters and drops control characters', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;');
    expect(escapeHtml('a\u0000b\u0007c\nd\te')).toBe('a b c\nd\te');
  });

  it('escapes every interpolated value, in text and attributes, nested arrays included', () => {
    const evil = '"><img src=x onerror=alert(1)>';
    const out = html`<p title="${evil}">${evil}${[evil, html`<b>${evil}</b>`]}</p>`.value;
    expect(out).not.toContain('<img');
    expect(out).toBe(
      '<p title="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;<b>&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</b></p>',
    );
  });

  it('renders numbers and booleans, nothing for null and undefined, markup only from SafeHtml', () => {
    expect(html`${1}|${true}|${false}|${null}|${undefined}|${new SafeHtml('<br>')}`.value).toBe('1|true|false|||<br>');
  });
});

describe('CSV cells', () => {
  it('quotes per RFC 4180 only when needed, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
  });

  it('neutralises formula triggers with a leading single quote', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(neutralizeFormula(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(neutralizeFormula('1+1')).toBe('1+1');
    expect(neutralizeFormula(' =1')).toBe(' =1');
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(null)).toBe('');
  });
});

describe('context words', () => {
  it('takes a few words each side, on one line, keeping the separating space', () => {
    expect(contextWords('one two\nthree four five ', 'before', 3)).toBe('three four five ');
    expect(contextWords('. next\f\nwords here and more', 'after', 3)).toBe('. next words');
    expect(contextWords(' after', 'after', 3)).toBe(' after');
    expect(contextWords('', 'before')).toBe('');
  });
});

describe('formats and outline', () => {
  it('reads the format from a file name', () => {
    expect(formatFromPath('/x/report.HTML')).toBe('html');
    expect(formatFromPath('r.markdown')).toBe('md');
    expect(formatFromPath('r.htm')).toBe('html');
    expect(formatFromPath('r.pdf')).toBe('pdf');
    expect(formatFromPath('r.txt')).toBeUndefined();
    expect(formatFromPath('report')).toBeUndefined();
  });

  it('lists the chunk tree to a depth, with leaf counts, a section body leaf shown once', () => {
    const node = (index: number, parentIndex: number | null, title: string, start: number, isLeaf: boolean): ChunkNode => ({
      index,
      parentIndex,
      title,
      section: { level: 0, path: [] },
      start,
      end: start + 10,
      pageStart: 1,
      pageEnd: 1,
      tokenEstimate: 3,
      origin: 'heading',
      isLeaf,
      overlapBefore: 0,
    });
    const nodes = [
      node(0, null, 'root', 0, false),
      node(1, 0, 'A', 0, false),
      node(2, 1, 'A', 0, true),
      node(3, 1, 'A.1', 20, true),
      node(4, 0, 'B', 40, true),
    ];
    expect(outlineEntries(nodes, 1).map((e) => [e.node.title, e.depth, e.leaves])).toEqual([
      ['A', 1, 2],
      ['B', 1, 1],
    ]);
    expect(outlineEntries(nodes, 3).map((e) => e.node.title)).toEqual(['A', 'A.1', 'B']);
  });
});

describe('finding Chromium', () => {
  it('fails with a code and install advice when no browser is there', () => {
    let error: unknown;
    try {
      findChromium('/nowhere/chromium', { CHROMIUM_PATH: '/nowhere/else' }, 'aix');
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'PDF_RENDERER_MISSING', details: { what: 'chromium', tried: ['/nowhere/chromium', '/nowhere/else'] } });
    expect((error as Error).message).toMatch(/Install Chromium or Google Chrome.*CHROMIUM_PATH/);
  });

  it('takes an explicit path first, then CHROMIUM_PATH', () => {
    expect(findChromium(process.execPath, {}, 'aix')).toBe(process.execPath);
    expect(findChromium(undefined, { CHROMIUM_PATH: process.execPath }, 'aix')).toBe(process.execPath);
  });
});
