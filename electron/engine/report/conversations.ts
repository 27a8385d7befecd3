/**
 * One stored conversation as its own Markdown or HTML document
 * (`npm run ask -- --export`, the Ask panel's export). The run report carries
 * the conversations about its documents through the same renderers
 * (markdown.ts, html.ts). Everything that came from a document or a model is
 * escaped (Markdown syntax, HTML markup).
 */
import type { Database } from 'better-sqlite3';
import { loadConversation } from '../retrieval';
import { conversationHtmlItems, html, SafeHtml } from './html';
import { conversationMarkdownLines } from './markdown';

export function conversationMarkdown(db: Database, conversationId: number): string {
  return `${conversationMarkdownLines(loadConversation(db, conversationId), 1).join('\n').trimEnd()}\n`;
}

export function conversationHtml(db: Database, conversationId: number): string {
  const conversation = loadConversation(db, conversationId);
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<title>Questions and answers: ${conversation.summary.title}</title>
<style>${new SafeHtml('body{font:15px/1.5 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}h2.q{font-size:1.05rem;margin-top:2rem}.marked{color:#8a3b00}.note{font-style:italic}.sources{font-size:.9rem;color:#333}')}</style>
</head>
<body>
<h1>Questions and answers: ${conversation.summary.title}</h1>
${conversationHtmlItems(conversation, 'h2')}
</body>
</html>
`.value;
}
