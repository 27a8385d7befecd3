/** Reconcile a document with a population (issue 41): the document, the population read, the columns chosen, the tie-out shown. */
import type { PopulationPreview, Reconciliation, ReconcileExportResult, ReconcileFormat, TieOutAction } from '../../../shared/reconcile';
import { fileToBase64 } from '../api';
import { patcher, type SliceCreator } from './slice';

type Mode = 'auto' | 'rules-only';

/** The three lists of a tie-out, as the view's tabs name them. */
export type TieOutList = 'matched' | 'onlyInDocument' | 'onlyInPopulation';

export interface ReconcileSlice {
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

export const createReconcileSlice: SliceCreator<'reconcile'> = (set, get) => {
  const patch = patcher(set, 'reconcile');
  const reconcile = () => get().reconcile;
  return {
    reconcile: {
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
      chooseDocument: (documentId) => patch({ documentId, preview: null, result: null, error: null, exported: null }),
      async importFile(file) {
        const { documentId } = reconcile();
        if (documentId === null) return patch({ error: 'Choose the document to reconcile first.' });
        patch({ busy: true, error: null, result: null, exported: null });
        let bytes: string;
        try {
          bytes = await fileToBase64(file);
        } catch (error) {
          return patch({ busy: false, error: `${file.name} could not be read (${(error as Error).message}).` });
        }
        const result = await get().host.call('reconcile.import', { documentId, file: { name: file.name, bytes } });
        if (!result.ok) return patch({ busy: false, preview: null, error: `${result.error.code}: ${result.error.message}` });
        patch({ preview: result.data, keyColumn: result.data.proposal.keyColumn, titleColumn: result.data.proposal.titleColumn, busy: false });
        await reconcile().run();
      },
      setColumns: (columns) => patch({ ...columns, result: null }),
      setMode: (mode) => patch({ mode, result: null }),
      showList: (list) => patch({ list }),
      async run() {
        const { documentId, preview, keyColumn, titleColumn, mode } = reconcile();
        if (documentId === null || preview === null) return;
        patch({ busy: true, error: null });
        const result = await get().host.call('reconcile.run', {
          documentId,
          populationId: preview.populationId,
          keyColumn,
          ...(titleColumn ? { titleColumn } : {}),
          mode,
        });
        patch(result.ok ? { result: result.data, busy: false, exported: null } : { error: `${result.error.code}: ${result.error.message}`, busy: false });
      },
      async review(action, target) {
        const id = reconcile().result?.id;
        if (id === null || id === undefined) return;
        patch({ busy: true, error: null });
        const result = await get().host.call('reconcile.review', { reconciliationId: id, action, ...target });
        patch(result.ok ? { result: result.data, busy: false, exported: null } : { error: result.error.message, busy: false });
      },
      async exportAs(format) {
        const id = reconcile().result?.id;
        if (id === null || id === undefined) return;
        patch({ busy: true, error: null, exported: null });
        const result = await get().host.call('reconcile.export', { reconciliationId: id, format });
        patch(result.ok ? { exported: result.data, busy: false } : { error: result.error.message, busy: false });
      },
    },
  };
};
