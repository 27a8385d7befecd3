/**
 * A finding's section as the document prints it, read by the rules whatever shape the model answered in (issue 36:
 * every finding with the severity, ID and section its document prints). One module for what the rules read around a
 * finding's heading, so that extraction (a bare title, a recorded number, an object without a quote), the merge step
 * and the re-audit comparison read it the same way:
 *
 * - its heading: a line that prints the finding's title at its start (after a number or an ID at most) and is followed
 *   by the section itself, not a contents line (dot leaders, a page number) or a table row (cells);
 * - its metadata block: the lines between the heading and the opening sentence ("Severity: High", "Finding ID:
 *   TOB-X-3", "Target: a.sol");
 * - its opening sentence: the document's own words on what the finding is;
 * - the ID printed in its heading block: on the heading line, alone on the line above it, or labelled (or alone) on a
 *   line of its metadata block; never one referred to in the prose;
 * - the severity printed for it, as the printed word ("High" of "High Risk", "Gas" of "Gas Optimizations",
 *   "Undetermined", "Major"): a field of its metadata block ("Severity: High", "Impact: Low"), else the severity cell
 *   of its row in the document's own list (a summary table, a register), else the heading of the group it stands
 *   under ("7.2 High Risk", "Medium Risk", "Gas Optimizations"): Cyfrin-style reports print a finding's severity only
 *   there. None of these: the document prints no severity for it.
 *
 * A severity group heading counts only where it heads its findings: the first finding's heading follows it within a
 * few lines (a methodology chapter's "High Risk" definitions, pages before the findings, rate nothing), and a numbered
 * finding stands only under a group whose number opens its own ("7.2.3" under "7.2 Medium Risk", never under "7.1").
 */
import { CONTENTS_LINE_END } from '../../../shared/canonical';
import { rankSeverity, type ExtractionProfile, type MergedFindingDraft, type SeverityRank } from '../../../shared/findings';
import type { ListedEntry } from '../../../shared/completeness';
import { findIdMentions, isReferenceId } from '../rules';
import { wordSequenceMatches } from '../util';
import { normalizeForMatch, NormalizedViews } from './grounding';
import { sentenceFrom } from './sourceDescription';

/** How far after its heading a section's opening sentence is looked for (past its metadata lines). */
export const OPENING_WINDOW_CHARS = 1500;
/**
 * A section's first prose line has this many words at least, and is this long, or ends a sentence, or opens with a
 * capital (a label, a cell, a heading continued on its next line is none of these, or too short).
 */
const PROSE_CHARS = 60;
const PROSE_WORDS = 6;
/** A line that labels a section's description: alone on its line, or leading it ("Description: The function ..."). */
const DESCRIPTION_LABEL = /(?:^|\n)[ \t]*(?:issue |finding )?description(?:\s*\/\s*recommendation)?[ \t]*:?[ \t]*(?:\n|(?=\S))/i;
/**
 * Metadata lines that are no part of a section's prose, however long: a label and a colon ("Context: a.sol#L67,
 * b.sol#L105, ..."), or a block label without one ("Target BTC Staking TS and Go", "Category Code Maturity Severity Low").
 */
export const METADATA_LINE =
  /^(?:(?:context|targets?|severity|likelihood|impact|category|type|status|difficulty|files?|locations?|finding id|id|disclaimer)\s*:|(?:targets?|assets?|category|severity|likelihood|difficulty|status|rating)\s)/i;
/** A table row read as cells ("7 | Title | High", pdf/tableRows.ts). */
const TABLE_ROW = /\s\|\s/;

/**
 * The labels a metadata block states a severity under, in the order they are trusted ("Impact" is one half of a
 * severity where both are printed). The value follows the label on its line ("Severity: High", "Risk | Medium",
 * "Category Code Maturity Severity Low" in a two-column block read row by row) or on the next line ("Severity" /
 * "Medium").
 */
