/**
 * Host commands of "ask the documents": a question runs in the background
 * with its own AbortController (one at a time per host, like runs: the local
 * model serves one request at a time anyway), its steps and answer stream to
 * the window as `ask.event` events, and the exchange is stored in a
 * conversation. Models and the Ollama address come from the settings: the
 * chat model is the extraction model's choice (else the first installed
 * recommended model), the embedding model is settings.models.embed (else the
 * first installed recommended embedding model, else text search only).
 */
import { join } from 'node:path';
import type { CommandOutputs, HostEvent, ParsedInput } from '../../shared/contract';
import { AppError, ErrorCode, toErrorInfo } from '../../shared/errors';
import { createLlmClient, resolveEndpoint, type KeySource } from '../engine/llm';
import { askInConversation, askSettings, checkAskScope, listConversations, loadConversation, resolveAskModels } from '../engine/retrieval';
import { conversationHtml, conversationMarkdown } from '../engine/report';
import type { Database } from '../engine/store';
import { writeExport } from './exportFile';
import { readSettings } from './settings';

type AskCommand = 'ask.start' | 'ask.cancel' | 'conversations.list' | 'conversations.get' | 'conversations.export';
export type AskHandlers = { [C in AskCommand]: (input: ParsedInput<C>) => Promise<CommandOutputs[C]> };

export interface AskHost {
  handlers: AskHandlers;
  /** Resolves when no question is being answered (tests, shutdown). */
  idle(): Promise<void>;
  /** Cancels the question in flight and waits for it. */
  close(): Promise<void>;
}

interface AskHostOptions {
  db: Database;
  dataDir: string;
  emit: (event: HostEvent) => void;
  env?: Record<string, string | undefined>;
  keys?: KeySource;
  now: () => Date;
}

export function createAskHost(options: AskHostOptions): AskHost {
  const { db } = options;
  const active = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let counter = 0;
  const emitPartial = throttledPartials(options.emit);

  const handlers: AskHandlers = {
    'ask.start': async (input) => {
      if (active.size > 0) throw new AppError(ErrorCode.INVALID_INPUT, 'A question is still being answered. Wait for it, or stop it first.');
      // Mistakes the user can fix are refused at once, not reported later as a failed question.
      checkAskScope(db, input.documentIds ?? []);
      if (input.conversationId !== undefined) loadConversation(db, input.conversationId);
      const askId = `ask-${options.now().getTime()}-${++counter}`;
      const controller = new AbortController();
      const done = answerQuestion(options, emitPartial, askId, input, controller.signal).finally(() => active.delete(askId));
      active.set(askId, { controller, done });
      return { askId };
    },
    'ask.cancel': async ({ askId }) => {
      const live = active.get(askId);
      live?.controller.abort(new AppError(ErrorCode.CANCELLED, 'Stopped by the user.'));
      return { askId, cancelled: live !== undefined };
    },
    'conversations.list': async ({ documentId }) => listConversations(db, documentId !== undefined ? { documentId } : {}),
    'conversations.get': async ({ conversationId }) => loadConversation(db, conversationId),
    'conversations.export': async ({ conversationId, format }) => {
      const content = format === 'html' ? conversationHtml(db, conversationId) : conversationMarkdown(db, conversationId);
      const fileName = `conversation-${conversationId}-${options.now().toISOString().replace(/[:.]/g, '-')}.${format}`;
      const { path, bytes } = writeExport(join(options.dataDir, 'exports'), fileName, content);
      return { conversationId, format, path, fileName, bytes };
    },
  };

  return {
    handlers,
    async idle() {
      while (active.size > 0) await Promise.all([...active.values()].map((a) => a.done));
    },
    async close() {
      for (const a of active.values()) a.controller.abort(new AppError(ErrorCode.CANCELLED, 'The app is closing.'));
      await this.idle();
    },
  };
}

/** Partial answers as they grow, a few characters per token: about 10 updates a second are enough for reading along. */
function throttledPartials(emit: (event: HostEvent) => void): (askId: string, text: string) => void {
  let lastPartialAt = 0;
  return (askId, text) => {
    const at = Date.now();
    if (at - lastPartialAt < 100) return;
    lastPartialAt = at;
    emit({ type: 'ask.event', data: { askId, type: 'partial', text } });
  };
}

/** One question answered (or failed): its steps, partial answer and outcome sent as ask events. */
async function answerQuestion(
  options: AskHostOptions,
  emitPartial: (askId: string, text: string) => void,
  askId: string,
  input: ParsedInput<'ask.start'>,
  signal: AbortSignal,
): Promise<void> {
  const { db, emit } = options;
  const settings = readSettings(db);
  // Questions go where runs go: the first endpoint of Settings › Inference, else the Ollama host.
  const endpoint = settings.endpoints[0];
  let llm: ReturnType<typeof createLlmClient>;
  try {
    llm = createLlmClient({
      db,
      ...(endpoint ? { endpoint: resolveEndpoint(endpoint, options.keys) } : settings.ollamaHost ? { host: settings.ollamaHost } : {}),
      ...(options.env ? { env: options.env } : {}),
    });
  } catch (error) {
    emit({ type: 'ask.event', data: { askId, type: 'failed', error: toErrorInfo(error) } });
    return;
  }
  try {
    const models = await resolveAskModels(
      llm,
      { ...(settings.models.extract ? { model: settings.models.extract } : {}), ...(settings.models.embed ? { embedModel: settings.models.embed } : {}) },
      signal,
    );
    if (models.embedMissing)
      emit({ type: 'ask.event', data: { askId, type: 'step', phase: 'retrieve', message: `${models.embedMissing} Searching the text index only.` } });
    const { answer, conversationId } = await askInConversation(
      { db, llm },
      {
        question: input.question,
        ...(input.documentIds ? { documentIds: input.documentIds } : {}),
        ...(input.conversationId ? { conversationId: input.conversationId } : {}),
        settings: askSettings({
          model: models.model,
          embedModel: models.embedModel,
          // The saved retrieval settings, unless this question says otherwise.
          ...settings.retrieval,
          ...(input.judge !== undefined ? { judge: input.judge } : {}),
          ...(input.maxRounds !== undefined ? { maxRounds: input.maxRounds } : {}),
          ...(input.threshold !== undefined ? { threshold: input.threshold } : {}),
        }),
        signal,
        onStep: (step) => emit({ type: 'ask.event', data: { askId, type: 'step', ...step } }),
        onPartial: (text) => emitPartial(askId, text),
        now: () => options.now().toISOString(),
      },
    );
    emit({ type: 'ask.event', data: { askId, type: 'answer', answer, conversationId } });
  } catch (error) {
    emit({ type: 'ask.event', data: { askId, type: 'failed', error: toErrorInfo(error) } });
  } finally {
    await llm.close();
  }
}
