/**
 * Conversations: every question and answer is stored (tables conversations
 * and conversation_messages, migration 0140) per library or per document, so
 * they survive a restart and can be exported. Exports escape everything that
 * came from a document or a model (Markdown syntax, HTML markup).
 */
import type { Database } from 'better-sqlite3';
import { AppError, ErrorCode } from '../../../shared/errors';
import type { AskAnswer, ConversationMessage, ConversationSummary } from '../../../shared/retrieval';
import { escapeMarkdown, html, SafeHtml } from '../report';

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

export function loadConversation(db: Database, conversationId: number): { summary: ConversationSummary; messages: ConversationMessage[] } {
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

function citationLine(c: AskAnswer['citations'][number]): string {
  return `${c.documentName}, page ${c.page}, section ${c.section.join(' > ')}: "${c.quote}"`;
}

export function conversationMarkdown(db: Database, conversationId: number): string {
  const { summary, messages } = loadConversation(db, conversationId);
  const out = [`# Questions and answers: ${escapeMarkdown(summary.title)}`, ''];
  for (const m of messages) {
    if (m.role === 'user') {
      out.push(`## Q: ${escapeMarkdown(m.text)}`, '');
      continue;
    }
    out.push(escapeMarkdown(m.text), '');
    const a = m.answer;
    if (!a) continue;
    if (a.marked) out.push(`> Marked: ${a.dropped.length} citation(s) could not be verified in the source and were removed.`, '');
    if (a.exhaustiveNote) out.push(`> ${escapeMarkdown(a.exhaustiveNote)}`, '');
    for (const c of a.citations) out.push(`- [${c.n}] ${escapeMarkdown(citationLine(c))}`);
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

export function conversationHtml(db: Database, conversationId: number): string {
  const { summary, messages } = loadConversation(db, conversationId);
  const items = messages.map((m) => {
    if (m.role === 'user') return html`<h2 class="q">${m.text}</h2>`;
    const a = m.answer;
    return html`<div class="a"><p>${m.text}</p>${a?.marked ? html`<p class="marked">Marked: ${a.dropped.length} citation(s) could not be verified in the source and were removed.</p>` : null}${
      a?.exhaustiveNote ? html`<p class="note">${a.exhaustiveNote}</p>` : null
    }${a && a.citations.length > 0 ? html`<ol class="sources">${a.citations.map((c) => html`<li value="${c.n}">${citationLine(c)}</li>`)}</ol>` : null}</div>`;
  });
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<title>Questions and answers: ${summary.title}</title>
<style>${new SafeHtml('body{font:15px/1.5 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}h2.q{font-size:1.05rem;margin-top:2rem}.marked{color:#8a3b00}.note{font-style:italic}.sources{font-size:.9rem;color:#333}')}</style>
</head>
<body>
<h1>Questions and answers: ${summary.title}</h1>
${items}
</body>
</html>
`.value;
}

