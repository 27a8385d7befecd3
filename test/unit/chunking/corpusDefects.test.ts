/** Regressions for defects seen on real audit reports (wrapped headings, TOCs without page numbers, body-size list steps, merged sections). */
import { describe, expect, it } from 'vitest';
import {
  buildChunkTree,
  detectHeadings,
  greedyMerge,
  leavesOf,
  mergeAllSections,
  mergeSections,
  validateLeaves,
  validateTree,
  type MergeCandidate,
} from '../../../electron/engine/chunking';
import { buildDocument, prose } from './buildDocument';

const H = (text: string, fontSize = 16, bold = false) => ({ text, fontSize, bold });
const titles = (doc: ReturnType<typeof buildDocument>) => detectHeadings(doc).headings.map((h) => h.title);

describe('wrapped headings', () => {
  it('joins a heading that wraps onto the next line into one heading spanning both lines', () => {
    const doc = buildDocument(
      [
        [
          H('Findings', 20),
          prose(300),
          H('2. The gateway can include itself as an endpoint, resulting in resource'),
          H('exhaustion'),
          prose(600),
          H('3. Next finding'),
          prose(600),
        ],
      ],
      { bodySize: 11 },
    );
    const analysis = detectHeadings(doc);
    const wrapped = analysis.headings.find((h) => h.title.startsWith('2.'))!;
    expect(wrapped.title).toBe('2. The gateway can include itself as an endpoint, resulting in resource exhaustion');
    expect(doc.text.slice(wrapped.start, wrapped.end)).toBe('2. The gateway can include itself as an endpoint, resulting in resource\nexhaustion');
    expect(analysis.headings.map((h) => h.title)).not.toContain('exhaustion');
    const tree = buildChunkTree(doc);
    expect(tree.nodes.flatMap((n) => n.section.path)).not.toContain('exhaustion');
  });

  it('joins a continuation that is not a heading on its own when it has the heading typography', () => {
    const doc = buildDocument(
      [[H('Summary', 18), prose(300), H('8. Use-after-free instances in dynsec_groups__find and', 12), H('dynsec_clients__find', 12), prose(400)]],
      { bodySize: 11 },
    );
    expect(titles(doc)).toContain('8. Use-after-free instances in dynsec_groups__find and dynsec_clients__find');
  });

  it('does not join a numbered line, a line after a sentence end, or two short titles', () => {
    const doc = buildDocument(
      [[H('1. First finding title here is long enough to wrap'), H('2. Second finding'), prose(300), H('Short Term'), H('Long Term'), prose(300)]],
      { bodySize: 11 },
    );
    expect(titles(doc)).toEqual(['1. First finding title here is long enough to wrap', '2. Second finding', 'Short Term', 'Long Term']);
  });
});

describe('tables of contents without page numbers', () => {
  const findingTitles = [
    '1. Gateway TLS endpoint validation only confirms TCP reachability',
    '2. Directories are not checked for permissions',
    '3. No minimum password length',
    '4. Use of TLS InsecureSkipVerify',
  ];

  it('a dense run of headings that re-occur later is a TOC', () => {
    const doc = buildDocument(
      [[H('Report', 24), ...findingTitles.map((t) => H(t, 12, true)), prose(200)], ...findingTitles.map((t, i) => [H(t), prose(800, i)])],
      { bodySize: 11 },
    );
    const analysis = detectHeadings(doc);
    expect(analysis.headings.filter((h) => h.page === 1).map((h) => h.title)).toEqual(['Report']);
    expect(analysis.headings.filter((h) => h.page > 1).map((h) => h.title)).toEqual(findingTitles);
    expect(analysis.rejected.filter((r) => r.reason === 'table-of-contents')).toHaveLength(4);
  });

  it('candidates after a "Contents" title that re-occur later are TOC entries', () => {
    const doc = buildDocument(
      [
        [H('Table of Contents', 18), H('1. Introduction', 12, true), 'x', H('2. Method', 12, true)],
        [H('1. Introduction', 14, true), prose(500)],
        [H('2. Method', 14, true), prose(500)],
      ],
      { bodySize: 11 },
    );
    expect(detectHeadings(doc).headings.map((h) => [h.title, h.page])).toEqual([
      ['Table of Contents', 1],
      ['1. Introduction', 2],
      ['2. Method', 3],
    ]);
  });

  it('headings repeated in every finding but separated by body text are not a TOC', () => {
    // Body text first, so the repeated headings are not among a page's first lines (running-header rule).
    const page = (i: number) => [
      prose(200, i),
      prose(200, i + 1),
      prose(200, i + 2),
      H(`${i}. Finding number ${i}`),
      H('Description', 14),
      prose(400, i),
      H('Recommendation', 14),
      prose(300, i),
      prose(200, i),
      prose(200, i + 3),
      prose(200, i + 4),
    ];
    const doc = buildDocument([page(1), page(2), page(3), page(4)], { bodySize: 11 });
    expect(titles(doc).filter((t) => t === 'Description')).toHaveLength(4);
  });
});