const SEVERITY_FIELDS = [/\bseverity\b/i, /\b(?:risk(?:\s+level)?|rating)\b/i, /\bimpact\b/i];
/**
 * A document that counts its findings by impact ("Breakdown of Finding Impacts", "Impact Level | Count": Zellic rates
 * each finding by its Impact, its Severity being one of the two things the impact weighs): its Impact field is the
 * rating, before its Severity field.
 */
const COUNTS_BY_IMPACT = /\b(?:breakdown\s+of\s+(?:the\s+)?(?:finding\s+)?impacts?|impact\s+level\s*\|?\s*count|findings?\s+by\s+impact)\b/i;

/** What may follow a severity word in a group heading ("High Risk", "Medium Severity", "Gas Optimizations"). */
const GROUP_QUALIFIER = String.raw`(?:[ \t-]+(?:risk|severity|severity\s+findings|findings?|issues?|optimi[sz]ations?|vulnerabilit(?:y|ies)))*`;
/** A group heading heads its findings: the first one's heading starts within this many characters of it. */
const GROUP_HEADS_WITHIN = 400;
/** How far before a quote from a finding's body its heading is looked for (a section of code and prose). */
const SECTION_REACH = 12_000;

/** The severity a document prints for a finding, as the word it prints, and where. */
export interface PrintedSeverity extends SeverityRank {
  /** [start, end) of the printed word (a field's value, a row's cell, a group heading's line). */
  start: number;
  end: number;
  /** A field of the finding's metadata block, the cell of its row in the document's own list, or its group heading. */
  from: 'field' | 'row' | 'group';
}

/** A line of the text: [start, end), without its line break. */
export interface TextSpan {
  start: number;
  end: number;
}

/**
 * The first sentence of prose in [from, to): past the heading's metadata lines ("Severity: High", "Target: x.sol",
 * table cells, contents lines), the document's own words on what the finding is. Null when there is none.
 */
