/**
 * Domain types shared by the engine, the hosts (Electron main, CLI, test
 * bridge) and the renderer. Offsets are always into a document's canonical
 * text (see `canonical.ts`); page numbers are 1-based physical page indexes.
 */

export type DocumentKind = 'pdf' | 'txt' | 'md';

/** `{ level, path }` as in the hierarchy rules: root is level 0, path []. */
export interface Section {
  level: number;
  path: string[];
}

/** One page's place in the canonical text: [start, end), separator excluded. */
export interface PageSpan {
  pageNumber: number;
  start: number;
  end: number;
  /** False when the page had no extractable text (scanned image, empty page, or unreadable). */
  hasTextLayer: boolean;
  /** Set when the page itself could not be read (damaged content): why, in pdf.js's words. Its text is empty. */
  readError?: string;
  /** 'ocr' when the page's text was read from its image by OCR (no usable text layer); absent for text-layer pages. */
  textSource?: 'ocr';
  /** OCR pages: mean word confidence 0..100 (absent when OCR read no words). */
  ocrConfidence?: number;
}

/** One rebuilt text line, with the typography heading detection needs. */
export interface DocumentLine {
  /** [start, end) in the canonical text; the line's text excludes the newline. */
  start: number;
  end: number;
  page: number;
  /** Dominant font size of the line in PDF units; 0 for plain text. */
  fontSize: number;
  bold: boolean;
  /** Markdown heading depth (1-6) for .md files; absent otherwise. */
  markdownLevel?: number;
}

/** A PDF bookmark with its destination resolved to a page (null when unresolvable). */
export interface OutlineEntry {
  title: string;
  /** 1 = top level. */
  level: number;
  page: number | null;
}

/** Everything ingestion produces for one file. */
export interface ExtractedDocument {
  kind: DocumentKind;
  fileName: string;
  filePath: string;
  sha256: string;
  byteSize: number;
  pageCount: number;
  /** Pages joined with PAGE_SEPARATOR. */
  text: string;
  pages: PageSpan[];
  lines: DocumentLine[];
  outline: OutlineEntry[];
  /** PDF metadata (title, producer...) when present. */
  metadata: Record<string, string>;
}

export type ChunkOrigin = 'root' | 'outline' | 'heading' | 'page' | 'sentence' | 'llm';

/** A node of a document's chunk tree. Nodes are stored in pre-order; `index` is the position. */
export interface ChunkNode {
  index: number;
  parentIndex: number | null;
  title: string;
  section: Section;
  /** [start, end) in the canonical text. */
  start: number;
  end: number;
  pageStart: number;
  pageEnd: number;
  tokenEstimate: number;
  origin: ChunkOrigin;
  isLeaf: boolean;
  /**
   * Leaves only: how many characters at the start of this leaf repeat the end
   * of the previous leaf (declared overlap); joining leaves drops them.
   */
  overlapBefore: number;
}

/** An issue-ID mention found by the rules (regex patterns), offsets into canonical text. */
export interface IdMention {
  patternName: string;
  /** The text as it stands in the document (may contain zero-width characters or a line break). */
  raw: string;
  /** Canonical form: invisible characters removed, dashes unified, upper case. */
  normalized: string;
  start: number;
  end: number;
  page: number;
}

import type { RunPhase, RunStatus } from './pipeline';

export type { RunPhase, RunStatus } from './pipeline';

/** The one progress shape every long operation reports. */
export interface ProgressEvent {
  runId: number;
  phase: RunPhase;
  /** Units done in this phase (pages, chunks...) and how many there are; total 0 when unknown. */
  current: number;
  total: number;
  message: string;
  /** The run input (its 0-based position in the run's file list) the event is about, when it is about one. */
  ordinal?: number;
  /** The document the event is about, once the input's file is stored as one. */
  documentId?: number;
  /** The input's file name, for display only: match inputs by `ordinal`, never by name. */
  fileName?: string;
  /** Extraction: merged-to-be findings reported so far in this run. */
  findings?: number;
  /** Generation speed measured from the run's LLM calls. */
  tokensPerSecond?: number;
  /** Remaining time for this run's extraction, from measured seconds per chunk. */
  etaSeconds?: number;
  /** The inference endpoint the input is analysed on, when the run has a pool of them (its label). */
  endpoint?: string;
  /** The run's last event (phase 'done'): how it ended, so a stop is never printed as "done". */
  runStatus?: RunStatus;
}

/**
 * The first difference between an expected text and what a splitter produced
 * (the chunking validator, the LLM tree split): the "diff" the UI shows.
 */
export interface TextDiff {
  /** Offset of the first difference in the expected string. */
  offset: number;
  /** `before` + `expected`: the expected text around the difference. */
  expectedContext: string;
  /** `before` + `actual`: what was produced around the difference. */
  actualContext: string;
  /** Up to `context` characters both strings share just before the difference. */
  before: string;
  /** Up to `context` characters of the expected text from the difference on. */
  expected: string;
  /** Up to `context` characters of the actual text from the difference on. */
  actual: string;
}
