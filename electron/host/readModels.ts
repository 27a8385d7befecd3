/**
 * Read models for the views: what the window shows of runs (with live and
 * kept progress), documents, chunk trees, chunk text with highlights and ID
 * mentions, built from the engine's stores. No SQL here: the stores own it.
 */
import { basename } from 'node:path';
import type {
  ChunkText,
  DocumentSummary,
  FindingView,
  Highlight,
  InputProgress,
  LastRun,
  MentionView,
  RunInputView,
  RunProgressPayload,
  RunView,
  SplitAttemptView,
  TreeView,
} from '../../shared/contract';
import { AppError, ErrorCode, type ErrorInfo } from '../../shared/errors';
import type { ProgressEvent, RunStatus } from '../../shared/types';
import type { Engine } from '../engine';
import { picturePagesOf, shownStatus, summarizeVerdict, type VerdictSummary } from '../../shared/runOutcome';
import { LISTED_ENTRY_TYPE } from '../../shared/findings';
import { getCompleteness, latestCompleteness } from '../engine/completeness';
import { listChunkResults } from '../engine/extract';
import {
  getCurrentTree,
  getRun,
  latestRunWithLlmResults,
  listRunInputs,
  loadChunks,
  loadExtractedDocument,
  loadMentions,
  type Database,
  type RunInput,
  type StoredRun,
} from '../engine/store';
import { documentArriving } from './arriving';
import { inputFraction, isFinished, overallFraction, wholeRunEta } from './progress';

/** Where the views' data comes from; tests may substitute fixed findings and split attempts. */
export interface HostProviders {
  findings?: (query: { documentId?: number; runId?: number }) => FindingView[];
  splitAttempts?: (documentId: number) => SplitAttemptView[];
}

/** What the views need of a run the host is executing. */
export interface LiveRun {
  startedAt: number;
  /** The overall fraction when this execution started (a resumed run starts part-way); set on the first payload. */
  startOverall: number | null;
  /** Latest progress per input ordinal. */
  progress: Map<number, InputProgress>;
  lastEvent: ProgressEvent | null;
  /** The run's earlier executions in this session (before a pause): share gained and working seconds; null for none. */
  earlier: { gained: number; seconds: number } | null;
  /** This execution so far, as last reported: the overall fraction and working seconds (kept for the next execution's history). */
  reached: { overall: number; seconds: number } | null;
}

export interface ReadModels {
  runView(run: StoredRun): RunView;
  progressPayload(runId: number): RunProgressPayload | null;
  documentSummaries(): DocumentSummary[];
  tree(documentId: number): TreeView | null;
  chunkText(documentId: number, nodeIndex: number): ChunkText;
  mentionViews(documentId: number): MentionView[];
}

export interface ReadModelDeps {
  db: Database;
  engine: Engine;
  providers: HostProviders;
  live: (runId: number) => LiveRun | undefined;
  nowMs?: () => number;
}

/** What the read models share: their dependencies and the last few documents' text (a chunk view reads it often). */
interface ReadContext extends Required<ReadModelDeps> {
  textCache: Map<number, string>;
}

export function createReadModels(deps: ReadModelDeps): ReadModels {
  const ctx: ReadContext = { ...deps, nowMs: deps.nowMs ?? (() => Date.now()), textCache: new Map() };
  return {
    runView: (run) => runView(ctx, run),
    progressPayload: (runId) => progressPayload(ctx, runId),
    documentSummaries: () => documentSummaries(ctx),
    tree: (documentId) => tree(ctx, documentId),
    chunkText: (documentId, nodeIndex) => chunkText(ctx, documentId, nodeIndex),
    mentionViews: (documentId) => mentionViews(ctx, documentId),
  };
}

/**
 * A file's error with the parts its analysis could not do, when that is all that failed: the chunks that failed
 * beside chunks that were analysed, and their pages. The store keeps an error's code and sentence only; the views
 * need the parts to say "Done with problems: 8 parts not analysed (pp. 83-96)" (shared/runOutcome partsNotAnalysed).
 */
function withParts({ db }: ReadContext, runId: number, documentId: number | null, error: ErrorInfo | null): ErrorInfo | null {
  if (!error || documentId === null) return error;
  const results = listChunkResults(db, runId, documentId);
  const failed = results.filter((r) => r.status === 'failed');
  if (failed.length === 0 || !results.some((r) => r.status === 'done')) return error;
  const nodes = new Map(loadChunks(db, failed[0]!.treeId).map((n) => [n.index, n]));
  const pages = new Set<number>();
  for (const r of failed) {
    const node = nodes.get(r.nodeIndex);
    if (node) for (let p = node.pageStart; p <= node.pageEnd; p++) pages.add(p);
  }
  return { ...error, details: { ...error.details, failedChunks: failed.map((r) => r.nodeIndex), failedPages: [...pages].sort((a, b) => a - b) } };
}

