/**
 * The detailed sections of recorded findings, read by the rules where the model says they are (issue 25: each
 * finding written close to once, and cheaply).
 *
 * The rules already hold every finding the document's own lists name (listedRows.ts): its printed ID, number, title
 * and severity. A reply entry that repeats them costs about 100 output tokens at 40 tokens/s, to say only "its
 * detailed section is here". So the model gives such a finding as one number (its line in the RECORDED FINDINGS
 * block) and the rules read the section in the text the model was shown: its heading line is the evidence, the
 * opening sentence of its body the description, the severity its "Severity:" line or the list's.
 *
 * The model still decides: a section it does not name stays known from its list row only (LISTED_ENTRY_TYPE), and
 * the completeness check names it as a listed finding no analysed finding covers, as before. A number whose section
 * the rules cannot find in the text shown gives nothing: the row keeps its place in that list too.
 */
import { pageAt } from '../../../shared/canonical';
import type { ListedEntry } from '../../../shared/completeness';
import { RECORDED_FINDING_TYPE, rankSeverity, type ExtractionProfile, type GroundedFinding } from '../../../shared/findings';
import type { ExtractedDocument } from '../../../shared/types';
import { findIdMentions, isReferenceId } from '../rules';
import { NormalizedViews } from './grounding';
import { ID_WINDOW_CHARS, identifyFinding } from './identity';
import { isHidden, type HiddenSpan } from './listedRows';
import { printedNowhere, titleLines } from './sightings';
import { sentenceFrom } from './sourceDescription';
import { wordShare } from './printedEntries';

/** How far after its heading a section's opening sentence is looked for (past its metadata lines). */
const OPENING_WINDOW_CHARS = 1500;
/**
 * A section's first prose line has this many words at least, and is this long, or ends a sentence, or opens with a
 * capital (a label, a cell, a heading continued on its next line is none of these, or too short).
 */
const PROSE_CHARS = 60;
const PROSE_WORDS = 6;
/**
 * The labels a section's metadata block states a severity under, in the order they are trusted ("Impact" is one
 * half of a severity where both are printed). The value follows the label on its line ("Severity: High", "Risk |
 * Medium", "Category Code Maturity Severity Low" in a two-column block read row by row) or on the next line
 * ("Severity" / "Medium"). Only the metadata block is read (heading to the opening sentence), never the prose.
 */
const SEVERITY_LABELS = [/\bseverity\b/i, /\b(?:risk(?:\s+level)?|rating)\b/i, /\bimpact\b/i];
/** A line that labels a section's description: alone on its line, or leading it ("Description: The function ..."). */
const DESCRIPTION_LABEL = /(?:^|\n)[ \t]*(?:issue |finding )?description(?:\s*\/\s*recommendation)?[ \t]*:?[ \t]*(?:\n|(?=\S))/i;

/**
 * Metadata lines that are no part of a section's prose, however long: a label and a colon ("Context: a.sol#L67,
 * b.sol#L105, ..."), or a block label without one ("Target BTC Staking TS and Go", "Category Code Maturity Severity Low").
 */
const METADATA_LINE = /^(?:(?:context|targets?|severity|likelihood|impact|category|type|status|difficulty|files?|locations?|finding id|id|disclaimer)\s*:|(?:targets?|assets?|category|severity|likelihood|difficulty|status|rating)\s)/i;

/**
 * The recorded finding `entry` read from its detailed section in [unit.start, unit.end), or null when the text shows
 * no heading of it outside the hidden lists. The heading is the first line that starts with the entry's ID or its
 * title and is followed by prose; else the first such line. `views` holds the normalised text of the unit when the
 * caller reads several entries there.
 */
