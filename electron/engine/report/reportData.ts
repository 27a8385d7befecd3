import { simulatorOf } from '../../../shared/simulator';
import type { CompletenessVerdict } from '../../../shared/completeness';
import { AppError, ErrorCode, type ErrorInfo } from '../../../shared/errors';
import type { DocumentSummary, FindingSource, MergeConflict, MergedFinding, UnreviewedMention } from '../../../shared/findings';
import type { JudgeSource } from '../../../shared/treesplit';
import type { ChunkNode, IdMention } from '../../../shared/types';
import type { ReviewExportFinding, ReviewSummary, RunModel } from '../../../shared/review';
import { getCompleteness } from '../completeness';
import { listChunkResults } from '../extract';
import { listJudgeDecisions } from '../judge';
import { listLlmCalls, type LlmCallRecord } from '../llm';
import { listMergeConflicts, listMergedFindings, unreviewedMentions } from '../merge';
import { listOcrPages } from '../ocr';
import { ocrPageInfo } from '../../../shared/ocr';
import type { OcrPageInfo } from '../../../shared/contract';
import { getReviewedFinding, getRunModels, getRunReview, type RunReview } from '../review';
import { conversationsAbout } from '../retrieval';
import { getSummary } from '../summary';
import type { StoredConversation } from '../../../shared/retrieval';
import type { StoredRunSettings } from '../../../shared/runSettings';
import { picturePagesNote, picturePagesOf, placesToCheckOf, summarizeVerdict, verdictHeadline } from '../../../shared/runOutcome';
import { stableHash } from '../util';
import {
  documentText,
  getCurrentTree,
  getDocument,
  getRun,
  listRunEvents,
  listRunInputs,
  loadChunks,
  loadMentions,
  pagesWithoutTextLayer,
  runSettingsOf,
  treeStrategy,
  unreadablePages,
  type Database,
  type StoredDocument,
  type StoredRun,
} from '../store';

/** One ID with every place it is mentioned. */
export interface MentionGroup {
  id: string;
  pages: number[];
  mentions: IdMention[];
}

export interface FailedChunk {
  nodeIndex: number;
  title: string;
  pageStart: number;
  pageEnd: number;
  error: ErrorInfo;
}

/** A finding's source with what the report shows around its quote. */
export interface ReportSource extends FindingSource {
  /**
   * A few words of the canonical text before and after the evidence (grounded sources only; null otherwise),
   * with the space that separates them from it when there is one.
   */
  contextBefore: string | null;
  contextAfter: string | null;
  /** The document's own text at the evidence offsets (it differs from the quote for normalized and fuzzy matches). */
  documentText: string | null;
  /** Set when the evidence's page was read by OCR: its words may be misread (low: below LOW_OCR_CONFIDENCE). */
  ocr: OcrPageInfo | null;
  /**
   * The page number the document prints on this source's page when it differs from the PDF page ("7" on PDF
   * page 8); set by withPrintedLabels (printedLabels.ts) before a report is rendered, absent otherwise.
   */
  printed?: string | null;
}

/** A page whose text was read by OCR: the window's shape, so a report says what the app says. */
export type { OcrPageInfo } from '../../../shared/contract';

export interface ReportFinding extends MergedFinding {
  sources: ReportSource[];
  /**
   * The auditor's review of this merged finding: the reviewed findings that stand for it
   * (one as a rule; several after a split; empty when the document has no review).
   */
  review: ReviewExportFinding[];
}

/** A reviewed finding as the report lists it, with its evidence when it was added by hand. */
export interface ReportReviewFinding extends ReviewExportFinding {
  /** Manual findings: the canonical-text slice the auditor selected (grounded by construction); null otherwise. */
  manualEvidence: { start: number; end: number; page: number; text: string } | null;
}

/** A document's review as the report carries it: counts over every finding, and the findings listed. */
export interface ReportReview extends Omit<ReviewSummary, 'findings'> {
  findings: ReportReviewFinding[];
}

/** LLM calls, tokens and time, from the call log (one row per attempt; cached replies cost no model time). */
export interface LlmUsage {
  calls: number;
  cached: number;
  failed: number;
  retried: number;
  promptTokens: number;
  evalTokens: number;
  /** Sum of Ollama's reported total durations. */
  llmMs: number;
  byModel: { model: string; calls: number; promptTokens: number; evalTokens: number; llmMs: number }[];
}

