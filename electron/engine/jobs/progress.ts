import type { Database } from 'better-sqlite3';
import { statement } from '../store/statements';

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
      const row = statement(
        db,
        "SELECT SUM(eval_count) AS tokens, SUM(eval_ms) AS ms FROM llm_calls WHERE run_id = ? AND outcome = 'ok' AND eval_ms > 0",
      ).get(runId) as { tokens: number | null; ms: number | null };
      if (!row.tokens || !row.ms) return undefined;
      return Math.round((row.tokens / row.ms) * 1000 * 10) / 10;
    },
  };
}
