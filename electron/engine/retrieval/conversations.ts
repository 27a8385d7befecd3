/**
 * Conversations: every question and answer is stored (tables conversations
 * and conversation_messages, migration 0140) per library or per document, so
 * they survive a restart and can be exported (the report module formats
 * them, everything escaped).
 */
import type { Database } from 'better-sqlite3';
import { AppError, ErrorCode } from '../../../shared/errors';
import type { AskAnswer, ConversationSummary, StoredConversation } from '../../../shared/retrieval';

export type ConversationScope = { scope: 'library' } | { scope: 'document'; documentId: number };

export function createConversation(db: Database, scope: ConversationScope, title: string, now: string): number {
  return Number(
    db
      .prepare('INSERT INTO conversations (scope, scope_document_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
      .run(scope.scope, scope.scope === 'document' ? scope.documentId : null, title.slice(0, 200), now, now).lastInsertRowid,
  );
}

/** Appends a question and its answer in one transaction: a crash never leaves a question without its answer. */
export function appendExchange(db: Database, conversationId: number, question: string, answer: AskAnswer, now: string): void {
  db.transaction(() => {
    if (!db.prepare('SELECT 1 FROM conversations WHERE id = ?').get(conversationId)) {
      throw new AppError(ErrorCode.CONVERSATION_NOT_FOUND, `Conversation ${conversationId} does not exist. Start a new one.`);
    }
    const next = (db.prepare('SELECT COALESCE(MAX(ordinal), 0) + 1 AS n FROM conversation_messages WHERE conversation_id = ?').get(conversationId) as { n: number }).n;
    const insert = db.prepare('INSERT INTO conversation_messages (conversation_id, ordinal, role, text, answer_json, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    insert.run(conversationId, next, 'user', question, null, now);
    insert.run(conversationId, next + 1, 'assistant', answer.text, JSON.stringify(answer), now);
    db.prepare('UPDATE conversations SET updated_at = ? WHERE id = ?').run(now, conversationId);
  })();
}

export function listConversations(db: Database, filter: { documentId?: number; scope?: 'library' | 'document' } = {}): ConversationSummary[] {
  const rows = db
    .prepare(
      `SELECT c.id, c.scope, c.scope_document_id, c.title, c.updated_at, (SELECT COUNT(*) FROM conversation_messages m WHERE m.conversation_id = c.id) AS n
         FROM conversations c
        WHERE (@scope IS NULL OR c.scope = @scope) AND (@documentId IS NULL OR c.scope_document_id = @documentId)
        ORDER BY c.updated_at DESC, c.id DESC`,
    )
    .all({ scope: filter.scope ?? null, documentId: filter.documentId ?? null }) as { id: number; scope: 'library' | 'document'; scope_document_id: number | null; title: string; updated_at: string; n: number }[];
  return rows.map((r) => ({ id: r.id, scope: r.scope, documentId: r.scope_document_id, title: r.title, messageCount: r.n, updatedAt: r.updated_at }));
}

export function loadConversation(db: Database, conversationId: number): StoredConversation {
  const summary = listConversations(db).find((c) => c.id === conversationId);
  if (!summary) throw new AppError(ErrorCode.CONVERSATION_NOT_FOUND, `Conversation ${conversationId} does not exist. List the conversations to pick another.`);
  const rows = db
    .prepare('SELECT id, role, text, answer_json, created_at FROM conversation_messages WHERE conversation_id = ? ORDER BY ordinal')
    .all(conversationId) as { id: number; role: 'user' | 'assistant'; text: string; answer_json: string | null; created_at: string }[];
  return {
    summary,
    messages: rows.map((r) => ({ id: r.id, role: r.role, text: r.text, answer: r.answer_json ? (JSON.parse(r.answer_json) as AskAnswer) : null, createdAt: r.created_at })),
  };
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
