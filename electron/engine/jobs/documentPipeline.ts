import { formatPageRanges } from '../../../shared/canonical';
import { isStorageErrorCode, toErrorInfo, type ErrorInfo } from '../../../shared/errors';
import { LISTED_ENTRY_TYPE, type GroundedFinding } from '../../../shared/findings';
import type { ChunkNode, IdMention, ProgressEvent } from '../../../shared/types';
import { buildChunkTree, resolveChunkingOptions, type ChunkingOptions } from '../chunking';
import {
  commitUnitResult,
  extractChunk,
  leafOfFinding,
  getChunkResult,
  listChunkResults,
  listChunkSummaries,
  listFindings,
  markChunkFailed,
  markChunkRunning,
  packUnits,
  expectedFindingsByLeaf,
  expectedReplyTokens,
  previousTailFor,
  queueChunks,
  requeueRunningChunks,
  type ExtractionCallSettings,
  recordedBlock,
  askForUncoveredMentions,
  uncoveredMentions,
  unnamedSections,
  appendChunkFindings,
} from '../extract';
import {
  withEveryTitleSighting,
  hiddenSpansOf,
  isHidden,
  listsToRead,
  recordedList,
  recordedWithin,
  type HiddenSpan,
  type RecordedList,
  comparableId,
  asPrinted,
  findItemLists,
  findListings,
  itemsWithoutFinding,
  textLines,
  type ItemList,
  words,
} from '../printed';
import { isRunWideLlmError } from '../llm';
import { listMergedFindings, mergeFindingsInSlices, saveMergeResult } from '../merge';
import { findIdMentions } from '../rules';
import { judgeStrategy } from '../judge';
import { loadChunks, saveChunkTree, saveMentions } from '../store';
import { splitTreeWithLlm } from '../treesplit';
import { saveSummary, summarizeDocument, summaryIdsWithoutFinding } from '../summary';
import { stableHash, throwIfAborted, timeStage } from '../util';
import { checkDocumentCompleteness } from './completenessStep';
import type { DocumentContext } from './documentContext';
import { createRateMeter } from './progress';
import { ArrivingCount } from './arrivingFindings';
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

  const tree = await chooseTree(ctx);
  if (!ctx.llm) return { error: null };

  const failed = await extractAll(ctx, tree.treeId, tree.nodes.filter((n) => n.isLeaf), mentions);
  throwIfAborted(ctx.signal);
  await mergeDocument(ctx, mentions);
  await checkDocumentCompleteness(ctx);
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
  const note = decision.source === 'llm' ? `judge: ${decision.justification}` : decision.fallbackReason ? `judge fell back: ${decision.fallbackReason}` : `${decision.source}`;
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

interface FailedChunk {
  nodeIndex: number;
  pageStart: number;
  pageEnd: number;
  error: ErrorInfo;
}

const pagesFrom = (start: number, end: number): number[] => Array.from({ length: end - start + 1 }, (_, i) => start + i);

/**
 * Every leaf, in order, in units of consecutive leaves (one LLM call each,
 * one at a time; see extract/units.ts). Each unit's findings are filed under
 * their leaves and committed with the leaves' done marks in one transaction
 * as soon as the unit is analysed; a unit whose replies stay broken is tried
 * again leaf by leaf, and a leaf whose replies stay broken is marked failed,
 * visibly, and the run goes on. Cancel and pause stop before
 * the next unit; the unit in flight goes back to the queue.
 */
