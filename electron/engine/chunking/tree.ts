/**
 * Chunk tree builders: outline, headings, pages, sentences. The structure
 * (sections from the outline or detected headings) is built first; leaves are
 * sized and merged on the flat sequence; then only the sections whose bounds
 * still coincide with leaf bounds are kept as inner nodes, so the tree is
 * always a proper nesting of [start, end) ranges.
 */
import { pageAt } from '../../../shared/canonical';
import type { ChunkNode, ChunkOrigin, ExtractedDocument, OutlineEntry, Section } from '../../../shared/types';
import { detectHeadings, type HeadingCandidate } from './headings';
import { rootSection } from './hierarchy';
import { resolveChunkingOptions, type ChunkingOptions, type ChunkStrategy } from './options';
import { chunkPages, greedyMerge, splitRange, type MergeCandidate, type MergedLeaf, type SizeLimit, type TextPiece } from './splitters';
import { timeStage } from '../util';

export interface ChunkTree {
  strategy: ChunkStrategy;
  /** Pre-order; index 0 is the root. */
  nodes: ChunkNode[];
  headingCandidates: HeadingCandidate[];
  /** Human-readable decisions and skipped inputs (shown in the UI). */
  notes: string[];
}

export const FRONT_MATTER_TITLE = '(front matter)';

/** A place where a section starts, before nesting. */
interface SectionMark {
  start: number;
  /** Raw level (outline level, numbering depth, font rank); nesting normalises it. */
  rawLevel: number;
  title: string;
  /** Font size of a detected heading (0 or absent: no typography, e.g. outline entries and plain text). */
  fontSize?: number;
}

/** A section of the structure with its whole range [start, end). */
interface SkeletonSection {
  title: string;
  section: Section;
  start: number;
  end: number;
  origin: ChunkOrigin;
  /** End of the section's own text: its first child's start, or its end. */
  ownEnd: number;
}

export function buildChunkTree(doc: ExtractedDocument, partial: Partial<ChunkingOptions> = {}): ChunkTree {
  const options = resolveChunkingOptions(partial);
  const notes: string[] = [];
  const headingAnalysis = timeStage('headings', () => detectHeadings(doc, options));
  const headings = headingAnalysis.headings;
  const outlineMarks = resolveOutline(doc, notes);
  const headingMarks = headings.map((h) => ({ start: h.start, rawLevel: h.level, title: h.title, fontSize: h.fontSize }));
  const strategy = chooseStrategy(doc, options, outlineMarks, headingMarks, notes);

  let leaves: LeafSpec[];
  let sections: SkeletonSection[] = [];
  if (strategy === 'outline' || strategy === 'headings') {
    const origin = strategy === 'outline' ? 'outline' : 'heading';
    sections = buildSkeleton(strategy === 'outline' ? outlineMarks : headingMarks, doc.text.length, origin);
    leaves = sectionLeaves(doc.text, sections, options);
  } else if (strategy === 'pages') {
    leaves = pageLeaves(doc, options);
  } else {
    leaves = sentenceLeaves(doc.text, options);
  }
  if (doc.text.length === 0) notes.push('The document has no text: the tree is only the root.');
  return { strategy, nodes: assembleTree(doc, sections, leaves, options), headingCandidates: headings, notes };
}

// ---------------------------------------------------------------- strategy

function chooseStrategy(doc: ExtractedDocument, options: ChunkingOptions, outline: SectionMark[], headings: SectionMark[], notes: string[]): ChunkStrategy {
  const headingsUsable = headings.length >= options.minHeadings && coversDocument(headings, doc.text.length);
  const requested = options.strategy;
  if (requested === 'pages' || requested === 'sentences') return requested;
  if (requested === 'outline' || requested === 'auto') {
    if (outline.length >= 2) return 'outline';
    if (requested === 'outline') notes.push(`Outline strategy requested but only ${outline.length} outline entries could be placed; falling back.`);
  }
  if (requested === 'headings' && headings.length > 0) return 'headings';
  if (headingsUsable) return 'headings';
  notes.push(`Using pages: ${headings.length} heading(s) found, not enough to structure the document.`);
  return 'pages';
}

/** Headings structure a document only if most of it comes after the first one. */
function coversDocument(marks: readonly SectionMark[], textLength: number): boolean {
  const first = marks[0];
  return first !== undefined && first.start <= textLength * 0.5;
}

