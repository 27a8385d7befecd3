/**
 * What no finding covers, asked for again (issue 25: the completeness check closing its own loop). After every unit
 * of a document is analysed, the ID mentions the rules found that no finding of the document covers (a model that
 * ended its list early, or skipped a table row), and the recorded findings whose detailed section the rules find in
 * the text but that no finding stands for (a report that prints no IDs), are named in focused follow-up calls, each
 * shown with the text around it. Asked per document, not per unit: an ID a unit only refers to (a recommendation, a
 * figure caption, a cross-reference) is covered by the finding of its detailed section elsewhere, and costs no call.
 * So are the items of an itemised list most of whose items were reported as findings, that no finding covers
 * (printed/itemLists.ts: a changelog's bullets carry no ID, and nothing else would show one skipped).
 * What stays uncovered reaches the completeness check (unreviewed IDs, listed entries and items without a finding).
 */
import type { ListedEntry } from '../../../shared/completeness';
import { LISTED_ENTRY_TYPE, REGISTER_ENTRY_TYPE, type ExtractionProfile, type GroundedFinding } from '../../../shared/findings';
import type { ExtractedDocument, IdMention } from '../../../shared/types';
import { type ListItem, NormalizedViews, type HiddenSpan, type RecordedList } from '../printed';
import type { Steps } from '../util';
import { recordedByTitle, recordedDetail, standsFor, titleOnly } from './recordedDetails';
import { DEFAULT_LLM_SETTINGS, type LlmClient } from '../llm';
import { extractionCallOptions, groundReply, type ExtractionCallSettings } from './extractUnit';
import { parsePartialExtractionReply } from './partialReply';
import { buildFollowUpMessages, extractionReplySchema } from './prompts';
import { planExtractionReplyTokens } from './replyBudget';

/** The mentions whose ID no finding of the document covers (by its printed ID), in document order. */
export function uncoveredMentions(mentions: readonly IdMention[], findings: readonly Pick<GroundedFinding, 'findingKey'>[]): IdMention[] {
  const covered = new Set(findings.map((f) => f.findingKey).filter((k): k is string => Boolean(k)));
  return mentions.filter((m) => !covered.has(m.normalized));
}

/** A recorded finding whose detailed section the rules find in the text, and that no finding stands for. */
export interface UnnamedSection {
  /** Its line in the RECORDED FINDINGS block ("[3]"). */
  number: number;
  entry: ListedEntry;
  /** Where its heading line is. */
  start: number;
  end: number;
  /** The section as the rules read it: its heading as the quote, its opening sentence, its printed severity and ID. */
  detail: GroundedFinding;
}

/**
 * The recorded findings (`recorded`, numbered as the prompt shows them) whose detailed section the rules find in the
 * document outside its hidden lists, that no analysed finding stands for (recordedDetails.ts standsFor): a row read
 * by the rules is not one. In document order.
 */
/**
 * As steps, one recorded entry each (util/slices.ts: run with runInSlices): each entry's section is looked up in the
 * whole text, which on a long report with a long summary table held the engine's thread for half a second in one go.
 */
export function* unnamedSections(
  doc: Pick<ExtractedDocument, 'text' | 'pages'>,
  profile: ExtractionProfile,
  recorded: RecordedList,
  hidden: readonly HiddenSpan[],
  findings: readonly GroundedFinding[],
): Steps<UnnamedSection[]> {
  const analysed = findings.filter((f) => f.type !== LISTED_ENTRY_TYPE && f.type !== REGISTER_ENTRY_TYPE);
  const whole = { start: 0, end: doc.text.length };
  // The whole text normalised once for every entry looked up in it.
  const views = new NormalizedViews(doc.text);
  const sections: UnnamedSection[] = [];
  for (const [i, entry] of recorded.entries.entries()) {
    yield;
    const section = recordedDetail(doc, profile, entry, whole, hidden, views);
    if (!section || analysed.some((f) => standsFor(f, entry, section))) continue;
    sections.push({ number: i + 1, entry, start: section.grounding.start!, end: section.grounding.end!, detail: section });
  }
  return sections.sort((a, b) => a.start - b.start);
}

export interface FollowUpInput extends ExtractionCallSettings {
  doc: ExtractedDocument;
  profile: ExtractionProfile;
  /** The mentions to ask for: IDs no finding covers, in document order (one per ID is enough). */
  mentions: readonly IdMention[];
  /** Every mention of the document the rules count (for the reply plan: IDs the excerpts show). */
  allMentions: readonly IdMention[];
  /** Recorded findings whose section no finding stands for (unnamedSections), with the list and hidden spans they come from. */
  sections?: readonly UnnamedSection[];
  recorded?: RecordedList;
  hidden?: readonly HiddenSpan[];
  /** Items of lists of findings that no finding covers (printed/itemLists.ts itemsWithoutFinding), in document order. */
  items?: readonly ListItem[];
}

export interface FollowUpBatch {
  findings: GroundedFinding[];
  callId: string;
  /** What the call named: IDs, or recorded findings by their lines ("[3]"). */
  ids: string[];
}

/**
 * The follow-up calls for `mentions`, FOLLOW_UP_BATCH IDs at a time; `onBatch` gets each call's grounded findings
 * as soon as it is answered (the caller commits them, so a kill loses at most the call in flight).
 */
