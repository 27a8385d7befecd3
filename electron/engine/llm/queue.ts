import { cancelledError } from '../util';

/**
 * FIFO gate for requests to Ollama. One in flight by default: Ollama serves
 * one request per model at a time and memory grows with parallelism, so
 * queueing in the server only adds time-outs. A waiting task whose signal
 * fires leaves the queue without ever sending anything.
 */
export interface RequestQueue {
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  readonly inFlight: number;
  readonly waiting: number;
  setMaxInFlight(n: number): void;
}

export function createQueue(maxInFlight = 1): RequestQueue {
  let limit = Math.max(1, Math.floor(maxInFlight));
  let active = 0;
  const waiters: Array<{ start: () => void }> = [];

  const pump = () => {
    while (active < limit && waiters.length > 0) {
      const next = waiters.shift()!;
      active++;
      next.start();
    }
  };

  return {
    get inFlight() {
      return active;
    },
    get waiting() {
      return waiters.length;
    },
    setMaxInFlight(n) {
      limit = Math.max(1, Math.floor(n));
      pump();
    },
    run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (signal?.aborted) return Promise.reject(cancelledError(signal));
      return new Promise<T>((resolve, reject) => {
        const waiter = {
          start: () => {
            signal?.removeEventListener('abort', onAbort);
            task()
              .then(resolve, reject)
              .finally(() => {
                active--;
                pump();
              });
          },
        };
        const onAbort = () => {
          const i = waiters.indexOf(waiter);
          if (i >= 0) {
            waiters.splice(i, 1);
            reject(cancelledError(signal));
          }
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiters.push(waiter);
        pump();
      });
    },
  };
}