/** The chunking judge's decision for this document in this run. */
export interface ReportJudge {
  strategy: string;
  source: JudgeSource;
  justification: string;
  fallbackReason: string | null;
  cached: boolean;
  targetChunkTokens: number;
  overlapChars: number;
}

/** Two merged findings sharing a printed ID or number that clearly disagree, with what the auditor needs to judge. */
export interface ReportMergeConflict {
  kind: 'id' | 'number' | 'title';
  key: string;
  findings: { findingId: number; title: string; mainPage: number | null }[];
}

export interface ReportDocument {
  document: StoredDocument;
  pagesWithoutText: number[];
  /** Pages that could not be read (damaged content), with the reason. */
  unreadablePages: { page: number; reason: string }[];
  /** Pages whose text was read by OCR (no usable text layer), low-confidence ones flagged. */
  ocrPages: OcrPageInfo[];
  /** Strategy of the chunk tree that was analysed. */
  strategy: string | null;
  judge: ReportJudge | null;
  nodes: ChunkNode[];
  mentionGroups: MentionGroup[];
  /** Full mode only: merged findings; grounded ones are verified, the others are listed apart. */
  findings: ReportFinding[];
  /** IDs the document mentions that no finding covers: what the model may have missed. */
  unreviewedMentions: UnreviewedMention[];
  /** Findings kept apart although the document gives them the same ID or number: for the auditor to resolve. */
  mergeConflicts: ReportMergeConflict[];
  failedChunks: FailedChunk[];
  summary: DocumentSummary | null;
  usage: LlmUsage;
  /** The auditor's review (full mode; null in rules-only runs). */
  review: ReportReview | null;
  /** What the document says it contains against what was found (full mode; null when the check did not run). */
  completeness: CompletenessVerdict | null;
  /** Pages that hold only pictures, in the one quiet sentence the app uses (null when there are none). */
  picturePagesNote: string | null;
}

export interface ReportInput {
  filePath: string;
  status: string;
  error: ErrorInfo | null;
  warnings: ErrorInfo[];
  document: ReportDocument | null;
}

/** How the run was configured and what it cost: the header an auditor shows to say how the analysis was made. */
export interface ReportRunInfo {
  /** Wall time from start to finish (of the last resume when resumed); null while unfinished. */
  durationMs: number | null;
  /** What the runner recorded after probing Ollama; null for rules-only runs or runs that never reached the LLM. */
  llm: {
    description: string;
    models: Record<string, string>;
    numCtx: number | null;
    chunkTokenBudget: number | null;
    /** The server said it is a stand-in, not a language model (shared/simulator.ts): its description; null for a real one. */
    simulator: string | null;
  } | null;
  profileName: string | null;
  strategyChoice: string;
  judgeEnabled: boolean;
  usage: LlmUsage;
  /** Every model the run used, with the digest Ollama listed for it (null when the run did not log one). */
  models: RunModel[];
}

export interface ReportData {
  run: StoredRun;
  runInfo: ReportRunInfo;
  generatedAt: string;
  appVersion: string;
  inputs: ReportInput[];
  /** Only findings an auditor confirmed are listed (the review counts still cover all). */
  confirmedOnly: boolean;
  /**
   * Questions asked about the report's documents (Ask): their own conversations and library
   * conversations citing them, oldest first. Kept as stored, so the report shows what was answered.
   */
  conversations: StoredConversation[];
}

export interface CollectOptions {
  appVersion: string;
  now: Date;
  /** Only this document (a per-document export); the run's other inputs are left out. */
  documentId?: number;
  /** Only findings an auditor confirmed (see limitToConfirmed). */
  confirmedOnly?: boolean;
}

