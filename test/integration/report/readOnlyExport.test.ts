/**
 * Reads only read: exporting a report and opening a review view change no
 * row, so a second window or a CLI can read a store the app is writing (or a
 * copy opened read-only). The runner carried the review over when each
 * document finished; before that was its own write step, the first export
 * created the review rows and failed on a read-only store.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/engine';
import { getReviewView, getRunReview } from '../../../electron/engine/review';
import { openDatabase, type Database } from '../../../electron/engine/store';
import { runReportFixture, type ReportFixture } from './fixture';

let f: ReportFixture;
let readOnly: Database;

/** Every table's row count: a read that wrote anything would change one of them. */
function rowCounts(db: Database): Record<string, number> {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[];
  return Object.fromEntries(tables.map(({ name }) => [name, (db.prepare(`SELECT COUNT(*) AS n FROM "${name}"`).get() as { n: number }).n]));
}

/** The review rows themselves, so an update that keeps the counts shows too. */
function reviewRows(db: Database): string {
  return JSON.stringify([
    db.prepare('SELECT * FROM reviewed_findings ORDER BY id').all(),
    db.prepare('SELECT * FROM review_sources ORDER BY reviewed_id, finding_id').all(),
    db.prepare('SELECT * FROM review_documents ORDER BY document_id').all(),
  ]);
}

/** The database file's bytes with every committed page in it (the WAL checkpointed into the file and emptied). */
function fileImage(db: Database, path: string): Buffer {
  const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  expect(result!.busy).toBe(0);
  return readFileSync(path);
}

const totalChanges = (db: Database) => (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;

beforeAll(async () => {
  f = await runReportFixture();
  readOnly = openDatabase(f.h.dbPath, { readonly: true });
});

afterAll(async () => {
  readOnly?.close();
  await f?.h.close();
});

describe('reading a review or exporting a report writes nothing', () => {
  it('the runner carried the review over when the run finished, before anything read it', () => {
    const documents = f.h.engine.listRunInputs(f.runId).flatMap((i) => (i.documentId === null ? [] : [i.documentId]));
    expect(documents).toHaveLength(2);
    for (const documentId of documents) {
      const view = getReviewView(readOnly, documentId);
      expect(view.runId).toBe(f.runId);
      expect(view.findings.length).toBeGreaterThan(0);
    }
  });

  it('exports every text format from a store opened read-only, with the review, changing nothing', async () => {
    const before = rowCounts(f.h.db);
    const rowsBefore = reviewRows(f.h.db);
    const engine = createEngine({ db: readOnly, appVersion: 'test' });
    const json = JSON.parse((await engine.exportReport(f.runId, 'json')) as string) as {
      inputs: { document: { review?: { counts: { total: number } } } | null }[];
    };
    expect(json.inputs.some((i) => (i.document?.review?.counts.total ?? 0) > 0)).toBe(true);
    for (const format of ['md', 'html', 'csv'] as const) expect(((await engine.exportReport(f.runId, format)) as string).length).toBeGreaterThan(0);
    expect(getRunReview(readOnly, f.runId).byReviewId.size).toBeGreaterThan(0);
    expect(totalChanges(readOnly)).toBe(0);
    expect(rowCounts(f.h.db)).toEqual(before);
    expect(reviewRows(f.h.db)).toBe(rowsBefore);
  });

  it('on the writable handle too, an export and the review reads make no change', async () => {
    const changes = totalChanges(f.h.db);
    await f.h.engine.exportReport(f.runId, 'json');
    for (const input of f.h.engine.listRunInputs(f.runId)) if (input.documentId !== null) getReviewView(f.h.db, input.documentId);
    getRunReview(f.h.db, f.runId);
    expect(totalChanges(f.h.db)).toBe(changes);
  });

  it('leaves the database byte-identical: every text format, per document and confirmed-only, on the writable handle', async () => {
    const before = fileImage(f.h.db, f.h.dbPath);
    const imageBefore = f.h.db.serialize();
    const documents = f.h.engine.listRunInputs(f.runId).flatMap((i) => (i.documentId === null ? [] : [i.documentId]));
    for (const format of ['json', 'md', 'html', 'csv'] as const) {
      expect(((await f.h.engine.exportReport(f.runId, format)) as string).length).toBeGreaterThan(0);
      expect(((await f.h.engine.exportReport(f.runId, format, { confirmedOnly: true })) as string).length).toBeGreaterThan(0);
      for (const documentId of documents) expect(((await f.h.engine.exportReport(f.runId, format, { documentId })) as string).length).toBeGreaterThan(0);
    }
    const after = fileImage(f.h.db, f.h.dbPath);
    expect(after.length).toBe(before.length);
    expect(after.equals(before)).toBe(true);
    expect(f.h.db.serialize().equals(imageBefore)).toBe(true);
  });
});
