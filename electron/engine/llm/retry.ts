import { cancelledError } from '../util';
import type { RetrySettings, Sleep } from './types';

/**
 * Delay before retry number `retry` (1-based): base * 2^(retry-1), capped,
 * times a random factor in [1 - jitter, 1 + jitter]. With the defaults: about
 * 1, 2, 4, 8 s.
 */
export function backoffDelay(retry: number, settings: RetrySettings, random: () => number = Math.random): number {
  const raw = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** Math.max(0, retry - 1));
  const factor = 1 + settings.jitter * (2 * random() - 1);
  return Math.max(0, Math.round(raw * factor));
}

/** Longest wait a server's Retry-After may ask for: beyond it the call waits no longer than this and tries again. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Delay before retry number `retry` after `error`: the back-off, or longer when a busy server said how long to wait
 * (HTTP 429/503 with Retry-After, kept by the transport as `retryAfterMs`), up to MAX_RETRY_AFTER_MS.
 */
export function retryDelay(retry: number, settings: RetrySettings, random: () => number, error: unknown): number {
  const backoff = backoffDelay(retry, settings, random);
  const asked = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  return typeof asked === 'number' && Number.isFinite(asked) && asked > backoff ? Math.min(asked, MAX_RETRY_AFTER_MS) : backoff;
}

/** The whole schedule for a policy, for display and tests. */
export function backoffSchedule(settings: RetrySettings, random: () => number = () => 0.5): number[] {
  return Array.from({ length: Math.max(0, settings.maxAttempts - 1) }, (_, i) => backoffDelay(i + 1, settings, random));
}

/** Real sleep that ends early (rejecting with CANCELLED) when the signal fires. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(cancelledError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
