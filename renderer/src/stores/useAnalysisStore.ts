import { create } from 'zustand';
import type { ChunkResultView, DocumentAnalysis } from '../../../shared/contract';
import { invoke } from '../api';
import { errorMessage, perDocumentLoader } from './perDocumentLoader';

interface AnalysisState {
  documentId: number | null;
  analysis: DocumentAnalysis | null;
  /** Chunk results by node index (for the tree's status column). */
  byNode: Map<number, ChunkResultView>;
  loading: boolean;
  error: string | null;
  load(documentId: number): Promise<void>;
}

/** What the pipeline stored for one document: judge decision, summary, chunk statuses, unreviewed mentions. */
export const useAnalysisStore = create<AnalysisState>()((set, get) => {
  const loader = perDocumentLoader<AnalysisState, number, DocumentAnalysis, string | null>(set, get, {
    fetch: (documentId) => invoke('documents.analysis', { documentId }),
    empty: () => ({ analysis: null, byNode: new Map() }),
    apply: (analysis) => ({ analysis, byNode: new Map(analysis.chunks.map((c) => [c.nodeIndex, c])) }),
    error: errorMessage,
  });
  return {
    documentId: null,
    analysis: null,
    byNode: new Map(),
    loading: false,
    error: null,
    async load(documentId) {
      await loader.load(documentId);
    },
  };
});
