/**
 * Ask the documents: the open conversation, the question being answered
 * (its steps arrive as `ask.event` events), the stored conversations and the
 * last export. A citation opens the document it names (`openCitation`).
 */
import type { ErrorInfo } from '../../../shared/errors';
import { DEFAULT_RETRIEVAL_SETTINGS, type AskCitation, type AskEvent, type ConversationMessage, type ConversationSummary } from '../../../shared/retrieval';
import { patcher, type SliceCreator } from './slice';

export interface PendingAsk {
  askId: string | null;
  question: string;
  steps: { phase: string; message: string }[];
  /** The answer as it is being written, before its citations are checked. */
  partial: string;
}

export interface AskSlice {
  /** Documents asked about; empty = the whole library. */
  documentIds: number[];
  conversationId: number | null;
  conversations: ConversationSummary[];
  messages: ConversationMessage[];
  pending: PendingAsk | null;
  error: ErrorInfo | null;
  /** This question's options: they start from the saved settings (Settings > Ask the documents). */
  judge: boolean;
  threshold: number;
  maxRounds: number;
  exported: { path: string; format: string } | null;
  /** The full run started from a "find all" answer (every chunk through the extraction profile). */
  extraction: { runId: number; files: number; profile: string } | null;
  setScope(documentIds: number[]): void;
  setOptions(patch: Partial<Pick<AskSlice, 'judge' | 'threshold' | 'maxRounds'>>): void;
  /** Takes the options from the saved retrieval settings. */
  loadDefaults(): Promise<void>;
  loadConversations(): Promise<void>;
  openConversation(conversationId: number): Promise<void>;
  newConversation(): void;
  ask(question: string): Promise<void>;
  cancel(): Promise<void>;
  applyEvent(event: AskEvent): void;
  exportConversation(format: 'md' | 'html'): Promise<void>;
  /** Starts the run a "find all" answer offers, on the documents in scope (all of the library when none). */
  extractAll(): Promise<void>;
  /**
   * Opens what a citation points at, in the document it names: a cited finding in Findings, selected beside its
   * source page; a cited passage in the Document view, its chunk shown with the quoted words marked.
   */
  openCitation(citation: AskCitation): Promise<void>;
}

export const createAskSlice: SliceCreator<'ask'> = (set, get) => {
  const patch = patcher(set, 'ask');
  const ask = () => get().ask;
  return {
    ask: {
      documentIds: [],
      conversationId: null,
      conversations: [],
      messages: [],
      pending: null,
      error: null,
      ...DEFAULT_RETRIEVAL_SETTINGS,
      exported: null,
      extraction: null,
      setScope(documentIds) {
        if (documentIds.join(',') === ask().documentIds.join(',')) return;
        patch({ documentIds, conversationId: null, messages: [], error: null, exported: null, extraction: null });
        void ask().loadConversations();
      },
      setOptions: (options) => patch(options),
      async loadDefaults() {
        const result = await get().host.call('settings.get', {});
        if (result.ok) patch({ judge: result.data.retrieval.judge, threshold: result.data.retrieval.threshold, maxRounds: result.data.retrieval.maxRounds });
      },
      async loadConversations() {
        const ids = ask().documentIds;
        const result = await get().host.call('conversations.list', ids.length === 1 ? { documentId: ids[0]! } : {});
        if (result.ok) patch({ conversations: ids.length === 1 ? result.data : result.data.filter((c) => c.scope === 'library') });
        else patch({ error: result.error });
      },
      async openConversation(conversationId) {
        const result = await get().host.call('conversations.get', { conversationId });
        patch(result.ok ? { conversationId, messages: result.data.messages, error: null, exported: null } : { error: result.error });
      },
      newConversation: () => patch({ conversationId: null, messages: [], error: null, exported: null }),
      async ask(question) {
        const { documentIds, conversationId, judge, threshold, maxRounds } = ask();
        patch({ pending: { askId: null, question, steps: [], partial: '' }, error: null });
        const result = await get().host.call('ask.start', {
          question,
          ...(documentIds.length > 0 ? { documentIds } : {}),
          ...(conversationId !== null ? { conversationId } : {}),
          judge,
          threshold,
          maxRounds,
        });
        if (!result.ok) return patch({ pending: null, error: result.error });
        // Events of this question may have arrived before the reply; keep what they wrote.
        const pending = ask().pending;
        if (pending && pending.askId === null) patch({ pending: { ...pending, askId: result.data.askId } });
      },
      async cancel() {
        const askId = ask().pending?.askId;
        if (askId) await get().host.call('ask.cancel', { askId });
      },
      applyEvent(event) {
        const pending = ask().pending;
        if (!pending || (pending.askId !== null && pending.askId !== event.askId)) return;
        if (event.type === 'step')
          return patch({ pending: { ...pending, askId: event.askId, steps: [...pending.steps, { phase: event.phase, message: event.message }] } });
        if (event.type === 'partial') return patch({ pending: { ...pending, askId: event.askId, partial: event.text } });
        if (event.type === 'failed') return patch({ pending: null, error: event.error as ErrorInfo });
        patch({ pending: null, conversationId: event.conversationId });
        void ask().openConversation(event.conversationId);
        void ask().loadConversations();
      },
      async exportConversation(format) {
        const conversationId = ask().conversationId;
        if (conversationId === null) return;
        const result = await get().host.call('conversations.export', { conversationId, format });
        patch(result.ok ? { exported: { path: result.data.path, format } } : { error: result.error });
      },
      async extractAll() {
        const ids = ask().documentIds;
        const result = await get().host.call('ask.extractAll', ids.length > 0 ? { documentIds: ids } : {});
        patch(result.ok ? { extraction: result.data, error: null } : { error: result.error });
      },
      async openCitation(c) {
        if (c.kind === 'finding' && c.mergedFindingId !== null) return get().doc.show(c.documentId, 'findings', { mergedFindingId: c.mergedFindingId });
        if (c.nodeIndex === null) return get().doc.show(c.documentId, 'document', { page: c.page });
        await get().doc.show(c.documentId, 'document', { nodeIndex: c.nodeIndex });
        const text = get().tree.text;
        if (get().doc.openId === c.documentId && text && text.documentId === c.documentId && text.nodeIndex === c.nodeIndex)
          get().tree.mark(c.start, c.end, `citation [${c.n}]`);
      },
    },
  };
};
