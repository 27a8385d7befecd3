/**
 * The pipeline's extraction step: every leaf of the chunk tree analysed, in units of consecutive leaves (one LLM call
 * each, one at a time; see extract/units.ts), then focused follow-up calls for what no finding covers. Each unit's
 * findings are committed with its leaves' done marks in one transaction as soon as it is analysed, so a kill loses
 * at most the unit in flight, and a resume starts at the first unfinished unit.
 */
import { isStorageErrorCode, toErrorInfo, type ErrorInfo } from '../../../shared/errors';
import { LISTED_ENTRY_TYPE, type GroundedFinding } from '../../../shared/findings';
import type { ChunkNode, IdMention, ProgressEvent } from '../../../shared/types';
import {
  appendChunkFindings,
  askForUncoveredMentions,
  commitUnitResult,
  expectedFindingsByLeaf,
  expectedReplyTokens,
  extractUnit,
  leafOfFinding,
  listChunkResults,
  listFindings,
  markChunkFailed,
  markChunkRunning,
  packUnits,
  previousTailFor,
  queueChunks,
  recordedBlock,
  requeueRunningChunks,
  uncoveredMentions,
  unnamedSections,
  type ExtractionCallSettings,
  type ExtractionUnit,
  type ExtractUnitResult,
} from '../extract';
import { isRunWideLlmError } from '../llm';
import {
  findItemLists,
  findListings,
  hiddenSpansOf,
  isHidden,
  itemsWithoutFinding,
  listsToRead,
  recordedList,
  recordedWithin,
  textLines,
  withEveryTitleSighting,
  words,
  type HiddenSpan,
  type ItemList,
  type ListedRows,
  type RecordedList,
} from '../printed';
import { nextTurn, runInSlices, throwIfAborted, timeStage } from '../util';
import { ArrivingCount } from './arrivingFindings';
import type { DocumentContext } from './documentContext';
import { createRateMeter } from './progress';

export interface FailedChunk {
  nodeIndex: number;
  pageStart: number;
  pageEnd: number;
  error: ErrorInfo;
}

/**
 * Every leaf analysed; returns the leaves whose replies stayed broken (marked failed, visibly: the run goes on).
 * A unit whose replies stay broken is tried again leaf by leaf. Cancel and pause stop before the next unit; the unit
 * in flight goes back to the queue.
 */
export async function extractDocument(
  ctx: DocumentContext,
  treeId: number,
  leaves: readonly ChunkNode[],
  mentions: readonly IdMention[],
): Promise<FailedChunk[]> {
  const { db, runId, documentId } = ctx;
  queueChunks(
    db,
    { runId, documentId, treeId },
    leaves.map((leaf) => leaf.index),
  );
  const lists = await readDocumentLists(ctx, leaves, mentions);
  const queue = new UnitQueue(planUnits(ctx, leaves, lists));
  const progress = new ExtractionProgress(ctx, leaves.length, leaves.length - queue.leavesLeft(), new ArrivingCount(listFindings(db, runId, documentId)));
  const failed: FailedChunk[] = [];
  for (let unit = queue.next(); unit; unit = queue.next()) {
    throwIfAborted(ctx.signal);
    progress.starting(unit, queue.left());
    try {
      const result = await analyseUnit(ctx, treeId, unit, leaves, lists);
      progress.arrived(result.findings);
      if (
        result.listEndedAt !== undefined &&
        queue.capLists(result.listEndedAt, (rest, cap) =>
          packUnits(rest, lists.unitBudget, () => true, replyPlan(lists, Math.min(ctx.llm!.plan.replyTokens, expectedReplyTokens(cap)))),
        )
      ) {
        // The model ends its lists after about this many entries: the units still to come are packed to hold no more,
        // so each reply ends where its text does instead of being continued over the rest of its unit again.
        ctx.log.info(
          { stage: 'extract', documentId, listCap: result.listEndedAt, units: queue.left() - 1 },
          'the model ends its lists early: the remaining units are packed smaller',
        );
      }
    } catch (error) {
      const info = unitFailure(ctx, error);
      if (unit.leaves.length > 1) {
        // A unit whose replies stay broken is tried again leaf by leaf: it fails no more text than one call per leaf would.
        progress.retried();
        queue.retryLeafByLeaf(unit);
        continue;
      }
      ctx.log.warn({ stage: 'extract', documentId, nodeIndexes: unit.leaves.map((leaf) => leaf.index), code: info.code, err: error }, 'unit failed');
      for (const leaf of unit.leaves) {
        markChunkFailed(db, { runId, documentId, treeId, nodeIndex: leaf.index }, info);
        failed.push({ nodeIndex: leaf.index, pageStart: leaf.pageStart, pageEnd: leaf.pageEnd, error: info });
      }
    }
    progress.finished(unit, queue.left() - 1);
  }
  try {
    await askAgainForUncovered(ctx, {
      treeId,
      leaves,
      mentions: lists.asked,
      arriving: progress.arriving,
      recorded: lists.recorded,
      hidden: lists.hidden,
      itemLists: lists.itemLists,
    });
  } catch (error) {
    // A follow-up that fails loses nothing: its IDs stay uncovered and go to the unreviewed list, as without it.
    const info = toErrorInfo(error, ctx.log.path);
    if (ctx.signal?.aborted || isRunWideLlmError(info.code) || isStorageErrorCode(info.code)) throw error;
    ctx.log.warn({ stage: 'extract', documentId, code: info.code, err: error }, 'follow-up call failed; its IDs stay unreviewed');
  }
  await recordUnnamedSections(ctx, { treeId, leaves, recorded: lists.recorded, hidden: lists.hidden });
  return failed;
}

