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
import { findIdMentions } from '../rules';
import { ID_WINDOW_CHARS, identifyFinding } from './identity';
import { isHidden, type HiddenSpan } from './listedRows';
import { titleLines } from './sightings';
import { sourceDescription } from './sourceDescription';

/** How far after its heading a section's opening sentence is looked for (past its metadata lines). */
const OPENING_WINDOW_CHARS = 1500;
/** A line this long, or one that ends a sentence with this many words, is prose (not a label, a cell or a heading). */
const PROSE_CHARS = 60;
const PROSE_WORDS = 6;
/** "Severity: High", "Risk | Medium", "Impact: Low" in a section's metadata block. */
const SEVERITY_LINE = /^\s*(?:severity|risk(?:\s+level)?|impact|rating)\s*[:|]?\s*(.+?)\s*$/i;

/**
 * The recorded finding `entry` read from its detailed section in [unit.start, unit.end), or null when the text shows
 * no heading of it outside the hidden lists. The heading is the first line that starts with the entry's ID or its
 * title and is followed by prose; else the first such line.
 */
export function recordedDetail(
  doc: Pick<ExtractedDocument, 'text' | 'pages'>,
  profile: ExtractionProfile,
  entry: ListedEntry,
  unit: { start: number; end: number },
  hidden: readonly HiddenSpan[],
): GroundedFinding | null {
  const rowTitle = entry.title.replace(/\.\.\.$/, '').trim();
  const visible = (found: ReturnType<typeof titleLines>) => found.filter((l) => !isHidden(l.start, hidden));
  const lines = [...(entry.id ? visible(titleLines(doc.text, entry.id, unit.start, unit.end)) : []), ...headingLines(doc.text, rowTitle, unit, visible), ...numberedLines(doc.text, entry, rowTitle, unit, visible)]
    .sort((a, b) => a.start - b.start);
  if (lines.length === 0) return null;
  const opened = lines.map((line) => ({ line, opening: sectionOpening(doc.text, line.end, Math.min(unit.end, line.end + OPENING_WINDOW_CHARS)) }));
  const { line, opening } = opened.find((o) => o.opening !== null) ?? opened[0]!;
  const title = headingTitle(doc.text, line, rowTitle);
  const page = pageAt(doc.pages, line.start);
  const grounding = { status: 'grounded' as const, match: 'exact' as const, score: 1, start: line.start, end: line.end, page, inContextOnly: false };
  const severity = rankSeverity(profile, statedSeverity(doc.text, line.end, opening?.start ?? Math.min(unit.end, line.end + OPENING_WINDOW_CHARS / 3)) ?? entry.severity ?? '');
  // A list without IDs ("1 | Title | Type | Severity") still leaves the section's own ID line ("Finding ID: TOB-X-2").
  const blockEnd = Math.min(unit.end, line.end + ID_WINDOW_CHARS);
  const printedId = entry.id ?? findIdMentions(doc.text.slice(line.start, blockEnd), [], profile.idPatterns)[0]?.raw ?? null;
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
function headingLines(text: string, title: string, unit: { start: number; end: number }, visible: (found: Line[]) => Line[]): Line[] {
  const words = title.split(/\s+/).filter(Boolean);
  for (let n = words.length; n >= Math.max(2, Math.ceil(words.length / 2)); n--) {
    const lines = visible(titleLines(text, words.slice(0, n).join(' '), unit.start, unit.end));
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
  let at = from;
  while (at < to) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 || nl > to ? to : nl;
    const line = text.slice(at, end).trim();
    const words = line.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
    const prose = !/\s\|\s/.test(line) && (line.length >= PROSE_CHARS || (/[.!?]["')\]]?$/.test(line) && words >= PROSE_WORDS));
    if (prose && words >= PROSE_WORDS) {
      const start = at + (text.slice(at, end).length - text.slice(at, end).trimStart().length);
      const sentence = sourceDescription(text, { status: 'grounded', match: 'exact', score: 1, start, end: Math.min(end, start + 30), page: null, inContextOnly: false });
      // A label printed on the sentence's own line ("Description The function ...") is no part of it.
      if (sentence !== '') return { start, sentence: sentence.replace(/^(?:description|details|summary)\s*:?\s+(?=\S)/i, '') };
    }
    if (nl < 0) break;
    at = nl + 1;
  }
  return null;
}

/** The severity a section's metadata block states ("Severity: High"), as printed; null when none. */
function statedSeverity(text: string, from: number, to: number): string | null {
  for (const line of text.slice(from, Math.max(from, to)).split('\n')) {
    const m = SEVERITY_LINE.exec(line);
    if (m && m[1]!.split(/\s+/).length <= 3) return m[1]!.replace(/^[|:\s]+/, '');
  }
  return null;
}