async function extractAll(ctx: DocumentContext, treeId: number, leaves: readonly ChunkNode[], mentions: readonly IdMention[]): Promise<FailedChunk[]> {
  const { db, runId, documentId } = ctx;
  const { client, plan } = ctx.llm!;
  const ref = { runId, documentId, treeId };
  queueChunks(db, ref, leaves.map((leaf) => leaf.index));
  const meter = createRateMeter(db, runId);
  const failed: FailedChunk[] = [];
  // The document's own lists of findings (summary table, contents): the rules read their rows, the model is not shown
  // them, so it writes each finding once, from its detailed section (printed/listedRows.ts).
  const lines = textLines(ctx.doc);
  const allListings = timeStage('mentions', () => findListings(lines, ctx.doc.text, ctx.settings.profile, ctx.settings.idPatterns));
  const listings = listsToRead(ctx.doc.text, allListings);
  // Itemised lists besides them (a changelog's bullets): their items no finding covers are asked for again at the end.
  const itemLists = findItemLists(lines, allListings);
  const hidden = hiddenSpansOf(listings);
  // The recorded list is sent with every unit: its tokens come out of the unit budget, so every prompt stays planned.
  // A leaf over the unit budget is a unit of its own, so the list may take only the room the context leaves beside a
  // whole leaf: with a small context (an OpenAI-compatible server started with 4,096 tokens) it is cut, even to
  // nothing, rather than eat the reply's room (trial 2026-11-28 row 18: 121 of 193 replies cut at the length limit).
  const blockTokens = (text: string) => client.estimator.estimateText(recordedBlock(text), plan.models.extract);
  const recorded = recordedWithin(recordedList(listings), Math.max(0, plan.textTokenRoom - plan.chunkTokenBudget), blockTokens);
  const recordedTokens = recorded.text ? blockTokens(recorded.text) : 0;
  const asked = mentions.filter((m) => !isHidden(m.start, hidden));
  // Only leaves not done are packed: a resumed run starts at the first unfinished unit and redoes it whole.
  // Planned by the reply each unit will need too: a dense table gets a small unit (extract/units.ts ReplyPlan).
  const expected = expectedFindingsByLeaf(leaves, asked);
  const unitBudget = Math.max(1, plan.unitTokenBudget - recordedTokens);
  const replyPlan = (room: number) => ({ room, expected: (leaf: ChunkNode) => expected.get(leaf.index) ?? 0 });
  const units = packUnits(leaves, unitBudget, (leaf) => getChunkResult(db, runId, documentId, leaf.index)?.status !== 'done', replyPlan(plan.replyTokens));
  /** The most entries this model lists in one reply, once a reply showed it (extractChunk's listEndedAt). */
  let listCap: number | undefined;
  const arriving = new ArrivingCount(listFindings(db, runId, documentId));
  let findingsSoFar = arriving.count;
  let done = leaves.length - units.reduce((n, u) => n + u.leaves.length, 0);
  let unitsLeft = units.length;

  for (let u = 0; u < units.length; u++) {
    const unit = units[u]!;
    throwIfAborted(ctx.signal);
    const first = unit.leaves[0]!;
    const last = unit.leaves.at(-1)!;
    const pages = first.pageStart === last.pageEnd ? `${first.pageStart}` : `${first.pageStart}-${last.pageEnd}`;
    const which = unit.leaves.length === 1 ? `chunk ${done + 1}` : `chunks ${done + 1}-${done + unit.leaves.length}`;
    ctx.report('extract', done, leaves.length, `${which} of ${leaves.length} (pages ${pages})`, rates());
    for (const leaf of unit.leaves) markChunkRunning(db, { ...ref, nodeIndex: leaf.index });
    meter.chunkStarted();
    try {
      const previousTail = previousTailFor(ctx.doc, leaves, leaves.indexOf(first));
      const result = await extractChunk(
        { llm: client, db },
        {
          doc: ctx.doc,
          chunk: { ...first, end: unit.end, pageEnd: last.pageEnd, tokenEstimate: unit.tokens },
          boundaries: unit.leaves.slice(1).map((leaf) => leaf.start),
          ...(previousTail ? { previousTail } : {}),
          profile: ctx.settings.profile,
          // The reply room is planned from the IDs the unit prints.
          mentions,
          listings,
          ...(recorded.text ? { recorded } : {}),
          ...extractionCalls(ctx),
        },
      );
      // A finding quoted once (its table row) whose title the unit also prints as its heading: both places are its sightings.
      const findings = withEveryTitleSighting(ctx.doc, ctx.settings.profile, result.findings, { start: first.start, end: unit.end });
      commitUnitResult(
        db,
        unit.leaves.map((leaf, i) => ({
          ...ref,
          nodeIndex: leaf.index,
          findings: findings.filter((f) => leafOfFinding(unit, f) === leaf),
          // The unit's summary, calls and pieces are recorded once, on its first leaf.
          summary: i === 0 ? result.summary : '',
          calls: i === 0 ? result.calls : 0,
          callIds: i === 0 ? result.callIds : [],
          pieces: i === 0 ? result.pieces : 0,
        })),
      );
      findingsSoFar = arriving.add(findings);
      if (result.listEndedAt !== undefined && (listCap === undefined || result.listEndedAt < listCap)) {
        // The model ends its lists after about this many entries: the units still to come are packed to hold no more,
        // so each reply ends where its text does instead of being continued over the rest of its unit again.
        listCap = result.listEndedAt;
        const rest = units.slice(u + 1).flatMap((x) => x.leaves);
        const repacked = packUnits(rest, unitBudget, () => true, replyPlan(Math.min(plan.replyTokens, expectedReplyTokens(listCap))));
        unitsLeft += repacked.length - (units.length - u - 1);
        units.splice(u + 1, units.length - u - 1, ...repacked);
        ctx.log.info({ stage: 'extract', documentId, listCap, units: repacked.length }, 'the model ends its lists early: the remaining units are packed smaller');
      }
    } catch (error) {
      if (ctx.signal?.aborted) {
        // Back to the queue: the unit in flight is redone on resume, nothing half-written stays.
        requeueRunningChunks(db, runId);
        throwIfAborted(ctx.signal);
      }
      const info = toErrorInfo(error, ctx.log.path);
      // The model or the store failing is the run's problem, not this unit's: the run stops, resumable at this unit.
      if (isRunWideLlmError(info.code) || isStorageErrorCode(info.code)) throw error;
      if (unit.leaves.length > 1) {
        // A unit whose replies stay broken is tried again leaf by leaf: it fails no more text than one call per leaf would.
        meter.chunkFinished();
        units.splice(u + 1, 0, ...unit.leaves.map((leaf) => ({ leaves: [leaf], start: leaf.start, end: leaf.end, tokens: leaf.tokenEstimate })));
        unitsLeft += unit.leaves.length - 1;
        continue;
      }
      ctx.log.warn({ stage: 'extract', documentId, nodeIndexes: unit.leaves.map((leaf) => leaf.index), code: info.code, err: error }, 'unit failed');
      for (const leaf of unit.leaves) {
        markChunkFailed(db, { ...ref, nodeIndex: leaf.index }, info);
        failed.push({ nodeIndex: leaf.index, pageStart: leaf.pageStart, pageEnd: leaf.pageEnd, error: info });
      }
    }
    meter.chunkFinished();
    done += unit.leaves.length;
    unitsLeft--;
    ctx.report('extract', done, leaves.length, `chunk ${done} of ${leaves.length} analysed, ${findingsSoFar} findings so far`, rates());
  }
  try {
    await askAgainForUncovered(ctx, { treeId, leaves, mentions: asked, arriving, recorded, hidden, itemLists });
  } catch (error) {
    // A follow-up that fails loses nothing: its IDs stay uncovered and go to the unreviewed list, as without it.
    const info = toErrorInfo(error, ctx.log.path);
    if (ctx.signal?.aborted || isRunWideLlmError(info.code) || isStorageErrorCode(info.code)) throw error;
    ctx.log.warn({ stage: 'extract', documentId, code: info.code, err: error }, 'follow-up call failed; its IDs stay unreviewed');
  }
  recordUnnamedSections(ctx, { treeId, leaves, recorded, hidden });
  return failed;

  function rates(): Partial<ProgressEvent> {
    const tokensPerSecond = meter.tokensPerSecond();
    const etaSeconds = meter.etaSeconds(unitsLeft);
    return { findings: findingsSoFar, ...(tokensPerSecond === undefined ? {} : { tokensPerSecond }), ...(etaSeconds === undefined ? {} : { etaSeconds }) };
  }
}

