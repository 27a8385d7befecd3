import { create } from 'zustand';
import type { MentionView } from '../../../shared/contract';
import { invoke } from '../api';
import { errorMessage, perDocumentLoader } from './perDocumentLoader';

interface MentionsState {
  documentId: number | null;
  mentions: MentionView[];
  loading: boolean;
  error: string | null;
  load(documentId: number): Promise<void>;
}

export const useMentionsStore = create<MentionsState>()((set, get) => {
  const loader = perDocumentLoader<MentionsState, number, MentionView[], string | null>(set, get, {
    fetch: (documentId) => invoke('mentions.list', { documentId }),
    empty: () => ({ mentions: [] }),
    apply: (mentions) => ({ mentions }),
    error: errorMessage,
  });
  return {
    documentId: null,
    mentions: [],
    loading: false,
    error: null,
    async load(documentId) {
      await loader.load(documentId);
    },
  };
});
