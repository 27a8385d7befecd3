/**
 * Heading detection from rebuilt lines and their typography. Deliberately
 * conservative about what can never be a heading (running headers/footers,
 * page numbers, table-of-contents lines), because one false heading per page
 * turns a chunk tree into noise.
 */
import type { DocumentLine, ExtractedDocument } from '../../../shared/types';

export type HeadingKind = 'markdown' | 'numbered' | 'font' | 'caps';

export interface HeadingCandidate {
  /** Index into `doc.lines`. */
  lineIndex: number;
  start: number;
  end: number;
  page: number;
  /** The line's text, whitespace collapsed (markdown hashes removed). */
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

export function lineText(doc: ExtractedDocument, line: DocumentLine): string {
  return collapse(doc.text.slice(line.start, line.end));
}

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
  { pattern: /^((?:chapter|appendix|annex|section|part)\s+(?:\d{1,3}(?:\.\d{1,3})*|[A-Z]|[IVXLC]+))\b[.:\-–—]?\s*(.*)$/i, depth: (m) => (/^section/i.test(m[1]!) ? m[1]!.split('.').length : 1) },
  // "1.2.3 Title", "1.2. Title", "1. Title"; "1 Title" only when emphasised (amounts and list items start like that).
  { pattern: /^(\d{1,3}(?:\.\d{1,3})*)(\.?)\s+(.+)$/, depth: (m) => m[1]!.split('.').length, emphasisOnly: (m) => !m[1]!.includes('.') && m[2] === '' },
  // "A.1 Title", "A.1.2 Title"
  { pattern: /^([A-Z]\.\d{1,3}(?:\.\d{1,3})*)\.?\s+(.+)$/, depth: (m) => m[1]!.split('.').length },
  // "A. Title", "IV. Title"
  { pattern: /^([A-Z]|[IVXLC]+)\.\s+(.+)$/, depth: () => 1 },
];

/** Parses a heading number at the start of a line; `emphasisOnly` marks forms accepted only in bold or large type. */
export function parseNumbering(text: string): (Numbering & { emphasisOnly: boolean }) | null {
  const t = collapse(text);
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
  const t = collapse(text);
  return PAGE_NUMBER_PATTERNS.some((p) => p.test(t));
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
    if (DOT_LEADERS.test(raw) || /\p{L}.*(?:\t|\s{2,})\d{1,4}$/u.test(raw)) toc.add(i);
    else if (hasTrailingPageNumber(raw)) trailingByPage.set(line.page, [...(trailingByPage.get(line.page) ?? []), i]);
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
    if (lineText(doc, line) === '') return;
    linesByPage.set(line.page, [...(linesByPage.get(line.page) ?? []), i]);
  });
  for (const [page, indexes] of linesByPage) {
    edgeLinesByPage.set(page, [...new Set([...indexes.slice(0, EDGE_LINES), ...indexes.slice(-EDGE_LINES)])]);
  }
  const pagesByKey = new Map<string, Set<number>>();
  for (const [page, indexes] of edgeLinesByPage) {
    for (const i of indexes) {
      const key = runningKey(lineText(doc, doc.lines[i]!));
      pagesByKey.set(key, (pagesByKey.get(key) ?? new Set()).add(page));
    }
  }
  const threshold = Math.max(3, Math.ceil(linesByPage.size * 0.5));
  const running = new Set<number>();
  for (const indexes of edgeLinesByPage.values()) {
    for (const i of indexes) {
      const text = lineText(doc, doc.lines[i]!);
      if ((pagesByKey.get(runningKey(text))?.size ?? 0) < threshold) continue;
      // "Chapter 2" / "3. Results" at the top of every page differ only in digits too; they are headings, not headers.
      if (/\d/.test(text) && parseNumbering(text) !== null) continue;
      running.add(i);
    }
  }
  return running;
}

function rejectedLines(doc: ExtractedDocument): Map<number, LineRejection> {
  const rejected = new Map<number, LineRejection>();
  doc.lines.forEach((line, i) => {
    if (isPageNumberLine(lineText(doc, line))) rejected.set(i, 'page-number');
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

function isAllCapsHeading(t: string): boolean {
  const words = t.split(' ');
  if (words.length > 8 || !/\p{Lu}/u.test(t) || t !== t.toUpperCase()) return false;
  return words.some((w) => (w.match(/\p{L}/gu)?.length ?? 0) >= 2) && !looksLikeSentence(t);
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

function classifyLine(doc: ExtractedDocument, line: DocumentLine, lineIndex: number, body: number, options: HeadingOptions): Classified | null {
  const text = lineText(doc, line);
  if (text === '' || text.length > options.maxHeadingChars || !/\p{L}/u.test(text)) return null;
  const base = { lineIndex, start: line.start, end: line.end, page: line.page, fontSize: line.fontSize, bold: line.bold };
  if (doc.kind === 'md') {
    // Markdown says exactly which lines are headings; numbered lists there are lists.
    if (!line.markdownLevel) return null;
    return { ...base, title: text.replace(/^#{1,6}\s*/, '').replace(/\s+#+$/, ''), kind: 'markdown', numbering: null, rawLevel: line.markdownLevel };
  }
  const large = body > 0 && line.fontSize >= body * options.headingFontRatio;
  const numbering = parseNumbering(text);
  if (numbering && acceptsNumbered(numbering, large || line.bold)) {
    return { ...base, title: text, kind: 'numbered', numbering: numbering.numbering, rawLevel: numbering.depth };
  }
  if (large && !looksLikeSentence(text)) return { ...base, title: text, kind: 'font', numbering: null, rawLevel: null };
  if (isAllCapsHeading(text)) return { ...base, title: text, kind: 'caps', numbering: null, rawLevel: null };
  return null;
}

/** Unnumbered headings are ranked by font size: the biggest size is level 1. */
function levelsByFontRank(candidates: readonly Classified[]): Map<number, number> {
  const sizes = [...new Set(candidates.filter((c) => c.rawLevel === null).map((c) => roundSize(c.fontSize)))].sort((a, b) => b - a);
  return new Map(sizes.map((size, i) => [size, i + 1]));
}

export function detectHeadings(doc: ExtractedDocument, options: Partial<HeadingOptions> = {}): HeadingAnalysis {
  const resolved = { ...DEFAULT_HEADING_OPTIONS, ...options };
  const body = bodyFontSize(doc);
  const rejected = doc.kind === 'md' ? new Map<number, LineRejection>() : rejectedLines(doc);
  const classified = doc.lines.flatMap((line, i) => (rejected.has(i) ? [] : (classifyLine(doc, line, i, body, resolved) ?? [])));
  const ranks = levelsByFontRank(classified);
  const headings = classified.map(({ rawLevel, ...c }) => ({ ...c, level: rawLevel ?? ranks.get(roundSize(c.fontSize)) ?? 1 }));
  return {
    bodyFontSize: body,
    headings,
    rejected: [...rejected].sort(([a], [b]) => a - b).map(([lineIndex, reason]) => ({ lineIndex, reason, text: lineText(doc, doc.lines[lineIndex]!) })),
  };
}