/** Everything a report shows, read from the store; exporters only format it. */
export function collectReportData(db: Database, runId: number, meta: CollectOptions): ReportData {
  const run = getRun(db, runId);
  if (!run) throw new AppError(ErrorCode.RUN_NOT_FOUND, `There is no run ${runId} in this database. List runs to find the right number.`);
  const settings = runSettingsOf(run);
  const rulesHash = stableHash(settings.idPatterns);
  const calls = listLlmCalls(db, { runId });
  let runInputs = listRunInputs(db, runId);
  if (meta.documentId !== undefined) {
    runInputs = runInputs.filter((input) => input.documentId === meta.documentId);
    if (runInputs.length === 0)
      throw new AppError(
        ErrorCode.INVALID_INPUT,
        `Document ${meta.documentId} is not part of run ${runId}. Export the whole run or pick one of its documents.`,
      );
  }
  const fullMode = settings.mode === 'full';
  // The review of every document the run analysed (carried over to this run first when it is older).
  const review = fullMode ? getRunReview(db, runId) : null;
  const inputs = runInputs.map((input): ReportInput => {
    const document = input.documentId === null ? undefined : getDocument(db, input.documentId);
    return {
      filePath: input.filePath,
      status: input.status,
      error: input.error,
      warnings: input.warnings,
      document: document ? collectDocument(db, run, document, rulesHash, fullMode, calls, review, picturePagesOf(input.warnings)) : null,
    };
  });
  const documentIds = inputs.flatMap((input) => (input.document ? [input.document.document.id] : []));
  const data: ReportData = {
    run,
    runInfo: collectRunInfo(db, run, settings, calls),
    generatedAt: meta.now.toISOString(),
    appVersion: meta.appVersion,
    inputs,
    confirmedOnly: false,
    conversations: conversationsAbout(db, documentIds),
  };
  return meta.confirmedOnly ? limitToConfirmed(data) : data;
}

/**
 * The report limited to findings an auditor confirmed: merged findings with at
 * least one confirmed review, and the confirmed reviewed findings (manual ones
 * included). The review counts keep covering every finding, so the report
 * still says how many were rejected or left open.
 */
export function limitToConfirmed(data: ReportData): ReportData {
  if (data.confirmedOnly) return data;
  return {
    ...data,
    confirmedOnly: true,
    inputs: data.inputs.map((input) =>
      input.document
        ? {
            ...input,
            document: {
              ...input.document,
              findings: input.document.findings.filter((f) => f.review.some((r) => r.state === 'confirmed')),
              review: input.document.review && {
                ...input.document.review,
                confirmedOnly: true,
                findings: input.document.review.findings.filter((r) => r.state === 'confirmed'),
              },
            },
          }
        : input,
    ),
  };
}

function collectRunInfo(db: Database, run: StoredRun, settings: StoredRunSettings, calls: readonly LlmCallRecord[]): ReportRunInfo {
  const started = run.startedAt ? Date.parse(run.startedAt) : NaN;
  const finished = run.finishedAt ? Date.parse(run.finishedAt) : NaN;
  // The runner logs the plan once per start or resume: the latest is what the run finished with.
  const planEvent = listRunEvents(db, run.id)
    .filter((event) => isPlanData(event.data))
    .at(-1);
  const plan = planEvent && isPlanData(planEvent.data) ? planEvent.data : undefined;
  return {
    durationMs: Number.isFinite(started) && Number.isFinite(finished) ? Math.max(0, finished - started) : null,
    llm:
      plan && planEvent
        ? {
            description: planEvent.message,
            models: plan.models,
            numCtx: plan.numCtx ?? null,
            chunkTokenBudget: plan.chunkTokenBudget ?? null,
            simulator: simulatorOf(plan),
          }
        : null,
    profileName: settings.profile?.name ?? null,
    strategyChoice: settings.strategy ?? 'auto',
    judgeEnabled: settings.judge ?? false,
    usage: llmUsage(calls),
    models: getRunModels(db, run.id).models,
  };
}

function isPlanData(data: unknown): data is { models: Record<string, string>; numCtx?: number; chunkTokenBudget?: number } {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { models?: unknown }).models === 'object' &&
    (data as { models?: unknown }).models !== null &&
    'numCtx' in data
  );
}

