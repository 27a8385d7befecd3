/**
 * One leaf chunk (or extraction unit) -> its findings (grounded) and a short summary (the linear
 * chunking-with-aggregation design: every call gets the full instructions). A reply cut at its length limit is never
 * thrown away: its complete findings are kept and the same text is asked again from after the last one (a long list
 * that ended normally is continued the same way); the IDs printed in the unit that no finding covers are then asked
 * for in focused follow-up calls. A prompt that does not fit (or that Ollama cut, or a reply cut before its first
 * finding was complete) splits the text in two at a leaf, paragraph or sentence boundary; text is never truncated.
 * Any other failure is thrown (AppError) for the pipeline to mark the chunk failed.
 */
import type { Database } from 'better-sqlite3';
import { pageAt } from '../../../shared/canonical';
import { AppError, ErrorCode } from '../../../shared/errors';
import { DEFAULT_PROFILE, type ExtractionProfile, type GroundedFinding } from '../../../shared/findings';
import type { ListedEntry } from '../../../shared/completeness';
import type { ChunkNode, ExtractedDocument, IdMention } from '../../../shared/types';
import { DEFAULT_LLM_SETTINGS, type LlmClient } from '../llm';
import {
  hasVisibleText,
  hiddenSpansOf,
  isHidden,
  rowFinding,
  rowsWithin,
  withHiddenSpans,
  type ListedRows,
  type RecordedList,
  NormalizedViews,
} from '../printed';
import { parsePartialExtractionReply, type ReplyEntry } from './partialReply';
import { groundFinding } from './groundFinding';
import { groundPrintedLine, parsePrintedLine } from './printedEntries';
import { buildExtractionMessages, extractionReplySchema, type ExtractionReply } from './prompts';
import { recordedByTitle, recordedDetail, standsFor, titleOnly } from './recordedDetails';
import { planExtractionReplyTokens } from './replyBudget';

export interface ExtractDeps {
  llm: LlmClient;
  /** Not needed by extraction itself (the client logs calls); kept for symmetry with the pipeline. */
  db?: Database;
}

/** How every extraction call of a run is made: the model, its context and reply room, the run it is logged under. */
export interface ExtractionCallSettings {
  model: string;
  numCtx: number;
  /**
   * The most num_predict any call may get (the reply room the run's num_ctx was planned with; default the client's
   * num_predict). Each call's num_predict is planned from the text it carries, up to this (replyBudget.ts).
   */
  replyTokens?: number;
  runId?: number;
  documentId?: number;
  cache?: boolean;
  signal?: AbortSignal;
}

/** The client options of one extraction call (a unit, its continuation or a follow-up), logged under `chunkRef`. */
export function extractionCallOptions(settings: ExtractionCallSettings, chunkRef: string) {
  return {
    purpose: 'extract' as const,
    model: settings.model,
    numCtx: settings.numCtx,
    runId: settings.runId ?? null,
    documentId: settings.documentId ?? null,
    chunkRef,
    ...(settings.cache !== undefined ? { cache: settings.cache } : {}),
    ...(settings.signal ? { signal: settings.signal } : {}),
  };
}

export interface ExtractUnitInput extends ExtractionCallSettings {
  doc: ExtractedDocument;
  chunk: ChunkNode;
  /** The previous chunk's tail, shown to the model as CONTEXT ONLY (see previousTailFor). */
  previousTail?: string;
  /**
   * Where the text may be split when it is too much for one call: the starts of the leaves of an extraction unit.
   * The one nearest the middle is used, so a unit never gets a boundary its leaves did not already have (a heading
   * stays with its text); without one inside the range, splitPoint chooses.
   */
  boundaries?: readonly number[];
  profile?: ExtractionProfile;
  /**
   * The document's ID mentions (rules). Those inside the chunk that no finding of its reply covers are asked for
   * again in a focused follow-up call (askAgainForSkipped); without them, no follow-up is made.
   */
  mentions?: readonly IdMention[];
  /**
   * The document's own lists of findings (summary table, contents) as the rules read them: hidden from the model
   * (one placeholder line each) and each row inside the chunk added as a finding of its own (listedRows.ts).
   */
  listings?: readonly ListedRows[];
  /**
   * The findings those lists name, numbered (listedRows.ts recordedList), shown before the text: the model gives one
   * whose detailed section it reads by its number, and the rules read that section (recordedDetails.ts).
   */
  recorded?: RecordedList;
}

