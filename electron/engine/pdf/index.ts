/**
 * PDF / text ingestion (pipeline stage `pdf/`). Public surface: `ingestFile`
 * and its types; the line-rebuilding pieces are exported for tests and for
 * stages that re-flow text.
 */
export { ingestFile } from './ingest';
export type { IngestOptions, IngestResult, IngestWarning } from './types';
export { buildPageLines, CELL_SEPARATOR, type BuiltLine } from './lineBuilder';
export type { RawItem, RawPage } from './rawExtractor.mjs';
export { cleanText, stripInvisible, expandLigatures, visibleCharCount } from './textCleanup';
export { markdownHeadingLevels } from './textDocument';
export { MIN_TEXT_LAYER_CHARS, WORKER_MIN_PAGES } from './pdfDocument';
export { pageWarnings } from './pageWarnings';
export { assemblePages, type AssembledPage, type PageLine } from './assemble';
export { openError } from './pdfErrors';
