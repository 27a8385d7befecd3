/** Runs: the list, the latest progress the host forwarded for each run executing, and the run controls. */
import type { RunProgressPayload, RunView } from '../../../shared/contract';
import { patcher, type SliceCreator } from './slice';

export interface RunsSlice {
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
  /** Retries a password-protected file of a run with its password (used once, never stored); the error sentence when refused. */
  unlock(runId: number, ordinal: number, password: string): Promise<string | null>;
}

export const createRunsSlice: SliceCreator<'runs'> = (set, get) => {
  const patch = patcher(set, 'runs');
  const runs = () => get().runs;
  return {
    runs: {
      runs: [],
      progress: {},
      receivedAt: {},
      actionError: null,
      async load() {
        const result = await get().host.call('runs.list', {});
        if (result.ok) patch({ runs: result.data });
      },
      applyProgress(payload) {
        const list = runs().runs;
        const known = list.some((r) => r.id === payload.runId);
        patch({
          receivedAt: { ...runs().receivedAt, [payload.runId]: Date.now() },
          progress: { ...runs().progress, [payload.runId]: payload },
          runs: list.map((r) =>
            r.id === payload.runId ? { ...r, status: r.status === 'queued' ? 'running' : r.status, active: true, inputs: payload.inputs } : r,
          ),
        });
        // A run started elsewhere (another window, the CLI through the same host): fetch it.
        if (!known) void runs().load();
      },
      applyFinished(run) {
        const { [run.id]: _done, ...progress } = runs().progress;
        const { [run.id]: _seen, ...receivedAt } = runs().receivedAt;
        const exists = runs().runs.some((r) => r.id === run.id);
        patch({ progress, receivedAt, runs: exists ? runs().runs.map((r) => (r.id === run.id ? run : r)) : [run, ...runs().runs] });
      },
      async control(runId, action) {
        const result = await get().host.call(`runs.${action}`, { runId });
        patch({ actionError: result.ok ? null : result.error.message });
        // A stopped run's files change state too ("Cancelled"), and the library lists them by it.
        await Promise.all([runs().load(), get().library.load()]);
      },
      async unlock(runId, ordinal, password) {
        const result = await get().host.call('runs.unlock', { runId, ordinal, password });
        if (!result.ok) return result.error.message;
        await runs().load();
        return null;
      },
    },
  };
};