/** Text shown before the analysed text as CONTEXT ONLY, and where it lies in the canonical text. */
interface ReplyContext {
  text: string;
  range: { start: number; end: number } | undefined;
}

export interface ExtractUnitResult {
  findings: GroundedFinding[];
  summary: string;
  /** LLM calls made (more than 1 when the chunk had to be split). */
  calls: number;
  /** llm_calls.call_id of each successful call, for chunk_results. */
  callIds: string[];
  /** How many pieces the chunk was analysed in (1 unless split). */
  pieces: number;
  /**
   * The fewest entries after which a reply of this chunk ended its list by itself while the text held more (its
   * continuation found findings): about the most this model lists in one reply. Undefined when no reply ended early.
   */
  listEndedAt?: number;
}

/** Errors that mean "this text is too much for one call": split and retry the halves. */
const SPLIT_CODES = new Set<string>([ErrorCode.LLM_CONTEXT_OVERFLOW, ErrorCode.LLM_TRUNCATED_PROMPT, ErrorCode.LLM_REPLY_CUT]);
const MAX_SPLIT_DEPTH = 6;
/** A reply cut again and again on the same text is a model in a loop, not a dense unit: stop after this many. */
const MAX_CONTINUATIONS = 40;
/**
 * A reply that lists this many findings and ends normally is continued after its last one: small local models end
 * long lists early (after 15-30 items) without saying so, and the text after the last finding costs little to ask.
 */
export const LONG_LIST = 15;
/** A list that ended early after fewer entries says little about the model (it may have stopped in its numbers). */
const MIN_LEARNED_LIST = 8;
const MIN_SPLIT_CHARS = 200;
/**
 * Leaves that start at a heading (the outline's or a detected one). The model's tree split cuts at a line it chose,
 * which may be inside a paragraph: its leaves keep the tail.
 */
const OPENS_SECTION = new Set<ChunkNode['origin']>(['outline', 'heading']);
// Enough to see the start of a sentence or finding cut by the boundary; every character is re-sent (and re-evaluated) with the next chunk.
const DEFAULT_TAIL_CHARS = 400;

/** One piece of a unit's text as it is asked: where it lies, the context shown before it, and where it came from. */
interface Piece {
  start: number;
  end: number;
  context: ReplyContext | undefined;
  /** The call-log reference ("12#4.a+2": unit 4, first half, second continuation). */
  ref: string;
  /** How many times the unit's text was halved to reach this piece (MAX_SPLIT_DEPTH). */
  depth: number;
  /** How many continuations in a row led here (MAX_CONTINUATIONS). */
  continuation: number;
}

/** One extraction call's outcome: the reply (validated), its raw content, its call record, and whether it was cut. */
type ExtractionCall = Awaited<ReturnType<LlmClient['chatJson']>> & { value: ExtractionReply };

/**
 * One unit's text -> its findings: the model's, grounded, and the rows of the document's own lists inside the unit
 * (read by the rules). The model's replies follow the continuation policy of UnitExtraction.
 */
export async function extractUnit(deps: ExtractDeps, input: ExtractUnitInput): Promise<ExtractUnitResult> {
  const { doc, chunk } = input;
  const unit = new UnitExtraction(deps, input);
  const context = input.previousTail ? { text: input.previousTail, range: locateTail(doc.text, input.previousTail, chunk.start) } : undefined;
  const baseRef = `${input.documentId ?? doc.sha256.slice(0, 12)}#${chunk.index}`;
  const extracted = await unit.analyse({ start: chunk.start, end: chunk.end, context, ref: baseRef, depth: 0, continuation: 0 });
  const rows = rowsWithin(input.listings ?? [], chunk.start, chunk.end).map((entry) => rowFinding(doc, unit.profile, entry));
  return { ...extracted, findings: [...extracted.findings, ...rows] };
}

