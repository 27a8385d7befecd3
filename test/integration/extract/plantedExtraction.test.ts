import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors';
import { DEFAULT_PROFILE, type StoredFinding } from '../../../shared/findings';
import type { ChunkNode } from '../../../shared/types';
import { buildChunkTree } from '../../../electron/engine/chunking';
import {
  buildExtractionMessages,
  commitChunkResult,
  effectivePage,
  extractUnit,
  getChunkResult,
  listChunkSummaries,
  listFindings,
  previousTailFor,
} from '../../../electron/engine/extract';
import { DOC_CLOSE, DOC_OPEN } from '../../../electron/engine/llm/prompt';
import { listMergeDecisions, listMergedFindings, mergeFindings, saveMergeResult, unreviewedMentions } from '../../../electron/engine/merge';
import { DEFAULT_ID_PATTERNS, findIdMentions } from '../../../electron/engine/rules';
import { createRun, saveChunkTree, saveDocument } from '../../../electron/engine/store';
import { plantedDocument, plantedReport, plantedResponder, promptBlocks } from '../../fixtures/plantedFindings';
import { expectCode, harness, type Harness } from '../llm/helpers';

const MODEL = 'qwen3:8b';
const NOW = '2024-01-01T00:00:00.000Z';

describe('extraction of a report with planted findings (simulator answers from the truth)', () => {
  const report = plantedReport();
  const doc = plantedDocument(report);
  const tree = buildChunkTree(doc, { strategy: 'pages' });
  const leaves = tree.nodes.filter((n) => n.isLeaf);
  let h: Harness;
  let runId: number;
  let documentId: number;
  let treeId: number;
  let findings: StoredFinding[];

  beforeAll(async () => {
    h = await harness({ responder: plantedResponder(report) });
    documentId = saveDocument(h.db, doc, NOW).document.id;
    treeId = saveChunkTree(h.db, { documentId, strategy: tree.strategy, params: {}, paramsHash: 'pages', nodes: tree.nodes }, NOW).treeId;
    runId = createRun(h.db, 'analyze', {}, [doc.filePath], NOW);
    for (const [i, leaf] of leaves.entries()) {
      const previousTail = previousTailFor(doc, leaves, i);
      const r = await extractUnit(
        { llm: h.client },
        { doc, chunk: leaf, ...(previousTail ? { previousTail } : {}), model: MODEL, numCtx: 8192, runId, documentId },
      );
      commitChunkResult(h.db, {
        runId,
        documentId,
        treeId,
        nodeIndex: leaf.index,
        findings: r.findings,
        summary: r.summary,
        calls: r.calls,
        callIds: r.callIds,
      });
    }
    findings = listFindings(h.db, runId, documentId);
  });
  afterAll(async () => h?.close());

  const pageOf = (text: string) => {
    const at = doc.text.indexOf(text);
    return doc.pages.find((p) => p.start <= at && at < p.end)!.pageNumber;
  };

  it('chunks one page per leaf', () => {
    expect(leaves.map((l) => l.pageStart)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('grounds every reported occurrence of a planted finding on the right page; the grounded page wins', () => {
    for (const t of report.truth.filter((x) => x.behaviour === 'report')) {
      for (const o of t.occurrences) {
        const f = findings.find((x) => x.evidence === o.quote && x.grounding.inContextOnly === false);
        expect(f, `${t.key}: ${o.quote}`).toBeDefined();
        expect(f!.grounding.status).toBe('grounded');
        expect(effectivePage(f!)).toBe(pageOf(o.quote.slice(0, 40)));
      }
    }
    const auditlog = findings.find((f) => f.findingKey === 'PBI-1305' && !f.evidence.includes('   '))!;
    expect(auditlog.page).toBe(3); // stated by the model
    expect(auditlog.grounding.page).toBe(4);
    expect(auditlog.severity).toBe('Major');
    expect(auditlog.severityCanonical).toBe('High');
  });

  it('grounds the finding split across the page/chunk boundary from the chunk that sees its end', () => {
    const whole = findings.find((f) => f.findingKey === 'PBI-1502' && f.evidence.includes('without checking'))!;
    expect(whole.grounding.status).toBe('grounded');
    expect(whole.grounding.match).toBe('normalized');
    expect(whole.grounding.inContextOnly).toBe(false);
    expect(whole.grounding.page).toBe(5);
    expect(whole.nodeIndex).toBe(leaves[5]!.index);
  });

  it('flags the invented finding ungrounded; light paraphrase fuzzy, heavy paraphrase ungrounded', () => {
    // The model gave it an ID the document never prints: the model's label, never a merge key.
    const invented = findings.find((f) => f.id === 'PBI-9999')!;
    expect(invented.findingKey).toBeNull();
    expect(invented.grounding.status).toBe('ungrounded');
    expect(invented.grounding.start).toBeNull();
    const light = findings.find((f) => f.findingKey === 'PBI-1410')!;
    expect(light.grounding).toMatchObject({ status: 'grounded', match: 'fuzzy', page: 5 });
    expect(light.grounding.score!).toBeGreaterThanOrEqual(0.75);
    const heavy = findings.find((f) => f.findingKey === 'PBI-1420')!;
    expect(heavy.grounding.status).toBe('ungrounded');
  });

  it('marks a boundary duplicate seen only in the context as belonging to the previous chunk', () => {
    const dupes = findings.filter((f) => f.title === 'Missing rate limiting on password reset');
    expect(dupes).toHaveLength(2);
    expect(dupes.map((d) => d.grounding.inContextOnly).sort()).toEqual([false, true]);
    expect(dupes.every((d) => d.grounding.page === 3)).toBe(true);
  });

  it('merges: each planted finding once with every place as a source, detailed section as main page', () => {
    const { merged, decisions } = mergeFindings(findings);
    const reported = report.truth.filter((t) => t.behaviour !== 'miss');
    expect(merged).toHaveLength(reported.length + report.invented.length);
    for (const t of reported) {
      const m = merged.filter((x) => (t.id ? x.findingKey === t.key : x.title === t.title));
      expect(m, t.key).toHaveLength(1);
      expect(m[0]!.mainPage, t.key).toBe(t.page);
      expect([...new Set(m[0]!.sources.map((s) => s.page))].sort(), t.key).toEqual(t.pages);
      expect(m[0]!.sources.filter((s) => s.isMain)).toHaveLength(1);
    }
    const login = merged.find((x) => x.title === 'Missing rate limiting on login')!;
    expect(login.sources.map((s) => s.title).sort()).toEqual(['Login rate limiting missing', 'Missing rate limiting on login']);
    const reset = merged.find((x) => x.title === 'Missing rate limiting on password reset')!;
    expect(reset.sources).toHaveLength(2);
    // Both sightings follow the printed "4 Missing rate limiting on password reset": the document's number joins them.
    expect(decisions.some((d) => d.reason === 'same-number' && d.mergedIndex === merged.indexOf(reset))).toBe(true);
    expect(decisions.some((d) => d.reason === 'similar-text' && d.mergedIndex === merged.indexOf(login))).toBe(true);
    expect(merged.find((x) => x.findingKey === 'PBI-1305')!.severity).toBe('Major');
    const invented = merged.find((x) => x.modelLabels.includes('PBI-9999'))!;
    expect(invented).toMatchObject({ findingKey: null, grounded: false });
    expect(merged.find((x) => x.findingKey === 'PBI-1410')!.grounded).toBe(true);
  });

  it('lists missed and in-passing IDs as unreviewed mentions', () => {
    const { merged } = mergeFindings(findings);
    const mentions = findIdMentions(doc.text, doc.pages, DEFAULT_ID_PATTERNS);
    expect(unreviewedMentions(mentions, merged)).toEqual([
      { id: 'CR-310', pages: [3] },
      { id: 'CR-77', pages: [3] },
    ]);
  });

  it('stores merged findings, sources and decisions; saving again replaces', () => {
    const result = mergeFindings(findings);
    saveMergeResult(h.db, { runId, documentId, result, now: NOW });
    saveMergeResult(h.db, { runId, documentId, result, now: NOW });
    const stored = listMergedFindings(h.db, runId, documentId);
    expect(stored).toHaveLength(result.merged.length);
    expect(stored.map((s) => s.sources.length)).toEqual(result.merged.map((m) => m.sources.length));
    expect(stored.map((s) => s.mainPage)).toEqual(result.merged.map((m) => m.mainPage));
    expect(listMergeDecisions(h.db, runId, documentId)).toHaveLength(result.decisions.length);
  });

  it('stores a sighting not found in the text with its finding: counted and absorbed, not listed as a source', () => {
    // The same findings in a second run, plus a bare-title sighting (no quote the text shows) of a grounded finding.
    const otherRun = createRun(h.db, 'analyze', {}, [doc.filePath], NOW);
    const detail = findings.find((f) => f.findingKey === 'PBI-1305' && f.grounding.status === 'grounded')!;
    const bare = {
      ...detail,
      evidence: '',
      description: '',
      grounding: { status: 'ungrounded' as const, match: null, score: null, start: null, end: null, page: null, inContextOnly: false },
    };
    const lastLeaf = leaves.at(-1)!.index;
    for (const leaf of leaves) {
      const own = findings.filter((f) => f.nodeIndex === leaf.index);
      commitChunkResult(h.db, {
        runId: otherRun,
        documentId,
        treeId,
        nodeIndex: leaf.index,
        findings: leaf.index === lastLeaf ? [...own, bare] : own,
        summary: '',
      });
    }
    const result = mergeFindings(listFindings(h.db, otherRun, documentId));
    saveMergeResult(h.db, { runId: otherRun, documentId, result, now: NOW });
    const stored = listMergedFindings(h.db, otherRun, documentId);
    const finding = stored.find((m) => m.findingKey === 'PBI-1305')!;
    const bareId = listFindings(h.db, otherRun, documentId).find((f) => f.findingKey === 'PBI-1305' && f.grounding.status === 'ungrounded')!.findingId;
    expect(finding.grounded).toBe(true);
    expect(finding.unfoundSightings).toBe(1);
    expect(finding.sources.every((s) => s.grounded)).toBe(true);
    expect(finding.sources.map((s) => s.findingId)).not.toContain(bareId);
    expect(finding.absorbedFindingIds).toContain(bareId);
    // What is read back is what the merge said, for every finding.
    expect(stored.map((m) => [m.sources.map((s) => s.findingId), [...m.absorbedFindingIds].sort(), m.unfoundSightings])).toEqual(
      result.merged.map((m) => [m.sources.map((s) => s.findingId), [...m.absorbedFindingIds].sort(), m.unfoundSightings]),
    );
  });

  it('commitChunkResult twice never duplicates findings', () => {
    const before = listFindings(h.db, runId, documentId).length;
    const leaf = leaves[1]!;
    const again = listFindings(h.db, runId, documentId).filter((f) => f.nodeIndex === leaf.index);
    commitChunkResult(h.db, { runId, documentId, treeId, nodeIndex: leaf.index, findings: again, summary: 'again' });
    commitChunkResult(h.db, { runId, documentId, treeId, nodeIndex: leaf.index, findings: again, summary: 'again' });
    expect(listFindings(h.db, runId, documentId)).toHaveLength(before);
    expect(getChunkResult(h.db, runId, documentId, leaf.index)).toMatchObject({ status: 'done', summary: 'again', findingCount: again.length });
    expect(listChunkSummaries(h.db, runId, documentId)).toHaveLength(leaves.length);
  });

  it('keeps instructions identical whatever the document says; injected text stays inside the escaped chunk block', () => {
    const extraction = h.sim.requests.filter((r) => typeof r.format === 'object' && r.format !== null);
    expect(extraction.length).toBe(leaves.length);
    const systems = new Set(extraction.map((r) => promptBlocks(r).system));
    expect(systems.size).toBe(1);
    const injected = extraction.find((r) => promptBlocks(r).chunk?.includes('IGNORE PREVIOUS INSTRUCTIONS'))!;
    const blocks = promptBlocks(injected);
    expect(blocks.chunk).toContain('<< <END DOCUMENT> >>');
    // Outside the blocks, the user turn holds only the fixed task (and the context header).
    const outside = blocks.user.replace(/<<<DOCUMENT [^>\n]*>>>\n[\s\S]*?\n<<<END DOCUMENT>>>/g, '');
    expect(outside).not.toContain('IGNORE');
    expect(blocks.user.split(DOC_CLOSE).length - 1).toBe(blocks.context ? 2 : 1);
    // Responder-independent: the same chunk with the injection replaced by neutral text gives the same instructions and task.
    const leaf = leaves[3]!;
    const clean = { ...doc, text: doc.text.replace(report.injection.text, 'x'.repeat(report.injection.text.length)) };
    const a = buildExtractionMessages({ profile: DEFAULT_PROFILE, doc, start: leaf.start, end: leaf.end, firstPage: 4, chunkLabel: 'c' });
    const b = buildExtractionMessages({ profile: DEFAULT_PROFILE, doc: clean, start: leaf.start, end: leaf.end, firstPage: 4, chunkLabel: 'c' });
    expect(a[0]!.content).toBe(b[0]!.content);
    const head = (m: typeof a) => m[1]!.content.slice(0, m[1]!.content.indexOf(DOC_OPEN));
    expect(head(a)).toBe(head(b));
    expect(a[1]!.content.endsWith(DOC_CLOSE)).toBe(true);
    // The page-4 chunk still yields its planted findings.
    const page4 = listFindings(h.db, runId, documentId).filter((f) => f.nodeIndex === leaf.index && !f.grounding.inContextOnly);
    expect(page4.map((f) => f.findingKey).sort()).toEqual(['INC-0042', 'PBI-1305']);
    expect(blocks.user.indexOf(DOC_OPEN)).toBeGreaterThan(0);
  });
});

describe('extraction failures and splitting', () => {
  const report = plantedReport();
  const doc = plantedDocument(report);

  it('a reply that stays broken throws an AppError (the pipeline marks the chunk failed)', async () => {
    const h = await harness({ responder: (req) => (req.format ? 'this is not JSON at all' : 'OK') });
    try {
      const leaf = buildChunkTree(doc, { strategy: 'pages' }).nodes.filter((n) => n.isLeaf)[0]!;
      const err = await expectCode(extractUnit({ llm: h.client }, { doc, chunk: leaf, model: MODEL, numCtx: 8192 }), ErrorCode.LLM_INVALID_REPLY);
      expect(err).toBeInstanceOf(AppError);
    } finally {
      await h.close();
    }
  });

  it('a chunk too large for the context is split in two and both halves are extracted and grounded', async () => {
    const h = await harness({ responder: plantedResponder(report, { perfect: true }) });
    try {
      const big: ChunkNode = {
        index: 99,
        parentIndex: 0,
        title: 'pages 1-3',
        section: { level: 1, path: [] },
        start: doc.pages[0]!.start,
        end: doc.pages[2]!.end,
        pageStart: 1,
        pageEnd: 3,
        tokenEstimate: 0,
        origin: 'page',
        isLeaf: true,
        overlapBefore: 0,
      };
      const r = await extractUnit({ llm: h.client }, { doc, chunk: big, model: MODEL, numCtx: 1792, replyTokens: 512 });
      expect(r.pieces).toBeGreaterThanOrEqual(2);
      expect(r.calls).toBe(r.pieces);
      const sqli = r.findings.find((f) => f.findingKey === 'PBI-1201' && f.page === 2)!;
      expect(sqli.grounding).toMatchObject({ status: 'grounded', page: 2 });
      const reset = r.findings.find((f) => f.title === 'Missing rate limiting on password reset')!;
      expect(reset.grounding).toMatchObject({ status: 'grounded', page: 3 });
    } finally {
      await h.close();
    }
  });
});
