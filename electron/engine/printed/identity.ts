/**
 * Where a finding's identity comes from. Models fill an `id` field even when
 * the finding has none, usually with their own numbering that restarts in
 * every chunk ("F-1", "1", "ISSUE-001"), and they reformat real IDs
 * ("TOB-ETCD-1", "tob etcd 001", "TOB-ETCD-001: Gateway ..."). An ID the model
 * gave therefore becomes a merge key only when the document itself prints it
 * for that finding:
 *
 * - `idKey`: an ID string (letters and digits) that the document prints near
 *   the finding's evidence, and that is the nearest printed ID of its kind
 *   there (so a neighbouring table row's ID is not taken). The key is the ID
 *   as the document prints it, normalised (`normalizeId`).
 * - `printedNumber`: a sequence or section number ("7", "3.2", "7.1.1") that
 *   the document prints directly before the finding's title (a summary-table
 *   row "7 Title ...", a heading "7. Title", a table-of-contents line). Found
 *   from the document, whatever the model put in `id`: digits occurring
 *   somewhere never count.
 *
 * - the ID a quoted row or heading opens with ("OPS-5145 | ...", "3.24
 *   ACME-24: ..."), when the model's ID does not key the finding: the row is
 *   that ID's, whichever ID (or none) the model gave.
 *
 * Anything else the model put in `id` is its own label: shown, marked as
 * such, never used to join findings (the merge lets a label that the
 * document prints elsewhere keep its finding out of another ID's group).
 */
import { normalizeForMatch } from './grounding';
import { findIdMentions, isReferenceId, normalizeForIds, normalizeId } from '../rules';
import { wordSequenceMatches } from '../util';
import type { ExtractionProfile, Grounding } from '../../../shared/findings';

/** How far after the evidence an ID, and around it a number, counts as the finding's own (a heading block: title, severity line, "Finding ID: ..."). */
export const ID_WINDOW_CHARS = 400;

export interface FindingIdentity {
  /** The document-printed ID (normalised), or null. */
  idKey: string | null;
  /** The document-printed number tied to the title, or null. */
  printedNumber: string | null;
}

/** Comparable form of an ID: upper case, letter and digit runs joined by '-', leading zeros dropped ("tob etcd 001" = "TOB-ETCD-1"). */
export function comparableId(raw: string): string {
  // Not normalizeId: it drops spaces, and "TOB MOSQ CR 3" must keep its parts apart.
  const runs =
    normalizeForIds(raw)
      .text.toUpperCase()
      .match(/[A-Z]+|\d+/g) ?? [];
  return runs.map((r) => (/^\d+$/.test(r) ? String(Number.parseInt(r, 10)) : r)).join('-');
}