// ---------------------------------------------------------------- outline

/** Case-, whitespace- and punctuation-insensitive form for fuzzy title matching. */
const normalizeTitle = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** "2.1 Rd format" -> "Rd format", "A.3 Notes" -> "Notes", "Chapter 4: X" -> "X". */
function withoutNumber(s: string): string {
  return s.trim().replace(/^(?:(?:chapter|appendix|section|part)\s+)?(?:\d{1,3}(?:\.\d{1,3})*|[A-Z](?:\.\d{1,3})+|[A-Z](?=[.:]))[.:]?\s+/i, '');
}

function titleMatchesLine(title: string, line: string): boolean {
  if (title === '' || line === '') return false;
  // The line may carry more (a number suffix), or the title may wrap onto the next line.
  return line.startsWith(title) || (line.length >= 4 && title.startsWith(line));
}

/**
 * Places each outline entry at the line that prints its title (at or after the previous entry): on the bookmark's page,
 * else on a nearby page (bookmarks are often anchored a page early, at the foot of the previous page). Only when no
 * such line is found is the bookmark trusted (its page start), with a note. Entries without a page, or that would go
 * backwards, are skipped with a note.
 */
function resolveOutline(doc: ExtractedDocument, notes: string[]): SectionMark[] {
  const marks: SectionMark[] = [];
  let previous = 0;
  doc.outline.forEach((entry, i) => {
    const placed = placeOutlineEntry(doc, entry, previous);
    if (placed === null) {
      notes.push(`Outline entry ${i + 1} "${entry.title}" skipped: its destination page could not be resolved.`);
      return;
    }
    const { start, headingPage } = placed;
    if (start < previous) {
      notes.push(`Outline entry ${i + 1} "${entry.title}" skipped: it points before the previous entry.`);
      return;
    }
    if (headingPage === null) {
      notes.push(
        `Outline entry ${i + 1} "${entry.title}": no line printing its title on page ${entry.page} or within ${HEADING_SEARCH_PAGES} pages of it; the section starts where the bookmark points (top of page ${entry.page}).`,
      );
    } else if (headingPage !== entry.page) {
      notes.push(
        `Outline entry ${i + 1} "${entry.title}" points to page ${entry.page}, but its heading is printed on page ${headingPage}: the section starts there.`,
      );
    }
    marks.push({ start, rawLevel: entry.level, title: entry.title.trim() || `(untitled ${i + 1})` });
    previous = start;
  });
  return marks;
}

/** What PDF ingestion writes between the cells of a table row (see CELL_SEPARATOR in pdf/lineBuilder.ts). */
const TABLE_CELL_SEPARATOR = ' | ';
/** How many pages either side of a bookmark's page are searched for the heading it names. */
const HEADING_SEARCH_PAGES = 2;

/** Pages to search for a bookmark's heading: its own, then the following ones (the usual error), then the preceding ones. */
function searchOrder(page: number): number[] {
  const order = [page];
  for (let distance = 1; distance <= HEADING_SEARCH_PAGES; distance++) order.push(page + distance);
  for (let distance = 1; distance <= HEADING_SEARCH_PAGES; distance++) order.push(page - distance);
  return order;
}

function placeOutlineEntry(doc: ExtractedDocument, entry: OutlineEntry, notBefore: number): { start: number; headingPage: number | null } | null {
  const page = entry.page === null ? undefined : doc.pages.find((p) => p.pageNumber === entry.page);
  if (!page) return null;
  const title = normalizeTitle(entry.title);
  const bareTitle = normalizeTitle(withoutNumber(entry.title));
  const printsTitle = (raw: string): boolean =>
    // Bookmarks often drop the section number or finding ID the heading line carries ("Rd format" for "2.1 Rd format",
    // "Possible Market Manipulation" for "LID-02 Possible Market Manipulation"), or the reverse.
    titleMatchesLine(title, normalizeTitle(raw)) ||
    titleMatchesLine(bareTitle, normalizeTitle(withoutNumber(raw))) ||
    titleMatchesLine(bareTitle, normalizeTitle(withoutLabel(raw)));
  // On a preceding page only a line that is exactly the heading counts: a table-of-contents line ("Introduction 3") is not.
  const isExactly = (raw: string): boolean =>
    [normalizeTitle(raw), normalizeTitle(withoutNumber(raw)), normalizeTitle(withoutLabel(raw))].some((line) => line === title || line === bareTitle);
  for (const pageNumber of searchOrder(page.pageNumber)) {
    const accepts = pageNumber < page.pageNumber ? isExactly : printsTitle;
    const match = doc.lines.find((line) => {
      if (line.page !== pageNumber || line.start < notBefore) return false;
      const raw = doc.text.slice(line.start, line.end);
      // A heading is never a table row (a summary table lists the same titles, its cells set apart by " | ").
      return !raw.includes(TABLE_CELL_SEPARATOR) && accepts(raw);
    });
    if (match) return { start: match.start, headingPage: pageNumber };
  }
  const sharedLine = laterOnSameLine(doc, entry.title, notBefore);
  if (sharedLine !== null) return sharedLine;
  return { start: page.start, headingPage: null };
}

