import { formatPageRanges } from '../../../shared/canonical';
import type { ErrorInfo } from '../../../shared/errors';
import type { ChunkNode, IdMention } from '../../../shared/types';
import { buildChunkTree, resolveChunkingOptions, type ChunkingOptions } from '../chunking';
import { listChunkResults, listChunkSummaries, listFindings } from '../extract';
import { asPrinted, comparableId, findListings, listsToRead, textLines } from '../printed';
import { listMergedFindings, mergeFindingsInSlices, saveMergeResult } from '../merge';
import { findIdMentions } from '../rules';
import { judgeStrategy } from '../judge';
import { loadChunks, saveChunkTree, saveMentions } from '../store';
import { splitTreeWithLlm } from '../treesplit';
import { saveSummary, summarizeDocument, summaryIdsWithoutFinding } from '../summary';
import { nextTurn, stableHash, throwIfAborted, timeStage } from '../util';
import { checkDocumentCompleteness } from './completenessStep';
import type { DocumentContext } from './documentContext';
import { extractDocument } from './extractionStep';
import type { StrategyChoice } from './settings';

export interface DocumentOutcome {
  /** Set when the document could not be fully analysed (some chunks failed); the rest is kept. */
  error: ErrorInfo | null;
}

/** Rules-only and full mode share ingest, tree and mentions; full mode then extracts, merges and summarises. */
export async function analyzeDocument(ctx: DocumentContext): Promise<DocumentOutcome> {
  const mentions = timeStage('mentions', () => findIdMentions(ctx.doc.text, ctx.doc.pages, ctx.settings.idPatterns));
  timeStage('store', () => saveMentions(ctx.db, ctx.documentId, stableHash(ctx.settings.idPatterns), mentions));
  ctx.report('rules', 1, 1, `${mentions.length} ID mentions`);
  // Between steps that each compute for a while, the thread answers the app's commands and other documents' replies:
  // back to back, reading a 236-page manual's rules, tree and lists held it for 400 ms (BENCH_ONLY=stall).
  await nextTurn();

  const tree = await chooseTree(ctx);
  if (!ctx.llm) return { error: null };
  await nextTurn();

  const failed = await extractDocument(
    ctx,
    tree.treeId,
    tree.nodes.filter((n) => n.isLeaf),
    mentions,
  );
  throwIfAborted(ctx.signal);
  await mergeDocument(ctx, mentions);
  await nextTurn();
  await checkDocumentCompleteness(ctx);
  await nextTurn();
  await summarizeChunks(ctx);
  if (failed.length === 0) return { error: null };
  // The pages once each, as ranges ("83-96, 101"): a list of the chunks' pages repeated a page per chunk on it.
  const failedPages = [...new Set(failed.flatMap((f) => pagesFrom(f.pageStart, f.pageEnd)))].sort((a, b) => a - b);
  return {
    error: {
      code: failed[0]!.error.code,
      message: `${failed.length} of ${tree.nodes.filter((n) => n.isLeaf).length} chunks could not be analysed (${failedPages.length === 1 ? 'page' : 'pages'} ${formatPageRanges(failedPages)}): ${failed[0]!.error.message}`,
      details: { failedChunks: failed.map((f) => f.nodeIndex), failedPages },
    },
  };
}

/**
 * The chunk tree for this run. On resume, the tree the run's chunks were
 * queued against is reused as is: chunk results are keyed by node index, so
 * re-cutting the document would silently mismatch them. Otherwise the
 * strategy comes from the user's choice, else the judge (full mode), else
 * the deterministic rules; 'llm-tree' runs the LLM tree split.
 */
