/**
 * Chunk trees of real third-party PDFs (/work/shared/corpus) against their
 * ground truth: every finding's detailed heading must be a section node on
 * the right page, wrapped headings must not leave fragments, the outline of
 * a bookmarked manual must survive, and every tree must validate.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import { buildChunkTree, leavesOf, validateLeaves, validateTree, type ChunkTree } from '../../../electron/engine/chunking';
import { ingestFile } from '../../../electron/engine/pdf';
import type { ChunkNode, ExtractedDocument } from '../../../shared/types';
import { corpusFile, wholeCorpusDocuments } from '../../helpers/corpus';
import { CORPUS, corpusDocuments, corpusGapStandIns, describeNeeding } from '../../helpers/requirements';

interface Finding {
  title: string;
  detail_title?: string;
  page: number;
}
interface Truth {
  has_text_layer: boolean;
  encrypted?: string;
  password?: string;
  findings: Finding[];
  outline: { title: string; level: number; page: number | null }[];
}

const truthOf = (name: string): Truth => JSON.parse(readFileSync(corpusFile(name, 'truth'), 'utf8')) as Truth;

/** Whitespace-normalised, lower case, without invisible characters and the "N. " finding number. */
const normalise = (s: string): string =>
  s
    .replace(/[\u200b-\u200f\u202a-\u202e\u2060\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/^\d{1,3}\.\s+/, '');

/** Node title vs truth title; a U+FFFD in the node title stands for a ligature the text layer lost (ff, fi, fl, ffi, ffl). */
function titleMatches(nodeTitle: string, truthTitle: string): boolean {
  const node = normalise(nodeTitle);
  const want = normalise(truthTitle);
  if (node === want) return true;
  if (!node.includes('\ufffd')) return false;
  const pattern = node
    .split('\ufffd')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('(?:ffi|ffl|ff|fi|fl)');
  return new RegExp(`^${pattern}$`).test(want);
}

const normaliseQuotes = (s: string): string => normalise(s).replace(/[\u2018\u2019]/g, "'");

function sameTitle(nodeTitle: string, truthTitle: string): boolean {
  return titleMatches(normaliseQuotes(nodeTitle), normaliseQuotes(truthTitle));
}

/** Offset of the first line on `page` that starts with the title (after an optional number or ID label). */
function headingOffset(doc: ExtractedDocument, title: string, page: number): number | null {
  const want = normaliseQuotes(title);
  const line = doc.lines.find(
    (l) =>
      l.page === page &&
      normaliseQuotes(doc.text.slice(l.start, l.end))
        .replace(/^\S*\d\S*\s+/, '')
        .startsWith(want.slice(0, 30)),
  );
  return line?.start ?? null;
}

interface Recall {
  found: number;
  total: number;
  misses: string[];
  offByOnePage: string[];
}

function findingRecall(tree: ChunkTree, findings: readonly Finding[]): Recall {
  const sections = tree.nodes.filter((n) => n.parentIndex !== null && n.origin === 'heading');
  const misses: string[] = [];
  const offByOnePage: string[] = [];
  for (const f of findings) {
    const title = f.detail_title ?? f.title;
    const byTitle = sections.filter((n) => titleMatches(n.title, title));
    if (byTitle.some((n) => n.pageStart === f.page)) continue;
    const near = byTitle.find((n) => Math.abs(n.pageStart - f.page) === 1);
    if (near) offByOnePage.push(`"${title}" p${f.page} -> p${near.pageStart}`);
    misses.push(`"${title}" (p${f.page})${byTitle.length > 0 ? ` found on p${byTitle.map((n) => n.pageStart).join(', ')}` : ''}`);
  }
  return { found: findings.length - misses.length, total: findings.length, misses, offByOnePage };
}

const docs = new Map<string, ExtractedDocument>();
const trees = new Map<string, ChunkTree>();

async function load(name: string, strategy: 'auto' | 'outline' = 'auto'): Promise<{ doc: ExtractedDocument; tree: ChunkTree }> {
  const key = `${name}:${strategy}`;
  let doc = docs.get(name);
  if (!doc) {
    doc = (await ingestFile(corpusFile(name, 'pdf'))).document;
    docs.set(name, doc);
  }
  let tree = trees.get(key);
  if (!tree) {
    tree = buildChunkTree(doc, { strategy });
    trees.set(key, tree);
  }
  return { doc, tree };
}

function expectValid(doc: ExtractedDocument, nodes: readonly ChunkNode[]): void {
  expect(validateTree(nodes, doc.pages)).toEqual({ ok: true });
  expect(validateLeaves(doc.text, leavesOf(nodes))).toEqual({ ok: true });
}

/** Recall floors met by the current pipeline (measured: etcd 17/17, mosquitto 16/16, oak 15/15). */
const AUDITS = [
  { name: 'tob-etcd-2020', minFound: 15 },
  { name: 'tob-mosquitto-2023', minFound: 14 },
  { name: 'oak-cosmwasm-2023', minFound: 13 },
] as const;

/** Audit reports with PDF bookmarks (sigp-lido's point a page early for 15 of its 18 findings). */
const OUTLINED_AUDITS = ['cyfrin-stakepet-2023', 'sigp-lido', 'spearbit-morpho-2024-12', 'zellic-babylon-2024', 'zellic-layerzero-core'] as const;

describeNeeding([CORPUS, corpusDocuments([...AUDITS.map((a) => a.name), ...OUTLINED_AUDITS, 'hard-r-exts-manual'])], 'chunk trees of the real corpus', () => {
  // A PDF whose truth file is not written yet (or the reverse) is left out, and named by a skipped test.
  corpusGapStandIns('chunk tree of');

  beforeAll(async () => {
    for (const { name } of AUDITS) await load(name);
  }, 120_000);

  it.each(AUDITS)('$name: every finding heading is a section node on its truth page', async ({ name, minFound }) => {
    const { doc, tree } = await load(name);
    const truth = truthOf(name);
    const recall = findingRecall(tree, truth.findings);
    console.log(`${name}: strategy ${tree.strategy}, finding recall ${recall.found}/${recall.total}`);
    if (recall.misses.length > 0) console.log(`${name} misses:\n  ${recall.misses.join('\n  ')}`);
    if (recall.offByOnePage.length > 0) console.log(`${name} ingestion puts these one page off:\n  ${recall.offByOnePage.join('\n  ')}`);
    expect(tree.strategy).toBe('headings');
    expect(recall.found).toBeGreaterThanOrEqual(minFound);
    expectValid(doc, tree.nodes);
  });

  it.each(AUDITS)('$name: wrapped headings leave no continuation fragment in any section path', async ({ name }) => {
    const { tree } = await load(name);
    const elements = new Set(tree.nodes.flatMap((n) => n.section.path));
    const fragments = [...elements].filter((t) => /^\p{Ll}/u.test(t) && !/^(etcd|libmosquitto|mosquitto)/.test(t));
    expect(fragments).toEqual([]);
    if (name === 'tob-etcd-2020') {
      for (const fragment of ['exhaustion', 'SRV records', 'auth only', 'compaction loop or a crash', 'panic during service discovery'])
        expect(elements.has(fragment)).toBe(false);
      // No numbered body-text steps, no "HTTPS." acronym headings, no TOC entries on pages 2-4.
      const headings = tree.headingCandidates;
      expect(headings.some((h) => h.title.startsWith('3. Read the'))).toBe(false);
      expect(headings.some((h) => h.title === 'HTTPS.')).toBe(false);
      expect(headings.filter((h) => h.page >= 2 && h.page <= 4 && /^\d+\. /.test(h.title))).toEqual([]);
    }
  });

  it.each(OUTLINED_AUDITS)(
    '%s: every finding is in its own outline section (or a small one shares a leaf with its sibling), starting where its heading is printed',
    async (name) => {
      const { doc, tree } = await load(name);
      expect(tree.strategy).toBe('outline');
      const truth = truthOf(name);
      expect(truth.findings.length).toBeGreaterThan(0);
      const misplaced: string[] = [];
      const mergedWithSibling: string[] = [];
      for (const finding of truth.findings) {
        const title = finding.detail_title ?? finding.title;
        // Section nodes (not the size-split parts of one) named after the finding; bookmarks write ' where the body prints ’.
        const sections = tree.nodes.filter((n) => n.origin === 'outline' && sameTitle(n.title, title) && !/\(\d+\/\d+\)$/.test(n.title));
        if (sections.length === 0) {
          // A finding of a few lines may share a leaf with the sibling before it ("Title (+1)", the merger's minimum size):
          // its heading must then be printed inside that leaf, on its truth page, and not in any other finding's section.
          const at = headingOffset(doc, title, finding.page);
          const holder = tree.nodes.find((n) => n.isLeaf && at !== null && n.start <= at && at < n.end);
          if (!holder || !/\(\+\d+\)$/.test(holder.title))
            misplaced.push(`"${title}": no section node${at === null ? ', heading not printed on its page' : ` (held by "${holder?.title}")`}`);
          else mergedWithSibling.push(`"${title}" in "${holder.title}"`);
          continue;
        }
        if (sections.length > 1) {
          misplaced.push(`"${title}": ${sections.length} section nodes`);
          continue;
        }
        const section = sections[0]!;
        if (section.pageStart !== finding.page) misplaced.push(`"${title}": section starts on p${section.pageStart}, heading printed on p${finding.page}`);
        // The heading's words are in the section's own text, at its start (not in the previous finding's section).
        const head = normaliseQuotes(doc.text.slice(section.start, section.start + title.length + 40));
        if (!head.includes(normaliseQuotes(title).slice(0, 20))) misplaced.push(`"${title}": section text starts with "${head.slice(0, 60)}"`);
      }
      if (mergedWithSibling.length > 0) console.log(`${name}: findings sharing a leaf with a sibling: ${mergedWithSibling.join('; ')}`);
      expect(misplaced).toEqual([]);
      expectValid(doc, tree.nodes);
    },
  );

  it('hard-r-exts-manual: outline entries become outline section nodes', async () => {
    const { doc, tree } = await load('hard-r-exts-manual', 'outline');
    expect(tree.strategy).toBe('outline');
    const resolved = doc.outline.filter((e) => e.page !== null).length;
    const outlineNodes = tree.nodes.filter((n) => n.origin === 'outline' && n.title !== '(front matter)');
    const titles = new Set(outlineNodes.map((n) => n.title));
    const placed = doc.outline.filter((e) => e.page !== null && titles.has(e.title.trim())).length;
    console.log(`hard-r-exts-manual: ${resolved} resolved outline entries, ${outlineNodes.length} outline nodes, ${placed} entries with a node of their title`);
    expect(outlineNodes.length).toBeGreaterThanOrEqual(Math.ceil(resolved * 0.9));
    expectValid(doc, tree.nodes);
  });

  it('every corpus PDF with text yields a valid tree whose leaves partition the text', async () => {
    const names = wholeCorpusDocuments();
    const checked: string[] = [];
    for (const name of names) {
      const truth = truthOf(name);
      if (!truth.has_text_layer || (truth.encrypted ?? 'no') !== 'no') continue;
      const { doc, tree } = await load(name);
      if (doc.text.trim() === '') continue;
      expectValid(doc, tree.nodes);
      checked.push(`${name} (${tree.strategy}, ${tree.nodes.length} nodes)`);
    }
    console.log(`valid trees: ${checked.join('; ')}`);
    expect(checked.length).toBeGreaterThanOrEqual(6);
  }, 120_000);
});
