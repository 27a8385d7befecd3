import type { Database } from 'better-sqlite3';
import type { ReadDb } from './db';

/**
 * The app_settings key/value table. Values are JSON; the host owns their shape
 * and defaults (a key missing here means "use the default"), so the store
 * never needs to know what a setting means.
 */
export function loadSettingValues(db: ReadDb): Record<string, unknown> {
  const rows = db.prepare('SELECT key, value_json FROM app_settings ORDER BY key').all() as { key: string; value_json: string }[];
  return Object.fromEntries(rows.map((row) => [row.key, JSON.parse(row.value_json) as unknown]));
}

/** Writes several settings in one transaction; `undefined` deletes a key (back to its default). */
export function saveSettingValues(db: Database, values: Record<string, unknown>, now: string): void {
  const upsert = db.prepare(
    'INSERT INTO app_settings (key, value_json, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at',
  );
  const remove = db.prepare('DELETE FROM app_settings WHERE key = ?');
  db.transaction(() => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) remove.run(key);
      else upsert.run(key, JSON.stringify(value), now);
    }
  })();
}
