/**
 * Per-key throttle for progress: at most one emission per `intervalMs` for each
 * key (a run), the first at once, and the latest value always delivered
 * (trailing emission, or `flush` before a run's final event). Intermediate
 * values are dropped: progress is a state, not a log.
 */
export interface Throttle<K, V> {
  push(key: K, value: V): void;
  /** Emits the key's pending value now, if any (call before a final event so order holds). */
  flush(key: K): void;
  /** Drops timers; pending values are emitted first. */
  dispose(): void;
}

export interface ThrottleOptions<K, V> {
  intervalMs: number;
  emit: (key: K, value: V) => void;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export function createThrottle<K, V>(options: ThrottleOptions<K, V>): Throttle<K, V> {
  const now = options.now ?? Date.now;
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const state = new Map<K, { last: number; pending?: { value: V }; timer?: unknown }>();

  const fire = (key: K) => {
    const entry = state.get(key);
    if (!entry?.pending) return;
    const { value } = entry.pending;
    entry.pending = undefined;
    if (entry.timer !== undefined) clearTimer(entry.timer);
    entry.timer = undefined;
    entry.last = now();
    options.emit(key, value);
  };

  return {
    push(key, value) {
      let entry = state.get(key);
      if (!entry) {
        entry = { last: -Infinity };
        state.set(key, entry);
      }
      entry.pending = { value };
      const wait = entry.last + options.intervalMs - now();
      if (wait <= 0) {
        fire(key);
        return;
      }
      entry.timer ??= setTimer(() => {
        const current = state.get(key);
        if (current) current.timer = undefined;
        fire(key);
      }, wait);
    },
    flush: fire,
    dispose() {
      for (const key of [...state.keys()]) fire(key);
      state.clear();
    },
  };
}
