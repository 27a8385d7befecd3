import { sha256, stableStringify } from '../util';

/**
 * Response cache: re-running or resuming a run does not pay for the same call
 * twice. The key covers everything that shapes the reply (model, options,
 * format, think, messages). Only validated successful replies go in; the
 * cache's table is read and written by store.ts (getCached, putCached).
 */
/** `messagesJson` is stableStringify(messages), which the caller already has. */
export function cacheKey(parts: { model: string; options: unknown; format: unknown; think?: unknown; messagesJson: string }): string {
  const head = stableStringify({ model: parts.model, options: parts.options, format: parts.format ?? null, think: parts.think ?? null });
  return sha256(`${head}\n${parts.messagesJson}`);
}
