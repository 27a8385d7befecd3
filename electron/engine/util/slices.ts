import { throwIfAborted } from './abort';

/**
 * Long CPU work that must not hold the event loop: the engine runs on the thread that answers the app's commands and
 * receives the model's replies for every document in flight, so a merge of thousands of findings done in one go
 * would leave the window without answers and a pool's endpoints without their next request for seconds.
 *
 * Such work is written once, as a generator that yields wherever it may pause (after each finding, each candidate
 * pair): `runToEnd` runs it at once (tests, callers that need the result now), `runInSlices` runs it in slices of
 * about SLICE_MS and lets the event loop run in between. Both give the same result: the work only pauses.
 */

/** Work that yields where it may pause, and returns T. */
export type Steps<T> = Generator<void, T, void>;

/** About how long a slice runs before the event loop gets its turn: well under what a user notices. */
export const SLICE_MS = 20;

/**
 * The event loop's turn between two steps that each compute for a while (setImmediate: after the I/O and timers that
 * wait), for a pipeline whose steps are short alone but would hold the thread for their sum if run back to back.
 */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/** Runs the steps to their end without pausing. */
export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * Runs the steps in slices of about `sliceMs`, the event loop running between them (setImmediate: after the I/O and
 * timers that wait). Stops at a pause with the engine's CANCELLED error once the signal fires.
 */
export async function runInSlices<T>(steps: Steps<T>, options: { sliceMs?: number; signal?: AbortSignal } = {}): Promise<T> {
  const sliceMs = options.sliceMs ?? SLICE_MS;
  let sliceStart = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - sliceStart < sliceMs) continue;
    await nextTurn();
    throwIfAborted(options.signal);
    sliceStart = performance.now();
  }
}
