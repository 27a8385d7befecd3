import { runTokensPerSecond } from '../llm';
import type { Database } from '../store';

/**
 * Rates for progress events: generation speed from the run's own LLM calls
 * (what the model really did, cached calls excluded) and an ETA from the
 * seconds the chunks of this execution actually took.
 */
export function createRateMeter(db: Database, runId: number, now: () => number = () => performance.now()) {
  const chunkSeconds: number[] = [];
  let chunkStartedAt = 0;
  return {
    chunkStarted(): void {
      chunkStartedAt = now();
    },
    chunkFinished(): void {
      chunkSeconds.push((now() - chunkStartedAt) / 1000);
    },
    etaSeconds(remainingChunks: number): number | undefined {
      if (chunkSeconds.length === 0) return undefined;
      // Recent chunks predict better than the first (model load, cold cache).
      const recent = chunkSeconds.slice(-20);
      const mean = recent.reduce((a, b) => a + b, 0) / recent.length;
      return Math.round(mean * remainingChunks);
    },
    tokensPerSecond(): number | undefined {
      return runTokensPerSecond(db, runId);
    },
  };
}
