import { create } from 'zustand';
import type { SplitAttemptView } from '../../../shared/contract';
import { invoke } from '../api';

interface SplitState {
  documentId: number | null;
  attempts: SplitAttemptView[];
  error: string | null;
  load(documentId: number): Promise<void>;
}

export const useSplitStore = create<SplitState>()((set, get) => ({
  documentId: null,
  attempts: [],
  error: null,
  async load(documentId) {
    set({ documentId, ...(get().documentId === documentId ? {} : { attempts: [] }) });
    const result = await invoke('splitAttempts.list', { documentId });
    if (get().documentId !== documentId) return;
    set(result.ok ? { attempts: result.data, error: null } : { error: result.error.message });
  },
}));
