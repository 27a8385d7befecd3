import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../electron/engine/store/migrate';
import { migrations } from '../../../electron/engine/store/migrations';
import { runTreeSplitBench } from '../../bench/treesplitBench';

describe('migration 0030-treesplit', () => {
  it('adds judge_decisions and split_attempts on top of 0020 and keeps existing rows', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mig30-'));
    const db = new BetterSqlite3(join(dir, 'db.sqlite'));
    try {
      db.pragma('foreign_keys = ON');
      expect(migrate(db, migrations, 20)).toBe(20);
      db.prepare(
        `INSERT INTO documents (sha256, kind, file_name, file_path, byte_size, page_count, canonical_text, created_at, updated_at) VALUES ('x', 'txt', 'a', '/a', 1, 1, 'a', 'now', 'now')`,
      ).run();
      expect(migrate(db, migrations, 30)).toBe(30);
      expect((db.prepare('SELECT COUNT(*) AS n FROM documents').get() as { n: number }).n).toBe(1);
      db.prepare(
        `INSERT INTO split_attempts (document_id, node_key, node_path_json, attempt, chapters_json, outcome, created_at) VALUES (1, '0-1', '[]', 1, '[]', 'accepted', 'now')`,
      ).run();
      expect(() =>
        db
          .prepare(
            `INSERT INTO split_attempts (document_id, node_key, node_path_json, attempt, chapters_json, outcome, created_at) VALUES (1, '0-1', '[]', 1, '[]', 'maybe', 'now')`,
          )
          .run(),
      ).toThrow(/CHECK/);
      expect(() =>
        db
          .prepare(
            `INSERT INTO judge_decisions (document_sha256, settings_hash, document_id, strategy, params_json, justification, source, facts_json, created_at) VALUES ('x', 'h', 1, 'chaos', '{}', '', 'llm', '{}', 'now')`,
          )
          .run(),
      ).toThrow(/CHECK/);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('tree split cost (bench)', () => {
  it('evaluates at most 0.75 prompt tokens per source token on a 100-page document, and 0 structure tokens on a structured one', async () => {
    const figures = await runTreeSplitBench();
    expect(figures['prompt tokens / source token']).toBeLessThanOrEqual(0.75);
    expect(figures['truncated requests']).toBe(0);
    expect(figures['tree valid']).toBe('true');
    expect(figures['structured doc: structure (split+review) tokens']).toBe(0);
    expect(['outline', 'headings']).toContain(figures['structured doc: judge disabled strategy']);
  }, 60_000);
});