export function llmUsage(calls: readonly LlmCallRecord[]): LlmUsage {
  const usage: LlmUsage = { calls: 0, cached: 0, failed: 0, retried: 0, promptTokens: 0, evalTokens: 0, llmMs: 0, byModel: [] };
  const byModel = new Map<string, LlmUsage['byModel'][number]>();
  for (const call of calls) {
    usage.calls += 1;
    if (call.outcome === 'cached') usage.cached += 1;
    if (call.outcome === 'failed') usage.failed += 1;
    if (call.outcome === 'retried') usage.retried += 1;
    const prompt = call.promptEvalCount ?? 0;
    const evalTokens = call.evalCount ?? 0;
    const ms = call.totalMs ?? 0;
    usage.promptTokens += prompt;
    usage.evalTokens += evalTokens;
    usage.llmMs += ms;
    const model = byModel.get(call.model) ?? { model: call.model, calls: 0, promptTokens: 0, evalTokens: 0, llmMs: 0 };
    model.calls += 1;
    model.promptTokens += prompt;
    model.evalTokens += evalTokens;
    model.llmMs += ms;
    byModel.set(call.model, model);
  }
  usage.byModel = [...byModel.values()].sort((a, b) => a.model.localeCompare(b.model));
  return usage;
}

function collectDocument(
  db: Database,
  run: StoredRun,
  document: StoredDocument,
  rulesHash: string,
  fullMode: boolean,
  calls: readonly LlmCallRecord[],
  runReview: RunReview | null,
  picturePages: readonly number[],
): ReportDocument {
  // The tree this run analysed (its chunk results point at it), else the document's current one.
  const results = fullMode ? listChunkResults(db, run.id, document.id) : [];
  const treeId = results[0]?.treeId ?? getCurrentTree(db, document.id)?.id;
  const nodes = treeId === undefined ? [] : loadChunks(db, treeId);
  const strategy = treeId === undefined ? null : treeStrategy(db, treeId)!;
  const mentions = loadMentions(db, document.id, rulesHash);
  const merged = fullMode ? listMergedFindings(db, run.id, document.id) : [];
  const text = merged.length > 0 ? canonicalText(db, document.id) : '';
  const reviewOf = (mergedId: number): ReviewExportFinding[] =>
    (runReview?.byMergedId.get(mergedId) ?? []).flatMap((id) => {
      const r = runReview?.byReviewId.get(id);
      return r ? [r] : [];
    });
  const ocrPages = listOcrPages(db, document.id).map(ocrPageInfo);
  const ocrByPage = new Map(ocrPages.map((info) => [info.page, info]));
  const findings = merged.map(
    (f): ReportFinding => ({
      ...f,
      sources: f.sources.map((s) => ({ ...withContext(s, text), ocr: (s.page !== null && ocrByPage.get(s.page)) || null })),
      review: reviewOf(f.id),
    }),
  );
  const summaryOfReview = runReview?.documents.find((d) => d.documentId === document.id);
  const summary = fullMode ? getSummary(db, run.id, document.id) : undefined;
  return {
    document,
    pagesWithoutText: pagesWithoutTextLayer(db, document.id),
    unreadablePages: unreadablePages(db, document.id),
    ocrPages,
    strategy,
    judge: fullMode ? judgeForRun(db, run, document.id) : null,
    nodes,
    mentionGroups: groupMentions(mentions),
    findings,
    unreviewedMentions: fullMode ? unreviewedMentions(mentions, findings) : [],
    mergeConflicts: fullMode ? conflictsOf(listMergeConflicts(db, run.id, document.id), findings) : [],
    failedChunks: results
      .filter((r) => r.status === 'failed')
      .map((r) => {
        const node = nodes[r.nodeIndex]!;
        return { nodeIndex: r.nodeIndex, title: node.title, pageStart: node.pageStart, pageEnd: node.pageEnd, error: r.error! };
      }),
    summary: summary ? { text: summary.text, chunkCount: summary.chunkCount, levels: summary.levels, ungroundedIds: summary.ungroundedIds } : null,
    usage: llmUsage(calls.filter((c) => c.documentId === document.id)),
    review: fullMode && summaryOfReview ? reportReview(db, summaryOfReview) : null,
    completeness: fullMode ? asTheAppSaysIt(getCompleteness(db, run.id, document.id), picturePages) : null,
    picturePagesNote: picturePagesNote(picturePages),
  };
}

function reportReview(db: Database, summary: ReviewSummary): ReportReview {
  return {
    ...summary,
    findings: summary.findings.map((f): ReportReviewFinding => {
      const manual = f.origin === 'manual' ? getReviewedFinding(db, f.reviewId)?.manualEvidence : null;
      return { ...f, manualEvidence: manual ? { start: manual.start, end: manual.end, page: manual.page, text: manual.text } : null };
    }),
  };
}

