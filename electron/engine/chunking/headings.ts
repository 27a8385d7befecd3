/**
 * Heading detection from rebuilt lines and their typography. Deliberately
 * conservative about what can never be a heading (running headers/footers,
 * page numbers, table-of-contents lines), because one false heading per page
 * turns a chunk tree into noise.
 */
import type { DocumentLine, ExtractedDocument } from '../../../shared/types';

export type HeadingKind = 'markdown' | 'numbered' | 'font' | 'caps';

export interface HeadingCandidate {
  /** Index into `doc.lines` of the heading's first line. */
  lineIndex: number;
  /** Index of its last line: a heading that wraps onto following lines is one candidate. */
  lastLineIndex: number;
  start: number;
  end: number;
  page: number;
  /** The line's text, whitespace collapsed (markdown hashes removed); wrapped lines joined with a space. */
  title: string;
  /** Raw level: numbering depth, markdown depth or font-size rank (1 = top); the tree normalises it. */
  level: number;
  kind: HeadingKind;
  /** "1.2.3", "A.1", "Chapter 4"... when numbered. */
  numbering: string | null;
  fontSize: number;
  bold: boolean;
}

export type LineRejection = 'running-header-footer' | 'page-number' | 'table-of-contents';

export interface HeadingAnalysis {
  /** Most common font size weighted by characters; 0 when the document has no typography. */
  bodyFontSize: number;
  headings: HeadingCandidate[];
  /** Lines that are never headings, and why (for the UI and for tests). */
  rejected: { lineIndex: number; reason: LineRejection; text: string }[];
}

export interface HeadingOptions {
  maxHeadingChars: number;
  headingFontRatio: number;
}

const DEFAULT_HEADING_OPTIONS: HeadingOptions = { maxHeadingChars: 120, headingFontRatio: 1.15 };

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();

const lineTextCache = new WeakMap<ExtractedDocument, string[]>();

/**
 * The document's lines with whitespace collapsed, computed once per document:
 * every pass below (page numbers, running lines, classification, TOC gaps)
 * reads them, and re-slicing a 1000-page document per pass was a third of
 * building its tree.
 */
function lineTexts(doc: ExtractedDocument): string[] {
  let texts = lineTextCache.get(doc);
  if (!texts) {
    texts = doc.lines.map((line) => collapse(doc.text.slice(line.start, line.end)));
    lineTextCache.set(doc, texts);
  }
  return texts;
}

const lineText = (doc: ExtractedDocument, lineIndex: number): string => lineTexts(doc)[lineIndex]!;

/** Font sizes are grouped at 0.5 pt: extraction jitters by fractions of a point. */
const roundSize = (size: number): number => Math.round(size * 2) / 2;

export function bodyFontSize(doc: ExtractedDocument): number {
  const weights = new Map<number, number>();
  for (const line of doc.lines) {
    if (line.fontSize <= 0) continue;
    const size = roundSize(line.fontSize);
    weights.set(size, (weights.get(size) ?? 0) + (line.end - line.start));
  }
  let best = 0;
  let bestWeight = -1;
  for (const [size, weight] of weights) {
    if (weight > bestWeight || (weight === bestWeight && size < best)) [best, bestWeight] = [size, weight];
  }
  return best;
}

// ---------------------------------------------------------------- numbering

export interface Numbering {
  numbering: string;
  depth: number;
  /** The text after the numbering (may be empty, e.g. "Chapter 3"). */
  title: string;
}

const ROMAN = /^(?=[IVXLC])M{0,3}(C[MD]|D?C{0,3})(X[CL]|L?X{0,3})(I[XV]|V?I{0,3})$/;