/**
 * A heading printed on the line of the previous one ("3. Detailed Findings 3.1. Lack of input validations"): the
 * section starts at its label inside that line. Only the previous entry's own line is searched, so a title quoted in
 * running text never moves a section.
 */
function laterOnSameLine(doc: ExtractedDocument, title: string, previousStart: number): { start: number; headingPage: number } | null {
  const line = doc.lines.find((l) => l.start <= previousStart && previousStart < l.end);
  const words = title.match(/[\p{L}\p{N}]+/gu);
  if (!line || !words) return null;
  const pattern = new RegExp(`(?:\\S*\\d\\S*\\s+)?${words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^\\p{L}\\p{N}]+')}`, 'iu');
  const from = previousStart + 1;
  const found = pattern.exec(doc.text.slice(from, line.end));
  return found ? { start: from + found.index, headingPage: line.page } : null;
}

/** "LID-02 Possible Market Manipulation" -> "Possible Market Manipulation": a first word holding a digit is a label (finding ID, number). */
function withoutLabel(s: string): string {
  return s.trim().replace(/^[^\s\d]*\d\S*\s+(?:[-\u2013\u2014:|]\s+)?/u, '');
}

// ---------------------------------------------------------------- skeleton

/**
 * Nests marks by raw level and renumbers levels as depth, so the shallowest
 * level used is 1 and a child is always exactly one deeper than its parent.
 * Text before the first mark becomes a level-1 front-matter section. Marks
 * that would produce an empty section (same start as the next sibling) are dropped.
 */
function buildSkeleton(unsorted: readonly SectionMark[], textLength: number, origin: ChunkOrigin): SkeletonSection[] {
  const marks = [...unsorted].sort((a, b) => a.start - b.start);
  const sections: SkeletonSection[] = [];
  const first = marks[0];
  if (first && first.start > 0) {
    sections.push({ title: FRONT_MATTER_TITLE, section: { level: 1, path: [FRONT_MATTER_TITLE] }, start: 0, end: first.start, origin, ownEnd: first.start });
  }
  const open: { rawLevel: number; fontSize: number; node: SkeletonSection }[] = [];
  const withChild = new Set<SkeletonSection>();
  // A heading set in a smaller font never contains one set larger (numbering depth and font rank are different scales).
  const encloses = (o: { rawLevel: number; fontSize: number }, mark: SectionMark): boolean =>
    o.rawLevel < mark.rawLevel && !(o.fontSize > 0 && (mark.fontSize ?? 0) > 0 && o.fontSize + 0.5 < mark.fontSize!);
  const closeUntil = (at: number, mark: SectionMark | null): void => {
    while (open.length > 0 && (mark === null || !encloses(open[open.length - 1]!, mark))) open.pop()!.node.end = at;
  };
  for (const mark of marks) {
    closeUntil(mark.start, mark);
    const parent = open[open.length - 1]?.node;
    if (parent && !withChild.has(parent)) {
      // A parent's own text runs from its heading to its first child.
      parent.ownEnd = mark.start;
      withChild.add(parent);
    }
    const node: SkeletonSection = {
      title: mark.title,
      section: { level: (parent?.section.level ?? 0) + 1, path: [...(parent?.section.path ?? []), mark.title] },
      start: mark.start,
      end: textLength,
      origin,
      ownEnd: textLength,
    };
    sections.push(node);
    open.push({ rawLevel: mark.rawLevel, fontSize: mark.fontSize ?? 0, node });
  }
  closeUntil(textLength, null);
  for (const s of sections) if (!withChild.has(s)) s.ownEnd = s.end;
  return sections.filter((s) => s.end > s.start);
}