/**
 * The IDs the rules found that no finding of the document covers, and the recorded findings whose detailed section
 * is in the text but that no finding stands for, asked for in focused follow-up calls once every unit is done
 * (extract/followUp.ts); each call's findings are committed to their leaves as soon as it is answered. A resume asks
 * again for what is still uncovered. What stays uncovered goes to the unreviewed list, or is named by the
 * completeness check as a listed entry without a finding.
 */
async function askAgainForUncovered(
  ctx: DocumentContext,
  input: { treeId: number; leaves: readonly ChunkNode[]; mentions: readonly IdMention[]; arriving: ArrivingCount; recorded: RecordedList; hidden: readonly HiddenSpan[]; itemLists: readonly ItemList[] },
): Promise<void> {
  const { db, runId, documentId } = ctx;
  const { client } = ctx.llm!;
  const stored = listFindings(db, runId, documentId);
  const uncovered = uncoveredMentions(input.mentions, stored);
  // A section whose printed ID is asked for already needs no second question.
  const askedIds = new Set(uncovered.map((m) => m.normalized));
  const sections = unnamedSections(ctx.doc, ctx.settings.profile, input.recorded, input.hidden, stored).filter((s) => !(s.entry.id && askedIds.has(s.entry.id)));
  // Items of a list most of whose items were reported, that no finding covers (an item printing an ID asked for is asked by it).
  const analysed = stored.filter((f) => f.type !== LISTED_ENTRY_TYPE && f.grounding.status === 'grounded' && f.grounding.start !== null && f.grounding.end !== null);
  const items = itemsWithoutFinding(input.itemLists, analysed.map((f) => ({ start: f.grounding.start!, end: f.grounding.end! })))
    .map((u) => u.item)
    .filter((item) => !uncovered.some((m) => m.start >= item.start && m.start < item.end));
  if ((uncovered.length === 0 && sections.length === 0 && items.length === 0) || input.leaves.length === 0) return;
  const ids = askedIds.size + sections.length + items.length;
  const all = { leaves: [...input.leaves], start: input.leaves[0]!.start, end: input.leaves.at(-1)!.end, tokens: 0 };
  let findings = input.arriving.count;
  ctx.report('extract', input.leaves.length, input.leaves.length, `asking again for ${ids} ID${ids === 1 ? '' : 's'}, listed finding${ids === 1 ? '' : 's'} or list item${ids === 1 ? '' : 's'} no finding covers`, { findings });
  throwIfAborted(ctx.signal);
  await askForUncoveredMentions(
    client,
    {
      doc: ctx.doc,
      profile: ctx.settings.profile,
      mentions: uncovered,
      allMentions: input.mentions,
      sections,
      recorded: input.recorded,
      hidden: input.hidden,
      items,
      ...extractionCalls(ctx),
    },
    (batch) => {
      const byLeaf = new Map<number, GroundedFinding[]>();
      for (const f of batch.findings) {
        const leaf = leafOfFinding(all, f).index;
        byLeaf.set(leaf, [...(byLeaf.get(leaf) ?? []), f]);
      }
      const chunks = [...byLeaf.entries()].map(([nodeIndex, findings]) => ({ runId, documentId, treeId: input.treeId, nodeIndex, findings }));
      // A call that found nothing is still recorded, on the first leaf, so the log and the chunk agree.
      appendChunkFindings(db, { chunks: chunks.length > 0 ? chunks : [{ runId, documentId, treeId: input.treeId, nodeIndex: input.leaves[0]!.index, findings: [] }], callIds: [batch.callId] });
      findings = input.arriving.add(batch.findings);
    },
  );
  ctx.report('extract', input.leaves.length, input.leaves.length, `asked again for ${ids} ID${ids === 1 ? '' : 's'}, listed finding${ids === 1 ? '' : 's'} or list item${ids === 1 ? '' : 's'}, ${findings} findings so far`, { findings });
}