/**
 * The continuation policy of one unit, with its state explicit: what the unit's calls share (the hidden lists, the
 * mentions the model is asked for, the normalised views the rules read recorded sections in) is fixed at the start;
 * each piece carries its own depth and continuation count. A reply ends in one of three ways:
 * - whole: kept; the text after its last finding is asked too when the model may have stopped listing early;
 * - cut at the length limit: every complete finding kept, the same text asked again from after the last one;
 * - refused as too much text (or cut before its first finding): the text is halved at a boundary.
 */
class UnitExtraction {
  readonly profile: ExtractionProfile;
  private readonly doc: ExtractedDocument;
  private readonly hidden: ReturnType<typeof hiddenSpansOf>;
  /** The IDs the model is asked for: the rows of a hidden list are the rules' findings, never asked of the model. */
  private readonly mentions: readonly IdMention[];
  /** The stretches of text the rules read recorded sections in, each normalised once for every entry looked up there. */
  private readonly views: NormalizedViews;
  private readonly tailChars: number;

  constructor(
    private readonly deps: ExtractDeps,
    private readonly input: ExtractUnitInput,
  ) {
    this.doc = input.doc;
    this.profile = input.profile ?? DEFAULT_PROFILE;
    this.hidden = hiddenSpansOf(input.listings ?? []);
    this.mentions = (input.mentions ?? []).filter((m) => !isHidden(m.start, this.hidden));
    this.views = new NormalizedViews(input.doc.text);
    this.tailChars = input.previousTail?.length || DEFAULT_TAIL_CHARS;
  }

  /** One piece asked, and what its reply calls for next (nothing, a continuation, or two halves). */
  async analyse(piece: Piece): Promise<ExtractUnitResult> {
    // Text that is all hidden lists (the rules read its rows) needs no call.
    if (!this.visible(piece.start, piece.end)) return { findings: [], summary: '', calls: 0, callIds: [], pieces: 1 };
    let reply: ExtractionCall;
    try {
      reply = await this.call(piece);
    } catch (error) {
      // A client that cannot hand back a cut reply (or a prompt that does not fit): split as before.
      if (error instanceof AppError && SPLIT_CODES.has(error.code) && this.canSplit(piece)) return this.split(piece);
      throw error;
    }
    return reply.cut ? this.afterCutReply(piece, reply) : this.afterWholeReply(piece, reply);
  }

  /**
   * A reply that ended by itself. A long list may be a model that stops listing early: the text after its last
   * finding is asked too. So is the text after a shorter list when a recorded finding's detailed section there went
   * unnamed, or when many IDs printed there are not covered (a model that stops after 10 in a unit of 40 issues).
   */
  private async afterWholeReply(piece: Piece, reply: ExtractionCall): Promise<ExtractUnitResult> {
    const findings = this.ground(reply.value.findings, reply.value.recorded, piece);
    const whole: ExtractUnitResult = { findings, summary: reply.value.summary.trim(), calls: 1, callIds: [reply.call.callId], pieces: 1 };
    const last = resumePoint(findings, piece.start, piece.end);
    if (last === undefined || !this.mayHaveStopped(last, piece.end, findings)) return whole;
    if (!this.mayHoldMore(last, piece.end, findings) || piece.continuation >= MAX_CONTINUATIONS) return whole;
    const rest = await this.analyse(this.continuationOf(piece, last));
    // The text after the list held findings: the model ended its list early, after this many entries.
    const endedEarly = rest.findings.length > 0 && reply.value.findings.length >= MIN_LEARNED_LIST ? { listEndedAt: reply.value.findings.length } : {};
    return combine({ ...whole, ...endedEarly }, rest);
  }

