import { create } from 'zustand';
import type { CompareCandidate, CompareExportResult, CompareFormat, CompareLabel, Comparison } from '../../../shared/compare';
import { invoke } from '../api';

type Mode = 'auto' | 'rules-only';

interface CompareState {
  earlierId: number | null;
  laterId: number | null;
  mode: Mode;
  comparison: Comparison | null;
  busy: boolean;
  error: string | null;
  /** Labels shown; all when empty. */
  labels: CompareLabel[];
  /** The last export of the comparison shown (where the host wrote it). */
  exported: CompareExportResult | null;
  choose(side: 'earlier' | 'later', documentId: number): void;
  setMode(mode: Mode): void;
  toggleLabel(label: CompareLabel): void;
  run(): Promise<void>;
  /** The auditor's answer to a candidate pair (null takes it back). */
  decide(candidate: CompareCandidate, decision: 'confirmed' | 'rejected' | null): Promise<void>;
  /** Writes the comparison shown as a report in the exports folder. */
  exportAs(format: CompareFormat): Promise<void>;
}

/** The re-audit comparison (issue 30): the two documents chosen, the comparison, and the label filter. */
export const useCompareStore = create<CompareState>()((set, get) => ({
  earlierId: null,
  laterId: null,
  mode: 'auto',
  comparison: null,
  busy: false,
  error: null,
  labels: [],
  exported: null,
  choose: (side, documentId) => set(side === 'earlier' ? { earlierId: documentId, comparison: null } : { laterId: documentId, comparison: null }),
  setMode: (mode) => set({ mode, comparison: null }),
  toggleLabel: (label) => set((s) => ({ labels: s.labels.includes(label) ? s.labels.filter((l) => l !== label) : [...s.labels, label] })),
  async run() {
    const { earlierId, laterId, mode } = get();
    if (earlierId === null || laterId === null) return set({ error: 'Choose the earlier and the later document first.' });
    set({ busy: true, error: null });
    const result = await invoke('compare.run', { earlierDocumentId: earlierId, laterDocumentId: laterId, mode });
    set(result.ok ? { comparison: result.data, busy: false, exported: null } : { error: result.error.message, busy: false });
  },
  async exportAs(format) {
    const id = get().comparison?.id;
    if (id === null || id === undefined) return;
    set({ busy: true, error: null, exported: null });
    const result = await invoke('compare.export', { comparisonId: id, format });
    set(result.ok ? { exported: result.data, busy: false } : { error: result.error.message, busy: false });
  },
  async decide(candidate, decision) {
    const { earlierId, laterId, mode } = get();
    if (earlierId === null || laterId === null) return;
    set({ busy: true, error: null });
    const result = await invoke('compare.decide', { earlierDocumentId: earlierId, laterDocumentId: laterId, earlierKey: candidate.earlierKey, laterKey: candidate.laterKey, decision, mode });
    set(result.ok ? { comparison: result.data, busy: false, exported: null } : { error: result.error.message, busy: false });
  },
}));