// ---------------------------------------------------------------- leaves

/** A final leaf with what the tree needs about it. */
interface LeafSpec extends TextPiece {
  section: Section;
  title: string;
  origin: ChunkOrigin;
  parts: number;
}

const limit = (chars: number, tokens: number): SizeLimit => ({ chars, tokens });

/** Each section's own text as one leaf, or cut into preferred-size pieces when over the maximum; then greedy merge. */
function sectionLeaves(text: string, sections: readonly SkeletonSection[], options: ChunkingOptions): MergedLeaf[] {
  const candidates = sections.flatMap((s) => ownTextCandidates(text, s, options));
  const merged = greedyMerge(text, candidates, {
    min: limit(options.minChars, options.minTokens),
    preferred: limit(options.preferredChars, options.preferredTokens),
    max: limit(options.maxChars, options.maxTokens),
    estimateTokens: options.estimateTokens,
  });
  // Each leaf is `parts` consecutive candidates: name leaves that open with the front matter after what follows it.
  let next = 0;
  return merged.map((leaf) => {
    const first = candidates[next];
    const second = candidates[next + 1];
    next += leaf.parts;
    if (leaf.parts < 2 || first?.title !== FRONT_MATTER_TITLE || !second) return leaf;
    return { ...leaf, title: frontMatterTitle(second.title, leaf.parts - 2) };
  });
}

/** "Front matter and Executive Summary", "Front matter, Executive Summary (+2)". */
function frontMatterTitle(nextTitle: string, more: number): string {
  return more === 0 ? `Front matter and ${nextTitle}` : `Front matter, ${nextTitle} (+${more})`;
}

function ownTextCandidates(text: string, s: SkeletonSection, options: ChunkingOptions): MergeCandidate[] {
  if (s.ownEnd <= s.start) return [];
  const major = s.section.level <= 2;
  const fitsWhole = s.ownEnd - s.start <= options.maxChars && options.estimateTokens(text.slice(s.start, s.ownEnd)) <= options.maxTokens;
  if (fitsWhole) {
    return [
      {
        start: s.start,
        end: s.ownEnd,
        overlapBefore: 0,
        section: s.section,
        title: s.title,
        origin: s.origin,
        startsMajorSection: major,
        startsOutlineSection: s.origin === 'outline',
      },
    ];
  }
  const pieces = splitRange(text, s.start, s.ownEnd, preferredSplit(options));
  return pieces.map((piece, i) => ({
    ...piece,
    section: s.section,
    title: `${s.title} (${i + 1}/${pieces.length})`,
    origin: 'sentence' as const,
    startsMajorSection: major && i === 0,
    startsOutlineSection: s.origin === 'outline' && i === 0,
    complete: i < pieces.length - 1,
  }));
}

function preferredSplit(options: ChunkingOptions) {
  return { limit: limit(options.preferredChars, options.preferredTokens), overlapChars: options.overlapChars, estimateTokens: options.estimateTokens };
}

function pageLeaves(doc: ExtractedDocument, options: ChunkingOptions): LeafSpec[] {
  return chunkPages(doc.text, doc.pages, options).map((chunk) => {
    const pages = chunk.pageStart === chunk.pageEnd ? `Page ${chunk.pageStart}` : `Pages ${chunk.pageStart}-${chunk.pageEnd}`;
    const title = chunk.partCount > 1 ? `${pages} (${chunk.part}/${chunk.partCount})` : pages;
    return { ...chunk, section: rootSection(), title, origin: 'page' as const, parts: 1 };
  });
}

function sentenceLeaves(text: string, options: ChunkingOptions): LeafSpec[] {
  const pieces = splitRange(text, 0, text.length, preferredSplit(options));
  return pieces.map((piece, i) => ({ ...piece, section: rootSection(), title: `Part ${i + 1}/${pieces.length}`, origin: 'sentence' as const, parts: 1 }));
}

// ---------------------------------------------------------------- assembly

type Entry = { kind: 'section'; s: SkeletonSection; order: number } | { kind: 'leaf'; leaf: LeafSpec; order: number };

