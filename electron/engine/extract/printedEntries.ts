/**
 * Findings whose ID the text prints, written by the model as one line each and grounded by the rules (issue 25:
 * each finding written close to once, and cheaply).
 *
 * On a release note or an issue list nearly every finding prints its ID. A reply entry with a 12-word quote and a
 * page costs about 90 output tokens, pretty-printed as models write it; "PBI-10014 | defect | Medium | Login page
 * drops records after a restart" costs about 30. The quote is not needed: the ID is the one thing the model cannot
 * get wrong without the rules noticing, because the rules can look it up.
 *
 * So the rules look the ID up in the text the model was shown and check the title against the text around it:
 * - the title printed near the ID (its words in order, as a quote is grounded, and no other ID printed nearer to
 *   them): the evidence is the text from the title to the ID's line, verbatim;
 * - else at least half the title's words on the ID's line or the lines next to it (a model's short title for a
 *   sentence, "Login page timeout" for "... login page timed out after 30 seconds (PBI-1234)"): the evidence is
 *   the ID's line;
 * - else the title is not the text's: the finding is kept, marked ungrounded (never counted as verified), with the
 *   ID's line as its evidence so the auditor sees what the text says there.
 * An ID the text does not print (a model's own numbering, "F-3") grounds nothing: the title is grounded as a quote
 * would be, and the ID stays the model's label.
 *
 * A line that does not have the four parts is read as far as it goes ("PBI-10014: Login page ..." is an ID and a
 * title); a line with no ID at all is a title. No line is dropped.
 */
import { pageAt } from '../../../shared/canonical';
import { rankSeverity, type ExtractionProfile, type GroundedFinding, type Grounding } from '../../../shared/findings';
import type { ExtractedDocument } from '../../../shared/types';
import { findIdMentions } from '../rules';
import {
  fuzzyFind,
  FUZZY_THRESHOLD,
  normalizeForMatch,
  type GroundingRegions,
  candidateIds,
  ID_WINDOW_CHARS,
  idOccurrences,
  fieldSeverity,
  headingBlockId,
  headsSection,
  lineOf,
  metadataBlockEnd,
  OPENING_WINDOW_CHARS,
  sectionOpening,
  startsLine,
  titleHeading,
} from '../printed';
import { groundFinding } from './groundFinding';

/** One line of a reply as the rules read it. */
export interface PrintedLine {
  id: string | null;
  type: string;
  severity: string;
  title: string;
}

/** Lines either side of the ID's line where its title may be printed (a heading block, a wrapped table row). */
const TITLE_LINES_AROUND = 4;
/** Share of a title's words that must stand on the ID's line or the lines next to it. */
const TITLE_WORD_SHARE = 0.5;
/** An ID's line longer than this (a paragraph the PDF does not break) is quoted from its sentence around the ID. */
const LONGEST_QUOTED_LINE = 300;

/** Words that say nothing of which finding a title names. */
const STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'of',
  'in',
  'on',
  'for',
  'to',
  'and',
  'or',
  'with',
  'is',
  'are',
  'be',
  'by',
  'at',
  'from',
  'as',
  'when',
  'not',
  'no',
  'its',
  'it',
]);

/** Reads one reply line "ID | type | severity | title" (see the module comment for shorter lines). */
export function parsePrintedLine(line: string, profile: ExtractionProfile): PrintedLine {
  const text = line.trim().replace(/^(?:[-*•]\s+|\d{1,3}[.)]\s+)/, '');
  const parts = text.split('|').map((p) => p.trim());
  if (parts.length >= 4 && parts[0] !== '') {
    return { id: parts[0]!, type: parts[1]!, severity: parts[2]!, title: parts.slice(3).join(' | ') };
  }
  if (parts.length === 3 && parts[0] !== '') {
    // "ID | severity | title" or "ID | type | title": the middle part is a severity when the scale knows it.
    const middleIsSeverity = rankSeverity(profile, parts[1]!).canonical !== null;
    return { id: parts[0]!, type: middleIsSeverity ? '' : parts[1]!, severity: middleIsSeverity ? parts[1]! : '', title: parts[2]! };
  }
  // "PBI-10014: Login page ..." or "PBI-10014 | Login page ...": an ID at the start, the rest the title.
  const lead = findIdMentions(text, [], profile.idPatterns).find((m) => m.start <= 1);
  if (lead)
    return {
      id: lead.raw,
      type: '',
      severity: '',
      title:
        text
          .slice(lead.end)
          .replace(/^[\s:|.)\-–—]+/, '')
          .trim() || text,
    };
  return { id: null, type: '', severity: '', title: text };
}

