/**
 * Run control forwards a new phase at once (trial 2026-11-28 row 3): the merge of a long document held the engine
 * for minutes while the window still said "Extracting findings", because the merge's first event waited behind the
 * progress throttle's timer, and a timer cannot fire while a step holds the event loop. A real store, a stand-in
 * engine that reports extraction then the merge and then holds the loop, and the events as the window gets them.
 */
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { HostEvent, RunView } from '../../../shared/contract';
import type { ProgressEvent } from '../../../shared/types';
import { silentLogger, type Engine } from '../../../electron/engine';
import { getRun, openDatabase, type Database } from '../../../electron/engine/store';
import { createRunControl, type RunControl } from '../../../electron/host/runControl';
import type { ReadModels } from '../../../electron/host/readModels';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir();
let db: Database | null = null;
afterEach(() => {
  db?.close();
  db = null;
});

/** Holds the event loop, as a long synchronous step does. */
function holdTheLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    /* busy */
  }
}

it('sends the merge phase to the window before the merge holds the engine', async () => {
  db = openDatabase(join(tempDir(), 'audit.sqlite'));
  const seen: string[] = [];
  const live: { control?: RunControl } = {};
  const event = (phase: ProgressEvent['phase'], current: number): ProgressEvent => ({
    runId: 1,
    ordinal: 0,
    documentId: 1,
    phase,
    current,
    total: 10,
    message: phase,
  });
  const engine = {
    async resume(_runId: number, options: { onProgress(event: ProgressEvent): void }) {
      // Extraction events come thick and fast (the throttle passes one per 100 ms), then the merge starts and holds the loop.
      for (let i = 1; i <= 5; i++) options.onProgress(event('extract', i));
      options.onProgress(event('merge', 0));
      seen.push('merge starts');
      holdTheLoop(300);
      seen.push('merge ends');
    },
  } as unknown as Engine;
  const views = {
    progressPayload: (runId: number) => ({ runId, event: live.control?.live(runId)?.lastEvent }),
    runView: (run: { id: number }) => ({ id: run.id }) as unknown as RunView,
  } as unknown as ReadModels;
  const control = createRunControl({
    db,
    engine,
    now: () => new Date(),
    log: silentLogger,
    views: () => views,
    emit: (e: HostEvent) => {
      if (e.type === 'run.progress') seen.push(`progress ${(e.data.event as ProgressEvent).phase} ${(e.data.event as ProgressEvent).current}`);
    },
  });
  live.control = control;
  const runId = control.start([join(tempDir(), 'report.pdf')], 'full');
  await control.idle();
  control.dispose();
  expect(getRun(db, runId)).not.toBeNull();
  // The first extraction event goes at once; the merge's first event goes before the merge holds the loop.
  expect(seen.slice(0, seen.indexOf('merge starts'))).toEqual(['progress extract 1', 'progress merge 0']);
});

it('keeps each file’s own findings so far, so a pool’s interleaved events never make a count fall (trial 2026-11-28 row 8)', async () => {
  db = openDatabase(join(tempDir(), 'audit.sqlite'));
  const live: { control?: RunControl } = {};
  const counts: string[] = [];
  const event = (ordinal: number, findings?: number): ProgressEvent => ({
    runId: 1,
    ordinal,
    documentId: ordinal + 1,
    phase: 'extract',
    current: 1,
    total: 9,
    message: '',
    ...(findings === undefined ? {} : { findings }),
  });
  const engine = {
    async resume(runId: number, options: { onProgress(event: ProgressEvent): void }) {
      const seen = () => [...live.control!.live(runId)!.progress].map(([ordinal, p]) => `${ordinal}:${p.findings ?? '-'}`).join(' ');
      for (const e of [event(0, 55), event(1, 10), event(0), event(1, 12), event(0, 57)]) {
        options.onProgress(e);
        counts.push(seen());
      }
    },
  } as unknown as Engine;
  const views = { progressPayload: () => null, runView: (run: { id: number }) => ({ id: run.id }) as unknown as RunView } as unknown as ReadModels;
  const control = createRunControl({ db, engine, now: () => new Date(), log: silentLogger, views: () => views, emit: () => undefined });
  live.control = control;
  control.start([join(tempDir(), 'a.pdf'), join(tempDir(), 'b.pdf')], 'full');
  await control.idle();
  control.dispose();
  // An event without a count (a file reading its pages again) keeps the file's count; each file has its own.
  expect(counts).toEqual(['0:55', '0:55 1:10', '0:55 1:10', '0:55 1:12', '0:57 1:12']);
});