export function recordedDetail(
  doc: Pick<ExtractedDocument, 'text' | 'pages'>,
  profile: ExtractionProfile,
  entry: ListedEntry,
  unit: { start: number; end: number },
  hidden: readonly HiddenSpan[],
  views = new NormalizedViews(doc.text),
): GroundedFinding | null {
  const rowTitle = entry.title.replace(/\.\.\.$/, '').trim();
  const visible = (found: ReturnType<typeof titleLines>) => found.filter((l) => !isHidden(l.start, hidden));
  const lines = [...(entry.id ? visible(titleLines(doc.text, entry.id, unit.start, unit.end, views)) : []), ...headingLines(doc.text, rowTitle, unit, visible, views), ...numberedLines(doc.text, entry, rowTitle, unit, visible)]
    .sort((a, b) => a.start - b.start);
  if (lines.length === 0) return null;
  const opened = lines.map((line) => ({ line, opening: sectionOpening(doc.text, line.end, Math.min(unit.end, line.end + OPENING_WINDOW_CHARS)) }));
  const { line, opening } = opened.find((o) => o.opening !== null) ?? opened[0]!;
  const title = headingTitle(doc.text, line, rowTitle);
  const page = pageAt(doc.pages, line.start);
  const grounding = { status: 'grounded' as const, match: 'exact' as const, score: 1, start: line.start, end: line.end, page, inContextOnly: false };
  const severity = rankSeverity(profile, statedSeverity(doc.text, line.end, opening?.start ?? Math.min(unit.end, line.end + OPENING_WINDOW_CHARS / 3), profile) ?? entry.severity ?? '');
  // A list without IDs ("1 | Title | Type | Severity") still leaves the section's own ID line ("Finding ID: TOB-X-2").
  // A standard or advisory its title names ("Unsafe ERC-20 approve") is no ID of the finding.
  const blockEnd = Math.min(unit.end, line.end + ID_WINDOW_CHARS);
  const printedId = entry.id ?? findIdMentions(doc.text.slice(line.start, blockEnd), [], profile.idPatterns).find((m) => !isReferenceId(m.normalized))?.raw ?? null;
  const identity = identifyFinding(doc.text, profile, { modelId: printedId, title, grounding, region: unit });
  return {
    id: printedId,
    type: RECORDED_FINDING_TYPE,
    title,
    severity: severity.original,
    description: opening?.sentence ?? '',
    evidence: doc.text.slice(line.start, line.end),
    page,
    findingKey: identity.idKey ?? entry.id,
    printedNumber: identity.printedNumber ?? (/^\d+(?:\.\d+)*$/.test(entry.number) ? entry.number : null),
    severityCanonical: severity.canonical,
    severityRank: severity.rank,
    grounding,
  };
}

type Line = ReturnType<typeof titleLines>[number];

/**
 * Where the title is printed at a line start in the unit, outside the hidden lists. A row's title can carry its
 * neighbour cell ("... TCP reachability Cryptography": the type column read into it), so when the whole title is
 * printed nowhere else, its leading words are tried, down to half of them (at least two): a heading prints the
 * title, not the row's cells.
 */
function headingLines(text: string, title: string, unit: { start: number; end: number }, visible: (found: Line[]) => Line[], views: NormalizedViews): Line[] {
  const words = title.split(/\s+/).filter(Boolean);
  const fewest = Math.max(2, Math.ceil(words.length / 2));
  // Each longer wording starts with the shortest one's words, so it is printed only where that one is: when the shortest
  // is printed nowhere in the unit (as for most recorded findings of a unit), no wording is tried.
  if (words.length >= fewest && printedNowhere(text, words.slice(0, fewest).join(' '), unit.start, unit.end, views)) return [];
  for (let n = words.length; n >= fewest; n--) {
    const lines = visible(titleLines(text, words.slice(0, n).join(' '), unit.start, unit.end, views));
    if (lines.length > 0) return lines;
  }
  return [];
}

/**
 * Lines that start with the entry's own number ("15. Insecure ciphers are allowed by default" for the row "15 |
 * Insecure ciphers are enabled by default") and share at least half of its title's words: a heading the report
 * words a little differently from its table.
 */
function numberedLines(text: string, entry: ListedEntry, title: string, unit: { start: number; end: number }, visible: (found: Line[]) => Line[]): Line[] {
  if (!/^\d+(?:\.\d+)*$/.test(entry.number)) return [];
  const words = new Set(wordsOf(title));
  const lead = new RegExp(`^[ \\t#]*${entry.number.replace(/\./g, '\\.')}[.):]?[ \\t]+(?=\\p{L})`, 'gmu');
  const out: Line[] = [];
  const slice = text.slice(unit.start, unit.end);
  for (const m of slice.matchAll(lead)) {
    const titleStart = unit.start + m.index + m[0].length;
    const nl = text.indexOf('\n', titleStart);
    const end = Math.min(nl < 0 ? text.length : nl, unit.end);
    const shared = wordsOf(text.slice(titleStart, end)).filter((w) => words.has(w)).length;
    if (shared * 2 >= words.size) out.push({ start: unit.start + m.index + (m[0].length - m[0].trimStart().length), end, titleStart });
  }
  return visible(out);
}

