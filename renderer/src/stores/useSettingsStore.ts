import { create } from 'zustand';
import type { AppSettings, OllamaStatus } from '../../../shared/contract';
import { invoke } from '../api';

interface SettingsState {
  settings: AppSettings | null;
  draft: AppSettings | null;
  status: OllamaStatus | null;
  checking: boolean;
  saving: boolean;
  message: string | null;
  error: string | null;
  load(): Promise<void>;
  /** Loads the settings unless there are unsaved edits (leaving the pane and coming back keeps them). */
  open(): Promise<void>;
  discard(): void;
  edit(patch: Partial<AppSettings>): void;
  check(host?: string): Promise<void>;
  save(): Promise<boolean>;
}

let checkSeq = 0;

const SAVED = 'Settings saved.';
const SAVED_SHOWN_MS = 5000;
let savedTimer: ReturnType<typeof setTimeout> | undefined;

/** The draft differs from what is saved. */
export function isDirty(state: Pick<SettingsState, 'settings' | 'draft'>): boolean {
  return state.draft !== null && state.settings !== null && JSON.stringify(state.draft) !== JSON.stringify(state.settings);
}

export const useSettingsStore = create<SettingsState>()((set, get) => ({
  settings: null,
  draft: null,
  status: null,
  checking: false,
  saving: false,
  message: null,
  error: null,
  async load() {
    const draftAsked = get().draft;
    const result = await invoke('settings.get', {});
    if (!result.ok) return set({ error: result.error.message });
    // An edit made while the answer was on its way is the user's latest word: keep it, do not
    // paint the saved settings over it (a host typed at once after opening the pane was lost).
    const editedMeanwhile = get().draft !== draftAsked;
    set({ settings: result.data, ...(editedMeanwhile ? {} : { draft: structuredClone(result.data) }), error: null });
  },
  async open() {
    // "Settings saved." belongs to the save that just happened, not to a later visit.
    set({ message: null });
    if (!isDirty(get())) await get().load();
  },
  discard() {
    const settings = get().settings;
    set({ draft: settings ? structuredClone(settings) : null, message: null });
  },
  edit(patch) {
    const draft = get().draft;
    if (draft) set({ draft: { ...draft, ...patch }, message: null });
  },
  async check(host) {
    const seq = ++checkSeq;
    set({ checking: true });
    const result = await invoke('ollama.check', host === undefined ? {} : { host });
    // Only the answer to the latest check counts (the user may still be typing).
    if (seq !== checkSeq) return;
    set(result.ok ? { status: result.data, checking: false } : { checking: false, error: result.error.message });
  },
  async save() {
    const draft = get().draft;
    if (!draft) return false;
    // The confirmation of an earlier save is not this one's: it said "Settings saved." while this save was on its way.
    set({ saving: true, message: null });
    const result = await invoke('settings.update', draft);
    if (result.ok) {
      set({ settings: result.data, draft: structuredClone(result.data), saving: false, message: SAVED, error: null });
      // The confirmation fades: a message still there minutes later says nothing about the settings shown.
      clearTimeout(savedTimer);
      savedTimer = setTimeout(() => {
        if (get().message === SAVED) set({ message: null });
      }, SAVED_SHOWN_MS);
    } else set({ saving: false, error: result.error.message, message: null });
    return result.ok;
  },
}));
