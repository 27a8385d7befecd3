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
import {
  NormalizedViews,
  ID_WINDOW_CHARS,
  identifyFinding,
  isHidden,
  type HiddenSpan,
  fieldSeverity,
  headsTitledSection,
  namesTitleOnly,
  OPENING_WINDOW_CHARS,
  printedNowhere,
  sectionOpening,
  titleLines,
} from '../printed';
import { parsePrintedLine, wordShare } from './printedEntries';
import type { ReplyEntry } from './partialReply';

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
  /**
   * The title the model gave the finding, when it named it by title (a bare title): where the text prints it whole from
   * the heading's start (a heading wrapped over two lines, hyphenated differently from its list row), its wording.
   */
  claimedTitle?: string,
): GroundedFinding | null {
  const rowTitle = entry.title.replace(/\.\.\.$/, '').trim();
  const visible = (found: ReturnType<typeof titleLines>) => found.filter((l) => !isHidden(l.start, hidden));
  const lines = [
    ...(entry.id ? visible(titleLines(doc.text, entry.id, unit.start, unit.end, views)) : []),
    ...headingLines(doc.text, rowTitle, unit, visible, views),
    ...numberedLines(doc.text, entry, rowTitle, unit, visible),
  ].sort((a, b) => a.start - b.start);
  if (lines.length === 0) return null;
  // The heading of the section first (never a contents line: "7. <title> 14", or an entry followed by the next one),
  // else a line followed by prose, else the first.
  // A line found by the whole title and by its number alone is one line: names-only when either finding shows it is.
  const namesOnlyAt = new Set(lines.filter((l) => namesTitleOnly(doc.text, l)).map((l) => l.start));
  // A line that only names the finding (a contents line, a row) is no detailed section: without one, nothing is read.
  const opened = lines
    .filter((line) => !namesOnlyAt.has(line.start))
    .map((line) => ({
      line,
      heads: headsTitledSection(doc.text, line, unit.end),
      opening: sectionOpening(doc.text, line.end, Math.min(unit.end, line.end + OPENING_WINDOW_CHARS)),
    }));
  if (opened.length === 0) return null;
  const { line, opening } = opened.find((o) => o.heads) ?? opened.find((o) => o.opening !== null) ?? opened[0]!;
  const claimed =
    claimedTitle && titleLines(doc.text, claimedTitle, line.start, Math.min(unit.end, line.end + claimedTitle.length * 2)).some((l) => l.start === line.start);
  const title = claimed ? claimedTitle.trim() : headingTitle(doc.text, line, rowTitle);
  const page = pageAt(doc.pages, line.start);
  const grounding = { status: 'grounded' as const, match: 'exact' as const, score: 1, start: line.start, end: line.end, page, inContextOnly: false };
  const field = fieldSeverity(doc.text, line.end, opening?.start ?? Math.min(unit.end, line.end + OPENING_WINDOW_CHARS / 3), profile);
  const severity = field ?? rankSeverity(profile, entry.severity ?? '');
  // A list without IDs ("1 | Title | Type | Severity") still leaves the section's own ID line ("Finding ID: TOB-X-2").
  // A standard or advisory its title names ("Unsafe ERC-20 approve") is no ID of the finding.
  const blockEnd = Math.min(unit.end, line.end + ID_WINDOW_CHARS);
  const printedId =
    entry.id ?? findIdMentions(doc.text.slice(line.start, blockEnd), [], profile.idPatterns).find((m) => !isReferenceId(m.normalized))?.raw ?? null;
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
    // The heading words its title otherwise: its line after the number is the title as printed.
    if (shared * 2 >= words.size) out.push({ start: unit.start + m.index + (m[0].length - m[0].trimStart().length), end, titleStart, titleEnd: end });
  }
  return visible(out);
}

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The title as the heading prints it (its line after the number or ID), unless the row's title goes on where the
 * heading's line ends (a heading wrapped over two lines), or the heading's text layer lost a glyph: then the row's. A
 * row's leaked cell never reaches the title.
 */
function headingTitle(text: string, line: Line, rowTitle: string): string {
  // A line found by its ID starts with it ("LID-05 DKG Susceptible ..."): the ID is no part of the title.
  const printed = text
    .slice(line.titleStart, line.end)
    .replace(/^(?:[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+)?[\s:|.)-]*/, '')
    .replace(/\s+/g, ' ')
    .trim();
  const printedWords = wordsOf(printed);
  const rowWords = wordsOf(rowTitle);
  // A heading whose text layer lost a glyph ("Insu\uFFFDcient" for a ligature it could not map) reads worse than its row.
  if (printedWords.length < 2 || printed.includes('\uFFFD')) return rowTitle;
  const rest = rowWords.slice(printedWords.length);
  const wrapsOn =
    rowWords.slice(0, printedWords.length).join(' ') === printedWords.join(' ') &&
    rest.length > 0 &&
    wordsOf(text.slice(line.end, line.end + 200))
      .slice(0, rest.length)
      .join(' ') === rest.join(' ');
  return wrapsOn ? rowTitle : printed;
}

/** Share of title words two titles of one finding have in common, both ways (a model shortens or rewords a little). */
export const SAME_TITLE_SHARE = 0.7;

/**
 * Whether a reported finding is the recorded `entry` whose detailed section the rules read as `section`: it carries
 * the section's printed ID, or it was read from the section's heading, or it is titled like the entry.
 */
export function standsFor(f: Pick<GroundedFinding, 'findingKey' | 'grounding' | 'title'>, entry: ListedEntry, section: GroundedFinding): boolean {
  if (section.findingKey !== null && f.findingKey === section.findingKey) return true;
  if (f.grounding.start !== null && f.grounding.start === section.grounding.start) return true;
  return wordShare(entry.title, f.title) >= SAME_TITLE_SHARE && wordShare(f.title, entry.title) >= SAME_TITLE_SHARE;
}

/** The title of a reply entry that gives nothing but its title (a bare title, an object without ID or quote); else null. */
export function titleOnly(f: ReplyEntry, profile: ExtractionProfile): string | null {
  if (typeof f === 'string') {
    const line = parsePrintedLine(f, profile);
    return line.id === null ? line.title : null;
  }
  return !f.id && f.evidence.trim() === '' ? f.title : null;
}

/**
 * The recorded entry a title names: the one whose title it is (words alike, case and punctuation aside), else the one
 * it shares most words with both ways (SAME_TITLE_SHARE, a shortened or reworded title), when no other shares as many.
 */
export function recordedByTitle(entries: readonly ListedEntry[], title: string): ListedEntry | undefined {
  const key = (t: string) =>
    (
      t
        .replace(/\.\.\.$/, '')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? []
    ).join(' ');
  const exact = entries.filter((e) => key(e.title) === key(title));
  if (exact.length === 1) return exact[0];
  const scored = entries
    .map((e) => ({ e, share: Math.min(wordShare(e.title, title), wordShare(title, e.title)) }))
    .filter((x) => x.share >= SAME_TITLE_SHARE)
    .sort((a, b) => b.share - a.share);
  return scored.length > 0 && (scored.length === 1 || scored[0]!.share > scored[1]!.share) ? scored[0]!.e : undefined;
}
