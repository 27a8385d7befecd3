/**
 * What no finding covers, asked for again (issue 25: the completeness check closing its own loop). After every unit
 * of a document is analysed, the ID mentions the rules found that no finding of the document covers (a model that
 * ended its list early, or skipped a table row) are named in focused follow-up calls, each shown with the text
 * around it. Asked per document, not per unit: an ID a unit only refers to (a recommendation, a figure caption, a
 * cross-reference) is covered by the finding of its detailed section elsewhere, and costs no call. What stays
 * uncovered reaches the completeness check's unreviewed list, as before.
 */
import type { ExtractionProfile, GroundedFinding } from '../../../shared/findings';
import type { ExtractedDocument, IdMention } from '../../../shared/types';
import { DEFAULT_LLM_SETTINGS, type LlmClient } from '../llm';
import { extractionCallOptions, groundReply, type ExtractionCallSettings } from './extractChunk';
import { parsePartialExtractionReply } from './partialReply';
import { buildFollowUpMessages, extractionReplySchema } from './prompts';
import { planExtractionReplyTokens } from './replyBudget';

/** The mentions whose ID no finding of the document covers (by its printed ID), in document order. */
export function uncoveredMentions(mentions: readonly IdMention[], findings: readonly Pick<GroundedFinding, 'findingKey'>[]): IdMention[] {
  const covered = new Set(findings.map((f) => f.findingKey).filter((k): k is string => Boolean(k)));
  return mentions.filter((m) => !covered.has(m.normalized));
}

export interface FollowUpInput extends ExtractionCallSettings {
  doc: ExtractedDocument;
  profile: ExtractionProfile;
  /** The mentions to ask for: IDs no finding covers, in document order (one per ID is enough). */
  mentions: readonly IdMention[];
  /** Every mention of the document the rules count (for the reply plan: IDs the excerpts show). */
  allMentions: readonly IdMention[];
}

export interface FollowUpBatch {
  findings: GroundedFinding[];
  callId: string;
  /** The IDs the call named. */
  ids: string[];
}

/**
 * The follow-up calls for `mentions`, FOLLOW_UP_BATCH IDs at a time; `onBatch` gets each call's grounded findings
 * as soon as it is answered (the caller commits them, so a kill loses at most the call in flight).
 */
export async function askForUncoveredMentions(llm: LlmClient, input: FollowUpInput, onBatch: (batch: FollowUpBatch) => void): Promise<void> {
  const { doc, profile } = input;
  const idsWithin = (start: number, end: number) => new Set(input.allMentions.filter((m) => m.start >= start && m.start < end).map((m) => m.normalized)).size;
  const all = [...new Map(input.mentions.map((m) => [m.normalized, m])).values()];
  for (let b = 0; b < all.length; b += FOLLOW_UP_BATCH) {
    const batch = all.slice(b, b + FOLLOW_UP_BATCH);
    const excerpts = excerptsAround(doc, batch);
    const ref = `${input.documentId ?? doc.sha256.slice(0, 12)}?${b / FOLLOW_UP_BATCH + 1}`;
    const ids = batch.map((m) => m.raw.replace(/\s+/g, ''));
    const messages = buildFollowUpMessages({ profile, doc, ids, excerpts, chunkLabel: ref });
    const textTokens = excerpts.reduce((n, e) => n + llm.estimator.estimateText(doc.text.slice(e.start, e.end), input.model), 0);
    // Room for every ID named (and the neighbours the excerpts show): the reply is expected to hold each.
    const numPredict = planExtractionReplyTokens(textTokens, input.maxReplyTokens ?? DEFAULT_LLM_SETTINGS.numPredict, idsWithin(excerpts[0]!.start, excerpts.at(-1)!.end));
    const r = await llm.chatJson({ ...extractionCallOptions(input, ref), schema: extractionReplySchema, messages, numPredict, acceptCutReply: true });
    const reported = r.cut ? parsePartialExtractionReply(r.content).findings : r.value.findings;
    const shown = { start: excerpts[0]!.start, end: excerpts.at(-1)!.end };
    onBatch({ findings: groundReply(doc, profile, reported, shown), callId: r.call.callId, ids });
  }
}

/** IDs named in one follow-up call: below the 15-30 items after which small models end long lists early. */
export const FOLLOW_UP_BATCH = 10;

/** Text shown around each mention in a follow-up call, at most this many characters on each side. */
const EXCERPT_CHARS = 320;
/**
 * The text around each mention: its line with the lines before and after it (at most EXCERPT_CHARS either side),
 * overlapping excerpts joined, in document order. A line that prints an ID seldom shows the finding alone: a table
 * cell wraps around the ID, a heading or a running-text entry puts the title on the line above ("Login page drops
 * records ..." / "Reported as PBI-10014 (priority Medium) ..."). An excerpt may reach past the unit it was found in:
 * a unit boundary can cut a table row after its ID, and the row's title is what shows the finding.
 */
export function excerptsAround(doc: Pick<ExtractedDocument, 'text'>, mentions: readonly IdMention[]): { start: number; end: number }[] {
  const text = doc.text;
  const spans = [...mentions]
    .sort((a, b) => a.start - b.start)
    .map((m) => {
      const ownLine = text.lastIndexOf('\n', m.start - 1) + 1;
      const ownEnd = text.indexOf('\n', m.end) < 0 ? text.length : text.indexOf('\n', m.end);
      const lineBefore = ownLine > 0 ? text.lastIndexOf('\n', ownLine - 2) + 1 : 0;
      const nextEnd = ownEnd >= text.length ? -1 : text.indexOf('\n', ownEnd + 1);
      const lineAfter = nextEnd < 0 ? text.length : nextEnd;
      return { start: Math.max(lineBefore, m.start - EXCERPT_CHARS), end: Math.min(lineAfter, m.end + EXCERPT_CHARS) };
    });
  const out: { start: number; end: number }[] = [];
  for (const s of spans) {
    const last = out.at(-1);
    // Excerpts that touch or stand on consecutive lines are one: no gap marker between lines that follow each other.
    if (last && (s.start <= last.end || !/\S/.test(text.slice(last.end, s.start)))) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