const wordsOf = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/**
 * The title as the heading prints it (its line after the number or ID), unless the row's title goes on where the
 * heading's line ends (a heading wrapped over two lines): then the row's. A row's leaked cell never reaches the title.
 */
function headingTitle(text: string, line: Line, rowTitle: string): string {
  // A line found by its ID starts with it ("LID-05 DKG Susceptible ..."): the ID is no part of the title.
  const printed = text.slice(line.titleStart, line.end).replace(/^(?:[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+)?[\s:|.)-]*/, '').replace(/\s+/g, ' ').trim();
  const printedWords = wordsOf(printed);
  const rowWords = wordsOf(rowTitle);
  if (printedWords.length < 2) return rowTitle;
  const rest = rowWords.slice(printedWords.length);
  const wrapsOn = rowWords.slice(0, printedWords.length).join(' ') === printedWords.join(' ') && rest.length > 0 && wordsOf(text.slice(line.end, line.end + 200)).slice(0, rest.length).join(' ') === rest.join(' ');
  return wrapsOn ? rowTitle : printed;
}

/**
 * The first sentence of prose in [from, to): past the heading's metadata lines ("Severity: High", "Target: x.sol",
 * table cells), the document's own words on what the finding is. Null when there is none.
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
    const prose = !/\s\|\s/.test(line) && !METADATA_LINE.test(line) && (line.length >= PROSE_CHARS || /[.!?]["')\]]?$/.test(line) || /^\p{Lu}/u.test(line));
    if (prose && words >= PROSE_WORDS) {
      const start = at + (text.slice(at, end).length - text.slice(at, end).trimStart().length);
      // A label printed on the sentence's own line ("Description: The function ...") is no part of it.
      const sentence = sentenceFrom(text, start, Math.min(to + OPENING_WINDOW_CHARS, text.length), METADATA_LINE).replace(/^(?:description|details|summary)(?:\s*\/\s*\w+)?\s*:?\s+(?=\S)/i, '');
      if (sentence !== '') return { start, sentence };
    }
    if (nl < 0) break;
    at = nl + 1;
  }
  return null;
}

/** The severity a section's metadata block states, as printed: the first one or two words after its label that the profile's scale knows; else null. */
function statedSeverity(text: string, from: number, to: number, profile: ExtractionProfile): string | null {
  const lines = text.slice(from, Math.max(from, to)).split('\n').map((l) => l.trim()).filter((l) => l !== '');
  for (const label of SEVERITY_LABELS) {
    for (let i = 0; i < lines.length; i++) {
      const m = label.exec(lines[i]!);
      if (!m) continue;
      const after = lines[i]!.slice(m.index + m[0].length).replace(/^[\s:|]+/, '') || lines[i + 1] || '';
      const words = after.split(/\s+/).filter(Boolean);
      for (const n of [2, 1]) if (words.length >= n && onScale(profile, words.slice(0, n).join(' '))) return words.slice(0, n).join(' ');
    }
  }
  return null;
}

/** Whether a word is a severity of the profile's scale or one of its aliases as it stands ("Very High"), not merely containing one. */
function onScale(profile: ExtractionProfile, value: string): boolean {
  const key = value.toLowerCase().replace(/[.:,;]+$/, '');
  return profile.severities.some((s) => s.toLowerCase() === key) || Object.keys(profile.severityAliases).some((a) => a.toLowerCase() === key);
}

/** Share of title words two titles of one finding have in common, both ways (a model shortens or rewords a little). */
const SAME_TITLE_SHARE = 0.7;

/**
 * Whether a reported finding is the recorded `entry` whose detailed section the rules read as `section`: it carries
 * the section's printed ID, or it was read from the section's heading, or it is titled like the entry.
 */
export function standsFor(f: Pick<GroundedFinding, 'findingKey' | 'grounding' | 'title'>, entry: ListedEntry, section: GroundedFinding): boolean {
  if (section.findingKey !== null && f.findingKey === section.findingKey) return true;
  if (f.grounding.start !== null && f.grounding.start === section.grounding.start) return true;
  return wordShare(entry.title, f.title) >= SAME_TITLE_SHARE && wordShare(f.title, entry.title) >= SAME_TITLE_SHARE;
}
