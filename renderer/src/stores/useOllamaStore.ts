import { create } from 'zustand';
import type { OllamaStatus } from '../../../shared/contract';
import { invoke } from '../api';

/** Ollama as the status bar shows it: checked at start, every 30 s, and whenever a run stops on it. */
interface OllamaState {
  status: OllamaStatus | null;
  checkedAt: number | null;
  check(): Promise<OllamaStatus | null>;
}

export const useOllamaStore = create<OllamaState>()((set) => ({
  status: null,
  checkedAt: null,
  async check() {
    const result = await invoke('ollama.check', {});
    if (!result.ok) return null;
    set({ status: result.data, checkedAt: Date.now() });
    return result.data;
  },
}));