/** Chunks committed by a stopped input, so its bar keeps what it did. */
function committedChunks({ db }: ReadContext, runId: number, input: RunInput): { done: number; total: number } | null {
  if (input.documentId === null || input.phase !== 'extract') return null;
  const results = listChunkResults(db, runId, input.documentId);
  return { done: results.filter((r) => r.status === 'done' || r.status === 'failed').length, total: results.length };
}

function inputView(ctx: ReadContext, run: StoredRun, input: RunInput, live: LiveRun | undefined): RunInputView {
  const liveProgress = live?.progress.get(input.ordinal);
  const error = input.status === 'failed' ? withParts(ctx, run.id, input.documentId, input.error) : input.error;
  const stopped = input.status === 'paused' || input.status === 'cancelled';
  const committed = stopped ? committedChunks(ctx, run.id, input) : null;
  const fraction = inputFraction(run.mode, input, liveProgress, committed);
  let progress: InputProgress | null = null;
  if (input.status === 'running' && liveProgress) progress = { ...liveProgress, fraction };
  else if (stopped && input.phase)
    progress = { phase: input.phase, current: committed?.done ?? 0, total: committed?.total ?? 0, message: input.status, fraction };
  return {
    ordinal: input.ordinal,
    fileName: basename(input.filePath),
    filePath: input.filePath,
    documentId: input.documentId,
    status: input.status,
    phase: input.phase,
    error,
    warnings: input.warnings,
    progress,
    // A file analysed but for some parts has its verdict too: it is shown "Done with problems", not failed.
    verdict:
      shownStatus(input.status, error) === 'done' && input.documentId !== null
        ? verdictOf(getCompleteness(ctx.db, run.id, input.documentId), input.warnings)
        : null,
  };
}

/** The verdict as the badges read it: pages that hold only pictures are no place to check. */
function verdictOf(verdict: ReturnType<typeof getCompleteness>, warnings: readonly ErrorInfo[]): VerdictSummary | null {
  return verdict ? summarizeVerdict(verdict, picturePagesOf(warnings)) : null;
}

function runView(ctx: ReadContext, run: StoredRun): RunView {
  const live = ctx.live(run.id);
  const { id, mode, status, createdAt, startedAt, finishedAt, error } = run;
  const inputs = listRunInputs(ctx.db, id).map((i) => inputView(ctx, run, i, live));
  return { id, mode, status, createdAt, startedAt, finishedAt, error, active: live !== undefined, inputs };
}

function progressPayload(ctx: ReadContext, runId: number): RunProgressPayload | null {
  const run = getRun(ctx.db, runId);
  if (!run) return null;
  const live = ctx.live(runId);
  const inputs = listRunInputs(ctx.db, runId).map((i) => inputView(ctx, run, i, live));
  const fractions = inputs.map((i) => (isFinished(i.status) ? 1 : (i.progress?.fraction ?? 0)));
  const overall = overallFraction(fractions);
  const event = live?.lastEvent ?? { runId, phase: 'done', current: 0, total: 0, message: '' };
  let etaSeconds: number | null = null;
  let elapsedSeconds: number | null = null;
  if (live) {
    live.startOverall ??= overall;
    const running = inputs.filter((i) => i.status === 'running');
    const current = running[0];
    const currentLeft = current ? (1 - (current.progress?.fraction ?? 0)) / inputs.length : 0;
    const engineEstimate = typeof event.etaSeconds === 'number' && event.ordinal === current?.ordinal ? event.etaSeconds : undefined;
    elapsedSeconds = (ctx.nowMs() - live.startedAt) / 1000;
    live.reached = { overall, seconds: elapsedSeconds };
    etaSeconds = wholeRunEta({
      overall,
      startOverall: live.startOverall,
      elapsedSeconds,
      currentInputLeft: currentLeft,
      inputsInFlight: running.length,
      ...(current?.progress?.phase ? { currentPhase: current.progress.phase } : {}),
      ...(engineEstimate === undefined ? {} : { currentInputSeconds: engineEstimate }),
      ...(live.earlier ? { earlier: live.earlier } : {}),
    });
  }
  return {
    runId,
    event,
    overall,
    etaSeconds,
    tokensPerSecond: typeof event.tokensPerSecond === 'number' ? event.tokensPerSecond : null,
    inputs,
    elapsedSeconds,
    resumed: live ? (live.startOverall ?? 0) > 0 : false,
  };
}

