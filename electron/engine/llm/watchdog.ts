import { AppError, ErrorCode } from '../../../shared/errors';
import type { WatchdogSettings } from './types';

/**
 * Our own limits instead of a fetch's fixed 300 s timeouts: three limits that match
 * how a local model behaves. Time to first frame grows with the prompt
 * (prefill), the gap between frames stays small once decoding runs, and an
 * overall deadline bounds the call. Firing aborts `signal` with an
 * LLM_TIMEOUT AppError (transient: the retry policy may try again).
 */
export interface Watchdog {
  readonly signal: AbortSignal;
  /** Call on every received frame. */
  frame(): void;
  stop(): void;
  readonly fired: AppError | undefined;
}

export function firstTokenLimitMs(settings: WatchdogSettings, promptTokens: number): number {
  return Math.round(settings.firstTokenBaseMs + (1000 * Math.max(0, promptTokens)) / Math.max(0.001, settings.minPrefillTokensPerSec));
}

export function startWatchdog(settings: WatchdogSettings, promptTokens: number): Watchdog {
  const controller = new AbortController();
  let fired: AppError | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let gotFrame = false;
  const fire = (what: string, ms: number) => {
    if (controller.signal.aborted) return;
    fired = new AppError(ErrorCode.LLM_TIMEOUT, `${what} exceeded ${ms} ms`, { watchdog: what, limitMs: ms });
    clear();
    controller.abort(fired);
  };
  const firstMs = firstTokenLimitMs(settings, promptTokens);
  const firstTimer = setTimeout(() => fire('time to first token', firstMs), firstMs);
  const deadlineTimer = setTimeout(() => fire('overall deadline', settings.deadlineMs), settings.deadlineMs);
  const clear = () => {
    clearTimeout(firstTimer);
    clearTimeout(deadlineTimer);
    if (idleTimer) clearTimeout(idleTimer);
  };
  return {
    signal: controller.signal,
    get fired() {
      return fired;
    },
    frame() {
      if (controller.signal.aborted) return;
      if (!gotFrame) {
        gotFrame = true;
        clearTimeout(firstTimer);
      }
      // One timer re-armed in place: a reply streams a frame per token, so this runs thousands of times per chunk.
      if (idleTimer) idleTimer.refresh();
      else idleTimer = setTimeout(() => fire('idle gap between frames', settings.idleMs), settings.idleMs);
    },
    stop: clear,
  };
}
