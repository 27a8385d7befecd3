/**
 * Ask the documents: hybrid retrieval (FTS5 BM25 + sqlite-vec, fused by
 * reciprocal rank), the retrieval judge, the answer with grounded [n]
 * citations, and stored conversations. Hosts (CLI, app) use this surface only.
 */
import type { Database } from 'better-sqlite3';
import { AppError, ErrorCode } from '../../../shared/errors';
import type { AskAnswer } from '../../../shared/retrieval';
import type { LlmClient } from '../llm';
import { ask, checkAskScope, DEFAULT_ASK_SETTINGS, type AskInput, type AskSettings } from './ask';
import { appendExchange, createConversation, type ConversationScope } from './conversations';
import { documentExists } from '../store';
import { findDocumentByPathOrName, listDocumentFiles } from './store';

export { ask, checkAskScope, retrieveContext, DEFAULT_ASK_SETTINGS, type AskInput, type AskSettings } from './ask';
export { updateIndex, EMBED_NUM_CTX, type IndexOptions, type IndexStats } from './indexer';
export { search, queryTerms, type SearchHit, type SearchOptions } from './search';
export { isFindAllQuestion, NOT_FOUND_TEXT, EXHAUSTIVE_NOTE } from './answer';
export { ensureVectorExtension, findVectorSpace } from './vectors';
export { listConversations, loadConversation, conversationsAbout, createConversation, type ConversationScope } from './conversations';

/**
 * The chat model (stage 'qa': flag, settings, else the first installed
 * recommended model) and the embedding model (stage 'embed'); without an
 * installed embedding model, retrieval is lexical only instead of failing.
 */
export async function resolveAskModels(
  llm: LlmClient,
  flags: { model?: string; embedModel?: string },
  signal?: AbortSignal,
): Promise<{ model: string; embedModel: string | null; embedMissing: string | null }> {
  const chat = await llm.resolveModels({ stages: ['qa'], ...(flags.model ? { flags: { qa: flags.model } } : {}) }, signal);
  let embedModel: string | null = null;
  let embedMissing: string | null = null;
  try {
    const e = await llm.resolveModels({ stages: ['embed'], ...(flags.embedModel ? { flags: { embed: flags.embedModel } } : {}) }, signal);
    embedModel = e.models.embed ?? null;
  } catch (error) {
    if (!(error instanceof AppError && error.code === ErrorCode.NO_MODEL_INSTALLED)) throw error;
    embedMissing = error.message;
  }
  return { model: chat.models.qa!, embedModel, embedMissing };
}

/** Which documents a question is about: ids or file names (as stored), each must exist. */
export function resolveDocumentRefs(db: Database, refs: readonly string[]): number[] {
  return refs.map((ref) => {
    const trimmed = ref.trim();
    const byId = /^\d+$/.test(trimmed) && documentExists(db, Number(trimmed)) ? Number(trimmed) : undefined;
    const id = byId ?? findDocumentByPathOrName(db, trimmed, trimmed.split(/[\\/]/).pop() ?? trimmed);
    if (id === undefined)
      throw new AppError(
        ErrorCode.ASK_DOCUMENT_NOT_FOUND,
        `No stored document matches "${ref}". Analyse it first (npm run analyze -- <file>), or give its id or file name as stored.`,
        { ref },
      );
    return id;
  });
}

/**
 * Asks and stores the exchange: in the given conversation, or a new one for
 * the scope (one document -> that document's, else the library's).
 */
export async function askInConversation(
  deps: { db: Database; llm: LlmClient },
  input: AskInput & { conversationId?: number },
): Promise<{ answer: AskAnswer; conversationId: number }> {
  const answer = await ask(deps, input);
  const now = (input.now ?? (() => new Date().toISOString()))();
  const ids = input.documentIds ?? [];
  const scope: ConversationScope = ids.length === 1 ? { scope: 'document', documentId: ids[0]! } : { scope: 'library' };
  const conversationId = input.conversationId ?? createConversation(deps.db, scope, input.question.trim(), now);
  appendExchange(deps.db, conversationId, input.question.trim(), answer, now);
  return { answer, conversationId };
}

export function askSettings(partial: Partial<AskSettings> & Pick<AskSettings, 'model' | 'embedModel'>): AskSettings {
  return { ...DEFAULT_ASK_SETTINGS, ...partial };
}

/**
 * The files to analyse when retrieval is not enough ("find all ..."): every
 * chunk of these documents (all of the library when none is given) goes
 * through an extraction profile in a full run. Paths as stored; a file moved
 * since is reported by that run with FILE_NOT_FOUND.
 */
export function exhaustiveTargets(db: Database, documentIds: readonly number[] = []): { documentId: number; fileName: string; filePath: string }[] {
  if (documentIds.length > 0) checkAskScope(db, documentIds);
  const rows = listDocumentFiles(db);
  if (rows.length === 0) throw new AppError(ErrorCode.ASK_NO_DOCUMENTS, 'There are no documents to analyse yet. Add documents first.');
  const wanted = new Set(documentIds);
  return rows.filter((r) => wanted.size === 0 || wanted.has(r.documentId));
}

/** The exact command that runs an extraction profile over every chunk of these files, for a terminal. */
export function exhaustiveCommand(filePaths: readonly string[], dbPath?: string): string {
  const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);
  return ['npm run analyze --', ...filePaths.map(quote), ...(dbPath ? ['--db', quote(dbPath)] : [])].join(' ');
}
