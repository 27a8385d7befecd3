/**
 * A run's status changes only through the runner's rules (pipeline/runStatus.ts): what a stop does to a run no runner
 * executes, and what a password does to a finished run, on a real SQLite store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { markEnded, markRunning, reopenRun, stopIdleRun } from '../../../electron/engine/pipeline';
import { createRun, getRun, listRunInputs, openDatabase, updateRunInput, type Database } from '../../../electron/engine/store';

let dir: string | undefined;
let db: Database | undefined;
afterEach(() => {
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  db = undefined;
  dir = undefined;
});

function store(): Database {
  dir = mkdtempSync(join(tmpdir(), 'run-status-'));
  db = openDatabase(join(dir, 'audit.sqlite'));
  return db;
}

const NOW = '2026-11-26T08:00:00.000Z';

describe("run status, by the runner's rules", () => {
  it('a stop on a run left running by a crash, or queued, makes it paused or cancelled; a paused run can be cancelled; a done run stays done', () => {
    const d = store();
    const crashed = createRun(d, 'full', {}, ['a.pdf'], NOW);
    markRunning(d, crashed, NOW);
    expect(stopIdleRun(d, crashed, 'pause', NOW)).toBe('paused');
    expect(stopIdleRun(d, crashed, 'pause', NOW)).toBe('paused');
    expect(stopIdleRun(d, crashed, 'cancel', NOW)).toBe('cancelled');
    const queued = createRun(d, 'full', {}, ['b.pdf'], NOW);
    expect(stopIdleRun(d, queued, 'cancel', NOW)).toBe('cancelled');
    const done = createRun(d, 'full', {}, ['c.pdf'], NOW);
    markEnded(d, done, 'done', NOW);
    expect(stopIdleRun(d, done, 'cancel', NOW)).toBe('done');
    expect(stopIdleRun(d, 9999, 'pause', NOW)).toBeUndefined();
  });

  it('cancelling a paused run cancels the file it stopped in too; finished files keep their state', () => {
    const d = store();
    const run = createRun(d, 'full', {}, ['a.pdf', 'b.pdf'], NOW);
    markRunning(d, run, NOW);
    updateRunInput(d, run, 0, { status: 'done', phase: 'done' });
    updateRunInput(d, run, 1, { status: 'paused', phase: 'extract' });
    markEnded(d, run, 'paused', NOW);
    expect(stopIdleRun(d, run, 'cancel', NOW)).toBe('cancelled');
    expect(listRunInputs(d, run).map((i) => [i.status, i.phase])).toEqual([
      ['done', 'done'],
      ['cancelled', 'extract'],
    ]);
  });

  it('a password reopens a finished run as paused, and leaves a running one alone', () => {
    const d = store();
    const failed = createRun(d, 'full', {}, ['a.pdf'], NOW);
    markEnded(d, failed, 'failed', NOW, { code: 'PDF_ENCRYPTED', message: 'The PDF needs a password.' });
    expect(getRun(d, failed)!.status).toBe('failed');
    reopenRun(d, failed, NOW);
    expect(getRun(d, failed)!.status).toBe('paused');
    const running = createRun(d, 'full', {}, ['b.pdf'], NOW);
    markRunning(d, running, NOW);
    reopenRun(d, running, NOW);
    expect(getRun(d, running)!.status).toBe('running');
  });
});