async function chooseTree(ctx: DocumentContext): Promise<{ treeId: number; nodes: ChunkNode[] }> {
  const existing = listChunkResults(ctx.db, ctx.runId, ctx.documentId)[0];
  if (existing) return { treeId: existing.treeId, nodes: loadChunks(ctx.db, existing.treeId) };

  const budgeted = chunkingOptions(ctx);
  const decision = await decideStrategy(ctx, budgeted);
  // The judge's chunk size is a preference inside the run's budget, never above it.
  const options =
    decision.targetChunkTokens === undefined
      ? budgeted
      : withPreferredTokens(budgeted, Math.min(decision.targetChunkTokens, budgeted.maxTokens ?? decision.targetChunkTokens));
  ctx.report('tree', 0, 1, `building the chunk tree (${decision.strategy}${decision.note ? `: ${decision.note}` : ''})`);
  await nextTurn();
  const { estimateTokens: _estimate, ...storable } = options;
  let nodes: ChunkNode[];
  let strategy: string = decision.strategy;
  let notes: string[] = [];
  let treeOptions: Record<string, unknown> = {};
  if (decision.strategy === 'llm-tree' && ctx.llm) {
    const { client, plan } = ctx.llm;
    const leafTokens = Math.min(options.maxTokens ?? plan.chunkTokenBudget, plan.chunkTokenBudget);
    treeOptions = { leafTokens };
    const result = await splitTreeWithLlm(
      { llm: client, db: ctx.db },
      {
        doc: ctx.doc,
        documentId: ctx.documentId,
        runId: ctx.runId,
        model: plan.models.split,
        numCtx: plan.numCtx,
        options: { leafTokens },
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        onProgress: (event) => ctx.report('tree', event.nodeIndex, event.nodeCount, event.message),
      },
    );
    nodes = result.nodes;
    notes = result.fallbacks.map((f) => `fallback for ${f.node}: ${f.reason}`);
  } else {
    const forced = decision.strategy === 'llm-tree' ? 'auto' : decision.strategy;
    const built = timeStage('tree', () => buildChunkTree(ctx.doc, { ...options, strategy: forced }));
    nodes = built.nodes;
    strategy = built.strategy;
    notes = built.notes;
  }
  const hashed = { chunking: storable, strategy: decision.strategy, treeOptions, model: decision.strategy === 'llm-tree' ? ctx.llm?.plan.models.split : null };
  const { treeId } = timeStage('store', () =>
    saveChunkTree(
      ctx.db,
      { documentId: ctx.documentId, strategy, params: { ...hashed, judge: decision.note ?? null, notes }, paramsHash: stableHash(hashed), nodes },
      ctx.now().toISOString(),
    ),
  );
  ctx.report('tree', 1, 1, `${nodes.filter((n) => n.isLeaf).length} chunks (${strategy})`);
  return { treeId, nodes: loadChunks(ctx.db, treeId) };
}

/** The structure strategy and, when the judge chose it, why. */
async function decideStrategy(
  ctx: DocumentContext,
  options: Partial<ChunkingOptions>,
): Promise<{ strategy: StrategyChoice; note?: string; targetChunkTokens?: number }> {
  const choice = ctx.settings.strategy;
  if (!ctx.llm) return { strategy: choice === 'llm-tree' ? 'auto' : choice };
  const { client, plan } = ctx.llm;
  const decision = await judgeStrategy(
    { llm: client, db: ctx.db },
    {
      doc: ctx.doc,
      documentId: ctx.documentId,
      runId: ctx.runId,
      model: plan.models.judge,
      numCtx: plan.numCtx,
      ...(choice !== 'auto' ? { override: choice } : {}),
      ...(choice === 'auto' && !ctx.settings.judge ? { disabled: true } : {}),
      settings: { maxTokens: options.maxTokens ?? null, numCtx: plan.numCtx },
      maxChunkTokens: plan.chunkTokenBudget,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    },
  );
  const note =
    decision.source === 'llm'
      ? `judge: ${decision.justification}`
      : decision.fallbackReason
        ? `judge fell back: ${decision.fallbackReason}`
        : `${decision.source}`;
  // The judge's deterministic default (disabled) is what 'auto' computes itself, with the tree builder's own checks.
  if (decision.source === 'disabled') return { strategy: 'auto', note };
  return { strategy: decision.strategy, note, ...(decision.source === 'llm' ? { targetChunkTokens: decision.targetChunkTokens } : {}) };
}

function withPreferredTokens(options: Partial<ChunkingOptions>, preferredTokens: number): Partial<ChunkingOptions> {
  const base = resolveChunkingOptions(options);
  const preferred = Math.max(base.minTokens, Math.min(preferredTokens, base.maxTokens));
  return { ...options, preferredTokens: preferred };
}

