/**
 * Ollama's scheduler as the simulator models it: one request runs at a time; up to `maxQueue` more wait in
 * order; beyond that a request is refused (503 busy). A waiting request whose client goes away leaves the queue.
 */
import type { SimCounters } from './types';

interface Job {
  start: () => void;
  cancelled: boolean;
}

export interface Scheduler {
  /** True when the request may run (at once, or when its turn comes); false when it left the queue; busy when the queue is full. */
  acquire(signal: AbortSignal): Promise<boolean> | { busy: true };
  release(): void;
}

export function createScheduler(maxQueue: number, counters: SimCounters): Scheduler {
  const queue: Job[] = [];
  let busy = false;
  let inFlight = 0;

  function acquire(signal: AbortSignal): Promise<boolean> | { busy: true } {
    if (!busy) {
      busy = true;
      inFlight++;
      counters.maxInFlight = Math.max(counters.maxInFlight, inFlight);
      return Promise.resolve(true);
    }
    if (queue.length >= maxQueue) return { busy: true };
    return new Promise<boolean>((resolve) => {
      const job: Job = {
        cancelled: false,
        start: () => {
          inFlight++;
          counters.maxInFlight = Math.max(counters.maxInFlight, inFlight);
          resolve(true);
        },
      };
      queue.push(job);
      signal.addEventListener('abort', () => {
        const i = queue.indexOf(job);
        if (i >= 0) {
          queue.splice(i, 1);
          job.cancelled = true;
          resolve(false);
        }
      });
    });
  }
  function release(): void {
    inFlight--;
    const next = queue.shift();
    if (next) next.start();
    else busy = false;
  }
  return { acquire, release };
}
