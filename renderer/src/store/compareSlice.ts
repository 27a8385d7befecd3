/** The re-audit comparison (issue 30): the two documents chosen, the comparison, and the label filter. */
import type { CompareCandidate, CompareExportResult, CompareFormat, CompareLabel, Comparison } from '../../../shared/compare';
import { patcher, type SliceCreator } from './slice';

type Mode = 'auto' | 'rules-only';

export interface CompareSlice {
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

export const createCompareSlice: SliceCreator<'compare'> = (set, get) => {
  const patch = patcher(set, 'compare');
  const compare = () => get().compare;
  return {
    compare: {
      earlierId: null,
      laterId: null,
      mode: 'auto',
      comparison: null,
      busy: false,
      error: null,
      labels: [],
      exported: null,
      choose: (side, documentId) => patch(side === 'earlier' ? { earlierId: documentId, comparison: null } : { laterId: documentId, comparison: null }),
      setMode: (mode) => patch({ mode, comparison: null }),
      toggleLabel: (label) => patch((s) => ({ labels: s.labels.includes(label) ? s.labels.filter((l) => l !== label) : [...s.labels, label] })),
      async run() {
        const { earlierId, laterId, mode } = compare();
        if (earlierId === null || laterId === null) return patch({ error: 'Choose the earlier and the later document first.' });
        patch({ busy: true, error: null });
        const result = await get().host.call('compare.run', { earlierDocumentId: earlierId, laterDocumentId: laterId, mode });
        patch(result.ok ? { comparison: result.data, busy: false, exported: null } : { error: result.error.message, busy: false });
      },
      async exportAs(format) {
        const id = compare().comparison?.id;
        if (id === null || id === undefined) return;
        patch({ busy: true, error: null, exported: null });
        const result = await get().host.call('compare.export', { comparisonId: id, format });
        patch(result.ok ? { exported: result.data, busy: false } : { error: result.error.message, busy: false });
      },
      async decide(candidate, decision) {
        const { earlierId, laterId, mode } = compare();
        if (earlierId === null || laterId === null) return;
        patch({ busy: true, error: null });
        const result = await get().host.call('compare.decide', {
          earlierDocumentId: earlierId,
          laterDocumentId: laterId,
          earlierKey: candidate.earlierKey,
          laterKey: candidate.laterKey,
          decision,
          mode,
        });
        patch(result.ok ? { comparison: result.data, busy: false, exported: null } : { error: result.error.message, busy: false });
      },
    },
  };
};
