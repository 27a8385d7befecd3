import { create } from 'zustand';
import type { PopulationPreview, Reconciliation, ReconcileExportResult, ReconcileFormat, TieOutAction } from '../../../shared/reconcile';
import { fileToBase64, invoke } from '../api';

type Mode = 'auto' | 'rules-only';

/** The three lists of a tie-out, as the view's tabs name them. */
export type TieOutList = 'matched' | 'onlyInDocument' | 'onlyInPopulation';

interface ReconcileState {
  documentId: number | null;
  preview: PopulationPreview | null;
  /** The columns chosen (start from the proposal); keyColumn null: titles only. */
  keyColumn: string | null;
  titleColumn: string | null;
  mode: Mode;
  result: Reconciliation | null;
  list: TieOutList;
  busy: boolean;
  error: string | null;
  exported: ReconcileExportResult | null;
  chooseDocument(documentId: number): void;
  /** Reads a dropped or chosen population file (CSV or XLSX) for the document chosen. */
  importFile(file: File): Promise<void>;
  setColumns(columns: { keyColumn?: string | null; titleColumn?: string }): void;
  setMode(mode: Mode): void;
  showList(list: TieOutList): void;
  run(): Promise<void>;
  review(action: TieOutAction, target: { rowKey?: string; itemKey?: string; text?: string }): Promise<void>;
  exportAs(format: ReconcileFormat): Promise<void>;
}

/** Reconcile a document with a population (issue 41): the document, the population read, the columns chosen, the tie-out shown. */
export const useReconcileStore = create<ReconcileState>()((set, get) => ({
  documentId: null,
  preview: null,
  keyColumn: null,
  titleColumn: null,
  mode: 'auto',
  result: null,
  list: 'matched',
  busy: false,
  error: null,
  exported: null,
  chooseDocument: (documentId) => set({ documentId, preview: null, result: null, error: null, exported: null }),
  async importFile(file) {
    const { documentId } = get();
    if (documentId === null) return set({ error: 'Choose the document to reconcile first.' });
    set({ busy: true, error: null, result: null, exported: null });
    let bytes: string;
    try {
      bytes = await fileToBase64(file);
    } catch (error) {
      return set({ busy: false, error: `${file.name} could not be read (${(error as Error).message}).` });
    }
    const result = await invoke('reconcile.import', { documentId, file: { name: file.name, bytes } });
    if (!result.ok) return set({ busy: false, preview: null, error: `${result.error.code}: ${result.error.message}` });
    set({ preview: result.data, keyColumn: result.data.proposal.keyColumn, titleColumn: result.data.proposal.titleColumn, busy: false });
    await get().run();
  },
  setColumns: (columns) => set({ ...columns, result: null }),
  setMode: (mode) => set({ mode, result: null }),
  showList: (list) => set({ list }),
  async run() {
    const { documentId, preview, keyColumn, titleColumn, mode } = get();
    if (documentId === null || preview === null) return;
    set({ busy: true, error: null });
    const result = await invoke('reconcile.run', { documentId, populationId: preview.populationId, keyColumn, ...(titleColumn ? { titleColumn } : {}), mode });
    set(result.ok ? { result: result.data, busy: false, exported: null } : { error: `${result.error.code}: ${result.error.message}`, busy: false });
  },
  async review(action, target) {
    const id = get().result?.id;
    if (id === null || id === undefined) return;
    set({ busy: true, error: null });
    const result = await invoke('reconcile.review', { reconciliationId: id, action, ...target });
    set(result.ok ? { result: result.data, busy: false, exported: null } : { error: result.error.message, busy: false });
  },
  async exportAs(format) {
    const id = get().result?.id;
    if (id === null || id === undefined) return;
    set({ busy: true, error: null, exported: null });
    const result = await invoke('reconcile.export', { reconciliationId: id, format });
    set(result.ok ? { exported: result.data, busy: false } : { error: result.error.message, busy: false });
  },
}));
