/**
 * The runner is the one owner of run and input state: a pause (typed
 * StopRequest) leaves the run AND its input paused with their committed work,
 * a plain abort cancels, and resume finishes from there. Unexpected errors go
 * to the log with their stack, and the user's message names that log.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../../shared/types';
import { createEngine, createFileLogger, StopRequest, type FileLogger } from '../../../electron/engine';
import { listChunkResults } from '../../../electron/engine/extract';
import { createLlmClient } from '../../../electron/engine/llm';
import { ingestFile } from '../../../electron/engine/pdf';
import { listRunInputs } from '../../../electron/engine/store';
import { plantedReport, plantedResponder } from '../../fixtures/plantedFindings';
import { useTempDir } from '../../helpers/tempDir';
import { MODEL, pipelineHarness, writePlantedReport, type PipelineHarness } from '../pipeline/helpers';

const report = plantedReport();
// One page per extraction call (unitTokens 1): the run stops between pages, with committed pages before it.
const settings = {
  strategy: 'pages' as const,
  judge: false,
  llm: { models: { default: MODEL }, cache: false, desiredChunkTokens: 1500, replyTokens: 1024, maxInFlight: 1, unitTokens: 1 },
};

const tempDir = useTempDir('audit-log-');
let h: PipelineHarness | undefined;
let log: FileLogger | undefined;
afterEach(async () => {
  await log?.close();
  await h?.close();
  h = undefined;
  log = undefined;
});

function engineWithLog(harness: PipelineHarness, logger: FileLogger, ingest: typeof ingestFile = ingestFile) {
  return createEngine({
    db: harness.db,
    appVersion: 'test',
    log: logger,
    ingestFile: ingest,
    createLlm: (s) =>
      createLlmClient({ host: harness.sim.url, db: harness.db, sleep: async () => {}, settings: { maxInFlight: s.llm.maxInFlight, cache: s.llm.cache } }),
  });
}

describe('run state has one owner: the runner', () => {
  it('pauses the run and its input together, keeps the committed chunks, and resumes to the end', async () => {
    h = await pipelineHarness({ responder: plantedResponder(report) });
    const file = writePlantedReport(h.dir, report);
    const abort = new AbortController();
    const events: ProgressEvent[] = [];
    const paused = await h.engine.analyze([file], settings, {
      signal: abort.signal,
      onProgress: (e) => {
        events.push(e);
        if (e.phase === 'extract' && e.current === 2 && /analysed/.test(e.message)) abort.abort(new StopRequest('pause'));
      },
    });
    expect(paused.run.status).toBe('paused');
    expect(paused.inputs.map((i) => [i.status, i.phase])).toEqual([['paused', 'extract']]);
    const documentId = paused.inputs[0]!.documentId!;
    expect(listChunkResults(h.db, paused.run.id, documentId).filter((r) => r.status === 'done')).toHaveLength(2);
    // Every event about the input names it by ordinal, and by document once it is stored.
    const aboutInput = events.filter((e) => e.phase !== 'done' && e.message !== 'checking Ollama and the models');
    expect(aboutInput.every((e) => e.ordinal === 0)).toBe(true);
    expect(aboutInput.filter((e) => e.phase === 'extract').every((e) => e.documentId === documentId)).toBe(true);

    const resumed = await h.engine.resume(paused.run.id);
    expect(resumed.run.status).toBe('done');
    expect(resumed.inputs.map((i) => i.status)).toEqual(['done']);
  });

  it('cancels when aborted for any other reason, the input with it', async () => {
    h = await pipelineHarness({ responder: plantedResponder(report) });
    const file = writePlantedReport(h.dir, report);
    const abort = new AbortController();
    const cancelled = await h.engine.analyze([file], settings, {
      signal: abort.signal,
      onProgress: (e) => {
        if (e.phase === 'extract' && e.current === 1 && /analysed/.test(e.message)) abort.abort();
      },
    });
    expect(cancelled.run.status).toBe('cancelled');
    expect(listRunInputs(h.db, cancelled.run.id).map((i) => i.status)).toEqual(['cancelled']);
  });
});

describe('the log', () => {
  it('records an unexpected error with its stack, run, input and stage, names the log in the message, and holds no document text', async () => {
    h = await pipelineHarness({ responder: plantedResponder(report) });
    const logPath = join(h.dir, 'logs', 'audit.log');
    log = createFileLogger(logPath);
    const good = writePlantedReport(h.dir, report);
    const bad = join(h.dir, 'bad.txt');
    writeFileSync(bad, 'whatever');
    const engine = engineWithLog(h, log, async (path, options) => {
      if (path === bad) throw new Error('parser exploded');
      return ingestFile(path, options);
    });
    const outcome = await engine.analyze([good, bad], { ...settings, mode: 'rules-only' });
    await log.close();

    expect(outcome.run.status).toBe('done');
    const failed = outcome.inputs[1]!;
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'INTERNAL' });
    expect(failed.error!.message).toContain(`Please report it with the log (${logPath})`);

    const entries = readFileSync(logPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const error = entries.find((e) => e.msg === 'input failed')!;
    expect(error).toMatchObject({ level: 50, runId: outcome.run.id, ordinal: 1, stage: 'ingest', code: 'INTERNAL' });
    expect((error.err as { stack: string }).stack).toMatch(/parser exploded\n\s+at /);
    expect(entries.some((e) => e.msg === 'run finished' && e.runId === outcome.run.id)).toBe(true);
    // Page text never reaches the log.
    const logText = readFileSync(logPath, 'utf8');
    for (const line of report.pageTexts.flatMap((page) => page.split('\n')).filter((l) => l.trim().length > 30)) expect(logText).not.toContain(line.trim());
  });

  it('rotates the file by size and keeps a bounded number of old ones', async () => {
    const dir = tempDir();
    const logPath = join(dir, 'rot', 'audit.log');
    log = createFileLogger(logPath, { size: '1K', maxFiles: 2 });
    for (let i = 0; i < 200; i++) {
      log.info({ runId: 1, stage: 'extract', i }, 'chunk analysed');
      // Rotation happens between writes: give the stream a turn now and then.
      if (i % 20 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    await log.close();
    const files = readdirSync(join(dir, 'rot'));
    expect(files).toContain('audit.log');
    const rotated = files.filter((f) => f !== 'audit.log' && f.endsWith('audit.log'));
    expect(rotated.length).toBeGreaterThan(0);
    expect(rotated.length).toBeLessThanOrEqual(2);
  });
});
