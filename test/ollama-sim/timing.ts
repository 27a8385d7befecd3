/**
 * Simulated time, shared by the Ollama surface (index.ts) and the OpenAI-compatible one (openai.ts): every
 * simulated second is counted; it is slept for real only with a time scale above 0 (1 = real time,
 * 0.01 = 100x faster). A request that goes away while it sleeps ends with Cancelled.
 */
import { setTimeout as sleepMs } from 'node:timers/promises';

/** Thrown when the client went away: the handler stops and counts a cancellation. */
export class Cancelled extends Error {}

/** Sleeps `ms` real milliseconds unless the request is (or becomes) aborted. */
export async function sleepUnlessCancelled(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) throw new Cancelled();
  if (ms <= 0) return;
  try {
    await sleepMs(ms, undefined, signal ? { signal } : undefined);
  } catch {
    throw new Cancelled();
  }
}

/** Spends simulated seconds: counted in `counters.simulatedSeconds`, slept for `seconds * timeScale` real seconds. */
export function simulatedTime(timeScale: number, counters: { simulatedSeconds: number }): (seconds: number, signal: AbortSignal | undefined) => Promise<void> {
  return async (seconds, signal) => {
    if (seconds <= 0) return;
    counters.simulatedSeconds += seconds;
    if (timeScale > 0) await sleepUnlessCancelled(seconds * 1000 * timeScale, signal);
  };
}

/**
 * Spends simulated seconds against a clock started now: each call sleeps until the total spent so far is due, so the
 * real time of many short spends (a reply paced frame by frame) is their sum, not their sum plus every timer's delay.
 */
export function pacedTime(timeScale: number, counters: { simulatedSeconds: number }): (seconds: number, signal: AbortSignal | undefined) => Promise<void> {
  const start = performance.now();
  let total = 0;
  return async (seconds, signal) => {
    if (seconds <= 0) return;
    counters.simulatedSeconds += seconds;
    total += seconds;
    if (timeScale <= 0) return;
    const wait = start + total * 1000 * timeScale - performance.now();
    if (wait >= 1) await sleepUnlessCancelled(wait, signal);
    else if (signal?.aborted) throw new Cancelled();
  };
}

/** Lets other requests and socket events run between two tokens. */
export const yieldLoop = () => new Promise<void>((r) => setImmediate(r));
