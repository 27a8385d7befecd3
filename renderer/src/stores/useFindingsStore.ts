import { create } from 'zustand';
import type { FindingView } from '../../../shared/contract';
import { invoke } from '../api';
import { errorMessage, perDocumentLoader } from './perDocumentLoader';

export type FindingSortKey = 'id' | 'title' | 'severity' | 'type' | 'pages' | 'grounded' | 'sources' | 'state';

/** Review states in triage order: what still needs the auditor first. */
const STATE_ORDER: Record<string, number> = { new: 0, needs_follow_up: 1, confirmed: 2, rejected: 3 };

interface FindingsState {
  findings: FindingView[];
  loaded: boolean;
  loading: boolean;
  error: string | null;
  sort: { key: FindingSortKey; ascending: boolean };
  search: string;
  severity: string;
  grounded: 'all' | 'grounded' | 'ungrounded';
  /** Review state shown ('' = all). */
  state: string;
  selectedId: number | null;
  /** The document shown; null = all documents. */
  documentId: number | null;
  load(): Promise<void>;
  setDocument(documentId: number | null): void;
  setSort(key: FindingSortKey): void;
  setFilter(patch: Partial<Pick<FindingsState, 'search' | 'severity' | 'grounded' | 'state'>>): void;
  select(id: number | null): void;
}

export const useFindingsStore = create<FindingsState>()((set, get) => {
  const loader = perDocumentLoader<FindingsState, number | null, FindingView[], string | null>(set, get, {
    fetch: (documentId) => invoke('findings.list', documentId === null ? {} : { documentId }),
    empty: () => ({ selectedId: null, findings: [], loaded: false }),
    apply: (findings) => ({ findings, loaded: true }),
    failed: () => ({ loaded: true }),
    error: errorMessage,
  });
  return {
  findings: [],
  loaded: false,
  loading: false,
  error: null,
  sort: { key: 'severity', ascending: true },
  search: '',
  severity: '',
  grounded: 'all',
  state: '',
  selectedId: null,
  documentId: null,
  async load() {
    await loader.load(get().documentId);
  },
  setDocument(documentId) {
    if (documentId === get().documentId) return;
    void loader.load(documentId);
  },
  setSort(key) {
    const { sort } = get();
    set({ sort: { key, ascending: sort.key === key ? !sort.ascending : true } });
  },
  setFilter: (patch) => set(patch),
  select: (selectedId) => set({ selectedId }),
  };
});

const compare = (a: FindingView, b: FindingView, key: FindingSortKey): number => {
  switch (key) {
    case 'id':
      return (a.findingKey ?? '\uffff').localeCompare(b.findingKey ?? '\uffff', undefined, { numeric: true });
    case 'title':
      return a.title.localeCompare(b.title);
    case 'severity':
      return a.severityRank - b.severityRank;
    case 'type':
      return a.type.localeCompare(b.type);
    case 'pages':
      return (a.pages[0] ?? Infinity) - (b.pages[0] ?? Infinity);
    case 'grounded':
      return Number(b.grounded) - Number(a.grounded);
    case 'sources':
      return a.sources.length - b.sources.length;
    case 'state':
      return (STATE_ORDER[a.reviewState ?? ''] ?? 9) - (STATE_ORDER[b.reviewState ?? ''] ?? 9);
  }
};

/** Filtered and sorted rows; stable (ties keep the store's order). */
export function visibleFindings(state: Pick<FindingsState, 'findings' | 'sort' | 'search' | 'severity' | 'grounded' | 'state'>): FindingView[] {
  const needle = state.search.trim().toLowerCase();
  const rows = state.findings.filter(
    (f) =>
      (state.severity === '' || f.severity === state.severity) &&
      (state.grounded === 'all' || f.grounded === (state.grounded === 'grounded')) &&
      (state.state === '' || (f.reviewState ?? 'new') === state.state) &&
      (needle === '' || `${f.findingKey ?? ''} ${f.title} ${f.type} ${f.description}`.toLowerCase().includes(needle)),
  );
  const sign = state.sort.ascending ? 1 : -1;
  return rows.map((f, i) => [f, i] as const).sort((x, y) => sign * compare(x[0], y[0], state.sort.key) || x[1] - y[1]).map(([f]) => f);
}
