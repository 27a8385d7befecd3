/**
 * Loaded models ("runners"), as Ollama keeps them: loaded on first use, reloaded when a runner option changes,
 * evicted for memory, unloaded when keep_alive runs out. Each is keyed by its normalised model name.
 */
import { ollamaErrors } from './errors';
import { normName } from './models';
import type { ReqCtx, Runner, SimState } from './state';
import type { SimModel } from './types';

export function expireRunners(state: SimState): void {
  const t = state.now();
  for (const [k, r] of state.runners) {
    if (r.expiresAt <= t) {
      state.runners.delete(k);
      state.counters.unloads++;
    }
  }
}

export function runnerMemory(m: SimModel, numCtx: number): number {
  return m.sizeBytes + ((m.memoryPerKCtx ?? 0) * numCtx) / 1024;
}

/** Loads (or reloads) the model's runner; returns the load seconds spent, or an OOM error. */
export async function ensureRunner(
  state: SimState,
  m: SimModel,
  numCtx: number,
  key: string,
  ctx: ReqCtx,
): Promise<{ runner: Runner; loadSec: number } | { error: string }> {
  const { runners, counters, options } = state;
  expireRunners(state);
  const id = normName(m.name);
  const existing = runners.get(id);
  if (existing && existing.key === key) {
    existing.expiresAt = Infinity;
    return { runner: existing, loadSec: 0 };
  }
  const need = runnerMemory(m, numCtx);
  if (options.memoryBytes !== undefined) {
    if (need > options.memoryBytes) {
      return { error: ollamaErrors.oom(need, options.memoryBytes) };
    }
    // evict other runners until it fits, like the scheduler does
    let used = [...runners.values()].filter((r) => r !== existing).reduce((s, r) => s + r.memory, 0);
    for (const [k, r] of runners) {
      if (used + need <= options.memoryBytes) break;
      if (r === existing) continue;
      runners.delete(k);
      counters.unloads++;
      used -= r.memory;
    }
  }
  if (existing) {
    runners.delete(id);
    counters.reloads++;
  } else {
    counters.loads++;
  }
  const runner: Runner = { model: m, key, numCtx, cache: [], expiresAt: Infinity, sessionMs: state.defaultKeepAliveMs, memory: need };
  runners.set(id, runner);
  await state.spend(state.rates.loadSeconds, ctx);
  return { runner, loadSec: state.rates.loadSeconds };
}

/** After a request: the runner stays for its keep_alive (the request's, else its session's), or unloads at 0. */
export function finishRunner(state: SimState, runner: Runner, keepAliveMs: number | undefined): void {
  const id = normName(runner.model.name);
  if (state.runners.get(id) !== runner) return;
  const ms = keepAliveMs ?? runner.sessionMs;
  runner.sessionMs = ms;
  if (ms <= 0) {
    state.runners.delete(id);
    state.counters.unloads++;
  } else {
    runner.expiresAt = state.now() + ms;
  }
}

/** Unloads the model's runner, if one is loaded (keep_alive 0, or a fault that kills it). */
export function unloadRunner(state: SimState, m: SimModel): void {
  if (state.runners.delete(normName(m.name))) state.counters.unloads++;
}

export function resolveRunnerOptions(state: SimState, m: SimModel, opts: Record<string, unknown>): { numCtx: number; key: string } {
  const requested = typeof opts.num_ctx === 'number' ? opts.num_ctx : (m.modelfileNumCtx ?? state.defaultNumCtx);
  // the server clamps num_ctx to the model's trained context length
  const numCtx = Math.max(1, Math.min(requested, m.contextLength));
  const key = JSON.stringify([numCtx, opts.num_batch ?? 512, opts.num_gpu ?? -1, opts.num_thread ?? 0]);
  return { numCtx, key };
}

/** expires_at as /api/ps says it: a running runner expires its keep_alive from now. */
export function expiresIso(state: SimState, r: Runner): string {
  const t = r.expiresAt === Infinity ? state.now() + r.sessionMs : r.expiresAt;
  return new Date(Math.min(t, 8.64e15)).toISOString();
}