const NUMBERING_PATTERNS: readonly { pattern: RegExp; depth: (m: RegExpExecArray) => number; emphasisOnly?: (m: RegExpExecArray) => boolean }[] = [
  // "Chapter 3", "Appendix B", "Section 2.4: Scope", "Part IV"
  {
    pattern: /^((?:chapter|appendix|annex|section|part)\s+(?:\d{1,3}(?:\.\d{1,3})*|[A-Z]|[IVXLC]+))\b[.:\-–—]?\s*(.*)$/i,
    depth: (m) => (/^section/i.test(m[1]!) ? m[1]!.split('.').length : 1),
  },
  // "1.2.3 Title", "1.2. Title", "1. Title"; "1 Title" only when emphasised (amounts and list items start like that).
  { pattern: /^(\d{1,3}(?:\.\d{1,3})*)(\.?)\s+(.+)$/, depth: (m) => m[1]!.split('.').length, emphasisOnly: (m) => !m[1]!.includes('.') && m[2] === '' },
  // "A.1 Title", "A.1.2 Title"
  { pattern: /^([A-Z]\.\d{1,3}(?:\.\d{1,3})*)\.?\s+(.+)$/, depth: (m) => m[1]!.split('.').length },
  // "A. Title", "IV. Title"
  { pattern: /^([A-Z]|[IVXLC]+)\.\s+(.+)$/, depth: () => 1 },
];

/** Parses a heading number at the start of a line; `emphasisOnly` marks forms accepted only in bold or large type. */
export function parseNumbering(text: string): (Numbering & { emphasisOnly: boolean }) | null {
  return numberingOf(collapse(text));
}

/** parseNumbering for text whose whitespace is already collapsed (every line text and title here). */
function numberingOf(t: string): (Numbering & { emphasisOnly: boolean }) | null {
  for (const { pattern, depth, emphasisOnly } of NUMBERING_PATTERNS) {
    const m = pattern.exec(t);
    if (!m) continue;
    const label = m[1]!;
    if (/^[IVXLC]+$/.test(label) && label.length > 1 && !ROMAN.test(label)) continue;
    const lastGroup = m[m.length - 1] ?? '';
    return { numbering: label, depth: depth(m), title: lastGroup.trim(), emphasisOnly: emphasisOnly?.(m) ?? false };
  }
  return null;
}

// ---------------------------------------------------------------- never headings

const PAGE_NUMBER_PATTERNS: readonly RegExp[] = [
  /^(?:page|p\.|seite)?\s*\d{1,4}(?:\s*(?:of|\/|von)\s*\d{1,4})?$/i,
  /^[-–—]\s*\d{1,4}\s*[-–—]$/,
  /^[ivxlc]{1,6}$/,
];

export function isPageNumberLine(text: string): boolean {
  return isPageNumber(collapse(text));
}

/** The longest page-number line the patterns accept is "seite 1234 von 1234"; longer lines skip the regexes. */
const MAX_PAGE_NUMBER_CHARS = 24;

function isPageNumber(collapsed: string): boolean {
  return collapsed.length <= MAX_PAGE_NUMBER_CHARS && PAGE_NUMBER_PATTERNS.some((p) => p.test(collapsed));
}

/** "Introduction ........ 3", "Scope … 12", "Terms ____ 4". */
const DOT_LEADERS = /(?:\.\s?){3,}\s*\d{1,4}$|…+\s*\d{1,4}$|_{3,}\s*\d{1,4}$/;
/** Title followed by a page number: "1.2 Scope 5". */
const TRAILING_PAGE_NUMBER = /\p{L}.*\s(\d{1,4})$/u;
/** "Chapter 3" alone is a heading, not a TOC entry pointing to page 3. */
const BARE_LABEL = /^(?:chapter|appendix|annex|section|part)\s+\S+$/i;

function hasTrailingPageNumber(raw: string): boolean {
  const t = collapse(raw);
  return TRAILING_PAGE_NUMBER.test(t) && !BARE_LABEL.test(t);
}

/**
 * TOC lines: dot leaders always; a title ending in a page number when the
 * number is set apart by a tab or several spaces (typeset TOC), or when the
 * page has at least three such lines (a TOC page). A lone heading like
 * "2.1 Requirements of ISO 9001" in body text is therefore not rejected.
 */
function findTocLines(doc: ExtractedDocument): Set<number> {
  const toc = new Set<number>();
  const trailingByPage = new Map<number, number[]>();
  doc.lines.forEach((line, i) => {
    const raw = doc.text.slice(line.start, line.end).trim();
    // Every pattern below ends in a page number: most lines fail this cheap test, sparing the backtracking regexes.
    if (!/\d$/.test(raw)) return;
    if (DOT_LEADERS.test(raw) || /\p{L}.*(?:\t|\s{2,})\d{1,4}$/u.test(raw)) toc.add(i);
    else if (hasTrailingPageNumber(raw)) {
      const indexes = trailingByPage.get(line.page);
      if (indexes) indexes.push(i);
      else trailingByPage.set(line.page, [i]);
    }
  });
  for (const indexes of trailingByPage.values()) if (indexes.length >= 3) indexes.forEach((i) => toc.add(i));
  return toc;
}

