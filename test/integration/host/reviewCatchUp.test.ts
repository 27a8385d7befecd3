/**
 * Showing a review only reads (issue 40 item 5): the runner carries a review over as each document finishes, and a
 * store whose runs finished before it did (no review rows for an analysed document) is caught up once, when a host
 * opens it, never by `review.get`.
 */
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewViewResult } from '../../../shared/contract';
import { createEngineHost, type EngineHost } from '../../../electron/host/engineHost';
import { openDatabase, type Database } from '../../../electron/engine/store';
import { call } from '../../helpers/host';
import { runReportFixture, type ReportFixture } from '../report/fixture';

let f: ReportFixture;
let host: EngineHost | undefined;
let observer: Database;

/** The review rows, and every table's row count: a read that wrote anything would change one of them. */
function snapshot(db: Database): string {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[];
  const counts = Object.fromEntries(tables.map(({ name }) => [name, (db.prepare(`SELECT COUNT(*) AS n FROM "${name}"`).get() as { n: number }).n]));
  return JSON.stringify([
    counts,
    db.prepare('SELECT * FROM reviewed_findings ORDER BY id').all(),
    db.prepare('SELECT * FROM review_documents ORDER BY document_id').all(),
  ]);
}

beforeAll(async () => {
  f = await runReportFixture();
  // A store from before the runner carried reviews over: analysed documents without review rows.
  f.h.db.prepare('DELETE FROM review_documents').run();
  f.h.db.prepare('DELETE FROM reviewed_findings').run();
  observer = openDatabase(f.h.dbPath, { readonly: true });
});

afterAll(async () => {
  await host?.close();
  observer?.close();
  await f?.h.close();
});

describe('a review is caught up when the host opens the store, and review.get only reads', () => {
  it('carries every analysed document over on open; review.get then changes no row', async () => {
    const documents = f.h.engine.listRunInputs(f.runId).flatMap((i) => (i.documentId === null ? [] : [i.documentId]));
    expect(documents).toHaveLength(2);
    expect((observer.prepare('SELECT COUNT(*) AS n FROM review_documents').get() as { n: number }).n).toBe(0);

    host = createEngineHost({ dataDir: dirname(f.h.dbPath), dbPath: f.h.dbPath, appVersion: 't', logFile: null });
    const afterOpen = snapshot(observer);
    expect((observer.prepare('SELECT COUNT(*) AS n FROM review_documents').get() as { n: number }).n).toBe(2);

    for (const documentId of documents) {
      const view = await call<ReviewViewResult>(host, 'review.get', { documentId });
      expect(view.runId).toBe(f.runId);
      expect(view.findings.length).toBeGreaterThan(0);
    }
    expect(snapshot(observer)).toBe(afterOpen);
  });
});