/**
 * The document's own lists of findings (summary table, contents) as the rules read them, and what follows for the
 * prompts: the rules read their rows and the model is not shown them, so it writes each finding once, from its
 * detailed section (printed/listedRows.ts); the findings they name go with every unit as a numbered list.
 */
interface DocumentLists {
  listings: readonly ListedRows[];
  hidden: readonly HiddenSpan[];
  /** Itemised lists besides them (a changelog's bullets): their items no finding covers are asked for again at the end. */
  itemLists: readonly ItemList[];
  recorded: RecordedList;
  /** The ID mentions outside the hidden lists: what the model is asked for. */
  asked: readonly IdMention[];
  /** The prompt tokens a unit's text may take: the plan's unit budget less the recorded list's. */
  unitBudget: number;
  /** Findings each leaf's text is expected to hold (its distinct printed IDs): how much reply room its unit needs. */
  expected: ReadonlyMap<number, number>;
}

/** Each step alone is short; the event loop gets its turn between them (a 236-page manual held it 250 ms in one go). */
async function readDocumentLists(ctx: DocumentContext, leaves: readonly ChunkNode[], mentions: readonly IdMention[]): Promise<DocumentLists> {
  const { client, plan } = ctx.llm!;
  const lines = textLines(ctx.doc);
  await nextTurn();
  const allListings = timeStage('mentions', () => findListings(lines, ctx.doc.text, ctx.settings.profile, ctx.settings.idPatterns));
  await nextTurn();
  const listings = listsToRead(ctx.doc.text, allListings);
  const itemLists = findItemLists(lines, allListings);
  await nextTurn();
  const hidden = hiddenSpansOf(listings);
  // The recorded list is sent with every unit: its tokens come out of the unit budget, so every prompt stays planned.
  // A leaf over the unit budget is a unit of its own, so the list may take only the room the context leaves beside a
  // whole leaf: with a small context (an OpenAI-compatible server started with 4,096 tokens) it is cut, even to
  // nothing, rather than eat the reply's room (trial 2026-11-28 row 18: 121 of 193 replies cut at the length limit).
  const blockTokens = (text: string) => client.estimator.estimateText(recordedBlock(text), plan.models.extract);
  const recorded = recordedWithin(recordedList(listings), Math.max(0, plan.textTokenRoom - plan.chunkTokenBudget), blockTokens);
  const recordedTokens = recorded.text ? blockTokens(recorded.text) : 0;
  const asked = mentions.filter((m) => !isHidden(m.start, hidden));
  const expected = expectedFindingsByLeaf(leaves, asked);
  return { listings, hidden, itemLists, recorded, asked, unitBudget: Math.max(1, plan.unitTokenBudget - recordedTokens), expected };
}