/** Chunk sizes budgeted in the extraction model's tokens, never above what the planned num_ctx can carry. */
function chunkingOptions(ctx: DocumentContext): Partial<ChunkingOptions> {
  const base = resolveChunkingOptions(ctx.settings.chunking);
  if (!ctx.llm) return { ...ctx.settings.chunking };
  const { client, plan } = ctx.llm;
  const maxTokens = Math.min(base.maxTokens, plan.chunkTokenBudget);
  const preferredTokens = Math.min(base.preferredTokens, maxTokens);
  const minTokens = Math.min(base.minTokens, preferredTokens);
  return {
    ...ctx.settings.chunking,
    maxTokens,
    preferredTokens,
    minTokens,
    estimateTokens: (text: string) => client.estimator.estimateText(text, plan.models.extract),
  };
}

const pagesFrom = (start: number, end: number): number[] => Array.from({ length: end - start + 1 }, (_, i) => start + i);

/** The document's findings merged, in slices: other documents' replies and the app's commands are answered meanwhile. */
async function mergeDocument(ctx: DocumentContext, mentions: readonly IdMention[]): Promise<void> {
  ctx.report('merge', 0, 1, 'merging duplicate findings');
  const findings = listFindings(ctx.db, ctx.runId, ctx.documentId);
  // An ID the model gave that the document prints keeps its finding out of another ID's group (mergeFindings).
  const printedIds = new Set(mentions.map((m) => comparableId(m.raw)));
  const merged = await mergeFindingsInSlices(findings, { documentText: ctx.doc.text, printedIds, ...(ctx.signal ? { signal: ctx.signal } : {}) });
  // Every finding with what its document prints for it, whatever the model said or left out: the severity (its
  // section's field, its row's cell, its group heading; the model's word only where the document prints none), and the
  // ID and number its heading prints where it carries none (printed/sections.ts).
  // The rows of its lists (numbered detailed sections with short bodies also parse as a list: they are no rows).
  const rows = listsToRead(ctx.doc.text, findListings(textLines(ctx.doc), ctx.doc.text, ctx.settings.profile, ctx.settings.idPatterns)).flatMap(
    (l) => l.entries,
  );
  const result = { ...merged, merged: asPrinted(ctx.doc.text, ctx.settings.profile, merged.merged, rows) };
  saveMergeResult(ctx.db, { runId: ctx.runId, documentId: ctx.documentId, result });
  ctx.report('merge', 1, 1, `${findings.length} reported findings merged into ${result.merged.length}`);
}

async function summarizeChunks(ctx: DocumentContext): Promise<void> {
  const { client, plan } = ctx.llm!;
  const chunkSummaries = listChunkSummaries(ctx.db, ctx.runId, ctx.documentId);
  ctx.report('summary', 0, 1, `summarising ${chunkSummaries.length} chunk summaries`);
  const result = await summarizeDocument(
    { llm: client },
    {
      chunkSummaries,
      reduceModel: plan.models.summary,
      ...(plan.summaryMapModel ? { mapModel: plan.summaryMapModel } : {}),
      numCtx: plan.numCtx,
      budgetTokens: plan.chunkTokenBudget,
      sourceTokens: client.estimator.estimateText(ctx.doc.text, plan.summaryMapModel ?? plan.models.summary),
      runId: ctx.runId,
      documentId: ctx.documentId,
      cache: ctx.settings.llm.cache,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    },
  );
  // The summary is the model's words: an ID it names that no grounded finding has is kept with it, marked wherever it is shown.
  const ungroundedIds = summaryIdsWithoutFinding(result.text, listMergedFindings(ctx.db, ctx.runId, ctx.documentId), ctx.settings.idPatterns);
  saveSummary(ctx.db, {
    runId: ctx.runId,
    documentId: ctx.documentId,
    text: result.text,
    chunkCount: result.chunkCount,
    levels: result.levels,
    model: plan.models.summary,
    ungroundedIds,
  });
  if (result.capped) ctx.log.info({ stage: 'summary', documentId: ctx.documentId, ...result.capped }, 'unit summaries shortened for the summary budget');
  if (ungroundedIds.length > 0) ctx.log.warn({ stage: 'summary', documentId: ctx.documentId, ungroundedIds }, 'the summary names IDs no grounded finding has');
  const shortened = result.capped ? ` (${result.capped.note})` : '';
  const marked = ungroundedIds.length > 0 ? `; it names ${ungroundedIds.join(', ')}, which no verified finding has (marked)` : '';
  ctx.report('summary', 1, 1, `summary from ${result.chunkCount} chunks in ${result.levels} levels${shortened}${marked}`);
}
