/**
 * Command names and IPC channel names, without zod: the sandboxed preload can
 * require nothing but `electron`, so it imports only this file (contract.ts
 * checks at compile time that this list and its command map agree).
 */
export const COMMAND_NAMES = [
  'app.info',
  'settings.get',
  'settings.update',
  'ollama.check',
  'endpoints.check',
  'endpoints.setKey',
  'endpoints.keyStorage',
  'documents.import',
  'documents.list',
  'runs.start',
  'runs.cancel',
  'runs.pause',
  'runs.resume',
  'runs.list',
  'runs.events',
  'tree.get',
  'chunk.text',
  'splitAttempts.list',
  'findings.list',
  'mentions.list',
  'documents.analysis',
  'reports.export',
  'review.get',
  'review.setState',
  'review.edit',
  'review.note',
  'review.acknowledge',
  'review.split',
  'review.merge',
  'review.addManual',
  'review.trail',
  'ask.start',
  'ask.cancel',
  'conversations.list',
  'conversations.get',
  'conversations.export',
  'runs.unlock',
  'pages.ocrWords',
  'completeness.get',
  // Workspace (issue 16)
  'documents.file',
  'documents.health',
  'documents.sample',
  'findings.arriving',
  'reports.reveal',
  // OCR (issue 18)
  'documents.ocrPages',
  'ocr.languages',
  // Review undo (issue 16)
  'review.removeNote',
  'review.undoSplit',
  'review.unmerge',
  // Ask the documents (issue 17)
  'ask.extractAll',
  // Re-audit comparison (issue 30)
  'compare.run',
  'compare.decide',
  'compare.export',
  'reconcile.import',
  'reconcile.run',
  'reconcile.review',
  'reconcile.export',
] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];

export const isCommandName = (name: unknown): name is CommandName => typeof name === 'string' && (COMMAND_NAMES as readonly string[]).includes(name);

/** The channel name a command travels on, in Electron IPC. */
export const ipcChannel = (command: CommandName): string => `cmd:${command}`;
/** The one channel host events travel on to the window. */
export const EVENT_CHANNEL = 'host:event';
