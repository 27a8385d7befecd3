import { create } from 'zustand';
import type { MentionView } from '../../../shared/contract';
import { invoke } from '../api';

interface MentionsState {
  documentId: number | null;
  mentions: MentionView[];
  error: string | null;
  load(documentId: number): Promise<void>;
}

export const useMentionsStore = create<MentionsState>()((set, get) => ({
  documentId: null,
  mentions: [],
  error: null,
  async load(documentId) {
    set({ documentId, ...(get().documentId === documentId ? {} : { mentions: [] }) });
    const result = await invoke('mentions.list', { documentId });
    if (get().documentId !== documentId) return;
    set(result.ok ? { mentions: result.data, error: null } : { error: result.error.message });
  },
}));
