import { describe, expect, it } from 'vitest';
import { buildChunkTree, FRONT_MATTER_TITLE, leavesOf, validateLeaves, validateTree } from '../../../electron/engine/chunking';
import { buildDocument, prose } from './buildDocument';

function expectValid(tree: ReturnType<typeof buildChunkTree>, doc: ReturnType<typeof buildDocument>) {
  expect(validateTree(tree.nodes, doc.pages)).toEqual({ ok: true });
  expect(validateLeaves(doc.text, leavesOf(tree.nodes))).toEqual({ ok: true });
}

const outline = [
  { title: 'Introduction', level: 1, page: 2 },
  { title: 'Scope and purpose', level: 2, page: 2 },
  { title: 'Findings', level: 1, page: 3 },
  { title: 'Lost bookmark', level: 1, page: null },
];

describe('buildChunkTree', () => {
  it('outline: entries start at their matching line, else at the page start; front matter first; unresolved ones noted', () => {
    const doc = buildDocument([['Cover page', prose(600)], ['1 Introduction', prose(2000), 'SCOPE AND PURPOSE', prose(2000)], [prose(2000)]], { outline });
    const tree = buildChunkTree(doc);
    expect(tree.strategy).toBe('outline');
    expectValid(tree, doc);
    const sections = tree.nodes.filter((n, i) => n.origin === 'outline' && tree.nodes.findIndex((m) => m.title === n.title) === i);
    const intro = doc.text.indexOf('1 Introduction');
    expect(sections.map((n) => [n.title, n.start, n.section.level, n.section.path])).toEqual([
      [FRONT_MATTER_TITLE, 0, 1, [FRONT_MATTER_TITLE]],
      ['Introduction', intro, 1, ['Introduction']],
      ['Scope and purpose', doc.text.indexOf('SCOPE AND PURPOSE'), 2, ['Introduction', 'Scope and purpose']],
      ['Findings', doc.pages[2]!.start, 1, ['Findings']],
    ]);
    expect(tree.notes.some((n) => n.includes('Lost bookmark'))).toBe(true);
  });

  it('outline entries pointing backwards are skipped', () => {
    const doc = buildDocument([[prose(100)], ['Alpha', prose(100)], ['Beta', prose(100)]], {
      outline: [
        { title: 'Beta', level: 1, page: 3 },
        { title: 'Alpha', level: 1, page: 2 },
        { title: 'Gamma', level: 1, page: 3 },
      ],
    });
    const tree = buildChunkTree(doc, { strategy: 'outline' });
    expect(tree.notes.some((n) => n.includes('"Alpha" skipped'))).toBe(true);
    expectValid(tree, doc);
  });

  it('headings: numbered sections nest with normalised levels and paths; front matter is its own section', () => {
    const doc = buildDocument([
      ['Audit report 2024', prose(700), '2. Scope', prose(700), '2.1 Sampling', prose(700), '2.1.1 Method', prose(700), '3. Findings', prose(700)],
    ]);
    const tree = buildChunkTree(doc);
    expect(tree.strategy).toBe('headings');
    expectValid(tree, doc);
    expect(tree.nodes[0]).toMatchObject({ index: 0, parentIndex: null, origin: 'root', section: { level: 0, path: [] }, start: 0, end: doc.text.length });
    const byTitle = new Map([...tree.nodes].reverse().map((n) => [n.title, n]));
    expect(byTitle.get(FRONT_MATTER_TITLE)).toMatchObject({ isLeaf: true, section: { level: 1, path: [FRONT_MATTER_TITLE] } });
    // 2.1 (past the minimum) absorbs its level-3 child: parent and child take the deeper path.
    expect(byTitle.get('2.1 Sampling')).toMatchObject({
      origin: 'heading',
      isLeaf: true,
      section: { level: 2, path: ['2. Scope', '2.1 Sampling', '2.1.1 Method'] },
    });
    expect(byTitle.get('2. Scope')).toMatchObject({ isLeaf: false, section: { level: 1, path: ['2. Scope'] } });
  });

  it('levels never jump by more than one relative to the parent', () => {
    const doc = buildDocument([['1. Top', prose(800), '1.1.1 Too deep', prose(800), '2. Next', prose(800), '2.1 Child', prose(800)]]);
    const tree = buildChunkTree(doc);
    const deep = tree.nodes.find((n) => n.title === '1.1.1 Too deep')!;
    expect(deep.section).toEqual({ level: 2, path: ['1. Top', '1.1.1 Too deep'] });
    expectValid(tree, doc);
  });

  it('markdown headings drive the tree', () => {
    const doc = buildDocument(
      [
        [
          { text: '# Guide', markdownLevel: 1 },
          prose(800),
          { text: '## Install', markdownLevel: 2 },
          prose(800),
          { text: '## Use', markdownLevel: 2 },
          prose(800),
          { text: '# Reference', markdownLevel: 1 },
          prose(800),
        ],
      ],
      { kind: 'md', bodySize: 0 },
    );
    const tree = buildChunkTree(doc);
    expect(tree.strategy).toBe('headings');
    expect(tree.nodes.find((n) => n.title === 'Use')!.section.path).toEqual(['Guide', 'Use']);
    expectValid(tree, doc);
  });

  it('greedy merge joins small sections but not across level-1/2 boundaries once at the minimum', () => {
    const doc = buildDocument([['1. One', prose(600), '1.1 Small', prose(50), '1.1.1 Tiny', prose(50), '1.1.2 Tiny too', prose(50), '2. Two', prose(100)]]);
    const tree = buildChunkTree(doc);
    expectValid(tree, doc);
    const leaves = leavesOf(tree.nodes).map((n) => doc.text.slice(n.start, n.end).split('\n')[0]);
    // "1. One" is past the minimum, so "1.1 Small" (level 2) starts a new chunk; that one stays under the
    // minimum, so it absorbs its level-3 children and even "2. Two" (unrelated paths merge to []).
    expect(leaves[0]).toBe('1. One');
    expect(leaves[1]).toBe('1.1 Small');
    expect(leaves).toHaveLength(2);
    const merged = leavesOf(tree.nodes)[1]!;
    expect(merged.section).toEqual({ level: 1, path: [] });
  });

  it('oversized sections are cut into pieces that keep the section and get origin "sentence"', () => {
    const doc = buildDocument([['1. Long', prose(12_000), '2. Short', prose(800), '3. End', prose(800)]]);
    const tree = buildChunkTree(doc);
    expectValid(tree, doc);
    const pieces = tree.nodes.filter((n) => n.origin === 'sentence');
    expect(pieces.length).toBeGreaterThan(4);
    expect(pieces.every((p) => p.tokenEstimate <= 429 && p.end - p.start <= 1500)).toBe(true);
    expect(pieces.slice(0, -1).every((p) => p.section.path[0] === '1. Long' && !p.title.includes('(+'))).toBe(true);
  });

  it('falls back to pages without headings, with one leaf per page and the 4000/500 rule', () => {
    const doc = buildDocument([[prose(1000)], [prose(9000)], [prose(300)]]);
    const tree = buildChunkTree(doc);
    expect(tree.strategy).toBe('pages');
    expectValid(tree, doc);
    expect(leavesOf(tree.nodes).map((n) => n.title)).toEqual(['Page 1', 'Page 2 (1/3)', 'Page 2 (2/3)', 'Page 2 (3/3)', 'Page 3']);
    expect(leavesOf(tree.nodes).every((n) => n.origin === 'page' && n.parentIndex === 0)).toBe(true);
  });

  it('sentences strategy and a text without any space', () => {
    const doc = buildDocument([['x'.repeat(20_000)]]);
    for (const strategy of ['sentences', 'pages', 'headings', 'outline'] as const) {
      const tree = buildChunkTree(doc, { strategy });
      expectValid(tree, doc);
      expect(leavesOf(tree.nodes).every((n) => n.end - n.start <= 5000)).toBe(true);
    }
  });

  it('an empty document is just the root', () => {
    const doc = buildDocument([[]]);
    const tree = buildChunkTree(doc);
    expect(tree.nodes).toHaveLength(1);
    expect(validateTree(tree.nodes, doc.pages)).toEqual({ ok: true });
  });

  it('running headers do not become sections', () => {
    const doc = buildDocument(
      Array.from({ length: 10 }, (_, i) => ['ACME CORP — CONFIDENTIAL', `${i + 1}. Part ${String.fromCharCode(65 + i)}`, prose(900, i), `Page ${i + 1} of 10`]),
    );
    const tree = buildChunkTree(doc);
    expect(tree.strategy).toBe('headings');
    expect(tree.nodes.some((n) => n.title.includes('ACME'))).toBe(false);
    expectValid(tree, doc);
  });
});