/** The finding one reply line names, grounded in the text the model was shown (`regions`). */
export function groundPrintedLine(
  doc: Pick<ExtractedDocument, 'text' | 'pages'>,
  profile: ExtractionProfile,
  line: PrintedLine,
  regions: GroundingRegions,
): GroundedFinding {
  const text = doc.text;
  const areas = [
    regions.chunk,
    ...(regions.context && regions.context.start < regions.chunk.start ? [{ start: regions.context.start, end: regions.chunk.end }] : []),
  ];
  const title = line.title.trim();
  const reported = (evidence: string, page: number | null) => ({ id: line.id, type: line.type, title, severity: line.severity, evidence, page });
  // The ID as the model wrote it, or the ID inside what it wrote ("TOB-ETCD-001: Gateway ...").
  const ids = line.id ? [...new Set([...candidateIds(line.id, '', profile), line.id])] : [];
  let unverified: { start: number; end: number } | undefined;
  for (const area of areas) {
    const occurrences = ids
      .flatMap((id) => idOccurrences(text, profile, id, area.start, area.end))
      .filter((o, i, all) => all.findIndex((x) => x.start === o.start) === i);
    const checked = occurrences.map((at) => ({ at, check: titleNear(text, profile, title, at, area) })).sort((a, b) => rank(b.check) - rank(a.check));
    const best = checked[0];
    if (best && best.check.kind !== 'none') {
      const { span, score } = best.check;
      const page = pageAt(doc.pages, span.start);
      const placed: Grounding = {
        status: 'grounded',
        match: 'exact',
        score: Math.round(score * 1000) / 1000,
        start: span.start,
        end: span.end,
        page,
        inContextOnly: span.end <= regions.chunk.start,
      };
      return groundFinding(doc, profile, reported(text.slice(span.start, span.end), page), regions, placed);
    }
    unverified ??= best?.at;
  }
  // The ID is printed but the title is not the text's there: kept with the ID's line as evidence, never verified.
  if (unverified && isPatternId(text, profile, unverified)) {
    const quoted = idLine(text, unverified);
    const notFound: Grounding = { status: 'ungrounded', match: null, score: null, start: null, end: null, page: null, inContextOnly: false };
    return groundFinding(doc, profile, reported(text.slice(quoted.start, quoted.end), pageAt(doc.pages, unverified.start)), regions, notFound);
  }
  // No ID the text prints: the title is the only thing to ground.
  return groundTitle(doc, profile, { ...line, title }, regions, areas);
}

/**
 * A finding known by its title alone (a bare title, an object without its quote, a line whose ID the text does not
 * print): where the text shown prints the title at a line start, that line is its place, grounded exactly: the
 * heading of its section first (printed/sections.ts titleHeading; its opening sentence is the description, its
 * heading block's ID and severity field the finding's), never a contents line when the heading is there. A line that
 * only names it (a row, a list item) keeps the ID printed on it. A title printed at no line start is grounded as a
 * quote would be (a heading whose text layer lost letters still starts its line: it is read as that heading); one
 * printed nowhere stays ungrounded.
 */
