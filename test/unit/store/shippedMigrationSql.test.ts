import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Migration } from '../../../electron/engine/store/migrate';
import { migration0010Init } from '../../../electron/engine/store/migrations/0010-init';
import { migration0040Findings } from '../../../electron/engine/store/migrations/0040-findings';

/** Every SQL string the migration hands to `db.exec`, in order. */
function executedSql(migration: Migration): string[] {
  const executed: string[] = [];
  const recorder = { exec: (sql: string) => executed.push(sql) } as unknown as Database;
  migration.up(recorder);
  return executed;
}

// A shipped migration never changes (migrations/index.ts): databases already at its version never run it again, so a
// change would give new and old databases different schemas. These two were split into per-table constants for
// reading; the hashes are of the SQL they executed when they shipped, one db.exec call each.
describe('shipped migrations execute the SQL they shipped with', () => {
  it.each([
    ['0010-init', migration0010Init, '4330e112373c4e48e427dcfdb6ef34ea4d2492e562592b50d1404d625a11348c'],
    ['0040-findings', migration0040Findings, '6dc4694422f1af987ee6374af979a77213e5c8dbe8d4ac66ab97048bff308d1c'],
  ])('%s', (_name, migration, shippedHash) => {
    const executed = executedSql(migration);
    expect(executed).toHaveLength(1);
    expect(createHash('sha256').update(JSON.stringify(executed)).digest('hex')).toBe(shippedHash);
  });
});