/** Digits become '#', so "Page 3 of 10" and "Page 10 of 10" are the same running footer. */
const runningKey = (text: string): string => collapse(text).toLowerCase().replace(/\d+/g, '#');

const EDGE_LINES = 3;

/**
 * Running headers/footers: lines among the first/last three non-blank lines of
 * a page whose normalised text recurs there on at least half of the pages
 * with text, and on at least three pages.
 */
function findRunningLines(doc: ExtractedDocument): Set<number> {
  const edgeLinesByPage = new Map<number, number[]>();
  const linesByPage = new Map<number, number[]>();
  doc.lines.forEach((line, i) => {
    if (lineText(doc, i) === '') return;
    const indexes = linesByPage.get(line.page);
    if (indexes) indexes.push(i);
    else linesByPage.set(line.page, [i]);
  });
  for (const [page, indexes] of linesByPage) {
    edgeLinesByPage.set(page, [...new Set([...indexes.slice(0, EDGE_LINES), ...indexes.slice(-EDGE_LINES)])]);
  }
  const pagesByKey = new Map<string, Set<number>>();
  for (const [page, indexes] of edgeLinesByPage) {
    for (const i of indexes) {
      const key = runningKey(lineText(doc, i));
      pagesByKey.set(key, (pagesByKey.get(key) ?? new Set()).add(page));
    }
  }
  const threshold = Math.max(3, Math.ceil(linesByPage.size * 0.5));
  const running = new Set<number>();
  for (const indexes of edgeLinesByPage.values()) {
    for (const i of indexes) {
      const text = lineText(doc, i);
      if ((pagesByKey.get(runningKey(text))?.size ?? 0) < threshold) continue;
      // "Chapter 2" / "3. Results" at the top of every page differ only in digits too; they are headings, not headers.
      if (/\d/.test(text) && numberingOf(text) !== null) continue;
      running.add(i);
    }
  }
  return running;
}

function rejectedLines(doc: ExtractedDocument): Map<number, LineRejection> {
  const rejected = new Map<number, LineRejection>();
  lineTexts(doc).forEach((text, i) => {
    if (isPageNumber(text)) rejected.set(i, 'page-number');
  });
  for (const i of findRunningLines(doc)) if (!rejected.has(i)) rejected.set(i, 'running-header-footer');
  for (const i of findTocLines(doc)) if (!rejected.has(i)) rejected.set(i, 'table-of-contents');
  return rejected;
}

// ---------------------------------------------------------------- classification

const wordCount = (t: string): number => t.split(' ').filter(Boolean).length;

/** Text that reads like part of a paragraph rather than a title. */
function looksLikeSentence(title: string): boolean {
  if (/[,;]$/.test(title)) return true;
  return /[.:]$/.test(title) && wordCount(title) > 8;
}

/** "•", "●", "-", "*"... followed by a space: a list item, never a heading. */
const BULLET = /^[•●○◦▪▫■□►▸‣⁃∙·*\-–—]\s/u;

/**
 * Typography the classifier may rely on. A PDF whose lines all share one size
 * and weight (or a text file) gives no typographic signal, so plain-text rules
 * apply to it; as soon as some line is bold or larger than body text,
 * headings are expected to be set apart like that.
 */
interface Typography {
  body: number;
  /** True when the document sets some lines apart by size or weight. */
  typed: boolean;
}

function documentTypography(doc: ExtractedDocument, body: number): Typography {
  if (doc.kind === 'md' || body <= 0) return { body, typed: false };
  const typed = doc.lines.some((line) => line.fontSize > 0 && (line.bold || roundSize(line.fontSize) > body));
  return { body, typed };
}

/** Larger than body text by at least half a point (the size grouping step). */
const largerThanBody = (line: DocumentLine, t: Typography): boolean => t.body > 0 && roundSize(line.fontSize) > t.body;