/**
 * The recorded findings whose detailed section the rules find but that no analysed finding stands for, even after
 * asking again (a model that skips a section, or reads it as something else): each section's heading is stored as
 * the rules read it (its heading as the quote, its opening sentence, its printed severity), with the type of a listed
 * entry, so the finding opens on its own section and not on a contents line or a summary row (re-trial 2026-11-29
 * row 2), and is still not taken as analysed: the completeness check names it as before. Stored once: a resume finds
 * the heading already recorded.
 */
function recordUnnamedSections(ctx: DocumentContext, input: { treeId: number; leaves: readonly ChunkNode[]; recorded: RecordedList; hidden: readonly HiddenSpan[] }): void {
  const { db, runId, documentId } = ctx;
  if (input.leaves.length === 0 || input.recorded.entries.length === 0) return;
  const stored = listFindings(db, runId, documentId);
  const recordedAt = new Set(stored.filter((f) => f.type === LISTED_ENTRY_TYPE).map((f) => f.grounding.start));
  const sections = unnamedSections(ctx.doc, ctx.settings.profile, input.recorded, input.hidden, stored).filter((s) => !recordedAt.has(s.start));
  if (sections.length === 0) return;
  const all = { leaves: [...input.leaves], start: input.leaves[0]!.start, end: input.leaves.at(-1)!.end, tokens: 0 };
  // A section listed twice (its contents line and its summary row) is one heading: recorded once, under the listed
  // title its heading prints most of (a summary row's title may hold the next cell, "... iterations Cryptography").
  const byStart = new Map<number, GroundedFinding>();
  for (const { start, detail } of sections) {
    const kept = byStart.get(start);
    if (!kept || printedShare(detail.title, detail.evidence) > printedShare(kept.title, kept.evidence)) byStart.set(start, detail);
  }
  const byLeaf = new Map<number, GroundedFinding[]>();
  for (const detail of byStart.values()) {
    const leaf = leafOfFinding(all, detail).index;
    byLeaf.set(leaf, [...(byLeaf.get(leaf) ?? []), { ...detail, type: LISTED_ENTRY_TYPE }]);
  }
  appendChunkFindings(db, { chunks: [...byLeaf.entries()].map(([nodeIndex, findings]) => ({ runId, documentId, treeId: input.treeId, nodeIndex, findings })), callIds: [] });
}