/**
 * Keeps a section as an inner node only when leaves start at its start and end
 * at its end (merging may have swallowed a boundary) and it is not exactly one
 * leaf; a leaf that exactly covers merged sections takes the outermost one's
 * title. Parents are found by range containment in pre-order.
 */
function assembleTree(doc: ExtractedDocument, sections: readonly SkeletonSection[], leaves: readonly LeafSpec[], options: ChunkingOptions): ChunkNode[] {
  const starts = new Set(leaves.map((l) => l.start));
  const ends = new Set(leaves.map((l) => l.end));
  const leafByRange = new Map(leaves.map((l) => [`${l.start}:${l.end}`, { ...l }]));
  const entries: Entry[] = [];
  sections.forEach((s, order) => {
    const exactLeaf = leafByRange.get(`${s.start}:${s.end}`);
    if (exactLeaf) {
      // Sections come outermost first, so the outermost one names a merged leaf; parts = 1 stops inner ones.
      if (exactLeaf.parts > 1) Object.assign(exactLeaf, { title: s.title, origin: s.origin, parts: 1 });
      return;
    }
    if (starts.has(s.start) && ends.has(s.end)) entries.push({ kind: 'section', s, order });
  });
  leaves.forEach((leaf, i) => entries.push({ kind: 'leaf', leaf: leafByRange.get(`${leaf.start}:${leaf.end}`)!, order: sections.length + i }));
  const range = (e: Entry) => (e.kind === 'section' ? e.s : e.leaf);
  // Pre-order: by start, then outer (longer) first, then skeleton order (parent before same-range child).
  entries.sort((a, b) => range(a).start - range(b).start || range(b).end - range(a).end || a.order - b.order);

  const nodes: ChunkNode[] = [
    makeNode(doc, options, {
      index: 0,
      parentIndex: null,
      title: documentTitle(doc),
      section: rootSection(),
      start: 0,
      end: doc.text.length,
      origin: 'root',
      isLeaf: false,
      overlapBefore: 0,
    }),
  ];
  const stack: ChunkNode[] = [nodes[0]!];
  for (const entry of entries) {
    const r = range(entry);
    while (stack.length > 1 && !(r.start >= stack[stack.length - 1]!.start && r.end <= stack[stack.length - 1]!.end)) stack.pop();
    const parent = stack[stack.length - 1]!;
    const node = makeNode(doc, options, {
      index: nodes.length,
      parentIndex: parent.index,
      title: entry.kind === 'section' ? entry.s.title : entry.leaf.title,
      section: entry.kind === 'section' ? entry.s.section : entry.leaf.section,
      start: r.start,
      end: r.end,
      origin: entry.kind === 'section' ? entry.s.origin : entry.leaf.origin,
      isLeaf: entry.kind === 'leaf',
      overlapBefore: entry.kind === 'leaf' ? entry.leaf.overlapBefore : 0,
    });
    nodes.push(node);
    if (!node.isLeaf) stack.push(node);
  }
  return nodes;
}

function makeNode(doc: ExtractedDocument, options: ChunkingOptions, base: Omit<ChunkNode, 'pageStart' | 'pageEnd' | 'tokenEstimate'>): ChunkNode {
  return {
    ...base,
    section: { level: base.section.level, path: [...base.section.path] },
    pageStart: pageAt(doc.pages, base.start),
    pageEnd: pageAt(doc.pages, Math.max(base.start, base.end - 1)),
    tokenEstimate: options.estimateTokens(doc.text.slice(base.start, base.end)),
  };
}

/** A Title field that is only a file name ("doc.html", "Microsoft Word - report.docx") names the converter's input, not the document. */
const FILE_NAME_TITLE = /^(?:microsoft\s+word\s*-\s*)?[^\s/\\]+\.(?:html?|xhtml|docx?|odt|rtf|pdf|tex|txt|md|pptx?|xlsx?)$/i;

/** The name of the tree's root: the PDF's Title metadata when it says something, else the file name. */
export function documentTitle(doc: Pick<ExtractedDocument, 'metadata' | 'fileName'>): string {
  const title = doc.metadata.title?.trim() ?? '';
  return title !== '' && !FILE_NAME_TITLE.test(title) ? title : doc.fileName;
}
