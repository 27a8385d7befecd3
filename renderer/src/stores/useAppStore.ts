import { create } from 'zustand';
import type { AppInfo } from '../../../shared/contract';
import { invoke } from '../api';

export type View = 'library' | 'document' | 'findings' | 'review' | 'ask' | 'settings';

interface AppState {
  view: View;
  info: AppInfo | null;
  error: string | null;
  setView(view: View): void;
  loadInfo(): Promise<void>;
}

export const useAppStore = create<AppState>()((set) => ({
  view: 'library',
  info: null,
  error: null,
  setView: (view) => set({ view }),
  async loadInfo() {
    const result = await invoke('app.info', {});
    set(result.ok ? { info: result.data, error: null } : { error: result.error.message });
  },
}));