  /** Cut at the limit: keep every finding written whole and continue the same text after the last one. */
  private async afterCutReply(piece: Piece, reply: ExtractionCall): Promise<ExtractUnitResult> {
    const partial = parsePartialExtractionReply(reply.content);
    const kept = this.ground(partial.findings, partial.recorded, piece);
    const resumeAt = resumePoint(kept, piece.start, piece.end);
    const cutCall: ExtractUnitResult = { findings: [], summary: '', calls: 1, callIds: [reply.call.callId], pieces: 1 };
    if (resumeAt === undefined) {
      // Nothing complete to continue after (one finding longer than the whole reply room): only a split can help.
      // The cut call is logged and counted; it analysed no piece.
      if (this.canSplit(piece)) return combine({ ...cutCall, pieces: 0 }, await this.split(piece));
      throw new AppError(
        ErrorCode.LLM_REPLY_CUT,
        `The reply was cut at the length limit before its first finding was complete, and the text cannot be split further; the chunk is marked failed.`,
        {
          model: this.input.model,
          chunkRef: piece.ref,
          reply: reply.content.slice(0, 2000),
        },
      );
    }
    const mine: ExtractUnitResult = { ...cutCall, findings: kept, summary: partial.summary?.trim() ?? '' };
    if (!this.visible(resumeAt, piece.end)) return mine;
    if (piece.continuation >= MAX_CONTINUATIONS) {
      throw new AppError(
        ErrorCode.LLM_REPLY_CUT,
        `The reply was cut at the length limit ${MAX_CONTINUATIONS} times in a row on the same text; the chunk is marked failed.`,
        {
          model: this.input.model,
          chunkRef: piece.ref,
        },
      );
    }
    return combine(mine, await this.analyse(this.continuationOf(piece, resumeAt)));
  }

  /** The piece halved at the unit's leaf boundary nearest its middle (else a paragraph, line or sentence), each half asked. */
  private async split(piece: Piece): Promise<ExtractUnitResult> {
    const mid = nearestBoundary(this.input.boundaries ?? [], piece.start, piece.end) ?? splitPoint(this.doc.text, piece.start, piece.end);
    const deeper = piece.depth + 1;
    const first = await this.analyse({ ...piece, end: mid, ref: `${piece.ref}.a`, depth: deeper });
    const second = await this.analyse({ ...piece, start: mid, context: this.contextBefore(mid, piece.start), ref: `${piece.ref}.b`, depth: deeper });
    return combine(first, second);
  }

  private canSplit(piece: Piece): boolean {
    return piece.depth < MAX_SPLIT_DEPTH && piece.end - piece.start >= MIN_SPLIT_CHARS;
  }

  /** The rest of a piece's text, from `resumeAt`, with the text just before it as context. */
  private continuationOf(piece: Piece, resumeAt: number): Piece {
    const continuation = piece.continuation + 1;
    return { ...piece, start: resumeAt, context: this.contextBefore(resumeAt, piece.start), ref: continuationRef(piece.ref, continuation), continuation };
  }

  private async call(piece: Piece): Promise<ExtractionCall> {
    const { doc, hidden, input } = this;
    const { start, end, context, ref } = piece;
    const messages = buildExtractionMessages({
      profile: this.profile,
      doc,
      start,
      end,
      firstPage: pageAt(doc.pages, start),
      ...(context ? { context: context.text } : {}),
      chunkLabel: ref,
      hidden,
      ...(input.recorded?.text ? { recorded: input.recorded.text } : {}),
    });
    const textTokens = this.deps.llm.estimator.estimateText(withHiddenSpans(doc.text, start, end, hidden), input.model);
    const numPredict = planExtractionReplyTokens(textTokens, input.replyTokens ?? DEFAULT_LLM_SETTINGS.numPredict, this.idsWithin(start, end));
    return this.deps.llm.chatJson({ ...extractionCallOptions(input, ref), schema: extractionReplySchema, messages, numPredict, acceptCutReply: true });
  }

