import { create } from 'zustand';
import type { CompletenessView } from '../../../shared/contract';
import { invoke } from '../api';
import { errorMessage, perDocumentLoader } from './perDocumentLoader';

interface CompletenessState {
  documentId: number | null;
  view: CompletenessView | null;
  loading: boolean;
  error: string | null;
  load(documentId: number): Promise<void>;
}

/** The open document's completeness verdict (issue 19), as its latest checked run stored it. */
export const useCompletenessStore = create<CompletenessState>()((set, get) => {
  const loader = perDocumentLoader<CompletenessState, number, CompletenessView | null, string | null>(set, get, {
    fetch: (documentId) => invoke('completeness.get', { documentId }),
    empty: () => ({ view: null }),
    apply: (view) => ({ view }),
    error: errorMessage,
  });
  return {
    documentId: null,
    view: null,
    loading: false,
    error: null,
    async load(documentId) {
      await loader.load(documentId);
    },
  };
});
