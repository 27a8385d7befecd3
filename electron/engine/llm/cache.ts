import { sha256, stableStringify } from '../util';
import { statement } from '../store';
import type { Database } from 'better-sqlite3';

/**
 * Response cache: re-running or resuming a run does not pay for the same call
 * twice. The key covers everything that shapes the reply (model, options,
 * format, think, messages). Only validated successful replies go in.
 */
/** `messagesJson` is stableStringify(messages), which the caller already has. */
export function cacheKey(parts: { model: string; options: unknown; format: unknown; think?: unknown; messagesJson: string }): string {
  const head = stableStringify({ model: parts.model, options: parts.options, format: parts.format ?? null, think: parts.think ?? null });
  return sha256(`${head}\n${parts.messagesJson}`);
}

export function getCached(db: Database, key: string, now: number): string | undefined {
  const row = statement(db, 'SELECT content FROM llm_cache WHERE key = ?').get(key) as { content: string } | undefined;
  if (!row) return undefined;
  statement(db, 'UPDATE llm_cache SET hits = hits + 1, last_hit_at = ? WHERE key = ?').run(new Date(now).toISOString(), key);
  return row.content;
}

export function putCached(db: Database, entry: { key: string; model: string; purpose: string; content: string }, now: number): void {
  statement(
    db,
    `INSERT INTO llm_cache (key, model, purpose, content, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET content = excluded.content`,
  ).run(entry.key, entry.model, entry.purpose, entry.content, new Date(now).toISOString());
}

export function deleteCached(db: Database, key: string): void {
  statement(db, 'DELETE FROM llm_cache WHERE key = ?').run(key);
}