  /** The reply's findings grounded, then the detailed sections of the recorded findings it named by number, read by the rules. */
  private ground(reported: readonly ReplyEntry[], recorded: readonly number[], piece: Piece): GroundedFinding[] {
    const range = { start: piece.start, end: piece.end };
    const entries = this.input.recorded?.entries ?? [];
    const detailOf = (entry: ListedEntry | undefined, title?: string) =>
      entry ? recordedDetail(this.doc, this.profile, entry, range, this.hidden, this.views, title) : null;
    const details = [...new Set(recorded)].flatMap((n) => detailOf(entries[n - 1]) ?? []);
    // A finding given by its title alone (a bare title, an object without ID or quote) that the recorded list names,
    // whose detailed section is in the text: read there by the rules, as if the model had given its number.
    const byTitle = reported.map((f) => {
      const title = titleOnly(f, this.profile);
      return title === null ? null : detailOf(recordedByTitle(entries, title), title);
    });
    const rest = reported.filter((_, i) => byTitle[i] === null);
    return [...groundReply(this.doc, this.profile, rest, range, piece.context?.range), ...details, ...byTitle.filter((d): d is GroundedFinding => d !== null)];
  }

  private visible(start: number, end: number): boolean {
    return hasVisibleText(this.doc.text, start, end, this.hidden);
  }

  /** Distinct IDs the rules found in [start, end): findings the reply is expected to hold at least. */
  private idsWithin(start: number, end: number): number {
    return new Set(this.mentions.filter((m) => m.start >= start && m.start < end).map((m) => m.normalized)).size;
  }

  /** Whether a list that ended by itself at `at` may be a model that stopped early (see afterWholeReply). */
  private mayHaveStopped(at: number, end: number, findings: readonly GroundedFinding[]): boolean {
    return (
      findings.length >= LONG_LIST ||
      this.sectionsUnnamed(at, end, findings) ||
      (findings.length >= MIN_LEARNED_LIST && this.uncoveredIdsAfter(at, end, findings) >= MIN_LEARNED_LIST)
    );
  }

  /**
   * Whether the text after a long list that ended normally can hold a finding the model left out: an ID printed there
   * that no finding of the list covers, a recorded finding's section it did not name, or (when the list's findings
   * do not all carry a printed ID) more than a line or two of text. Findings that all print their ID say the
   * document's findings do: one left out after them prints one too, so ID-free prose after them (release notes end
   * with upgrade notes and known limitations) is not asked again. Nor is the rest of the last finding's own sentence
   * ("... and fixed in this release."): the call would cost its context and frame for nothing.
   */
  private mayHoldMore(from: number, to: number, listed: readonly GroundedFinding[]): boolean {
    if (!this.visible(from, to)) return false;
    if (this.uncoveredIdsAfter(from, to, listed) > 0) return true;
    if (this.sectionsUnnamed(from, to, listed)) return true;
    if (listed.length > 0 && listed.every((f) => f.findingKey !== null)) return false;
    return withHiddenSpans(this.doc.text, from, to, this.hidden).replace(/\s+/g, '').length >= MIN_SPLIT_CHARS;
  }

  /** Distinct IDs printed in [from, to) that no finding of the list covers. */
  private uncoveredIdsAfter(from: number, to: number, listed: readonly GroundedFinding[]): number {
    const covered = new Set(listed.map((f) => f.findingKey).filter((k): k is string => k !== null));
    return new Set(this.mentions.filter((m) => m.start >= from && m.start < to && !covered.has(m.normalized)).map((m) => m.normalized)).size;
  }

