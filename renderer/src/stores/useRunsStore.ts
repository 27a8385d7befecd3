import { create } from 'zustand';
import type { RunProgressPayload, RunView } from '../../../shared/contract';
import { invoke } from '../api';
import type { PaceSample } from '../runPace';

interface RunsState {
  runs: RunView[];
  /** Latest forwarded progress per run. */
  progress: Record<number, RunProgressPayload>;
  /** Per run: when the window first saw it progress this time it ran, and how far it was (for the whole-run ETA). */
  firstSeen: Record<number, PaceSample>;
  actionError: string | null;
  load(): Promise<void>;
  applyProgress(payload: RunProgressPayload): void;
  applyFinished(run: RunView): void;
  control(runId: number, action: 'cancel' | 'pause' | 'resume'): Promise<void>;
}

export const useRunsStore = create<RunsState>()((set, get) => ({
  runs: [],
  progress: {},
  firstSeen: {},
  actionError: null,
  async load() {
    const result = await invoke('runs.list', {});
    if (result.ok) set({ runs: result.data });
  },
  applyProgress(payload) {
    const { runs } = get();
    const known = runs.some((r) => r.id === payload.runId);
    const firstSeen = get().firstSeen[payload.runId] ? get().firstSeen : { ...get().firstSeen, [payload.runId]: { at: Date.now(), overall: payload.overall } };
    set({
      firstSeen,
      progress: { ...get().progress, [payload.runId]: payload },
      runs: runs.map((r) => (r.id === payload.runId ? { ...r, status: r.status === 'queued' ? 'running' : r.status, active: true, inputs: payload.inputs } : r)),
    });
    // A run started elsewhere (another window, the CLI through the same host): fetch it.
    if (!known) void get().load();
  },
  applyFinished(run) {
    const { [run.id]: _done, ...progress } = get().progress;
    const { [run.id]: _seen, ...firstSeen } = get().firstSeen;
    const exists = get().runs.some((r) => r.id === run.id);
    set({ progress, firstSeen, runs: exists ? get().runs.map((r) => (r.id === run.id ? run : r)) : [run, ...get().runs] });
  },
  async control(runId, action) {
    const result = await invoke(`runs.${action}`, { runId });
    set({ actionError: result.ok ? null : result.error.message });
    await get().load();
  },
}));