/** ID strings the model's `id` (or its title, "TOB-X-3: ...") may name: profile-pattern matches first, else the id itself when it mixes letters and digits. */
export function candidateIds(modelId: string | null, title: string, profile: ExtractionProfile): string[] {
  const out: string[] = [];
  const raw = modelId?.trim() ?? '';
  // Upper-cased: a model that writes "tob-mosq-cr-2" still names TOB-MOSQ-CR-2, not the shorter CR-2 inside it.
  for (const text of [raw.toUpperCase(), title]) {
    // A standard or advisory the title names ("Unsafe ERC-20 approve") is no ID of the finding: two findings naming it would join.
    for (const m of findIdMentions(text, [], profile.idPatterns)) if (!isReferenceId(m.normalized)) out.push(m.raw);
  }
  const label = raw.replace(/^(?:id|finding|issue|no\.?|#)\s*[:#]?\s*/i, '');
  if (out.length === 0 && raw.length > 0 && raw.length <= 64 && /\p{L}/u.test(raw) && /\d/.test(raw) && !isReferenceId(label)) out.push(label);
  return [...new Set(out)];
}

export interface IdentityInput {
  modelId: string | null;
  title: string;
  grounding: Grounding;
  /** The text the model was shown ([start, end) of the chunk, with its context block). */
  region: { start: number; end: number };
}

/** The document-printed identity of one reported finding (see the module comment). */
export function identifyFinding(text: string, profile: ExtractionProfile, input: IdentityInput): FindingIdentity {
  const g = input.grounding;
  const located = g.status === 'grounded' && g.start !== null && g.end !== null ? { start: g.start!, end: g.end! } : null;
  return {
    idKey: printedIdKey(text, profile, input, located) ?? (located ? openingIdOfLine(text, profile, located, input.region) : null),
    // The number goes right before the title: a table row or heading near the evidence, or anywhere in the text shown when ungrounded.
    // Nearest the quote: siblings whose titles open alike ("... by spamming Deposit / Grant transactions") print their
    // numbers on neighbouring lines, and the first in the window may be the sibling's.
    printedNumber: located
      ? printedNumberBefore(
          text,
          input.title,
          Math.max(input.region.start, located.start - ID_WINDOW_CHARS),
          Math.min(input.region.end, located.end + ID_WINDOW_CHARS),
          located.start,
        )
      : printedNumberBefore(text, input.title, input.region.start, input.region.end),
  };
}

/**
 * The model's ID is the document's for this finding when it is printed on the sighting's own row or in its
 * heading block, never on a neighbouring row:
 * - on the evidence's own line(s) (a table row "TOB-X-3 | Title", a quoted heading "TOB-X-3: Title");
 * - when the quote is the title's own line (a row, a heading, a contents line): on a line of its own right above
 *   it ("LID-05" over the heading), or on the first line below it that prints an ID of that kind, when that line
 *   labels it ("Finding ID: TOB-X-3") or holds nothing else: a next row's ID is neither;
 * - when the quote comes from the description: the last ID of its kind printed before the quote, provided it sits
 *   in the heading block of the title printed last before the quote (on the title's line, the line above, or
 *   between the title and the quote). A neighbour row's ID lies before that title, or near another one.
 * A title the text does not print (the model reworded it) leaves only the last ID of its kind before the quote,
 * or the first right after it (a quoted heading followed by its ID line), as before.
 * An ungrounded finding has no place: its ID counts when printed anywhere in the text it was shown.
 */
function printedIdKey(text: string, profile: ExtractionProfile, input: IdentityInput, located: { start: number; end: number } | null): string | null {
  const wanted = new Set(candidateIds(input.modelId, input.title, profile).map(comparableId));
  if (wanted.size === 0) return null;
  const from = input.region.start;
  const to = located ? Math.min(input.region.end, located.end + ID_WINDOW_CHARS) : input.region.end;
  const window = text.slice(from, to);
  const printed = findIdMentions(window, [], profile.idPatterns).map((m) => ({ ...m, start: m.start + from, end: m.end + from }));
  const isWanted = (m: { raw: string }) => wanted.has(comparableId(m.raw));
  const matches = printed.filter(isWanted);
  if (matches.length === 0) {
    // A model ID no profile pattern knows ("ABC_12"), printed as such in the finding's heading block, around its
    // quote: not anywhere in the unit, where a hex dump's "f2" or a figure's "A1" would give the model's own
    // numbering ("F-2") a key of the document and set it apart from its finding.
    const near = located ? text.slice(Math.max(from, located.start - ID_WINDOW_CHARS), to) : window;
    for (const id of wanted) {
      const at = findComparable(near, id);
      if (at) return normalizeId(at);
    }
    return null;
  }
  if (!located) return matches[0]!.normalized;
  const lineStart = text.lastIndexOf('\n', located.start - 1) + 1;
  const nextBreak = text.indexOf('\n', Math.max(located.start, located.end - 1));
  const lineEnd = nextBreak < 0 ? text.length : nextBreak;
  const onLine = matches.find((m) => m.start >= lineStart && m.start < lineEnd);
  if (onLine) return onLine.normalized;
  const kind = matches[0]!.patternName;
  const ofKind = printed.filter((m) => m.patternName === kind);
  // The evidence's own line names another ID of that kind (a table row of the next finding): not this ID.
  if (ofKind.some((m) => m.start >= lineStart && m.start < lineEnd)) return null;
  const titleStarts = titleOccurrences(text, input.title, from, located.end);
  if (titleStarts.some((t) => t >= lineStart && t < located.end) && !isProse(text.slice(located.start, located.end), input.title)) {
    // The quote is the title's own line: only an ID line of the heading block, right above or right below.
    const above = lineAt(text, lineStart - 1);
    const idAbove = ofKind.filter((m) => m.start >= above.start && m.start < above.end);
    if (lineStart > from && idAbove.length === 1 && isWanted(idAbove[0]!) && idOnly(text, above, idAbove[0]!)) return idAbove[0]!.normalized;
    const below = ofKind.find((m) => m.start >= lineEnd && m.start - lineEnd <= ID_WINDOW_CHARS);
    if (below && isWanted(below)) {
      const line = lineAt(text, below.start);
      if (idOnly(text, line, below) || ID_LABEL.test(text.slice(line.start, below.start))) return below.normalized;
    }
    return null;
  }
  const titleBefore = titleStarts.filter((t) => t < located.start).at(-1);
  if (titleBefore !== undefined) {
    // A description quote: the ID of the heading block of the last title printed before it.
    const titleLine = lineAt(text, titleBefore);
    const blockStart = titleLine.start > from ? lineAt(text, titleLine.start - 1).start : titleLine.start;
    const last = ofKind.filter((m) => m.end <= located.start).at(-1);
    if (!last || !isWanted(last) || last.start < blockStart) return null;
    // On the line above the title, the ID must stand alone (a previous table row prints its own title beside its ID).
    if (last.start < titleLine.start && !idOnly(text, lineAt(text, last.start), last)) return null;
    return last.normalized;
  }
  const before = ofKind.filter((m) => m.end <= located.start).at(-1);
  if (before && isWanted(before)) return before.normalized;
  const after = ofKind.find((m) => m.start >= located.end);
  if (after && isWanted(after) && after.start - located.end <= ID_WINDOW_CHARS) return after.normalized;
  return null;
}

/**
 * The ID a quoted row or heading opens with: the quote lies on a line that starts (after at most a section number)
 * with an ID of the profile, "ACME-48 | Title | High" or "3.48 ACME-48: Title". The line is that finding's own row
 * or heading, whatever ID the model gave (none, its own label, or a neighbour's): near-identical sibling titles
 * ("X" and "X in batch mode") are told apart by the ID their row prints, not by the words the model quoted.
 */
function openingIdOfLine(
  text: string,
  profile: ExtractionProfile,
  located: { start: number; end: number },
  region: { start: number; end: number },
): string | null {
  const line = lineAt(text, located.start);
  if (line.start < region.start) return null;
  const lineText = text.slice(line.start, line.end);
  const lead = /^[\s#([]*(?:\d{1,3}(?:\.\d{1,3}){0,3}\.?\s+)?/.exec(lineText)![0].length;
  const first = findIdMentions(lineText, [], profile.idPatterns)[0];
  if (!first || first.start !== lead || isReferenceId(first.normalized)) return null;
  // The ID stands as the line's label: a separator or the title follows it, not more of a sentence's ID list.
  return /^\s*[:|.)\]\-\u2013\u2014]?\s*\p{L}/u.test(lineText.slice(first.end)) ? first.normalized : null;
}

/**
 * A quote that is a sentence, not a title line: it runs on well past the title's words and ends as a sentence does
 * ("Paused pools still accrue rewards was seen on the production systems."). A description may open with its title;
 * a heading, a table row or a contents line does not end with a full stop after so many more words.
 */
function isProse(quote: string, title: string): boolean {
  const count = (s: string) => (normalizeForMatch(s).text.match(/[\p{L}\p{N}]+/gu) ?? []).length;
  return /[.!?]["”’)]?\s*$/.test(quote) && count(quote) > count(title) + 4;
}

/** "Finding ID:", "Issue ID", "ID:", "Ref." right before an ID on its line: a heading block's metadata, never a table row. */
const ID_LABEL = /\b(?:id|ref(?:erence)?|identifier)\b[\s.:#]*$/i;

function lineAt(text: string, at: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const nl = text.indexOf('\n', at);
  return { start, end: nl < 0 ? text.length : nl };
}

/** The line holds the ID and at most a label or a word or two ("LID-05", "Finding ID: TOB-X-3", "TOB-X-3 (High)"). */
function idOnly(text: string, line: { start: number; end: number }, id: { start: number; end: number }): boolean {
  const rest = (text.slice(line.start, id.start) + ' ' + text.slice(id.end, line.end)).match(/\p{L}{2,}/gu) ?? [];
  return rest.length <= 2 || (rest.length <= 3 && ID_LABEL.test(text.slice(line.start, id.start)));
}

/**
 * Where the finding's title is printed in [from, to): offsets of its first words (normalised as for quotes; at
 * least two words, or one of six letters or more, so a short common word is no title).
 */
function titleOccurrences(text: string, title: string, from: number, to: number): number[] {
  const words = normalizeForMatch(title).text.match(/[\p{L}\p{N}]+/gu) ?? [];
  const lead = words.slice(0, Math.min(4, words.length));
  if (lead.length === 0 || (lead.length < 2 && (lead[0]?.length ?? 0) < 6)) return [];
  const view = normalizeForMatch(text, Math.max(0, from), Math.min(to, text.length));
  // The words in order, nothing but non-letters between them, whole words (util/wordSequence.ts: no pattern compiled per title).
  return [...wordSequenceMatches(view.text, lead, { wholeWords: true })].map((m) => view.map[m.index]!);
}

/** An occurrence of an ID (in comparable form) printed in text with any separators, case or zero padding. */
function findComparable(text: string, comparable: string): string | null {
  return comparablePattern(comparable, 'iu').exec(text)?.[0] ?? null;
}

function comparablePattern(comparable: string, flags: string): RegExp {
  const parts = comparable.split('-').map((p) => (/^\d+$/.test(p) ? `0*${p}` : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`(?<![\\p{L}\\p{N}\\-\u2010-\u2014])${parts.join('[\\s_\\-\u2010-\u2014]*')}(?![\\p{L}\\p{N}]|[\\-\u2010-\u2014][\\p{L}\\p{N}])`, flags);
}

/**
 * Where [from, to) prints the ID a model wrote ("PBI-10014", "pbi 10014", "TOB-ETCD-8" for "TOB-ETCD-008"): the
 * profile's ID mentions that compare equal to it, else (an ID no pattern knows) the ID with any separators, case
 * or zero padding. A standard or advisory (isReferenceId) is never a finding's ID: no occurrence.
 */
export function idOccurrences(text: string, profile: ExtractionProfile, modelId: string, from: number, to: number): { start: number; end: number }[] {
  const wanted = comparableId(modelId);
  if (wanted === '' || isReferenceId(normalizeId(modelId))) return [];
  const window = text.slice(from, to);
  const printed = findIdMentions(window, [], profile.idPatterns).filter((m) => comparableId(m.raw) === wanted);
  if (printed.length > 0) return printed.map((m) => ({ start: from + m.start, end: from + m.end }));
  if (!/\p{L}/u.test(wanted) || !/\d/.test(wanted)) return [];
  return [...window.matchAll(comparablePattern(wanted, 'giu'))].map((m) => ({ start: from + m.index, end: from + m.index + m[0].length }));
}

/** A table row read as a table has its number in a cell of its own ("7 | Title | High", see pdf/lineBuilder.ts). */
const NUMBER_BEFORE = /(?:^|\n)[ \t]*(?:#|no\.?[ \t]*)?(\d{1,3}(?:\.\d{1,3}){0,3})[.):]?[ \t]+(?:\|[ \t]+)?$/i;
/** A section number of two levels or more after other words: a heading printed on its chapter title's line ("3. Detailed Findings 3.1. Title"). */
const SECTION_NUMBER_AFTER_WORDS = /(?<!\b(?:version|release|rev|v)\.?)[ \t](\d{1,3}(?:\.\d{1,3}){1,3})\.?[ \t]+$/i;

/**
 * The number printed directly before the finding's title in [from, to): the
 * title's words (normalised: case, invisible characters, ligatures, line
 * breaks) must follow "7", "7.", "3.2", "#7", "No. 7" or a table row's "7 | " at a line start. The whole title is
 * looked for first, then its first words (a heading that words the rest differently); with `near` (where the quote
 * is), the occurrence at it or before it, nearest, wins: siblings whose titles open alike ("... by spamming Deposit /
 * Grant transactions") print their numbers on neighbouring lines.
 */
export function printedNumberBefore(text: string, title: string, from: number, to: number, near?: number): string | null {
  const words = normalizeForMatch(title).text.match(/[\p{L}\p{N}]+/gu) ?? [];
  const lead = words.slice(0, Math.min(3, words.length));
  if (lead.length === 0 || (lead.length < 2 && (lead[0]?.length ?? 0) < 6)) return null;
  const view = normalizeForMatch(text, Math.max(0, from), Math.min(to, text.length));
  // The title's own punctuation before its first word ("++i costs less gas ...") is part of the title, not of what precedes it.
  const ownLead = /^[^\p{L}\p{N}]*/u.exec(title.trim())![0].replace(/\s+/g, '');
  for (const wanted of words.length > lead.length ? [words, lead] : [lead]) {
    const found: { number: string; at: number }[] = [];
    // The words in order, nothing but non-letters between them (util/wordSequence.ts: no pattern compiled per title).
    for (const m of wordSequenceMatches(view.text, wanted)) {
      const startInSource = view.map[m.index]!;
      // Look at the raw line before the title (normalisation folded line breaks into spaces).
      const lineStart = text.lastIndexOf('\n', startInSource - 1) + 1;
      let before = text.slice(Math.max(lineStart - 1, 0), startInSource).replace(/[\u200B-\u200F\u2060-\u2064\uFEFF\u00AD\u202A-\u202E\u2066-\u2069]/g, '');
      if (ownLead && before.endsWith(ownLead)) before = before.slice(0, -ownLead.length);
      const number = NUMBER_BEFORE.exec(before.startsWith('\n') ? before : `\n${before}`)?.[1] ?? SECTION_NUMBER_AFTER_WORDS.exec(before)?.[1];
      if (!number) continue;
      if (near === undefined) return number;
      found.push({ number, at: lineStart });
    }
    // At or before the quote, nearest first (its own line, its heading above a description); then after it.
    const rank = (x: { at: number }) => (x.at <= near! ? near! - x.at : 1e9 + x.at - near!);
    const best = found.sort((a, b) => rank(a) - rank(b))[0];
    if (best) return best.number;
  }
  return null;
}