  /**
   * Whether [from, to) holds the detailed section of a recorded finding that no finding of the reply stands for: the
   * rules find its heading there (recordedDetails.ts), and no finding read from it, or carrying its printed ID, or
   * titled like it, was given. A model that ended its list early leaves such sections after its last finding.
   */
  private sectionsUnnamed(from: number, to: number, listed: readonly GroundedFinding[]): boolean {
    return (this.input.recorded?.entries ?? []).some((entry) => {
      const section = recordedDetail(this.doc, this.profile, entry, { start: from, end: to }, this.hidden, this.views);
      return section !== null && section.grounding.start! >= from && !listed.some((f) => standsFor(f, entry, section));
    });
  }

  /** Up to `tailChars` characters before `at`, shown as CONTEXT ONLY (a finding cut by the boundary stays understandable). */
  private contextBefore(at: number, floor: number): ReplyContext {
    const tailStart = Math.max(floor, at - this.tailChars);
    return { text: this.doc.text.slice(tailStart, at), range: { start: tailStart, end: at } };
  }
}

/** A reply's findings grounded in the text shown (`range`, and the CONTEXT ONLY text before it). */
export function groundReply(
  doc: ExtractedDocument,
  profile: ExtractionProfile,
  reported: readonly ReplyEntry[],
  range: { start: number; end: number },
  contextRange?: { start: number; end: number },
): GroundedFinding[] {
  const regions = { chunk: range, ...(contextRange ? { context: contextRange } : {}) };
  return reported.map((f) => {
    if (typeof f === 'string') {
      // A line for a finding whose ID the text prints: the rules look the ID up and quote the text there. A bare title
      // (the simplest branch of the union) is such a line without an ID: the rules find where the text prints it.
      return groundPrintedLine(doc, profile, parsePrintedLine(f, profile), regions);
    }
    // An object without its quote (a model that filled half the fields) is read like a line: by its ID, else its title.
    if (f.evidence.trim() === '') return groundPrintedLine(doc, profile, { id: f.id ?? null, type: f.type, severity: f.severity, title: f.title }, regions);
    const finding = { ...f, id: f.id ?? null };
    const grounded = groundFinding(doc, profile, finding, regions);
    return onStatedPage(doc, profile, finding, grounded, range) ?? grounded;
  });
}

/**
 * A quote found on another page than the model stated, grounded again within the stated page when it is found
 * there too: a unit of several sections can hold the same sentence twice (two findings whose descriptions open
 * alike), and the first occurrence is not necessarily the one the model quoted. Undefined when nothing changes.
 */
function onStatedPage(
  doc: ExtractedDocument,
  profile: ExtractionProfile,
  reported: Parameters<typeof groundFinding>[2],
  grounded: GroundedFinding,
  range: { start: number; end: number },
): GroundedFinding | undefined {
  const stated = reported.page;
  if (grounded.grounding.status !== 'grounded' || typeof stated !== 'number' || grounded.grounding.page === stated) return undefined;
  const page = doc.pages.find((p) => p.pageNumber === stated);
  if (!page || page.end <= range.start || page.start >= range.end) return undefined;
  const again = groundFinding(doc, profile, reported, { chunk: { start: Math.max(range.start, page.start), end: Math.min(range.end, page.end) } });
  return again.grounding.status === 'grounded' ? again : undefined;
}

/** The page a finding is shown on: the grounded page wins over the one the model stated. */
export function effectivePage(f: Pick<GroundedFinding, 'page' | 'grounding'>): number | null {
  return f.grounding.page ?? f.page;
}

/** Where the previous tail sits in the canonical text (it normally ends where the chunk starts). */
export function locateTail(text: string, tail: string, chunkStart: number): { start: number; end: number } | undefined {
  if (tail.length === 0) return undefined;
  if (chunkStart >= tail.length && text.slice(chunkStart - tail.length, chunkStart) === tail) return { start: chunkStart - tail.length, end: chunkStart };
  const i = text.lastIndexOf(tail, chunkStart);
  return i >= 0 ? { start: i, end: i + tail.length } : undefined;
}