function documentSummaries(ctx: ReadContext): DocumentSummary[] {
  const { db, engine, providers } = ctx;
  const last = new Map<number, { run: LastRun; status: RunStatus; error: ErrorInfo | null; warnings: ErrorInfo[] }>();
  for (const run of engine.listRuns().reverse()) {
    for (const input of listRunInputs(db, run.id)) {
      if (input.documentId === null || last.has(input.documentId)) continue;
      last.set(input.documentId, {
        run: { runId: run.id, status: run.status, at: run.finishedAt ?? run.startedAt ?? run.createdAt },
        status: input.status,
        error: input.status === 'failed' ? withParts(ctx, run.id, input.documentId, input.error) : input.error,
        warnings: input.warnings,
      });
    }
  }
  return engine.listDocuments().map((d): DocumentSummary => {
    const l = last.get(d.id);
    const findings = providers.findings?.({ documentId: d.id });
    return {
      id: d.id,
      fileName: d.fileName,
      pageCount: d.pageCount,
      sha256: d.sha256,
      status: l?.status ?? 'stored',
      // null = never analysed with the LLM (rules-only), as opposed to analysed with no findings.
      findingsCount: findings && (findings.length > 0 || latestRunWithLlmResults(db, d.id) !== null) ? findings.length : null,
      listedOnlyCount: findings?.filter((f) => f.type === LISTED_ENTRY_TYPE).length ?? 0,
      lastRun: l?.run ?? null,
      error: l?.error ?? null,
      arrivingCount: l && (l.status === 'running' || l.status === 'paused' || l.status === 'cancelled') ? documentArriving(db, d.id).findings.length : null,
      verdict: verdictOf(latestCompleteness(db, d.id).verdict, l?.warnings ?? []),
    };
  });
}

function documentText({ db, textCache }: ReadContext, documentId: number): string {
  let text = textCache.get(documentId);
  if (text === undefined) {
    const doc = loadExtractedDocument(db, documentId);
    if (!doc) throw new AppError(ErrorCode.INVALID_INPUT, `There is no document ${documentId}. Refresh the library.`);
    text = doc.text;
    if (textCache.size >= 4) textCache.delete(textCache.keys().next().value!);
    textCache.set(documentId, text);
  }
  return text;
}

function uniqueMentions({ db }: ReadContext, documentId: number) {
  const seen = new Set<string>();
  return loadMentions(db, documentId).filter((m) => {
    const key = `${m.start}:${m.end}:${m.normalized}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function tree({ db }: ReadContext, documentId: number): TreeView | null {
  const current = getCurrentTree(db, documentId);
  return current ? { documentId, treeId: current.id, strategy: current.strategy, nodes: loadChunks(db, current.id) } : null;
}

function chunkText(ctx: ReadContext, documentId: number, nodeIndex: number): ChunkText {
  const current = getCurrentTree(ctx.db, documentId);
  const node = current ? loadChunks(ctx.db, current.id).find((n) => n.index === nodeIndex) : undefined;
  if (!node) throw new AppError(ErrorCode.INVALID_INPUT, `Document ${documentId} has no chunk ${nodeIndex}. Reload the tree.`);
  const text = documentText(ctx, documentId).slice(node.start, node.end);
  const inside = (start: number, end: number) => start < node.end && end > node.start;
  const clip = (start: number, end: number) => ({ start: Math.max(0, start - node.start), end: Math.min(node.end, end) - node.start });
  const highlights: Highlight[] = [
    ...uniqueMentions(ctx, documentId)
      .filter((m) => inside(m.start, m.end))
      .map((m): Highlight => ({ ...clip(m.start, m.end), kind: 'mention', label: m.normalized })),
    ...(ctx.providers.findings?.({ documentId }) ?? []).flatMap((f) =>
      f.sources
        .filter((s) => s.evidenceStart !== null && s.evidenceEnd !== null && inside(s.evidenceStart, s.evidenceEnd))
        .map((s): Highlight => ({ ...clip(s.evidenceStart!, s.evidenceEnd!), kind: 'evidence', label: f.findingKey ?? f.title })),
    ),
  ].sort((a, b) => a.start - b.start);
  return {
    documentId,
    nodeIndex,
    title: node.title,
    origin: node.origin,
    start: node.start,
    end: node.end,
    pageStart: node.pageStart,
    pageEnd: node.pageEnd,
    text,
    highlights,
  };
}

function mentionViews(ctx: ReadContext, documentId: number): MentionView[] {
  const groups = new Map<string, MentionView>();
  for (const m of uniqueMentions(ctx, documentId)) {
    let group = groups.get(m.normalized);
    if (!group) {
      group = { id: m.normalized, patternName: m.patternName, pages: [], occurrences: [] };
      groups.set(m.normalized, group);
    }
    group.occurrences.push({ raw: m.raw, start: m.start, end: m.end, page: m.page });
    if (!group.pages.includes(m.page)) group.pages.push(m.page);
  }
  return [...groups.values()].map((g) => ({ ...g, pages: g.pages.sort((a, b) => a - b) }));
}
