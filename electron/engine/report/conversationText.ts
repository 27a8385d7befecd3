/**
 * How every report format words the questions and answers it carries (the
 * run report's "Questions and answers" and a conversation exported on its
 * own), so Markdown and HTML say the same thing.
 */
import { UNVERIFIED_TEXT, type AskAnswer, type AskCitation, type StoredConversation } from '../../../shared/retrieval';
import type { ReportData } from './reportData';

export const CONVERSATIONS_NOTE =
  'Questions asked about these documents, with the answers as given. Each [n] cites a passage whose quoted words were found in the document; retrieval reads the most relevant passages, not every page.';

/** Names of the report's documents by id: how a conversation's scope is named. */
export function documentNames(data: ReportData): Map<number, string> {
  return new Map(data.inputs.flatMap((input) => (input.document ? [[input.document.document.id, input.document.document.fileName] as const] : [])));
}

/** How a conversation is listed: its citation lines, why an answer is marked, what it was asked about. */
export function citationLine(c: AskCitation): string {
  return `${c.documentName}, page ${c.page}, section ${c.section.join(' > ')}: "${c.quote}"`;
}

export function markedNote(a: AskAnswer): string {
  if (a.unverified) return UNVERIFIED_TEXT;
  return `Marked: ${a.dropped.length} citation(s) could not be verified in the source and were removed.`;
}

export function conversationScopeText(c: StoredConversation, documentNames: ReadonlyMap<number, string>): string {
  if (c.summary.scope === 'library') return 'asked across the library';
  const name = c.summary.documentId === null ? undefined : documentNames.get(c.summary.documentId);
  return name ? `asked about ${name}` : 'asked about one document';
}