describe('typeset documents', () => {
  it('numbered steps at body size are not headings; larger or bold numbered lines are', () => {
    const doc = buildDocument(
      [
        [
          H('12. User credentials are stored in WAL logs'),
          prose(300),
          '3. Read the default.etcd/member/wal/0000-0000.wal',
          prose(200),
          H('13. Null pointer exception', 12),
          prose(300),
          H('14. Bold heading', 11, true),
        ],
      ],
      { bodySize: 11 },
    );
    expect(titles(doc)).toEqual(['12. User credentials are stored in WAL logs', '13. Null pointer exception', '14. Bold heading']);
  });

  it('caps lines: no single body-size word, no sentence end, no bullets, no fine print', () => {
    const doc = buildDocument(
      [
        [
          H('Title', 20),
          prose(200),
          'HTTPS.',
          'TOB-ETCD-014',
          'USE AT YOUR OWN RISK!',
          '● TOB-MOSQ-CR-1',
          H('-----BEGIN CERTIFICATE-----', 9),
          'SCOPE OF WORK',
          H('SUMMARY', 11, true),
          prose(200),
        ],
      ],
      { bodySize: 11 },
    );
    expect(titles(doc)).toEqual(['Title', 'SCOPE OF WORK', 'SUMMARY']);
  });
});

describe('merged sections', () => {
  const s = (level: number, ...path: string[]) => ({ level, path });

  it('mergeAllSections: deepest path on one chain, else the common prefix of all', () => {
    expect(mergeAllSections([s(2, '1. One', '1.1'), s(3, '1. One', '1.1', '1.1.1'), s(1, '1. One')])).toEqual(s(1, '1. One', '1.1', '1.1.1'));
    expect(mergeAllSections([s(2, '1. One', '1.1'), s(2, '2. Two', '2.1'), s(1, '3. Three')])).toEqual(s(1));
    expect(mergeAllSections([s(2, 'A', 'B'), s(2, 'A', 'C'), s(3, 'A', 'C', 'D')])).toEqual(s(2, 'A'));
  });

  it('mergeAllSections agrees with mergeSections on two sections', () => {
    const pairs = [
      [s(1, 'A'), s(2, 'A', 'B')],
      [s(2, 'A', 'B'), s(2, 'A', 'C')],
      [s(1, 'A'), s(1, 'B')],
      [s(2, 'A', 'B'), s(2, 'A', 'B')],
      [s(3, 'A', 'B', 'C'), s(1, 'A')],
    ] as const;
    for (const [a, b] of pairs) expect(mergeAllSections([a, b])).toEqual(mergeSections(a, b));
  });

  it('greedy merge: unrelated sections followed by a deeper one keep the common prefix, not the last path', () => {
    const text = 'x'.repeat(2000);
    const c = (start: number, end: number, level: number, path: string[]): MergeCandidate => ({
      start,
      end,
      overlapBefore: 0,
      section: { level, path },
      title: path[path.length - 1]!,
      origin: 'heading',
      startsMajorSection: level <= 2,
    });
    const merged = greedyMerge(text, [c(0, 100, 2, ['1. One', '1.1 Small']), c(100, 200, 2, ['2. Two', '2.1 Small']), c(200, 300, 1, ['3. Three'])], {
      min: { chars: 500, tokens: Infinity },
      preferred: { chars: 1500, tokens: Infinity },
      max: { chars: 5000, tokens: Infinity },
      estimateTokens: (t) => t.length,
    });
    expect(merged).toHaveLength(1);
    expect(merged[0]!.section).toEqual({ level: 1, path: [] });
  });

  it('a substantial major section after a heading-only section keeps its own node', () => {
    const doc = buildDocument([[H('Detailed Findings', 20), H('1. Insufficient iterations', 16), prose(900), H('2. Improper comparison', 16), prose(900)]], {
      bodySize: 11,
    });
    const tree = buildChunkTree(doc);
    expect(validateTree(tree.nodes, doc.pages)).toEqual({ ok: true });
    expect(tree.nodes.some((n) => n.title === '1. Insufficient iterations' && n.origin === 'heading')).toBe(true);
  });

  it('a leaf opening with the front matter is named after what follows it', () => {
    const doc = buildDocument([['Cover line', H('Executive Summary', 20), prose(100), H('Scope', 20), prose(100), H('Method', 20), prose(1200)]], {
      bodySize: 11,
    });
    const tree = buildChunkTree(doc);
    expect(validateLeaves(doc.text, leavesOf(tree.nodes))).toEqual({ ok: true });
    expect(leavesOf(tree.nodes)[0]!.title).toBe('Front matter, Executive Summary (+1)');
  });
});

describe('outline placement', () => {
  it('matches a bookmark without the section number its heading line carries', () => {
    const doc = buildDocument(
      [
        ['Cover', prose(100)],
        ['2 Writing documentation', prose(700), '2.1 Rd format', prose(700)],
      ],
      {
        outline: [
          { title: '2 Writing documentation', level: 1, page: 2 },
          { title: 'Rd format', level: 2, page: 2 },
        ],
      },
    );
    const tree = buildChunkTree(doc, { strategy: 'outline' });
    expect(tree.notes).toEqual([]);
    expect(tree.nodes.find((n) => n.title === 'Rd format')?.start).toBe(doc.text.indexOf('2.1 Rd format'));
  });
});
