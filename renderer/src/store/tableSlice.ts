/**
 * The table of all findings: the open document's merged findings (or every
 * document's, when the user asks for all), sorted and filtered. It follows
 * the open document like every other view: it has no document of its own.
 */
import type { FindingView } from '../../../shared/contract';
import { errorMessage, perDocumentLoader } from './perDocumentLoader';
import { patcher, type SliceCreator } from './slice';

export type FindingSortKey = 'id' | 'title' | 'severity' | 'type' | 'pages' | 'grounded' | 'sources' | 'state';

/** Review states in triage order: what still needs the auditor first. */
const STATE_ORDER: Record<string, number> = { new: 0, needs_follow_up: 1, confirmed: 2, rejected: 3 };

export interface TableFilter {
  search: string;
  severity: string;
  grounded: 'all' | 'grounded' | 'ungrounded';
  /** Review state shown ('' = all). */
  state: string;
}

export interface TableSlice extends TableFilter {
  /** The open document's findings, or every document's. */
  scope: 'open' | 'all';
  /** The document the rows are of (null = all documents). */
  documentId: number | null;
  findings: FindingView[];
  loaded: boolean;
  loading: boolean;
  error: string | null;
  sort: { key: FindingSortKey; ascending: boolean };
  selectedId: number | null;
  /** Loads the rows of the scope: the open document, or all of them. */
  load(): Promise<void>;
  setScope(scope: 'open' | 'all'): void;
  setSort(key: FindingSortKey): void;
  setFilter(patch: Partial<TableFilter>): void;
  select(id: number | null): void;
}

export const createTableSlice: SliceCreator<'table'> = (set, get) => {
  const patch = patcher(set, 'table');
  const loader = perDocumentLoader<TableSlice, number | null, FindingView[], string | null>(
    (p) => patch(p),
    () => get().table,
    {
      fetch: (documentId) => get().host.call('findings.list', documentId === null ? {} : { documentId }),
      empty: () => ({ selectedId: null, findings: [], loaded: false }),
      apply: (findings) => ({ findings, loaded: true }),
      failed: () => ({ loaded: true }),
      error: errorMessage,
    },
  );
  return {
    table: {
      scope: 'open',
      documentId: null,
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
      async load() {
        const table = get().table;
        const documentId = table.scope === 'all' ? null : get().doc.openId;
        if (table.scope === 'open' && documentId === null) return;
        await loader.load(documentId);
      },
      setScope(scope) {
        patch({ scope });
        void get().table.load();
      },
      setSort(key) {
        const { sort } = get().table;
        patch({ sort: { key, ascending: sort.key === key ? !sort.ascending : true } });
      },
      setFilter: (changes) => patch(changes),
      select: (selectedId) => patch({ selectedId }),
    },
  };
};

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

/** Filtered and sorted rows; stable (ties keep the table's order). */
export function visibleFindings(state: Pick<TableSlice, 'findings' | 'sort' | 'search' | 'severity' | 'grounded' | 'state'>): FindingView[] {
  const needle = state.search.trim().toLowerCase();
  const rows = state.findings.filter(
    (f) =>
      (state.severity === '' || f.severity === state.severity) &&
      (state.grounded === 'all' || f.grounded === (state.grounded === 'grounded')) &&
      (state.state === '' || (f.reviewState ?? 'new') === state.state) &&
      (needle === '' || `${f.findingKey ?? ''} ${f.title} ${f.type} ${f.description}`.toLowerCase().includes(needle)),
  );
  const sign = state.sort.ascending ? 1 : -1;
  return rows
    .map((f, i) => [f, i] as const)
    .sort((x, y) => sign * compare(x[0], y[0], state.sort.key) || x[1] - y[1])
    .map(([f]) => f);
}
