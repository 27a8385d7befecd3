import { create } from 'zustand';
import type { SplitAttemptView } from '../../../shared/contract';
import { invoke } from '../api';
import { errorMessage, perDocumentLoader } from './perDocumentLoader';

interface SplitState {
  documentId: number | null;
  attempts: SplitAttemptView[];
  loading: boolean;
  error: string | null;
  load(documentId: number): Promise<void>;
}

export const useSplitStore = create<SplitState>()((set, get) => {
  const loader = perDocumentLoader<SplitState, number, SplitAttemptView[], string | null>(set, get, {
    fetch: (documentId) => invoke('splitAttempts.list', { documentId }),
    empty: () => ({ attempts: [] }),
    apply: (attempts) => ({ attempts }),
    error: errorMessage,
  });
  return {
    documentId: null,
    attempts: [],
    loading: false,
    error: null,
    async load(documentId) {
      await loader.load(documentId);
    },
  };
});