function isAllCapsHeading(t: string, line: DocumentLine, typo: Typography): boolean {
  // Body text fails here at its first lower-case ASCII letter, before any splitting or case mapping.
  if (/[a-z]/.test(t)) return false;
  const words = t.split(' ');
  if (words.length > 8 || !/\p{Lu}/u.test(t) || t !== t.toUpperCase()) return false;
  if (!words.some((w) => (w.match(/\p{L}/gu)?.length ?? 0) >= 2) || looksLikeSentence(t)) return false;
  // "HTTPS." / "USE AT YOUR OWN RISK!" end a sentence; titles do not.
  if (/[.!?]$/.test(t)) return false;
  if (!typo.typed) return true;
  // In a typeset document a caps heading is not fine print or code, and a lone body-size caps word is an acronym.
  if (roundSize(line.fontSize) < typo.body) return false;
  return words.length >= 2 || largerThanBody(line, typo) || line.bold;
}

/** Plain numbered lines must look like titles, since numbered list items look just like them. */
function acceptsNumbered(n: Numbering & { emphasisOnly: boolean }, emphasised: boolean): boolean {
  if (n.emphasisOnly && !emphasised) return false;
  if (n.title === '') return /^(chapter|appendix|annex|section|part)\b/i.test(n.numbering);
  if (looksLikeSentence(n.title) || !/\p{L}/u.test(n.title)) return false;
  if (emphasised) return wordCount(n.title) <= 20;
  return /^[\p{Lu}\d]/u.test(n.title) && !/\.$/.test(n.title) && wordCount(n.title) <= 12;
}

type Classified = Omit<HeadingCandidate, 'level'> & { rawLevel: number | null };

function classifyLine(doc: ExtractedDocument, line: DocumentLine, lineIndex: number, typo: Typography, options: HeadingOptions): Classified | null {
  const text = lineText(doc, lineIndex);
  if (text === '' || text.length > options.maxHeadingChars || !/\p{L}/u.test(text)) return null;
  const base = { lineIndex, lastLineIndex: lineIndex, start: line.start, end: line.end, page: line.page, fontSize: line.fontSize, bold: line.bold };
  if (doc.kind === 'md') {
    // Markdown says exactly which lines are headings; numbered lists there are lists.
    if (!line.markdownLevel) return null;
    return { ...base, title: text.replace(/^#{1,6}\s*/, '').replace(/\s+#+$/, ''), kind: 'markdown', numbering: null, rawLevel: line.markdownLevel };
  }
  if (BULLET.test(text)) return null;
  const large = typo.body > 0 && line.fontSize >= typo.body * options.headingFontRatio;
  const numbering = numberingOf(text);
  if (numbering) {
    // Typeset documents: numbered steps and list items are body text; a numbered heading is larger or bold.
    const accepted = typo.typed
      ? (largerThanBody(line, typo) || line.bold) && acceptsNumbered(numbering, true)
      : acceptsNumbered(numbering, large || line.bold);
    if (accepted) return { ...base, title: text, kind: 'numbered', numbering: numbering.numbering, rawLevel: numbering.depth };
  }
  if (large && !looksLikeSentence(text)) return { ...base, title: text, kind: 'font', numbering: null, rawLevel: null };
  if (isAllCapsHeading(text, line, typo)) return { ...base, title: text, kind: 'caps', numbering: null, rawLevel: null };
  return null;
}

// ---------------------------------------------------------------- wrapped headings

/** Words a wrapped title line typically breaks after. */
const CONNECTORS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'nor',
  'of',
  'in',
  'on',
  'at',
  'to',
  'for',
  'from',
  'by',
  'with',
  'without',
  'via',
  'into',
  'onto',
  'as',
  'is',
  'are',
  'be',
  'may',
  'might',
  'can',
  'could',
  'not',
  'that',
  'which',
  'when',
  'while',
  'if',
  'than',
  'its',
  'their',
  'after',
  'before',
  'during',
  'between',
  'causing',
  'resulting',
  'leading',
]);

const sameTypography = (a: DocumentLine, b: DocumentLine): boolean => Math.abs(a.fontSize - b.fontSize) <= 0.5 && a.bold === b.bold;

