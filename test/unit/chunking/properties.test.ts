/** Property-based tests: every strategy on random documents yields a valid tree whose leaves partition the text. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildChunkTree, leavesOf, validateLeaves, validateTree, type ChunkStrategy } from '../../../electron/engine/chunking';
import type { OutlineEntry } from '../../../shared/types';
import { buildDocument, type LineSpec } from './buildDocument';

const word = fc.constantFrom('audit', 'risk', 'e.g.', 'No.', 'control', 'Fig.', 'evidence', 'x'.repeat(60), 'PBI-1234', 'ÄÖÜ', '😀', 'value', 'a');
const sentence = fc.array(word, { minLength: 1, maxLength: 25 }).chain((ws) => fc.constantFrom('.', '!', '?', ',', '').map((end) => ws.join(' ') + end));
const bodyLine: fc.Arbitrary<LineSpec> = fc.array(sentence, { minLength: 1, maxLength: 4 }).map((ss) => ({ text: ss.join(' '), fontSize: 10 }));
const numbering = fc.oneof(
  fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 }).map((ns) => `${ns.join('.')}${ns.length === 1 ? '.' : ''} `),
  fc.constantFrom('Chapter 2 ', 'Appendix B ', 'A.1 ', 'IV. ', ''),
);
const headingLine: fc.Arbitrary<LineSpec> = fc
  .record({
    numbering,
    title: fc.constantFrom('Scope', 'RESULTS AND FINDINGS', 'Method', 'Annex'),
    fontSize: fc.constantFrom(10, 12, 14, 18),
    bold: fc.boolean(),
    md: fc.integer({ min: 1, max: 6 }),
  })
  .map(({ numbering: n, title, fontSize, bold, md }) => ({ text: `${n}${title}`, fontSize, bold, markdownLevel: md }));
const blankOrSpace: fc.Arbitrary<LineSpec> = fc.constantFrom({ text: '' }, { text: '   ' }, { text: 'x'.repeat(700) });
const page = fc.array(fc.oneof({ weight: 6, arbitrary: bodyLine }, { weight: 2, arbitrary: headingLine }, { weight: 1, arbitrary: blankOrSpace }), {
  maxLength: 14,
});
const outlineEntry = (pageCount: number): fc.Arbitrary<OutlineEntry> =>
  fc.record({
    title: fc.constantFrom('Scope', 'Results and findings', 'Method', 'Nowhere', ''),
    level: fc.integer({ min: 1, max: 4 }),
    page: fc.option(fc.integer({ min: 1, max: pageCount + 1 }), { nil: null }),
  });
const documentArb = fc
  .record({ pages: fc.array(page, { minLength: 1, maxLength: 8 }), kind: fc.constantFrom('pdf' as const, 'md' as const, 'txt' as const) })
  .chain(({ pages, kind }) => fc.array(outlineEntry(pages.length), { maxLength: 8 }).map((outline) => buildDocument(pages, { kind, outline })));
const sizes = fc.oneof(
  fc.constant({}),
  fc
    .record({ minChars: fc.integer({ min: 50, max: 300 }), preferredChars: fc.integer({ min: 300, max: 800 }), overlapChars: fc.integer({ min: 0, max: 149 }) })
    .map((o) => ({ ...o, maxChars: 4100, pageMaxChars: 1000, pageOverlapChars: 300 })),
);
const strategies: (ChunkStrategy | 'auto')[] = ['auto', 'outline', 'headings', 'pages', 'sentences'];

describe('chunk tree properties', () => {
  it.each(strategies)('strategy %s: valid tree, partitioning leaves, sizes within budget', (strategy) => {
    fc.assert(
      fc.property(documentArb, sizes, (doc, size) => {
        const tree = buildChunkTree(doc, { strategy, ...size });
        const treeCheck = validateTree(tree.nodes, doc.pages);
        if (!treeCheck.ok) throw new Error(`tree: ${treeCheck.reason} at node ${treeCheck.nodeIndex}`);
        const leaves = leavesOf(tree.nodes);
        const leafCheck = validateLeaves(doc.text, leaves);
        if (!leafCheck.ok) throw new Error(`leaves: ${leafCheck.reason} ${JSON.stringify(leafCheck.diff)}`);
        const maxChars = 'maxChars' in size ? size.maxChars : 5000;
        const maxTokens = Math.ceil(maxChars / 3.5);
        for (const leaf of leaves) {
          expect(leaf.end).toBeGreaterThan(leaf.start);
          expect(leaf.end - leaf.start).toBeLessThanOrEqual(maxChars);
          expect(leaf.tokenEstimate).toBeLessThanOrEqual(maxTokens);
        }
        for (const node of tree.nodes) {
          expect(node.pageStart).toBeLessThanOrEqual(node.pageEnd);
          if (node.origin !== 'root' && !node.isLeaf) expect(node.section.level).toBe(node.section.path.length);
        }
      }),
      { numRuns: 120 },
    );
  });

  it('a calibrated (word-count) estimator keeps every leaf within maxTokens', () => {
    const estimateTokens = (t: string) => t.split(/\s+/).filter(Boolean).length * 2 + 1;
    fc.assert(
      fc.property(documentArb, fc.constantFrom<ChunkStrategy | 'auto'>(...strategies), (doc, strategy) => {
        const tree = buildChunkTree(doc, { strategy, estimateTokens, minTokens: 20, preferredTokens: 60, maxTokens: 200 });
        expect(validateTree(tree.nodes, doc.pages)).toEqual({ ok: true });
        expect(validateLeaves(doc.text, leavesOf(tree.nodes))).toEqual({ ok: true });
        for (const leaf of leavesOf(tree.nodes)) expect(estimateTokens(doc.text.slice(leaf.start, leaf.end))).toBeLessThanOrEqual(200);
      }),
      { numRuns: 80 },
    );
  });
});