export function sectionOpening(text: string, from: number, to: number): { start: number; sentence: string } | null {
  // Where the section labels its description ("Description", "Description:"), the prose starts there: past any
  // metadata block, whatever its layout.
  const label = DESCRIPTION_LABEL.exec(text.slice(from, to));
  let at = label ? from + label.index + label[0].length : from;
  while (at < to) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 || nl > to ? to : nl;
    const line = text.slice(at, end).trim();
    const words = line.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
    // A sentence's first line: long, or ending a sentence, or opening with a capital (a wrapped line starts mid-sentence).
    const prose =
      !TABLE_ROW.test(line) &&
      !CONTENTS_LINE_END.test(line) &&
      !METADATA_LINE.test(line) &&
      (line.length >= PROSE_CHARS || /[.!?]["')\]]?$/.test(line) || /^\p{Lu}/u.test(line));
    if (prose && words >= PROSE_WORDS) {
      const start = at + (text.slice(at, end).length - text.slice(at, end).trimStart().length);
      // A label printed on the sentence's own line ("Description: The function ...") is no part of it.
      const sentence = sentenceFrom(text, start, Math.min(to + OPENING_WINDOW_CHARS, text.length), METADATA_LINE).replace(
        /^(?:description|details|summary)(?:\s*\/\s*\w+)?\s*:?\s+(?=\S)/i,
        '',
      );
      if (sentence !== '') return { start, sentence };
    }
    if (nl < 0) break;
    at = nl + 1;
  }
  return null;
}

const INVISIBLE = /[\u200B-\u200F\u2060-\u2064\uFEFF\u00AD\u202A-\u202E\u2066-\u2069]/g;

/**
 * Before a title on its line: a list bullet (a PDF often draws "◦" or "•" from a symbol font as the letter "o"), then
 * numbers, IDs and punctuation only; or a section number after a chapter title ("3. Detailed Findings 3.1.").
 */
const LINE_LEAD = /^[\s#.:)(|\-–—]*(?:(?:[•●▪◦‣·*]|o(?=\s))\s*)?(?:(?:\d+(?:\.\d+)*|[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+|No\.?|ID:?)[\s.:)(|\-–—]*)*$/;
const SECTION_NUMBER_AFTER_WORDS = /(?:^|\s)\d+(?:\.\d+)+\.?\s+$/;

/** A title printed at a line start: its line(s) [start, end) without their outer white space, and where the title's words start and end. */
export interface TitleLine {
  start: number;
  end: number;
  titleStart: number;
  titleEnd: number;
}

/** A title's words as the text's normalised view holds them; null for a title too short to be a heading. */
function titleWords(title: string): string[] | null {
  const words = normalizeForMatch(title).text.match(/[\p{L}\p{N}]+/gu) ?? [];
  // A title of one short word is too common to be a heading of its own.
  if (words.length === 0 || (words.length < 2 && words[0]!.length < 6)) return null;
  return words;
}

/**
 * The title's words are printed nowhere in [from, to), at a line start or elsewhere (false when the title is too short
 * to tell). Any wording that starts with these words is then printed nowhere there either.
 */
export function printedNowhere(text: string, title: string, from: number, to: number, views = new NormalizedViews(text)): boolean {
  const words = titleWords(title);
  return words !== null && wordSequenceMatches(views.of(from, Math.min(to, text.length)).text, words, { wholeWords: true }).next().done === true;
}

/**
 * Where a title is printed at the start of a line in [from, to): its line(s), without their outer white space. `views`
 * holds the normalised text of [from, to) when the caller looks up several titles there.
 */
export function titleLines(text: string, title: string, from: number, to: number, views = new NormalizedViews(text)): TitleLine[] {
  const words = titleWords(title);
  if (!words) return [];
  const view = views.of(from, Math.min(to, text.length));
  const ownLead = /^[^\p{L}\p{N}]*/u.exec(title.trim())![0].replace(/\s+/g, '');
  const out: TitleLine[] = [];
  // The title's words in order, nothing but non-letters between them, whole words (util/wordSequence.ts).
  for (const m of wordSequenceMatches(view.text, words, { wholeWords: true })) {
    const titleStart = view.map[m.index]!;
    const titleEnd = view.map[m.index + m.length - 1]! + 1;
    const lineStart = text.lastIndexOf('\n', titleStart - 1) + 1;
    let before = text.slice(Math.max(lineStart, from), titleStart).replace(INVISIBLE, '');
    if (ownLead && before.endsWith(ownLead)) before = before.slice(0, -ownLead.length);
    if (!LINE_LEAD.test(before) && !SECTION_NUMBER_AFTER_WORDS.test(before)) continue;
    const nl = text.indexOf('\n', titleEnd);
    let start = Math.max(lineStart, from);
    while (start < titleStart && /\s/.test(text[start]!)) start++;
    let end = Math.min(nl < 0 ? text.length : nl, to);
    while (end > titleEnd && /\s/.test(text[end - 1]!)) end--;
    out.push({ start, end, titleStart, titleEnd });
  }
  return out;
}

/**
 * Whether `at` starts its line's words: only a lead (a bullet, numbers, IDs, punctuation: LINE_LEAD) before it on its
 * line. A quote that starts so is a heading, a row or a list item, not a phrase inside a sentence.
 */
export function startsLine(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  return LINE_LEAD.test(text.slice(lineStart, at).replace(INVISIBLE, ''));
}

/** Where a heading's metadata block ends: at its opening sentence, else a short way on. */
export function metadataBlockEnd(text: string, heading: TextSpan, limit = text.length): number {
  const to = Math.min(limit, heading.end + OPENING_WINDOW_CHARS);
  return sectionOpening(text, heading.end, to)?.start ?? Math.min(to, heading.end + OPENING_WINDOW_CHARS / 3);
}

/** Whether a line is a contents line (dot leaders and a page number) or a table row: it names a finding, it is no heading. */
export function namesOnly(line: string): boolean {
  return CONTENTS_LINE_END.test(line.trim()) || TABLE_ROW.test(line);
}

/** After a title, its line ends with a page number ("7. <title> 14"): a contents line without leaders, no heading. */
const PAGE_AFTER_TITLE = /^[\s.·…]*\d{1,4}\s*$/;

/** Whether a title line only names its finding: a contents line (leaders, or a page number right after the title), or a table row. */
export function namesTitleOnly(text: string, line: TitleLine): boolean {
  const own = lineOf(text, line.titleEnd > line.titleStart ? line.titleEnd - 1 : line.start);
  return namesOnly(text.slice(lineOf(text, line.start).start, own.end)) || PAGE_AFTER_TITLE.test(text.slice(line.titleEnd, own.end));
}

/**
 * Whether `line` heads a section: no contents line or table row, and a section follows it in [line.end, limit): its
 * opening sentence, or a metadata field ("Severity: High") before the next line that prints another heading.
 */
export function headsSection(text: string, line: TextSpan, limit = text.length): boolean {
  if (namesOnly(text.slice(line.start, line.end))) return false;
  // An entry of a list followed by the next entry of that list ("o PBI-12: ..." then "o PBI-13: ...", "5.2.1 ..." then
  // "5.2.2 ...", maybe after the rest of its wrapped title): its neighbours are other findings, not its section.
  const shape = leadShape(text.slice(line.start, line.end));
  if (shape !== '' && nextLeadShape(text, line.end, limit) === shape) return false;
  const to = Math.min(limit, line.end + OPENING_WINDOW_CHARS);
  if (sectionOpening(text, line.end, to) !== null) return true;
  return text
    .slice(line.end, to)
    .split('\n')
    .some((l) => METADATA_LINE.test(l.trim()));
}

/** The longest line read as the rest of a title wrapped onto it (before the next entry of a list). */
const TITLE_CONTINUATION_CHARS = 80;

/**
 * The lead shape of the line after `from` (up to `limit`), past one line that continues a wrapped title (no lead, no
 * label, no sentence end, short); '' when that line starts with words of its own (a label, prose).
 */
function nextLeadShape(text: string, from: number, limit: number): string {
  let skipped = false;
  for (let at = text.indexOf('\n', from); at >= 0 && at + 1 < limit; at = text.indexOf('\n', at + 1)) {
    const line = lineOf(text, at + 1);
    const content = text.slice(line.start, line.end).trim();
    if (content === '') continue;
    const shape = leadShape(content);
    if (shape !== '') return shape;
    const continuesTitle =
      !skipped &&
      content.length <= TITLE_CONTINUATION_CHARS &&
      !METADATA_LINE.test(content) &&
      !DESCRIPTION_LABEL.test(`\n${content}`) &&
      !/[.!?:]["')\]]?$/.test(content);
    if (!continuesTitle) return '';
    skipped = true;
  }
  return '';
}

/**
 * The shape of what leads a line before its words: a bullet, a number of so many levels, an ID ("o ID:", "N.N.N",
 * "ID |"); empty for a line that starts with words. Two lines of one shape are entries of one list.
 */
function leadShape(line: string): string {
  const lead = /^\s*((?:[•●▪◦‣·*\-–—]|o(?=\s))?)\s*(\d{1,3}(?:\.\d{1,3})*)?\.?\)?\s*([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+)?/.exec(line)!;
  const [, bullet, number, id] = lead;
  if (!bullet && !number && !id) return '';
  return `${bullet ?? ''}|${number ? number.split('.').length : 0}|${id ? 'id' : ''}`;
}

/**
 * Where a title heads its section in [area.start, area.end): of the lines that print it at their start (sightings.ts
 * titleLines), the first that heads a section; else the first that is no contents line or table row; else the first.
 * Null when the area prints the title at no line start. Lines inside `skip` (lists the rules read) are passed over.
 */
export function titleHeading(
  text: string,
  title: string,
  area: TextSpan,
  skip: (at: number) => boolean = () => false,
): (TitleLine & { heads: boolean }) | null {
  const lines = titleLines(text, title, area.start, area.end).filter((l) => !skip(l.start));
  if (lines.length === 0) return null;
  const heading = lines.find((l) => headsTitledSection(text, l, area.end));
  if (heading) return { ...heading, heads: true };
  return { ...(lines.find((l) => !namesTitleOnly(text, l)) ?? lines[0]!), heads: false };
}

/** Whether a title line is the heading of its section: it does not only name the finding, and a section follows it. */
export function headsTitledSection(text: string, line: TitleLine, limit = text.length): boolean {
  return !namesTitleOnly(text, line) && headsSection(text, lineOf(text, line.start), limit);
}

/** "ID:", "Finding ID", "Ref." right before an ID on its line: a heading block's metadata, never a table row. */
const ID_LABEL = /\b(?:id|ref(?:erence)?|identifier)\b[\s.:#]*$/i;

/**
 * The ID printed in a heading's block: on the heading line itself, alone on the line right above it ("LID-05" over
 * the title), or on a line of its metadata block where it is labelled ("Finding ID: TOB-X-3") or stands alone. A
 * standard or advisory (ERC-20, CVE-...) is no ID of a finding. Null when the block prints none.
 */
export function headingBlockId(text: string, profile: ExtractionProfile, heading: TextSpan, blockEnd: number): string | null {
  const ids = (from: number, to: number) =>
    findIdMentions(text.slice(from, to), [], profile.idPatterns)
      .filter((m) => !isReferenceId(m.normalized))
      .map((m) => ({ ...m, start: m.start + from, end: m.end + from }));
  const line = lineOf(text, heading.start);
  const onLine = ids(line.start, line.end)[0];
  if (onLine) return onLine.normalized;
  if (line.start > 0) {
    const above = lineOf(text, line.start - 1);
    const found = ids(above.start, above.end);
    if (found.length === 1 && aloneOnLine(text, above, found[0]!)) return found[0]!.normalized;
  }
  for (const m of ids(line.end, Math.max(line.end, blockEnd))) {
    const own = lineOf(text, m.start);
    if (ID_LABEL.test(text.slice(own.start, m.start)) || aloneOnLine(text, own, m)) return m.normalized;
  }
  return null;
}

/** The line holds the ID and at most a word or two besides ("LID-05", "TOB-X-3 (High)"). */
function aloneOnLine(text: string, line: TextSpan, id: TextSpan): boolean {
  return ((text.slice(line.start, id.start) + ' ' + text.slice(id.end, line.end)).match(/\p{L}{2,}/gu) ?? []).length <= 2;
}

/** The line around offset `at`. */
export function lineOf(text: string, at: number): TextSpan {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const nl = text.indexOf('\n', at);
  return { start, end: nl < 0 ? text.length : nl };
}

// ---------------------------------------------------------------------------------------------
// Severities
// ---------------------------------------------------------------------------------------------

/**
 * The severity a metadata block [from, to) prints: the first one or two words after a severity field's label that the
 * profile's scale knows, as printed ("Medium" of "Severity: Medium Risk"), in the order the fields are trusted. Where
 * the block prints a Severity and an Impact that differ, the document says which is the rating (COUNTS_BY_IMPACT).
 * Null when it prints none.
 */
export function fieldSeverity(text: string, from: number, to: number, profile: ExtractionProfile): PrintedSeverity | null {
  const lines: TextSpan[] = [];
  for (let at = from; at < to; ) {
    const line = lineOf(text, at);
    if (text.slice(line.start, line.end).trim() !== '') lines.push({ start: Math.max(line.start, from), end: Math.min(line.end, to) });
    at = line.end + 1;
  }
  const values = SEVERITY_FIELDS.map((label) => fieldValue(text, lines, label, profile));
  const [severity, , impact] = values;
  if (severity && impact && severity.original.toLowerCase() !== impact.original.toLowerCase() && COUNTS_BY_IMPACT.test(text)) return impact;
  return values.find((v) => v !== null) ?? null;
}

/** The severity word printed after `label` on one of `lines` (or on the line after it), with its place. */
function fieldValue(text: string, lines: readonly TextSpan[], label: RegExp, profile: ExtractionProfile): PrintedSeverity | null {
  for (let i = 0; i < lines.length; i++) {
    const line = text.slice(lines[i]!.start, lines[i]!.end);
    const m = label.exec(line);
    if (!m) continue;
    const rest = line.slice(m.index + m[0].length);
    const lead = /^[\s:|]*/.exec(rest)![0].length;
    // The value on the label's line, else on the next line ("Severity" / "Medium").
    const next = lines[i + 1];
    const nextText = next ? text.slice(next.start, next.end) : '';
    const value =
      rest.slice(lead).trim() !== ''
        ? { at: lines[i]!.start + m.index + m[0].length + lead, words: rest.slice(lead) }
        : next
          ? { at: next.start + (nextText.length - nextText.trimStart().length), words: nextText.trim() }
          : null;
    if (!value) continue;
    const words = value.words.split(/\s+/).filter(Boolean);
    for (const n of [2, 1]) {
      const word = words
        .slice(0, n)
        .join(' ')
        .replace(/[.:,;]+$/, '');
      if (words.length >= n && isSeverityWord(profile, word))
        return { ...rankSeverity(profile, word), start: value.at, end: value.at + word.length, from: 'field' };
    }
  }
  return null;
}

/** Whether a word is a severity of the profile's scale or one of its aliases as it stands ("Very High"), not merely containing one. */
export function isSeverityWord(profile: ExtractionProfile, value: string): boolean {
  const key = value
    .toLowerCase()
    .replace(/[.:,;]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return profile.severities.some((s) => s.toLowerCase() === key) || Object.keys(profile.severityAliases).some((a) => a.toLowerCase() === key);
}

/** A heading that names a severity group ("7.2 High Risk", "Medium Risk", "5.3 Informational", "Gas Optimizations"). */
export interface SeverityGroup {
  /** The heading's line. */
  start: number;
  end: number;
  /** Its section number ("7.2"), when it prints one. */
  number: string | null;
  /** The severity word as printed ("High", "Gas"). */
  word: string;
}

/**
 * Every line that could head a severity group: a severity word with a qualifier ("High Risk", "Gas Optimizations",
 * "Low Severity"), or a numbered severity word ("7.4 Informational"), and nothing else on the line. A bare word on a
 * line of its own ("High" under a "Severity" label) is a field's value, and a line with a count or a page number
 * ("High Risk 2", "7.1 High Risk . . . 8") a summary or a contents line: neither heads a group.
 */
export function severityGroupLines(text: string, profile: ExtractionProfile): SeverityGroup[] {
  const words = [...profile.severities, ...Object.keys(profile.severityAliases)]
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'));
  const pattern = new RegExp(String.raw`^[ \t]*(?:(\d{1,2}(?:\.\d{1,3}){0,3})\.?[ \t]+)?(${words.join('|')})(${GROUP_QUALIFIER})[ \t]*:?[ \t]*$`, 'gimu');
  const out: SeverityGroup[] = [];
  for (const m of text.matchAll(pattern)) {
    const number = m[1] ?? null;
    if (number === null && m[3]!.trim() === '') continue;
    const lead = m[0].length - m[0].trimStart().length;
    out.push({ start: m.index + lead, end: m.index + m[0].trimEnd().length, number, word: m[2]!.replace(/\s+/g, ' ') });
  }
  return out;
}

/**
 * The group headings that head findings: a finding's heading (one of `headings`, offsets in document order) starts
 * within GROUP_HEADS_WITHIN characters after the group's line, before any other group heading.
 */
export function headingGroups(groups: readonly SeverityGroup[], headings: readonly number[]): SeverityGroup[] {
  const sorted = [...headings].sort((a, b) => a - b);
  return groups.filter((g, i) => {
    const next = groups[i + 1]?.start ?? Infinity;
    const first = sorted.find((h) => h >= g.end);
    return first !== undefined && first < next && first - g.end <= GROUP_HEADS_WITHIN;
  });
}

/**
 * The group a finding whose heading starts at `at` stands under: the last group heading before it; a numbered
 * finding only under a group whose number opens its own ("7.2.3" under "7.2"). Null when none applies.
 */
export function groupAbove(groups: readonly SeverityGroup[], at: number, number: string | null): SeverityGroup | null {
  let above: SeverityGroup | undefined;
  for (const g of groups) if (g.end <= at) above = g;
  if (!above) return null;
  const deeper = number !== null && above.number !== null && number.split('.').length > above.number.split('.').length;
  if (deeper && !number.startsWith(`${above.number}.`)) return null;
  return above;
}

/** A finding as the severity reader needs it: its title(s), the number printed before it, and where it is printed. */
export interface FindingPlaces {
  titles: readonly string[];
  printedNumber: string | null;
  /** Grounded places, the main one first (its detailed section, when the finding has one). */
  places: readonly TextSpan[];
}

/** What the document prints for one finding, as the rules read it. */
export interface PrintedFields {
  /** The heading line of its detailed section; null when the rules find none. */
  heading: TextSpan | null;
  /** The severity printed for it (its section's field, its row's cell, its group heading); null when none is printed. */
  severity: PrintedSeverity | null;
  /** The ID printed in its heading block (normalised); null when none. */
  id: string | null;
  /** The number printed before the title on its heading line ("7.2.1", "3"); null when none. */
  number: string | null;
}

/**
 * What the document prints for each finding (see the module comment), in the order given. `rows` are the entries of the
 * document's own lists (summary tables, contents, registers).
 */
export function readAsPrinted(text: string, profile: ExtractionProfile, findings: readonly FindingPlaces[], rows: readonly ListedEntry[]): PrintedFields[] {
  const rowAt = (at: number) => rows.find((r) => at >= r.start && at < r.end);
  // Each finding's heading: a grounded place that heads its section, else the title line last printed before its main place.
  const headings = findings.map((f) => sectionHeadingOf(text, f, rowAt));
  const groups = headingGroups(
    severityGroupLines(text, profile),
    headings.flatMap((h) => (h ? [h.start] : [])),
  );
  return findings.map((f, i) => {
    const heading = headings[i] ?? null;
    const blockEnd = heading ? metadataBlockEnd(text, heading, nextHeadingAfter(headings, heading)) : 0;
    const number = heading ? (/^[ \t#]*(\d{1,3}(?:\.\d{1,3}){0,3})[.):]?[ \t]+\p{L}/u.exec(text.slice(heading.start, heading.end))?.[1] ?? null) : null;
    const fields = { heading, id: heading ? headingBlockId(text, profile, heading, blockEnd) : null, number };
    const field = heading ? fieldSeverity(text, heading.end, blockEnd, profile) : null;
    if (field) return { ...fields, severity: field };
    const row = f.places.map((p) => rowAt(p.start)).find((r) => r?.severity);
    if (row?.severity) {
      const at = text.indexOf(row.severity, row.start);
      return {
        ...fields,
        severity: { ...rankSeverity(profile, row.severity), start: at < 0 ? row.start : at, end: at < 0 ? row.end : at + row.severity.length, from: 'row' },
      };
    }
    // Only a heading stands under a group: a quote with no heading found above it may lie in an appendix after the last group.
    const group = heading ? groupAbove(groups, heading.start, f.printedNumber ?? number) : null;
    return { ...fields, severity: group ? { ...rankSeverity(profile, group.word), start: group.start, end: group.end, from: 'group' } : null };
  });
}

/** The severity the document prints for each finding (readAsPrinted), in the order given; null where it prints none. */
export function severitiesAsPrinted(
  text: string,
  profile: ExtractionProfile,
  findings: readonly FindingPlaces[],
  rows: readonly ListedEntry[],
): (PrintedSeverity | null)[] {
  return readAsPrinted(text, profile, findings, rows).map((f) => f.severity);
}

/** Where the next finding's heading starts after `heading` (its metadata block ends before it). */
function nextHeadingAfter(headings: readonly (TextSpan | null)[], heading: TextSpan): number | undefined {
  let next: number | undefined;
  for (const h of headings) if (h && h.start > heading.start && (next === undefined || h.start < next)) next = h.start;
  return next;
}

/**
 * The heading of a finding's detailed section: a grounded place of it that prints one of its titles at its line's start
 * (a title may wrap onto the next line) and heads a section; else the last such title line before its main place
 * (within SECTION_REACH: a quote from its description); else its main place itself when that starts its line, ends no
 * sentence and heads a section (a heading whose text layer lost letters, "the o er" for "the offer"). A finding known
 * only from rows of the document's lists (the model did not report its section) has its heading wherever the document
 * prints its title as one. A place in one of the lists (a row, a contents line) is no heading. Null when none is found.
 */
function sectionHeadingOf(text: string, f: FindingPlaces, rowAt: (at: number) => ListedEntry | undefined): TextSpan | null {
  const titleHeadingIn = (from: number, to: number, last: boolean) => {
    const lines = f.titles
      .flatMap((t) => titleLines(text, t, from, to))
      .filter((l) => !rowAt(l.start))
      .sort((a, b) => (last ? b.start - a.start : a.start - b.start));
    const heading = lines.find((l) => headsTitledSection(text, l));
    return heading ? lineOf(text, heading.start) : null;
  };
  for (const place of f.places) {
    if (rowAt(place.start)) continue;
    const line = lineOf(text, place.start);
    // One of its titles printed from this line's start (a title may wrap onto the next line), heading its section.
    const titled = f.titles.flatMap((t) => titleLines(text, t, line.start, Math.min(text.length, line.end + t.length * 2))).filter((l) => l.start < line.end);
    if (titled.some((l) => headsTitledSection(text, l))) return line;
  }
  const main = f.places.find((p) => !rowAt(p.start));
  if (!main) return f.places.length > 0 ? titleHeadingIn(0, text.length, false) : null;
  const before = titleHeadingIn(Math.max(0, main.start - SECTION_REACH), main.start, true);
  if (before) return before;
  const own = lineOf(text, main.start);
  const endsSentence = /[.!?]["')\]]?\s*$/.test(text.slice(own.start, own.end));
  return startsLine(text, main.start) && !endsSentence && headsSection(text, own) ? own : null;
}

/** A merged finding as the reader needs it. */
type PrintedDraft = Pick<MergedFindingDraft, 'title' | 'printedNumber' | 'findingKey' | 'sources' | 'severity' | 'severityCanonical' | 'severityRank'>;

/**
 * The merged findings of one document, each with what its document prints for it (readAsPrinted), read from its main
 * source's section first, then its other grounded sources, whichever way the model gave it: the severity printed for
 * it (a finding the document rates nowhere keeps what its sources said: the model's word, or none, unrated), and, where
 * the finding carries none, the ID its heading block prints (unless another finding carries that ID: the merge kept
 * them apart) and the number its heading prints.
 */
export function asPrinted<T extends PrintedDraft>(text: string, profile: ExtractionProfile, merged: readonly T[], rows: readonly ListedEntry[]): T[] {
  const places = merged.map((m): FindingPlaces => {
    const grounded = m.sources.filter((s) => s.grounded && s.evidenceStart !== null && s.evidenceEnd !== null);
    const ordered = [...grounded.filter((s) => s.isMain), ...grounded.filter((s) => !s.isMain)];
    return {
      titles: [...new Set([m.title, ...m.sources.map((s) => s.title)])],
      printedNumber: m.printedNumber,
      places: ordered.map((s) => ({ start: s.evidenceStart!, end: s.evidenceEnd! })),
    };
  });
  const printed = readAsPrinted(text, profile, places, rows);
  const keys = new Set(merged.map((m) => m.findingKey).filter((k): k is string => k !== null));
  return merged.map((m, i) => {
    const p = printed[i]!;
    const id = m.findingKey === null && p.id !== null && !keys.has(p.id) ? { findingKey: p.id } : {};
    const number = m.printedNumber === null && p.number !== null ? { printedNumber: p.number } : {};
    const severity = p.severity ? { severity: p.severity.original, severityCanonical: p.severity.canonical, severityRank: p.severity.rank } : {};
    return { ...m, ...id, ...number, ...severity };
  });
}