function groundTitle(
  doc: Pick<ExtractedDocument, 'text' | 'pages'>,
  profile: ExtractionProfile,
  line: PrintedLine,
  regions: GroundingRegions,
  areas: readonly { start: number; end: number }[],
): GroundedFinding {
  const text = doc.text;
  for (const area of areas) {
    const heading = line.title === '' ? null : titleHeading(text, line.title, area);
    if (heading)
      return atTitleLine(doc, profile, line, regions, { start: heading.start, end: Math.min(lineOf(text, heading.start).end, area.end) }, heading.heads, area);
  }
  const quoted = groundFinding(
    doc,
    profile,
    { id: line.id, type: line.type, title: line.title, severity: line.severity, evidence: line.title, page: null },
    regions,
  );
  const g = quoted.grounding;
  if (g.status !== 'grounded' || g.start === null || !startsLine(text, g.start)) return quoted;
  const own = lineOf(text, g.start);
  const area = areas.find((a) => g.start! >= a.start && g.start! < a.end) ?? regions.chunk;
  const heads = !/[.!?]["')\]]?\s*$/.test(text.slice(own.start, own.end)) && headsSection(text, own, area.end);
  return heads ? atTitleLine(doc, profile, line, regions, { start: g.start, end: Math.min(own.end, area.end) }, true, area) : quoted;
}

/** The finding of a title printed at `span` (a line start): grounded exactly there, with what its heading block prints when it heads a section. */
function atTitleLine(
  doc: Pick<ExtractedDocument, 'text' | 'pages'>,
  profile: ExtractionProfile,
  line: PrintedLine,
  regions: GroundingRegions,
  span: { start: number; end: number },
  heads: boolean,
  area: { start: number; end: number },
): GroundedFinding {
  const text = doc.text;
  const own = lineOf(text, span.start);
  const page = pageAt(doc.pages, span.start);
  const placed: Grounding = {
    status: 'grounded',
    match: 'exact',
    score: 1,
    start: span.start,
    end: span.end,
    page,
    inContextOnly: span.end <= regions.chunk.start,
  };
  const blockEnd = heads ? metadataBlockEnd(text, own, area.end) : own.end;
  const opening = heads ? sectionOpening(text, own.end, Math.min(area.end, own.end + OPENING_WINDOW_CHARS)) : null;
  const field = heads ? fieldSeverity(text, own.end, blockEnd, profile) : null;
  const printedId = headingBlockId(text, profile, own, blockEnd);
  const found = groundFinding(
    doc,
    profile,
    // A line that only names the finding (a row, a contents line) has no sentence of its own: no description.
    {
      id: line.id,
      type: line.type,
      title: line.title,
      severity: field?.original ?? line.severity,
      evidence: text.slice(span.start, span.end),
      page,
      description: opening?.sentence ?? '',
    },
    regions,
    placed,
  );
  // The ID its heading block prints is the finding's own, whatever label (or none) the model gave.
  return printedId && found.findingKey === null ? { ...found, findingKey: printedId } : found;
}

type TitleCheck = { kind: 'title' | 'words'; span: { start: number; end: number }; score: number } | { kind: 'none' };
const rank = (c: TitleCheck) => (c.kind === 'title' ? 2 + c.score : c.kind === 'words' ? 1 + c.score : 0);

/**
 * Whether the title is the text's around the ID printed at `at` (see the module comment), and the span to quote:
 * from the title to the end of the ID's line, or the ID's line.
 */
function titleNear(
  text: string,
  profile: ExtractionProfile,
  title: string,
  at: { start: number; end: number },
  area: { start: number; end: number },
): TitleCheck {
  const own = idLine(text, at);
  const window = linesAround(text, own, TITLE_LINES_AROUND, area);
  const match = title === '' ? undefined : fuzzyFind(text, title, window.start, window.end);
  if (match && match.score >= FUZZY_THRESHOLD && nearestId(text, profile, match, window) === at.start) {
    return { kind: 'title', span: trimmed(text, Math.min(own.start, match.start), Math.max(own.end, match.end)), score: match.score };
  }
  // A short title of the model's own: its words on the ID's line, or on the line above or below when that line is
  // this ID's (no other ID printed nearer to it: in running text the next entry's title stands right below this ID).
  const above = linesAround(text, own, 1, area).start < own.start ? trimmed(text, text.lastIndexOf('\n', own.start - 2) + 1, own.start) : undefined;
  const nextEnd = text.indexOf('\n', own.end + 1);
  const below = own.end < area.end ? trimmed(text, own.end, Math.min(area.end, nextEnd < 0 ? text.length : nextEnd)) : undefined;
  const ownsLine = (l: { start: number; end: number }) => l.end > l.start && nearestId(text, profile, l, window) === at.start;
  const lines = [own, ...[above, below].filter((l): l is { start: number; end: number } => l !== undefined && ownsLine(l))];
  const share = wordShare(title, lines.map((l) => text.slice(l.start, l.end)).join('\n'));
  return share >= TITLE_WORD_SHARE ? { kind: 'words', span: own, score: share } : { kind: 'none' };
}

/** The start of the ID mention printed nearest to `span` in `window` (on its line first), or -1. */
function nearestId(text: string, profile: ExtractionProfile, span: { start: number; end: number }, window: { start: number; end: number }): number {
  const mentions = findIdMentions(text.slice(window.start, window.end), [], profile.idPatterns).map((m) => ({
    start: m.start + window.start,
    end: m.end + window.start,
  }));
  let best = -1;
  let bestDistance = Infinity;
  for (const m of mentions) {
    const distance = m.end <= span.start ? span.start - m.end : m.start >= span.end ? m.start - span.end : 0;
    if (distance < bestDistance) {
      best = m.start;
      bestDistance = distance;
    }
  }
  return best;
}

/** Whether a profile pattern (not only the model's spelling) prints an ID at `at`: a real ID, not a hex digit pair. */
function isPatternId(text: string, profile: ExtractionProfile, at: { start: number; end: number }): boolean {
  return findIdMentions(text.slice(at.start, at.end), [], profile.idPatterns).length > 0;
}

/** The ID's line, trimmed; a very long line (a paragraph the PDF does not break) cut to the words around the ID. */
function idLine(text: string, at: { start: number; end: number }): { start: number; end: number } {
  const start = text.lastIndexOf('\n', at.start - 1) + 1;
  const nl = text.indexOf('\n', at.end);
  const end = nl < 0 ? text.length : nl;
  if (end - start <= LONGEST_QUOTED_LINE) return trimmed(text, start, end);
  const half = LONGEST_QUOTED_LINE / 2;
  const from = Math.max(start, text.lastIndexOf(' ', Math.max(start, at.start - half)) + 1);
  const toSpace = text.indexOf(' ', Math.min(end, at.end + half));
  return trimmed(text, from, toSpace < 0 || toSpace > end ? end : toSpace);
}

/** `n` lines before and after `line`, within ID_WINDOW_CHARS of it and inside `area`. */
function linesAround(text: string, line: { start: number; end: number }, n: number, area: { start: number; end: number }): { start: number; end: number } {
  let start = line.start;
  for (let i = 0; i < n && start > area.start; i++) start = text.lastIndexOf('\n', start - 2) + 1;
  let end = line.end;
  for (let i = 0; i < n && end < area.end; i++) {
    const nl = text.indexOf('\n', end + 1);
    end = nl < 0 ? text.length : nl;
  }
  return { start: Math.max(area.start, start, line.start - ID_WINDOW_CHARS), end: Math.min(area.end, end, line.end + ID_WINDOW_CHARS) };
}

function trimmed(text: string, start: number, end: number): { start: number; end: number } {
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { start, end };
}

/** The share of the title's words (stop words left out, endings folded) that the text holds. */
export function wordShare(title: string, text: string): number {
  const words = stems(title).filter((w) => !STOP_WORDS.has(w));
  if (words.length === 0) return 0;
  const present = new Set(stems(text));
  return words.filter((w) => present.has(w)).length / words.length;
}

/** Lower-case words with their common endings folded ("drops", "dropped", "dropping" -> "drop"). */
function stems(text: string): string[] {
  return (normalizeForMatch(text).text.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => {
    if (w.length <= 4 || /\d/.test(w)) return w;
    const cut = w.replace(/(?:ing|ed|es|s|ly)$/, '');
    return cut.length >= 3 && /([b-df-hj-np-tv-z])\1$/.test(cut) ? cut.slice(0, -1) : cut;
  });
}