/**
 * The units still to analyse: only leaves not done are packed (a resumed run starts at the first unfinished unit and
 * redoes it whole), planned by the reply each unit will need too (a dense table gets a small unit: units.ts ReplyPlan).
 */
function planUnits(ctx: DocumentContext, leaves: readonly ChunkNode[], lists: DocumentLists): ExtractionUnit[] {
  const done = new Set(
    listChunkResults(ctx.db, ctx.runId, ctx.documentId)
      .filter((r) => r.status === 'done')
      .map((r) => r.nodeIndex),
  );
  return packUnits(leaves, lists.unitBudget, (leaf) => !done.has(leaf.index), replyPlan(lists, ctx.llm!.plan.replyTokens));
}

const replyPlan = (lists: DocumentLists, room: number) => ({ room, expected: (leaf: ChunkNode) => lists.expected.get(leaf.index) ?? 0 });

/** One unit asked of the model; its findings filed under their leaves and committed with the leaves' done marks. */
async function analyseUnit(
  ctx: DocumentContext,
  treeId: number,
  unit: ExtractionUnit,
  leaves: readonly ChunkNode[],
  lists: DocumentLists,
): Promise<ExtractUnitResult> {
  const { db, runId, documentId } = ctx;
  const ref = { runId, documentId, treeId };
  const first = unit.leaves[0]!;
  const last = unit.leaves.at(-1)!;
  for (const leaf of unit.leaves) markChunkRunning(db, { ...ref, nodeIndex: leaf.index });
  const previousTail = previousTailFor(ctx.doc, leaves, leaves.indexOf(first));
  const result = await extractUnit(
    { llm: ctx.llm!.client, db },
    {
      doc: ctx.doc,
      chunk: { ...first, end: unit.end, pageEnd: last.pageEnd, tokenEstimate: unit.tokens },
      boundaries: unit.leaves.slice(1).map((leaf) => leaf.start),
      ...(previousTail ? { previousTail } : {}),
      profile: ctx.settings.profile,
      // The reply room is planned from the IDs the unit prints.
      mentions: lists.asked,
      listings: lists.listings,
      ...(lists.recorded.text ? { recorded: lists.recorded } : {}),
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
  return { ...result, findings };
}

/**
 * What a unit's failure means: a cancel puts the unit in flight back in the queue (redone on resume, nothing
 * half-written stays) and stops; the model or the store failing is the run's problem, not this unit's: the run
 * stops, resumable at this unit. Anything else is this unit's failure, returned.
 */
function unitFailure(ctx: DocumentContext, error: unknown): ErrorInfo {
  if (ctx.signal?.aborted) {
    requeueRunningChunks(ctx.db, ctx.runId);
    throwIfAborted(ctx.signal);
  }
  const info = toErrorInfo(error, ctx.log.path);
  if (isRunWideLlmError(info.code) || isStorageErrorCode(info.code)) throw error;
  return info;
}

/**
 * The units to analyse, in order. It changes while it runs: a unit whose replies stay broken is replaced by its
 * leaves, and once a model shows how many entries it lists in one reply, the units after the current one are packed
 * again to hold no more.
 */
export class UnitQueue {
  private readonly units: ExtractionUnit[];
  /** Index of the unit handed out last (-1 before the first). */
  private at = -1;
  /** The fewest entries a reply listed before ending its list early, once one did. */
  private listCap: number | undefined;

  constructor(units: readonly ExtractionUnit[]) {
    this.units = [...units];
  }

  next(): ExtractionUnit | undefined {
    this.at++;
    return this.units[this.at];
  }

  /** Units not finished, the current one included. */
  left(): number {
    return this.units.length - Math.max(0, this.at);
  }

  /** Leaves in units not yet handed out. */
  leavesLeft(): number {
    return this.units.slice(this.at + 1).reduce((n, u) => n + u.leaves.length, 0);
  }

  /** The current unit's leaves, each a unit of its own, next in line. */
  retryLeafByLeaf(unit: ExtractionUnit): void {
    this.units.splice(this.at + 1, 0, ...unit.leaves.map((leaf) => ({ leaves: [leaf], start: leaf.start, end: leaf.end, tokens: leaf.tokenEstimate })));
  }

  /**
   * The units after the current one packed again by `repack` for a model that ends its lists after `cap` entries,
   * when that is fewer than any reply showed before. Says whether it repacked.
   */
  capLists(cap: number, repack: (leaves: ChunkNode[], cap: number) => ExtractionUnit[]): boolean {
    if (this.listCap !== undefined && cap >= this.listCap) return false;
    this.listCap = cap;
    const rest = this.units.slice(this.at + 1).flatMap((u) => u.leaves);
    this.units.splice(this.at + 1, this.units.length - this.at - 1, ...repack(rest, cap));
    return true;
  }
}

/** The extraction's progress as the user sees it: chunks done, findings so far, the measured rate and time left. */
class ExtractionProgress {
  private readonly meter;

  constructor(
    private readonly ctx: DocumentContext,
    private readonly total: number,
    private done: number,
    readonly arriving: ArrivingCount,
  ) {
    this.meter = createRateMeter(ctx.db, ctx.runId);
  }

  starting(unit: ExtractionUnit, unitsLeft: number): void {
    const first = unit.leaves[0]!;
    const last = unit.leaves.at(-1)!;
    const pages = first.pageStart === last.pageEnd ? `${first.pageStart}` : `${first.pageStart}-${last.pageEnd}`;
    const which = unit.leaves.length === 1 ? `chunk ${this.done + 1}` : `chunks ${this.done + 1}-${this.done + unit.leaves.length}`;
    this.ctx.report('extract', this.done, this.total, `${which} of ${this.total} (pages ${pages})`, this.rates(unitsLeft));
    this.meter.chunkStarted();
  }

  arrived(findings: readonly GroundedFinding[]): void {
    this.arriving.add(findings);
  }

  /** A unit given back to be tried leaf by leaf: its time is not a unit's pace. */
  retried(): void {
    this.meter.chunkFinished();
  }

  finished(unit: ExtractionUnit, unitsLeft: number): void {
    this.meter.chunkFinished();
    this.done += unit.leaves.length;
    this.ctx.report(
      'extract',
      this.done,
      this.total,
      `chunk ${this.done} of ${this.total} analysed, ${this.arriving.count} findings so far`,
      this.rates(unitsLeft),
    );
  }

  private rates(unitsLeft: number): Partial<ProgressEvent> {
    const tokensPerSecond = this.meter.tokensPerSecond();
    const etaSeconds = this.meter.etaSeconds(unitsLeft);
    return {
      findings: this.arriving.count,
      ...(tokensPerSecond === undefined ? {} : { tokensPerSecond }),
      ...(etaSeconds === undefined ? {} : { etaSeconds }),
    };
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
  input: {
    treeId: number;
    leaves: readonly ChunkNode[];
    mentions: readonly IdMention[];
    arriving: ArrivingCount;
    recorded: RecordedList;
    hidden: readonly HiddenSpan[];
    itemLists: readonly ItemList[];
  },
): Promise<void> {
  const { db, runId, documentId } = ctx;
  const { client } = ctx.llm!;
  const stored = listFindings(db, runId, documentId);
  const uncovered = uncoveredMentions(input.mentions, stored);
  // A section whose printed ID is asked for already needs no second question.
  const askedIds = new Set(uncovered.map((m) => m.normalized));
  const sections = (await runInSlices(unnamedSections(ctx.doc, ctx.settings.profile, input.recorded, input.hidden, stored), sliceOptions(ctx))).filter(
    (s) => !(s.entry.id && askedIds.has(s.entry.id)),
  );
  // Items of a list most of whose items were reported, that no finding covers (an item printing an ID asked for is asked by it).
  const analysed = stored.filter(
    (f) => f.type !== LISTED_ENTRY_TYPE && f.grounding.status === 'grounded' && f.grounding.start !== null && f.grounding.end !== null,
  );
  const items = itemsWithoutFinding(
    input.itemLists,
    analysed.map((f) => ({ start: f.grounding.start!, end: f.grounding.end! })),
  )
    .map((u) => u.item)
    .filter((item) => !uncovered.some((m) => m.start >= item.start && m.start < item.end));
  if ((uncovered.length === 0 && sections.length === 0 && items.length === 0) || input.leaves.length === 0) return;
  const ids = askedIds.size + sections.length + items.length;
  let findings = input.arriving.count;
  ctx.report(
    'extract',
    input.leaves.length,
    input.leaves.length,
    `asking again for ${ids} ID${ids === 1 ? '' : 's'}, listed finding${ids === 1 ? '' : 's'} or list item${ids === 1 ? '' : 's'} no finding covers`,
    { findings },
  );
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
      const chunks = filedByLeaf(ctx, input.treeId, input.leaves, batch.findings);
      // A call that found nothing is still recorded, on the first leaf, so the log and the chunk agree.
      appendChunkFindings(db, {
        chunks: chunks.length > 0 ? chunks : [{ runId, documentId, treeId: input.treeId, nodeIndex: input.leaves[0]!.index, findings: [] }],
        callIds: [batch.callId],
      });
      findings = input.arriving.add(batch.findings);
    },
  );
  ctx.report(
    'extract',
    input.leaves.length,
    input.leaves.length,
    `asked again for ${ids} ID${ids === 1 ? '' : 's'}, listed finding${ids === 1 ? '' : 's'} or list item${ids === 1 ? '' : 's'}, ${findings} findings so far`,
    { findings },
  );
}

/**
 * The recorded findings whose detailed section the rules find but that no analysed finding stands for, even after
 * asking again (a model that skips a section, or reads it as something else): each section's heading is stored as
 * the rules read it (its heading as the quote, its opening sentence, its printed severity), with the type of a listed
 * entry, so the finding opens on its own section and not on a contents line or a summary row (re-trial 2026-11-29
 * row 2), and is still not taken as analysed: the completeness check names it as before. Stored once: a resume finds
 * the heading already recorded.
 */
async function recordUnnamedSections(
  ctx: DocumentContext,
  input: { treeId: number; leaves: readonly ChunkNode[]; recorded: RecordedList; hidden: readonly HiddenSpan[] },
): Promise<void> {
  const { db, runId, documentId } = ctx;
  if (input.leaves.length === 0 || input.recorded.entries.length === 0) return;
  const stored = listFindings(db, runId, documentId);
  const recordedAt = new Set(stored.filter((f) => f.type === LISTED_ENTRY_TYPE).map((f) => f.grounding.start));
  const sections = (await runInSlices(unnamedSections(ctx.doc, ctx.settings.profile, input.recorded, input.hidden, stored), sliceOptions(ctx))).filter(
    (s) => !recordedAt.has(s.start),
  );
  if (sections.length === 0) return;
  // A section listed twice (its contents line and its summary row) is one heading: recorded once, under the listed
  // title its heading prints most of (a summary row's title may hold the next cell, "... iterations Cryptography").
  const byStart = new Map<number, GroundedFinding>();
  for (const { start, detail } of sections) {
    const kept = byStart.get(start);
    if (!kept || printedShare(detail.title, detail.evidence) > printedShare(kept.title, kept.evidence)) byStart.set(start, detail);
  }
  const headings = [...byStart.values()].map((detail) => ({ ...detail, type: LISTED_ENTRY_TYPE }));
  appendChunkFindings(db, { chunks: filedByLeaf(ctx, input.treeId, input.leaves, headings), callIds: [] });
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
    replyTokens: plan.replyTokens,
    runId: ctx.runId,
    documentId: ctx.documentId,
    cache: ctx.settings.llm.cache,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  };
}

/** Long rules work of the extraction step in slices, stopping at a cancel like the units do. */
function sliceOptions(ctx: DocumentContext): { signal?: AbortSignal } {
  return ctx.signal ? { signal: ctx.signal } : {};
}

/** Findings found after the units (follow-ups, recorded sections), each filed under the leaf its quote lies in. */
function filedByLeaf(ctx: DocumentContext, treeId: number, leaves: readonly ChunkNode[], findings: readonly GroundedFinding[]) {
  const all = { leaves: [...leaves], start: leaves[0]!.start, end: leaves.at(-1)!.end, tokens: 0 };
  const byLeaf = new Map<number, GroundedFinding[]>();
  for (const f of findings) {
    const leaf = leafOfFinding(all, f).index;
    byLeaf.set(leaf, [...(byLeaf.get(leaf) ?? []), f]);
  }
  return [...byLeaf.entries()].map(([nodeIndex, filed]) => ({ runId: ctx.runId, documentId: ctx.documentId, treeId, nodeIndex, findings: filed }));
}
