import { describe, expect, it } from 'vitest';
import { createThrottle } from '../../../electron/host/throttle';

/** A manual clock and timer queue, so the throttle is tested without waiting. */
function fakeTime() {
  let now = 0;
  const timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  return {
    now: () => now,
    setTimer: (fn: () => void, ms: number) => {
      const id = nextId++;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimer: (id: unknown) => {
      const i = timers.findIndex((t) => t.id === id);
      if (i >= 0) timers.splice(i, 1);
    },
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > end) break;
        timers.shift();
        now = next.at;
        next.fn();
      }
      now = end;
    },
  };
}

describe('progress throttle', () => {
  it('emits the first value at once, at most one per interval, and always the last one', () => {
    const time = fakeTime();
    const emitted: [string, number][] = [];
    const throttle = createThrottle<string, number>({ intervalMs: 100, emit: (k, v) => emitted.push([k, v]), ...time });
    // 1000 events over one second: about 10 emissions, the last value included.
    for (let i = 1; i <= 1000; i++) {
      throttle.push('run', i);
      time.advance(1);
    }
    time.advance(200);
    expect(emitted[0]).toEqual(['run', 1]);
    expect(emitted.at(-1)).toEqual(['run', 1000]);
    expect(emitted.length).toBeGreaterThanOrEqual(10);
    expect(emitted.length).toBeLessThanOrEqual(12);
  });

  it('throttles each key on its own', () => {
    const time = fakeTime();
    const emitted: [string, number][] = [];
    const throttle = createThrottle<string, number>({ intervalMs: 100, emit: (k, v) => emitted.push([k, v]), ...time });
    throttle.push('a', 1);
    throttle.push('b', 1);
    throttle.push('a', 2);
    throttle.push('b', 2);
    expect(emitted).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    time.advance(100);
    expect(emitted.slice(2).sort()).toEqual([
      ['a', 2],
      ['b', 2],
    ]);
  });

  it('flush delivers the pending value now (before a final event) and cancels its timer', () => {
    const time = fakeTime();
    const emitted: number[] = [];
    const throttle = createThrottle<string, number>({ intervalMs: 100, emit: (_k, v) => emitted.push(v), ...time });
    throttle.push('run', 1);
    throttle.push('run', 2);
    throttle.flush('run');
    expect(emitted).toEqual([1, 2]);
    time.advance(500);
    expect(emitted).toEqual([1, 2]);
    throttle.flush('run');
    expect(emitted).toEqual([1, 2]);
  });

  it('dispose emits what is pending', () => {
    const time = fakeTime();
    const emitted: number[] = [];
    const throttle = createThrottle<string, number>({ intervalMs: 100, emit: (_k, v) => emitted.push(v), ...time });
    throttle.push('run', 1);
    throttle.push('run', 2);
    throttle.dispose();
    expect(emitted).toEqual([1, 2]);
  });
});
