import { create } from 'zustand';
import type { ChunkResultView, DocumentAnalysis } from '../../../shared/contract';
import { invoke } from '../api';

interface AnalysisState {
  documentId: number | null;
  analysis: DocumentAnalysis | null;
  /** Chunk results by node index (for the tree's status column). */
  byNode: Map<number, ChunkResultView>;
  error: string | null;
  load(documentId: number): Promise<void>;
}

/** What the pipeline stored for one document: judge decision, summary, chunk statuses, unreviewed mentions. */
export const useAnalysisStore = create<AnalysisState>()((set, get) => ({
  documentId: null,
  analysis: null,
  byNode: new Map(),
  error: null,
  async load(documentId) {
    if (get().documentId !== documentId) set({ documentId, analysis: null, byNode: new Map(), error: null });
    const result = await invoke('documents.analysis', { documentId });
    if (get().documentId !== documentId) return;
    if (!result.ok) return set({ error: result.error.message });
    set({ analysis: result.data, byNode: new Map(result.data.chunks.map((c) => [c.nodeIndex, c])), error: null });
  },
}));