/** Does `next` read as the second line of a title that wrapped after `title`? */
function continuesTitle(title: string, next: string): boolean {
  if (/[.!?:;]$/.test(title) || numberingOf(next) !== null || BULLET.test(next) || !/\p{L}/u.test(next)) return false;
  const lastWord = title.split(' ').pop()?.toLowerCase() ?? '';
  // A title only wraps when its first line is full; a short first line followed by another title is two headings.
  return /^\p{Ll}/u.test(next) || CONNECTORS.has(lastWord) || /[,\-–—/(&]$/.test(title) || title.length >= 40;
}

/**
 * Joins a heading with the following lines of the same page and typography
 * when they continue its title ("2. The gateway can include itself …
 * resulting in resource" / "exhaustion"). A following line that is not a
 * candidate on its own is joined only in a typeset document where the heading
 * is set apart from body text, so body text is never swallowed.
 */
function joinWrappedHeadings(
  doc: ExtractedDocument,
  classified: readonly Classified[],
  rejected: ReadonlyMap<number, LineRejection>,
  typo: Typography,
  options: HeadingOptions,
): Classified[] {
  const byLine = new Map(classified.map((c) => [c.lineIndex, c]));
  const out: Classified[] = [];
  const consumed = new Set<number>();
  for (const c of classified) {
    if (consumed.has(c.lineIndex)) continue;
    const first = doc.lines[c.lineIndex]!;
    const emphasised = typo.typed && (largerThanBody(first, typo) || first.bold);
    let joined = c;
    for (let next = c.lineIndex + 1; next <= c.lineIndex + 2 && doc.kind !== 'md'; next++) {
      const line = doc.lines[next];
      if (!line || line.page !== first.page || rejected.has(next) || !sameTypography(first, line)) break;
      const text = lineText(doc, next);
      const candidate = byLine.get(next);
      if (!candidate && !emphasised) break;
      if (text.length > options.maxHeadingChars || wordCount(text) > 12 || !continuesTitle(joined.title, text)) break;
      joined = { ...joined, title: `${joined.title} ${text}`, end: line.end, lastLineIndex: next };
      consumed.add(next);
    }
    out.push(joined);
  }
  return out;
}

// ---------------------------------------------------------------- tables of contents without page numbers

/** Case-, space- and punctuation-insensitive title key. */
const titleKey = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

function sameTitle(a: string, b: string): boolean {
  if (a === b) return a.length > 0;
  // A TOC entry may be cut short, or the heading may carry more (a wrapped line the TOC does not show).
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= 12 && long.startsWith(short);
}

const CONTENTS_TITLE = /^(?:table of contents|contents|inhalt|inhaltsverzeichnis|table des matières|sommaire)$/i;

/** A line of running prose: not a title, not a TOC entry. */
function isBodyText(text: string): boolean {
  return wordCount(text) >= 8 && numberingOf(text) === null && !/\d$/.test(text);
}

const MAX_DENSE_GAP_LINES = 3;
const MAX_DENSE_GAP_CHARS = 240;
const MAX_CONTENTS_PAGES = 6;

/**
 * Tables of contents that list the headings without page numbers: (a) a dense
 * run of at least three candidates with almost no text between them, whose
 * titles occur again later in the document as headings; (b) the candidates
 * after a "Contents" title, up to the next line of body text, that occur
 * again later (and the ones listed between those). The later occurrences are
 * the real headings and are kept.
 */
function findTocCandidates(doc: ExtractedDocument, candidates: readonly Classified[], rejected: ReadonlyMap<number, LineRejection>): Set<number> {
  const keys = candidates.map((c) => titleKey(c.title));
  const reoccurs = candidates.map((c, i) => {
    for (let j = i + 1; j < candidates.length; j++) if (candidates[j]!.page > c.page && sameTitle(keys[i]!, keys[j]!)) return true;
    return false;
  });
  const toc = new Set<number>();
  const rejectSpan = (members: readonly number[], from: number): void => {
    const last = members.reduce((acc, m) => (reoccurs[m] ? m : acc), -1);
    for (const m of members) if (m >= from && m <= last) toc.add(m);
  };
  const gapLines = (a: Classified, b: Classified): string[] => {
    const texts: string[] = [];
    for (let k = a.lastLineIndex + 1; k < b.lineIndex; k++) if (!rejected.has(k)) texts.push(lineText(doc, k));
    return texts.filter((t) => t !== '');
  };

  // (a) dense runs
  let run: number[] = [];
  const closeRun = (): void => {
    const repeated = run.filter((m) => reoccurs[m]);
    if (run.length >= 3 && repeated.length >= 3 && repeated.length * 2 >= run.length) rejectSpan(run, repeated[0]!);
    run = [];
  };
  candidates.forEach((c, i) => {
    const previous = candidates[i - 1];
    if (previous && run.length > 0) {
      const gap = gapLines(previous, c);
      const dense = c.page - previous.page <= 1 && gap.length <= MAX_DENSE_GAP_LINES && gap.join(' ').length <= MAX_DENSE_GAP_CHARS && !gap.some(isBodyText);
      if (!dense) closeRun();
    }
    run.push(i);
  });
  closeRun();

  // (b) after a "Contents" title
  candidates.forEach((c, i) => {
    if (!CONTENTS_TITLE.test(c.title.replace(/\s+\d{1,4}$/, ''))) return;
    const members: number[] = [];
    for (let j = i + 1; j < candidates.length; j++) {
      const m = candidates[j]!;
      if (m.page - c.page >= MAX_CONTENTS_PAGES || gapLines(candidates[j - 1]!, m).some(isBodyText)) break;
      members.push(j);
    }
    rejectSpan(members, i + 1);
  });
  return toc;
}

// ---------------------------------------------------------------- detection

/** Unnumbered headings are ranked by font size: the biggest size is level 1. */
function levelsByFontRank(candidates: readonly Classified[]): Map<number, number> {
  const sizes = [...new Set(candidates.filter((c) => c.rawLevel === null).map((c) => roundSize(c.fontSize)))].sort((a, b) => b - a);
  return new Map(sizes.map((size, i) => [size, i + 1]));
}

/**
 * Each document's analysis per options, computed once: the judge reads the headings to choose a strategy and the tree
 * builder reads them again a moment later (on a 236-page manual, 60-100 ms each time on the engine's thread).
 */
const headingCache = new WeakMap<ExtractedDocument, Map<string, HeadingAnalysis>>();

/** The document's headings (read-only: the analysis is shared by every caller with the same options). */
export function detectHeadings(doc: ExtractedDocument, options: Partial<HeadingOptions> = {}): HeadingAnalysis {
  const resolved: HeadingOptions = {
    maxHeadingChars: options.maxHeadingChars ?? DEFAULT_HEADING_OPTIONS.maxHeadingChars,
    headingFontRatio: options.headingFontRatio ?? DEFAULT_HEADING_OPTIONS.headingFontRatio,
  };
  const key = `${resolved.maxHeadingChars}|${resolved.headingFontRatio}`;
  let byOptions = headingCache.get(doc);
  if (!byOptions) headingCache.set(doc, (byOptions = new Map()));
  let analysis = byOptions.get(key);
  if (!analysis) byOptions.set(key, (analysis = analyseHeadings(doc, resolved)));
  return analysis;
}

function analyseHeadings(doc: ExtractedDocument, resolved: HeadingOptions): HeadingAnalysis {
  const body = bodyFontSize(doc);
  const typo = documentTypography(doc, body);
  const rejected = doc.kind === 'md' ? new Map<number, LineRejection>() : rejectedLines(doc);
  const lineCandidates = doc.lines.flatMap((line, i) => (rejected.has(i) ? [] : (classifyLine(doc, line, i, typo, resolved) ?? [])));
  let classified = joinWrappedHeadings(doc, lineCandidates, rejected, typo, resolved);
  if (doc.kind !== 'md') {
    const toc = findTocCandidates(doc, classified, rejected);
    classified.forEach((c, i) => {
      if (toc.has(i)) for (let k = c.lineIndex; k <= c.lastLineIndex; k++) rejected.set(k, 'table-of-contents');
    });
    classified = classified.filter((_, i) => !toc.has(i));
  }
  const ranks = levelsByFontRank(classified);
  const headings = classified.map(({ rawLevel, ...c }) => ({ ...c, level: rawLevel ?? ranks.get(roundSize(c.fontSize)) ?? 1 }));
  return {
    bodyFontSize: body,
    headings,
    rejected: [...rejected].sort(([a], [b]) => a - b).map(([lineIndex, reason]) => ({ lineIndex, reason, text: lineText(doc, lineIndex) })),
  };
}
