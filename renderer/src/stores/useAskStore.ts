/**
 * Ask the documents: the open conversation, the question being answered
 * (its steps arrive as `ask.event` events, written here by events.ts), the
 * list of stored conversations and the last export.
 */
import { create } from 'zustand';
import type { ErrorInfo } from '../../../shared/errors';
import { DEFAULT_RETRIEVAL_SETTINGS, type AskCitation, type AskEvent, type ConversationMessage, type ConversationSummary } from '../../../shared/retrieval';
import { invoke } from '../api';

export interface PendingAsk {
  askId: string | null;
  question: string;
  steps: { phase: string; message: string }[];
  /** The answer as it is being written, before its citations are checked. */
  partial: string;
}

interface AskState {
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
  setOptions(patch: Partial<Pick<AskState, 'judge' | 'threshold' | 'maxRounds'>>): void;
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
}

export const useAskStore = create<AskState>()((set, get) => ({
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
    if (documentIds.join(',') === get().documentIds.join(',')) return;
    set({ documentIds, conversationId: null, messages: [], error: null, exported: null, extraction: null });
    void get().loadConversations();
  },
  setOptions(patch) {
    set(patch);
  },
  async loadDefaults() {
    const result = await invoke('settings.get', {});
    if (result.ok) set({ judge: result.data.retrieval.judge, threshold: result.data.retrieval.threshold, maxRounds: result.data.retrieval.maxRounds });
  },
  async loadConversations() {
    const ids = get().documentIds;
    const result = await invoke('conversations.list', ids.length === 1 ? { documentId: ids[0]! } : {});
    if (result.ok) set({ conversations: ids.length === 1 ? result.data : result.data.filter((c) => c.scope === 'library') });
    else set({ error: result.error });
  },
  async openConversation(conversationId) {
    const result = await invoke('conversations.get', { conversationId });
    set(result.ok ? { conversationId, messages: result.data.messages, error: null, exported: null } : { error: result.error });
  },
  newConversation() {
    set({ conversationId: null, messages: [], error: null, exported: null });
  },
  async ask(question) {
    const { documentIds, conversationId, judge, threshold, maxRounds } = get();
    set({ pending: { askId: null, question, steps: [], partial: '' }, error: null });
    const result = await invoke('ask.start', {
      question,
      ...(documentIds.length > 0 ? { documentIds } : {}),
      ...(conversationId !== null ? { conversationId } : {}),
      judge,
      threshold,
      maxRounds,
    });
    if (!result.ok) {
      set({ pending: null, error: result.error });
      return;
    }
    // Events of this question may have arrived before the reply; keep what they wrote.
    const pending = get().pending;
    if (pending && pending.askId === null) set({ pending: { ...pending, askId: result.data.askId } });
  },
  async cancel() {
    const askId = get().pending?.askId;
    if (askId) await invoke('ask.cancel', { askId });
  },
  applyEvent(event) {
    const pending = get().pending;
    if (!pending || (pending.askId !== null && pending.askId !== event.askId)) return;
    if (event.type === 'step') {
      set({ pending: { ...pending, askId: event.askId, steps: [...pending.steps, { phase: event.phase, message: event.message }] } });
      return;
    }
    if (event.type === 'partial') {
      set({ pending: { ...pending, askId: event.askId, partial: event.text } });
      return;
    }
    if (event.type === 'failed') {
      set({ pending: null, error: event.error as ErrorInfo });
      return;
    }
    set({ pending: null, conversationId: event.conversationId });
    void get().openConversation(event.conversationId);
    void get().loadConversations();
  },
  async exportConversation(format) {
    const conversationId = get().conversationId;
    if (conversationId === null) return;
    const result = await invoke('conversations.export', { conversationId, format });
    set(result.ok ? { exported: { path: result.data.path, format } } : { error: result.error });
  },
  async extractAll() {
    const ids = get().documentIds;
    const result = await invoke('ask.extractAll', ids.length > 0 ? { documentIds: ids } : {});
    set(result.ok ? { extraction: result.data, error: null } : { error: result.error });
  },
}));

export type { AskCitation };
