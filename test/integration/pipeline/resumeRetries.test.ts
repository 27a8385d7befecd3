/**
 * A resumed run tries again what failed (issue 38): after a server outage that failed every chunk, or a file that was
 * not there, resuming against a healthy server (or with the file back) finishes the run, and says what it retried.
 * Before, a resume only continued what was unfinished and reported the same failures again.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../../shared/types';
import { listChunkResults } from '../../../electron/engine/extract';
import { listRunEvents } from '../../../electron/engine/store';
import { plantedReport, plantedResponder } from '../../fixtures/plantedFindings';
import { findingFingerprint, mergedOf, MODEL, pipelineHarness, writePlantedReport, type PipelineHarness } from './helpers';

const report = plantedReport();
/** One page (leaf) per extraction call: six chunks. */
const settings = {
  strategy: 'pages' as const,
  judge: false,
  llm: { models: { default: MODEL }, cache: false, desiredChunkTokens: 1500, replyTokens: 1024, maxInFlight: 1, unitTokens: 1 },
};

let h: PipelineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('resume retries what failed', () => {
  it('after an outage that failed every chunk, retries them against the healthy server and says so', async () => {
    const good = plantedResponder(report);
    let down = true;
    // While down, every extraction reply is broken: each unit, then each page alone, fails.
    h = await pipelineHarness({
      responder: (req) => (down && JSON.stringify(req.format ?? null).includes('"findings"') ? '{"findings": [ {"title": ' : good(req)),
    });
    const file = writePlantedReport(h.dir, report);
    const failed = await h.engine.analyze([file], settings);
    expect(failed.inputs[0]).toMatchObject({ status: 'failed' });
    expect(listChunkResults(h.db, failed.run.id).map((r) => r.status)).toEqual(Array(6).fill('failed'));

    down = false;
    const events: ProgressEvent[] = [];
    const resumed = await h.engine.resume(failed.run.id, { onProgress: (e) => events.push(e) });
    expect(resumed.run.status).toBe('done');
    expect(resumed.inputs[0]).toMatchObject({ status: 'done', error: null });
    expect(listChunkResults(h.db, resumed.run.id).map((r) => r.status)).toEqual(Array(6).fill('done'));
    const said = 'Retrying what failed: 1 file (planted-report.txt: 6 chunks)';
    expect(events.map((e) => e.message)).toContain(said);
    expect(listRunEvents(h.db, resumed.run.id).map((e) => e.message)).toContain(said);
    // The outcome carries it too: the CLI's summary prints it, where the progress line has been redrawn.
    expect(resumed.retried).toBe(said);

    // The same findings as a run that never failed.
    const straight = await h.engine.analyze([file], settings);
    expect(findingFingerprint(mergedOf(h.db, resumed.run.id))).toEqual(findingFingerprint(mergedOf(h.db, straight.run.id)));
  });

  it('retries a file that failed once it is there, and leaves a finished run without failures as it is', async () => {
    h = await pipelineHarness({ responder: plantedResponder(report) });
    const file = join(h.dir, 'later.txt');
    rmSync(file, { force: true });
    const failed = await h.engine.analyze([file], { mode: 'rules-only' });
    expect(failed.inputs[0]).toMatchObject({ status: 'failed', error: { code: 'FILE_NOT_FOUND' } });

    writeFileSync(file, report.pageTexts.join('\f'));
    expect(existsSync(file)).toBe(true);
    const events: ProgressEvent[] = [];
    const resumed = await h.engine.resume(failed.run.id, { onProgress: (e) => events.push(e) });
    expect(resumed.inputs[0]).toMatchObject({ status: 'done', error: null });
    expect(events.map((e) => e.message)).toContain('Retrying what failed: 1 file (later.txt: FILE_NOT_FOUND)');

    // Nothing failed now: a resume has nothing to do and says nothing.
    const again: ProgressEvent[] = [];
    const idle = await h.engine.resume(failed.run.id, { onProgress: (e) => again.push(e) });
    expect(idle.run.status).toBe('done');
    expect(again).toEqual([]);
    expect(idle.retried).toBeUndefined();
  });
});
