/** Ollama as the status bar shows it: checked at start, every 30 s, and whenever a run stops on it. */
import type { OllamaStatus } from '../../../shared/contract';
import { patcher, type SliceCreator } from './slice';

export interface OllamaSlice {
  status: OllamaStatus | null;
  checkedAt: number | null;
  check(): Promise<OllamaStatus | null>;
}

export const createOllamaSlice: SliceCreator<'ollama'> = (set, get) => {
  const patch = patcher(set, 'ollama');
  return {
    ollama: {
      status: null,
      checkedAt: null,
      async check() {
        const result = await get().host.call('ollama.check', {});
        if (!result.ok) return null;
        patch({ status: result.data, checkedAt: Date.now() });
        return result.data;
      },
    },
  };
};
