/**
 * The lists in shared/pipeline.ts are the one definition of statuses,
 * strategies and LLM purposes; the migrations' CHECK constraints repeat them
 * in SQL (a shipped migration is never edited). This keeps the two in step:
 * a value added to a list without a migration, or the other way round, fails here.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LLM_PURPOSES, RUN_STATUSES, TREE_STRATEGIES } from '../../../shared/pipeline';
import { openDatabase, type Database } from '../../../electron/engine/store';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir('audit-check-lists-');

/** The values of `column`'s `CHECK (column IN (...))` in the table as the migrated database defines it. */
function checkList(db: Database, table: string, column: string): string[] {
  const { sql } = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as { sql: string };
  const match = new RegExp(`\\n\\s*${column}\\s[^\\n]*CHECK \\(${column} IN \\(([^)]*)\\)\\)`).exec(sql);
  if (!match) throw new Error(`${table}.${column} has no CHECK list`);
  return [...match[1]!.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
}

describe('migration CHECK lists', () => {
  it.each([
    ['runs', 'status', RUN_STATUSES],
    ['run_inputs', 'status', RUN_STATUSES],
    ['llm_calls', 'purpose', LLM_PURPOSES],
    ['judge_decisions', 'strategy', TREE_STRATEGIES],
  ] as const)('%s.%s allows exactly the shared list', (table, column, list) => {
    const db = openDatabase(join(tempDir(), 'c.sqlite'));
    expect([...checkList(db, table, column)].sort()).toEqual([...list].sort());
    db.close();
  });
});
