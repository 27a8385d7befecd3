import type { Database } from 'better-sqlite3';
import { AppError, ErrorCode } from '../../../shared/errors';

export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}

/**
 * Applies every migration above the database's `user_version`, each in its own
 * transaction together with the version bump, so a crash leaves the database
 * at a known version. A database written by a newer app is refused rather
 * than risk silently misreading it.
 */
export function migrate(db: Database, migrations: readonly Migration[], target?: number): number {
  assertOrdered(migrations);
  const latest = migrations.at(-1)?.version ?? 0;
  const goal = target ?? latest;
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > latest) {
    throw new AppError(
      ErrorCode.DB_TOO_NEW,
      `This database was written by a newer version of the app (schema ${current}, this app knows up to ${latest}). Update the app, or choose another database file.`,
      { current, latest },
    );
  }
  for (const migration of migrations) {
    if (migration.version <= current || migration.version > goal) continue;
    db.transaction(() => {
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
  return db.pragma('user_version', { simple: true }) as number;
}

function assertOrdered(migrations: readonly Migration[]): void {
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i]!.version <= migrations[i - 1]!.version) {
      throw new Error(`Migrations out of order at ${migrations[i]!.name}`);
    }
  }
}