/**
 * The previous leaf's tail for leaf `position` of `leaves` (in document order):
 * up to `chars` characters ending where this leaf starts, starting at a
 * line/sentence boundary when one is near. Undefined for the first leaf, and for a leaf that opens a section (its
 * boundary is a heading: nothing before it is cut, and the tail would be read again with every unit for nothing).
 */
export function previousTailFor(
  doc: Pick<ExtractedDocument, 'text'>,
  leaves: readonly ChunkNode[],
  position: number,
  chars = DEFAULT_TAIL_CHARS,
): string | undefined {
  if (position <= 0) return undefined;
  const prev = leaves[position - 1];
  const cur = leaves[position];
  if (!prev || !cur || OPENS_SECTION.has(cur.origin)) return undefined;
  const end = cur.start;
  let start = Math.max(prev.start, end - chars);
  if (start >= end) return undefined;
  // Start at a line or sentence start within the first third, so the context opens cleanly.
  const window = doc.text.slice(start, start + Math.floor((end - start) / 3));
  const m = /\n|[.!?]\s+/.exec(window);
  if (m) start += m.index + m[0].length;
  while (start < end && /\s/.test(doc.text[start]!)) start++;
  return doc.text.slice(start, end) || undefined;
}

/** The call-log reference of continuation `n` of the piece `ref` ("1#4.a+2"): the piece's own reference, numbered. */
function continuationRef(ref: string, n: number): string {
  return `${ref.replace(/\+\d+$/, '')}+${n}`;
}

/** Two consecutive parts of one unit's extraction as one result. */
function combine(first: ExtractUnitResult, second: ExtractUnitResult): ExtractUnitResult {
  const ends = [first.listEndedAt, second.listEndedAt].filter((n): n is number => n !== undefined);
  return {
    findings: [...first.findings, ...second.findings],
    summary: [first.summary, second.summary].filter(Boolean).join(' '),
    calls: first.calls + second.calls,
    callIds: [...first.callIds, ...second.callIds],
    pieces: first.pieces + second.pieces,
    ...(ends.length > 0 ? { listEndedAt: Math.min(...ends) } : {}),
  };
}

/**
 * Where a reply cut at the limit continues: after the furthest evidence of the findings it wrote whole (models list
 * findings in document order), within (start, end). Undefined when no kept finding is grounded inside the text.
 */
export function resumePoint(kept: readonly GroundedFinding[], start: number, end: number): number | undefined {
  let at: number | undefined;
  for (const f of kept) {
    const e = f.grounding.end;
    if (f.grounding.status !== 'grounded' || e === null || e === undefined || e <= start || e > end) continue;
    if (at === undefined || e > at) at = e;
  }
  return at;
}

/** The boundary strictly inside (start, end) nearest its middle, if any. */
function nearestBoundary(boundaries: readonly number[], start: number, end: number): number | undefined {
  const mid = (start + end) / 2;
  let best: number | undefined;
  for (const b of boundaries) if (b > start && b < end && (best === undefined || Math.abs(b - mid) < Math.abs(best - mid))) best = b;
  return best;
}

/** A split offset near the middle of [start, end): a paragraph, then a line, then a sentence, then a space boundary. */
export function splitPoint(text: string, start: number, end: number): number {
  const mid = Math.floor((start + end) / 2);
  const span = Math.floor((end - start) / 4);
  const lo = mid - span;
  const hi = mid + span;
  for (const re of [/\n\s*\n/g, /\n/g, /[.!?]["')\]]?\s+/g, /\s+/g]) {
    let best = -1;
    re.lastIndex = 0;
    const slice = text.slice(lo, hi);
    for (const m of slice.matchAll(re)) {
      const at = lo + m.index + m[0].length;
      if (at <= start || at >= end) continue;
      if (best < 0 || Math.abs(at - mid) < Math.abs(best - mid)) best = at;
    }
    if (best > 0) return best;
  }
  return mid;
}