/**
 * Judge decisions carry no run id: the run's decision is the latest one made
 * while the run was going (a resume reuses the tree, so it may be older than
 * the last resume but never newer than the run's end).
 */
function judgeForRun(db: Database, run: StoredRun, documentId: number): ReportJudge | null {
  const end = run.finishedAt ?? '9999';
  const decision = listJudgeDecisions(db, documentId)
    .filter((d) => d.createdAt >= run.createdAt && d.createdAt <= end)
    .at(-1);
  if (!decision) return null;
  return {
    strategy: decision.strategy,
    source: decision.source,
    justification: decision.justification,
    fallbackReason: decision.fallbackReason,
    cached: decision.cached,
    targetChunkTokens: decision.targetChunkTokens,
    overlapChars: decision.overlapChars,
  };
}

function canonicalText(db: Database, documentId: number): string {
  return documentText(db, documentId) ?? '';
}

const CONTEXT_WORDS = 8;
const CONTEXT_SCAN_CHARS = 240;
const DOCUMENT_TEXT_MAX = 2000;

function withContext(source: FindingSource, text: string): Omit<ReportSource, 'ocr'> {
  const { evidenceStart: start, evidenceEnd: end } = source;
  if (!source.grounded || start === null || end === null || end > text.length || start > end) {
    return { ...source, contextBefore: null, contextAfter: null, documentText: null };
  }
  const raw = text.slice(start, Math.min(end, start + DOCUMENT_TEXT_MAX));
  return {
    ...source,
    contextBefore: contextWords(text.slice(Math.max(0, start - CONTEXT_SCAN_CHARS), start), 'before'),
    contextAfter: contextWords(text.slice(end, end + CONTEXT_SCAN_CHARS), 'after'),
    documentText: flatten(raw) + (end - start > DOCUMENT_TEXT_MAX ? ' …' : ''),
  };
}

/** Line and page breaks become spaces: context is a phrase, not layout. */
function flatten(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The few words next to the evidence, on one line. The space between them and
 * the evidence is kept (or its absence, when the evidence starts or ends
 * inside a word), so `before + evidence + after` reads as the document does.
 */
export function contextWords(side: string, where: 'before' | 'after', count = CONTEXT_WORDS): string {
  const flat = side.replace(/\s+/g, ' ');
  const words = flat.trim().split(' ').filter(Boolean);
  if (words.length === 0) return '';
  if (where === 'before') return words.slice(-count).join(' ') + (flat.endsWith(' ') ? ' ' : '');
  return (flat.startsWith(' ') ? ' ' : '') + words.slice(0, count).join(' ');
}

export function groupMentions(mentions: readonly IdMention[]): MentionGroup[] {
  const groups = new Map<string, MentionGroup>();
  for (const mention of mentions) {
    const group = groups.get(mention.normalized) ?? { id: mention.normalized, pages: [], mentions: [] };
    group.mentions.push(mention);
    if (!group.pages.includes(mention.page)) group.pages.push(mention.page);
    groups.set(mention.normalized, group);
  }
  return [...groups.values()].sort((a, b) => a.mentions[0]!.start - b.mentions[0]!.start);
}

function conflictsOf(conflicts: readonly MergeConflict[], findings: readonly ReportFinding[]): ReportMergeConflict[] {
  const byId = new Map(findings.map((f) => [f.id, f]));
  return conflicts.map((c) => ({
    kind: c.kind,
    key: c.key,
    findings: c.mergedIds.flatMap((id) => {
      const f = byId.get(id);
      return f ? [{ findingId: f.id, title: f.title, mainPage: f.mainPage }] : [];
    }),
  }));
}

/**
 * The verdict as the app shows it: a page that holds only pictures (OCR found no words) is no place to check, and
 * the headline counts the places left, so a report and the library badge never disagree.
 */
function asTheAppSaysIt(verdict: CompletenessVerdict | null, picturePages: readonly number[]): CompletenessVerdict | null {
  if (!verdict || picturePages.length === 0) return verdict;
  const places = placesToCheckOf(verdict, picturePages);
  const summary = summarizeVerdict(verdict, picturePages);
  return { ...verdict, status: summary.status, places, headline: verdictHeadline(summary) };
}