export async function askForUncoveredMentions(llm: LlmClient, input: FollowUpInput, onBatch: (batch: FollowUpBatch) => void): Promise<void> {
  const { doc, profile } = input;
  const idsWithin = (start: number, end: number) => new Set(input.allMentions.filter((m) => m.start >= start && m.start < end).map((m) => m.normalized)).size;
  let calls = 0;
  const ask = async (excerpts: { start: number; end: number }[], named: { ids: string[]; sections?: UnnamedSection[]; items?: number }): Promise<void> => {
    const ref = `${input.documentId ?? doc.sha256.slice(0, 12)}?${++calls}`;
    const sections = named.sections?.map((s) => `[${s.number}] ${s.entry.id ?? s.entry.number} ${s.entry.title}`);
    const messages = buildFollowUpMessages({
      profile,
      doc,
      ids: named.ids,
      excerpts,
      chunkLabel: ref,
      ...(sections && input.recorded ? { sections, recorded: input.recorded.text } : {}),
      ...(named.items ? { items: named.items } : {}),
    });
    const textTokens = excerpts.reduce((n, e) => n + llm.estimator.estimateText(doc.text.slice(e.start, e.end), input.model), 0);
    // Room for everything named (and the neighbours the excerpts show): the reply is expected to hold each.
    const expected = Math.max(idsWithin(excerpts[0]!.start, excerpts.at(-1)!.end), named.sections?.length ?? 0, named.items ?? 0);
    const numPredict = planExtractionReplyTokens(textTokens, input.replyTokens ?? DEFAULT_LLM_SETTINGS.numPredict, expected);
    const r = await llm.chatJson({ ...extractionCallOptions(input, ref), schema: extractionReplySchema, messages, numPredict, acceptCutReply: true });
    const reply = r.cut ? parsePartialExtractionReply(r.content) : r.value;
    const shown = { start: excerpts[0]!.start, end: excerpts.at(-1)!.end };
    // A section named by its number (or by its title alone, as a model that writes bare titles does) is read by the
    // rules in the excerpt that shows it, as in a unit's reply.
    const views = new NormalizedViews(doc.text);
    const asked = named.sections ?? [];
    const titles = reply.findings.map((f) => titleOnly(f, profile));
    const titled = titles.map((title) => {
      const entry =
        title === null
          ? undefined
          : recordedByTitle(
              asked.map((s) => s.entry),
              title,
            );
      return asked.find((s) => s.entry === entry);
    });
    const read = new Map(
      asked.flatMap((s) => {
        if (!reply.recorded.includes(s.number) && !titled.includes(s)) return [];
        const excerpt = excerpts.find((e) => e.start <= s.start && s.start < e.end);
        const detail = excerpt ? recordedDetail(doc, profile, s.entry, excerpt, input.hidden ?? [], views, titles[titled.indexOf(s)] ?? undefined) : null;
        return detail ? [[s, detail] as const] : [];
      }),
    );
    const details = [...read.values()];
    const others = reply.findings.filter((_, i) => !read.has(titled[i]!));
    const items = named.items ? [`${named.items} list item${named.items === 1 ? '' : 's'}`] : [];
    onBatch({ findings: [...groundReply(doc, profile, others, shown), ...details], callId: r.call.callId, ids: [...named.ids, ...(sections ?? []), ...items] });
  };

  const all = [...new Map(input.mentions.map((m) => [m.normalized, m])).values()];
  for (let b = 0; b < all.length; b += FOLLOW_UP_BATCH) {
    const batch = all.slice(b, b + FOLLOW_UP_BATCH);
    await ask(excerptsAround(doc, batch), { ids: batch.map((m) => m.raw.replace(/\s+/g, '')) });
  }
  const sections = input.recorded ? (input.sections ?? []) : [];
  for (let b = 0; b < sections.length; b += FOLLOW_UP_BATCH) {
    const batch = sections.slice(b, b + FOLLOW_UP_BATCH);
    await ask(sectionOpenings(doc, batch), { ids: [], sections: batch });
  }
  const items = input.items ?? [];
  for (let b = 0; b < items.length; b += FOLLOW_UP_BATCH) {
    const batch = items.slice(b, b + FOLLOW_UP_BATCH);
    await ask(joinTouching(doc, batch), { ids: [], items: batch.length });
  }
}

/** Spans in document order, those that touch or stand on consecutive lines joined (no gap marker between them). */
function joinTouching(doc: Pick<ExtractedDocument, 'text'>, spans: readonly { start: number; end: number }[]): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && (s.start <= last.end || !/\S/.test(doc.text.slice(last.end, s.start)))) last.end = Math.max(last.end, s.end);
    else out.push({ start: s.start, end: s.end });
  }
  return out;
}

/** Characters of a section's opening a follow-up shows: its heading, metadata lines and first sentences. */
const SECTION_EXCERPT_CHARS = 700;

/** Each section from its heading line to SECTION_EXCERPT_CHARS after it (at a line end), overlapping ones joined. */
function sectionOpenings(doc: Pick<ExtractedDocument, 'text'>, sections: readonly UnnamedSection[]): { start: number; end: number }[] {
  const text = doc.text;
  const out: { start: number; end: number }[] = [];
  for (const s of [...sections].sort((a, b) => a.start - b.start)) {
    const lineStart = text.lastIndexOf('\n', s.start - 1) + 1;
    const nl = text.indexOf('\n', Math.min(text.length, s.end + SECTION_EXCERPT_CHARS));
    const span = { start: lineStart, end: nl < 0 ? text.length : nl };
    const last = out.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else out.push(span);
  }
  return out;
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
  // Excerpts that touch or stand on consecutive lines are one: no gap marker between lines that follow each other.
  return joinTouching(doc, spans);
}