/** Share of a title's words that a quote prints. */
function printedShare(title: string, quote: string): number {
  const quoted = new Set(words(quote));
  const own = words(title);
  return own.filter((w) => quoted.has(w)).length / Math.max(1, own.length);
}

/** The run's settings for every extraction call of this document (units and follow-ups alike). */
function extractionCalls(ctx: DocumentContext): ExtractionCallSettings {
  const { plan } = ctx.llm!;
  return {
    model: plan.models.extract,
    numCtx: plan.numCtx,
    maxReplyTokens: plan.replyTokens,
    runId: ctx.runId,
    documentId: ctx.documentId,
    cache: ctx.settings.llm.cache,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  };
}

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
  const rows = listsToRead(ctx.doc.text, findListings(textLines(ctx.doc), ctx.doc.text, ctx.settings.profile, ctx.settings.idPatterns)).flatMap((l) => l.entries);
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
  saveSummary(ctx.db, { runId: ctx.runId, documentId: ctx.documentId, text: result.text, chunkCount: result.chunkCount, levels: result.levels, model: plan.models.summary, ungroundedIds });
  if (result.capped) ctx.log.info({ stage: 'summary', documentId: ctx.documentId, ...result.capped }, 'unit summaries shortened for the summary budget');
  if (ungroundedIds.length > 0) ctx.log.warn({ stage: 'summary', documentId: ctx.documentId, ungroundedIds }, 'the summary names IDs no grounded finding has');
  const shortened = result.capped ? ` (${result.capped.note})` : '';
  const marked = ungroundedIds.length > 0 ? `; it names ${ungroundedIds.join(', ')}, which no verified finding has (marked)` : '';
  ctx.report('summary', 1, 1, `summary from ${result.chunkCount} chunks in ${result.levels} levels${shortened}${marked}`);
}

