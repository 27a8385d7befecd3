import { create } from 'zustand';
import type { RunProgressPayload, RunView } from '../../../shared/contract';
import { invoke } from '../api';

interface RunsState {
  runs: RunView[];
  /** Latest forwarded progress per run. */
  progress: Record<number, RunProgressPayload>;
  /** Per run: when the latest progress arrived (Date.now()), so the elapsed time ticks between events. */
  receivedAt: Record<number, number>;
  actionError: string | null;
  load(): Promise<void>;
  applyProgress(payload: RunProgressPayload): void;
  applyFinished(run: RunView): void;
  control(runId: number, action: 'cancel' | 'pause' | 'resume'): Promise<void>;
}

export const useRunsStore = create<RunsState>()((set, get) => ({
  runs: [],
  progress: {},
  receivedAt: {},
  actionError: null,
  async load() {
    const result = await invoke('runs.list', {});
    if (result.ok) set({ runs: result.data });
  },
  applyProgress(payload) {
    const { runs } = get();
    const known = runs.some((r) => r.id === payload.runId);
    set({
      receivedAt: { ...get().receivedAt, [payload.runId]: Date.now() },
      progress: { ...get().progress, [payload.runId]: payload },
      runs: runs.map((r) => (r.id === payload.runId ? { ...r, status: r.status === 'queued' ? 'running' : r.status, active: true, inputs: payload.inputs } : r)),
    });
    // A run started elsewhere (another window, the CLI through the same host): fetch it.
    if (!known) void get().load();
  },
  applyFinished(run) {
    const { [run.id]: _done, ...progress } = get().progress;
    const { [run.id]: _seen, ...receivedAt } = get().receivedAt;
    const exists = get().runs.some((r) => r.id === run.id);
    set({ progress, receivedAt, runs: exists ? get().runs.map((r) => (r.id === run.id ? run : r)) : [run, ...get().runs] });
  },
  async control(runId, action) {
    const result = await invoke(`runs.${action}`, { runId });
    set({ actionError: result.ok ? null : result.error.message });
    await get().load();
  },
}));
