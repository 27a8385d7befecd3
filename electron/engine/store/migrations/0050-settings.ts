import type { Migration } from '../migrate';

/**
 * App settings (Ollama host, models per stage, context policy, ID patterns,
 * reviewer name) as one STRICT key/value table: each key holds one JSON value,
 * so a new setting needs no migration and an old database keeps its values.
 */
export const migration0050Settings: Migration = {
  version: 50,
  name: '0050-settings',
  up(db) {
    db.exec(`
      CREATE TABLE app_settings (
        key TEXT PRIMARY KEY,
        value_json TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
