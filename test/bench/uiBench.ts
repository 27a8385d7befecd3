/**
 * UI benchmark: 10,000 chunk-tree nodes and 2,000 findings behind a real host
 * and the WebSocket bridge, measured in Chromium: time to first render of the
 * tree, the findings table and the triage queue (2,000 reviewed findings),
 * and frame times while scrolling, each next to the same lists rendered
 * without virtualization (`?novirtual=1`) as the baseline. `npx tsx test/bench/uiBench.ts` prints the figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright';
import { joinPages } from '../../shared/canonical';
import type { FindingView } from '../../shared/contract';
import type { ChunkNode, DocumentLine, ExtractedDocument } from '../../shared/types';
import { addManualFinding } from '../../electron/engine/review';
import { openDatabase, saveChunkTree, saveDocument } from '../../electron/engine/store';
import { startBridgeServer } from '../e2e/bridgeServer';
import { buildRenderer, launchChromium } from '../e2e/browser';

const NODES = 10_000;
const FINDINGS = 2_000;
const SECTIONS = 99;
const LEAVES_PER_SECTION = (NODES - 1 - SECTIONS) / SECTIONS; // 100
const LEAF_CHARS = 200;
const LEAVES_PER_PAGE = 20;

/** One synthetic document whose tree has exactly NODES nodes (root, sections, leaves). */
function seedStore(dataDir: string): number {
  const db = openDatabase(join(dataDir, 'audit.sqlite'));
  const leafText = (i: number) => `Leaf ${i} `.padEnd(LEAF_CHARS - 1, 'lorem ipsum dolor sit amet ') + '\n';
  const leaves = SECTIONS * LEAVES_PER_SECTION;
  const pageTexts: { text: string; hasTextLayer: boolean }[] = [];
  for (let p = 0; p < leaves / LEAVES_PER_PAGE; p++) {
    let text = '';
    for (let l = 0; l < LEAVES_PER_PAGE; l++) text += leafText(p * LEAVES_PER_PAGE + l);
    pageTexts.push({ text, hasTextLayer: true });
  }
  const { text, pages } = joinPages(pageTexts);
  const leafStart = (i: number) => pages[Math.floor(i / LEAVES_PER_PAGE)]!.start + (i % LEAVES_PER_PAGE) * LEAF_CHARS;
  const lines: DocumentLine[] = [];
  for (let i = 0; i < leaves; i++)
    lines.push({ start: leafStart(i), end: leafStart(i) + LEAF_CHARS - 1, page: Math.floor(i / LEAVES_PER_PAGE) + 1, fontSize: 10, bold: false });
  const doc: ExtractedDocument = {
    kind: 'pdf',
    fileName: 'bench-10k.pdf',
    filePath: '/bench/bench-10k.pdf',
    sha256: 'bench'.padEnd(64, '0'),
    byteSize: text.length,
    pageCount: pages.length,
    text,
    pages,
    lines,
    outline: [],
    metadata: {},
  };
  const documentId = saveDocument(db, doc, new Date().toISOString()).document.id;

  const nodes: ChunkNode[] = [
    {
      index: 0,
      parentIndex: null,
      title: 'Bench document',
      section: { level: 0, path: [] },
      start: 0,
      end: text.length,
      pageStart: 1,
      pageEnd: pages.length,
      tokenEstimate: Math.round(text.length / 4),
      origin: 'root',
      isLeaf: false,
      overlapBefore: 0,
    },
  ];
  for (let s = 0; s < SECTIONS; s++) {
    const first = s * LEAVES_PER_SECTION;
    const last = first + LEAVES_PER_SECTION - 1;
    const sectionIndex = nodes.length;
    const title = `Section ${s + 1}`;
    const pageOf = (leaf: number) => Math.floor(leaf / LEAVES_PER_PAGE) + 1;
    nodes.push({
      index: sectionIndex,
      parentIndex: 0,
      title,
      section: { level: 1, path: [title] },
      start: leafStart(first),
      end: leafStart(last) + LEAF_CHARS - 1,
      pageStart: pageOf(first),
      pageEnd: pageOf(last),
      tokenEstimate: 5000,
      origin: 'heading',
      isLeaf: false,
      overlapBefore: 0,
    });
    for (let l = first; l <= last; l++) {
      nodes.push({
        index: nodes.length,
        parentIndex: sectionIndex,
        title: `${title}.${l - first + 1}`,
        section: { level: 1, path: [title] },
        start: leafStart(l),
        end: leafStart(l) + LEAF_CHARS - 1,
        pageStart: pageOf(l),
        pageEnd: pageOf(l),
        tokenEstimate: 50,
        origin: 'sentence',
        isLeaf: true,
        overlapBefore: 0,
      });
    }
  }
  saveChunkTree(db, { documentId, strategy: 'bench', params: {}, paramsHash: 'bench', nodes }, new Date().toISOString());
  // The triage queue reads reviewed findings from the store: FINDINGS of them, each on its own leaf.
  db.transaction(() => {
    for (let i = 0; i < FINDINGS; i++) {
      const start = leafStart(i * 4);
      addManualFinding(db, {
        documentId,
        start,
        end: start + 40,
        title: `Queue finding ${i + 1}: something is not validated`,
        severity: ['High', 'Medium', 'Low'][i % 3]!,
        type: 'defect',
        description: '',
        reviewer: 'Bench',
      });
    }
  })();
  db.close();
  return documentId;
}

