import type { DocumentKind } from './types';

/**
 * The files the app reads, by extension: one list for the engine (ingestFile), the import check (host) and the
 * drop zone's picker, so what the app accepts is what the engine reads.
 */
export const KIND_BY_EXTENSION: Readonly<Record<string, DocumentKind>> = { '.pdf': 'pdf', '.txt': 'txt', '.md': 'md', '.markdown': 'md' };

/** The supported types in a sentence. */
export const SUPPORTED_FILES = 'PDF (.pdf), plain text (.txt) and Markdown (.md)';

/** The file picker's `accept`: the extensions above and their media types. */
export const FILE_PICKER_ACCEPT = [...Object.keys(KIND_BY_EXTENSION), 'application/pdf', 'text/plain', 'text/markdown'].join(',');

/** The kind of document a file name says it is, or undefined for a type the app does not read. */
export function documentKindOf(fileName: string): DocumentKind | undefined {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? undefined : KIND_BY_EXTENSION[fileName.slice(dot).toLowerCase()];
}
