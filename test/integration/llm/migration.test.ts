import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../electron/engine/store/migrate';
import { migrations } from '../../../electron/engine/store/migrations';
import { insertLlmCall, listLlmCalls, llmCallStats } from '../../../electron/engine/llm/store';

describe('migration 0020-llm', () => {
  it('upgrades a 0010 database holding a run, and llm_calls keep their run reference', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, migrations, 10);
    db.prepare("INSERT INTO runs (id, mode, status, settings_json, created_at) VALUES (1, 'audit', 'running', '{}', 'now')").run();
    expect(migrate(db, migrations, 20)).toBe(20);
    const base = {
      callId: 'c1',
      runId: 1,
      documentId: null,
      chunkRef: 'leaf:3',
      purpose: 'extract' as const,
      model: 'm',
      options: { num_ctx: 4096 },
      promptHash: 'h',
      estimatedPromptTokens: 100,
      promptEvalCount: 110,
      evalCount: 20,
      totalMs: 5,
      loadMs: 0,
      promptEvalMs: 1,
      evalMs: 4,
      doneReason: 'stop',
      outcome: 'ok' as const,
      errorCode: null,
      errorMessage: null,
      attempt: 1,
      startedAt: 'a',
      finishedAt: 'b',
    };
    insertLlmCall(db, base);
    insertLlmCall(db, { ...base, callId: 'c2', outcome: 'cached' });
    expect(listLlmCalls(db, { runId: 1 })).toHaveLength(2);
    expect(llmCallStats(db, { runId: 1 })).toMatchObject({ calls: 2, byOutcome: { ok: 1, cached: 1 }, promptEvalCount: 220 });
    expect(() => insertLlmCall(db, { ...base, runId: 99 })).toThrow(/FOREIGN KEY/);
    expect(() => insertLlmCall(db, { ...base, outcome: 'weird' as never })).toThrow(/CHECK/);
    expect(() => db.prepare("INSERT INTO llm_token_calibration VALUES ('m', 'x', 1, 'now')").run()).toThrow();
    db.close();
  });
});