function syntheticFindings(documentId: number): FindingView[] {
  const severities = ['Critical', 'High', 'Medium', 'Low', 'Informational'];
  return Array.from({ length: FINDINGS }, (_, i) => ({
    id: i + 1,
    documentId,
    runId: 1,
    findingKey: i % 3 === 0 ? null : `BENCH-${String(i + 1).padStart(4, '0')}`,
    idLabel: i % 3 === 0 ? `F-${(i % 7) + 1} (model's label)` : `BENCH-${String(i + 1).padStart(4, '0')}`,
    idOrigin: i % 3 === 0 ? ('model' as const) : ('document' as const),
    conflicts: [],
    title: `Finding number ${i + 1}: something is not validated`,
    severity: severities[i % 5]!,
    severityRank: i % 5,
    type: i % 2 ? 'defect' : 'vulnerability',
    description: 'Synthetic finding for the UI benchmark.',
    pages: [1 + (i % 400)],
    grounded: i % 10 !== 0,
    sources: [
      {
        findingId: i + 1,
        documentId,
        nodeIndex: 2 + (i % 9000),
        page: 1 + (i % 400),
        evidence: 'lorem ipsum',
        evidenceStart: null,
        evidenceEnd: null,
        grounded: i % 10 !== 0,
        isMain: true,
      },
    ],
  }));
}

interface ListFigures {
  firstRenderMs: number;
  frameMeanMs: number;
  frameP95Ms: number;
  frameMaxMs: number;
  domRows: number;
}

/** Clicks `trigger`, waits until `rowSelector` matches and two frames have been painted; then scrolls `scroller` and records frame times. */
async function measureList(page: Page, trigger: string, rowSelector: string, scroller: string): Promise<ListFigures> {
  const firstRenderMs = await page.evaluate(
    async ({ trigger, rowSelector }) => {
      const t0 = performance.now();
      (document.querySelector(trigger) as HTMLElement).click();
      while (!document.querySelector(rowSelector)) await new Promise((r) => setTimeout(r, 2));
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return performance.now() - t0;
    },
    { trigger, rowSelector },
  );
  const frames = await page.evaluate(
    async ({ scroller }) => {
      const element = document.querySelector(scroller) as HTMLElement;
      const deltas: number[] = [];
      let last = performance.now();
      for (let i = 0; i < 120; i++) {
        element.scrollTop += 400;
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        deltas.push(now - last);
        last = now;
      }
      return deltas;
    },
    { scroller },
  );
  const sorted = [...frames].sort((a, b) => a - b);
  const domRows = await page.evaluate((sel) => document.querySelectorAll(sel).length, rowSelector);
  return {
    firstRenderMs,
    frameMeanMs: frames.reduce((a, b) => a + b, 0) / frames.length,
    frameP95Ms: sorted[Math.floor(sorted.length * 0.95)]!,
    frameMaxMs: sorted.at(-1)!,
    domRows,
  };
}

export async function runUiBench(): Promise<Record<string, number | string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'audit-uibench-'));
  const rendererDir = await buildRenderer();
  const documentId = seedStore(dataDir);
  const findings = syntheticFindings(documentId);
  const server = await startBridgeServer({ rendererDir, dataDir, providers: { findings: () => findings } });
  const browser = await launchChromium();
  const out: Record<string, number | string> = { nodes: NODES, findings: FINDINGS };
  try {
    for (const mode of ['virtual', 'full'] as const) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const url = server.appUrl.replace('/#', mode === 'full' ? '/?novirtual=1#' : '/#');
      await page.goto(url);
      await page.waitForSelector('[data-testid="library"] button');
      const tree = await measureList(page, '[data-testid="library"] button[aria-label^="Open "]', '[role="treeitem"]', '[role="tree"]');
      // The table of all findings sits behind the triage queue: open it once (its store loads), go back to the queue, then measure opening it.
      const places = page.getByRole('navigation', { name: 'Places' });
      await places.getByRole('button', { name: 'Findings', exact: true }).click();
      await page.getByRole('button', { name: 'Table of all findings' }).click();
      await page.waitForSelector('[data-testid="findings-table"] .findings-body [role="row"]');
      await page.getByRole('button', { name: 'Triage queue' }).click();
      const table = await measureList(
        page,
        '.segmented button:nth-child(2)',
        '[data-testid="findings-table"] .findings-body [role="row"]',
        '[data-testid="findings-table"] .findings-body',
      );
      // The triage queue (reviewed findings, one list with group headings): from the table back to the queue.
      const queue = await measureList(page, '.segmented button:nth-child(1)', '[data-testid="review-list"] [role="option"]', '[data-testid="review-list"]');
      const r = (n: number) => Math.round(n * 10) / 10;
      out[`queue first render ms (${mode})`] = r(queue.firstRenderMs);
      out[`queue scroll frame mean ms (${mode})`] = r(queue.frameMeanMs);
      out[`queue scroll frame p95 ms (${mode})`] = r(queue.frameP95Ms);
      out[`queue DOM rows (${mode})`] = queue.domRows;
      out[`tree first render ms (${mode})`] = r(tree.firstRenderMs);
      out[`tree scroll frame mean ms (${mode})`] = r(tree.frameMeanMs);
      out[`tree scroll frame p95 ms (${mode})`] = r(tree.frameP95Ms);
      out[`tree DOM rows (${mode})`] = tree.domRows;
      out[`findings first render ms (${mode})`] = r(table.firstRenderMs);
      out[`findings scroll frame mean ms (${mode})`] = r(table.frameMeanMs);
      out[`findings scroll frame p95 ms (${mode})`] = r(table.frameP95Ms);
      out[`findings DOM rows (${mode})`] = table.domRows;
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(rendererDir, { recursive: true, force: true });
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const figures = await runUiBench();
  for (const [key, value] of Object.entries(figures)) console.log(`${key.padEnd(44)} ${value}`);
}
