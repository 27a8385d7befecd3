import { create } from 'zustand';
import type { CompletenessView } from '../../../shared/contract';
import { invoke } from '../api';

interface CompletenessState {
  documentId: number | null;
  view: CompletenessView | null;
  error: string | null;
  load(documentId: number): Promise<void>;
}

/** The open document's completeness verdict (issue 19), as its latest checked run stored it. */
export const useCompletenessStore = create<CompletenessState>()((set, get) => ({
  documentId: null,
  view: null,
  error: null,
  async load(documentId) {
    if (get().documentId !== documentId) set({ documentId, view: null, error: null });
    const result = await invoke('completeness.get', { documentId });
    if (get().documentId !== documentId) return;
    if (!result.ok) return set({ error: result.error.message });
    set({ view: result.data, error: null });
  },
}));
