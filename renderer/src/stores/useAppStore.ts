import { create } from 'zustand';
import type { AppInfo } from '../../../shared/contract';
import { invoke } from '../api';

/** The sidebar's places. `findings` is the triage queue (review and findings in one). */
export type View = 'library' | 'runs' | 'document' | 'findings' | 'ask' | 'compare' | 'reconcile' | 'settings';

const DETAIL_WIDTH_KEY = 'audit.detailWidth';

function storedWidth(): number {
  const saved = Number(globalThis.localStorage?.getItem(DETAIL_WIDTH_KEY));
  return Number.isFinite(saved) && saved >= 320 ? saved : 520;
}

interface AppState {
  view: View;
  info: AppInfo | null;
  error: string | null;
  /** Width of the resizable detail panel, in px (kept between sessions). */
  detailWidth: number;
  /** Where "Back" in the document view returns to, when the user came from a finding or a run. */
  backTo: View | null;
  /** The document the user chose last, in the Document view or in Findings: either view opens it when shown. */
  lastDocumentId: number | null;
  noteDocument(documentId: number): void;
  setView(view: View): void;
  /** Shows the document view, remembering the place to go back to. */
  openDocument(from: View): void;
  goBack(): void;
  setDetailWidth(width: number): void;
  loadInfo(): Promise<void>;
}

export const useAppStore = create<AppState>()((set) => ({
  view: 'library',
  info: null,
  error: null,
  detailWidth: storedWidth(),
  backTo: null,
  lastDocumentId: null,
  noteDocument: (documentId) => set({ lastDocumentId: documentId }),
  setView: (view) => set({ view, backTo: null }),
  openDocument: (from) => set({ view: 'document', backTo: from === 'document' ? null : from }),
  goBack: () => set((s) => ({ view: s.backTo ?? 'library', backTo: null })),
  setDetailWidth(width) {
    const detailWidth = Math.round(Math.max(320, Math.min(width, 1100)));
    globalThis.localStorage?.setItem(DETAIL_WIDTH_KEY, String(detailWidth));
    set({ detailWidth });
  },
  async loadInfo() {
    const result = await invoke('app.info', {});
    set(result.ok ? { info: result.data, error: null } : { error: result.error.message });
  },
}));
