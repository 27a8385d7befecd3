/**
 * Conversations: every question and answer is stored (tables conversations
 * and conversation_messages, migration 0140) per library or per document, so
 * they survive a restart and can be exported (the report module formats
 * them, everything escaped).
 */
import type { Database } from 'better-sqlite3';
import { AppError, ErrorCode } from '../../../shared/errors';
import type { AskAnswer, ConversationSummary, StoredConversation } from '../../../shared/retrieval';
import { conversationExists, insertConversation, insertExchange, selectConversationMessages, selectConversationSummaries } from './store';

export type ConversationScope = { scope: 'library' } | { scope: 'document'; documentId: number };

export function createConversation(db: Database, scope: ConversationScope, title: string, now: string): number {
  return insertConversation(db, scope.scope, scope.scope === 'document' ? scope.documentId : null, title.slice(0, 200), now);
}

/** Appends a question and its answer in one transaction: a crash never leaves a question without its answer. */
export function appendExchange(db: Database, conversationId: number, question: string, answer: AskAnswer, now: string): void {
  db.transaction(() => {
    if (!conversationExists(db, conversationId)) {
      throw new AppError(ErrorCode.CONVERSATION_NOT_FOUND, `Conversation ${conversationId} does not exist. Start a new one.`);
    }
    insertExchange(db, conversationId, question, answer, now);
  })();
}

export function listConversations(db: Database, filter: { documentId?: number; scope?: 'library' | 'document' } = {}): ConversationSummary[] {
  return selectConversationSummaries(db, filter);
}

export function loadConversation(db: Database, conversationId: number): StoredConversation {
  const summary = listConversations(db).find((c) => c.id === conversationId);
  if (!summary) throw new AppError(ErrorCode.CONVERSATION_NOT_FOUND, `Conversation ${conversationId} does not exist. List the conversations to pick another.`);
  return { summary, messages: selectConversationMessages(db, conversationId) };
}

/**
 * Every conversation about some of these documents, oldest first: the ones
 * asked about one of them, and library conversations whose answers cite one of
 * them (a library question that found nothing in them is not about them).
 * What a run report exports with the run's documents.
 */
export function conversationsAbout(db: Database, documentIds: readonly number[]): StoredConversation[] {
  const wanted = new Set(documentIds);
  return listConversations(db)
    .filter((c) => c.scope === 'library' || (c.documentId !== null && wanted.has(c.documentId)))
    .sort((a, b) => a.id - b.id)
    .map((c) => loadConversation(db, c.id))
    .filter((c) => c.summary.scope === 'document' || c.messages.some((m) => m.answer?.citations.some((cite) => wanted.has(cite.documentId))));
}
