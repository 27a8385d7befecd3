import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { HostEvent } from '../../../shared/contract';
import { AppError, ErrorCode } from '../../../shared/errors';
import { ingestFile } from '../../../electron/engine/pdf';
import { createEngineHost } from '../../../electron/host/engineHost';
import { startWsBridge } from '../../../electron/host/wsBridge';
import { makeTextPdf, notAPdfBytes, sampleReportSpec, truncate, writeFixture } from '../../fixtures/pdfFactory';
import { useTempDir } from '../../helpers/tempDir';
import { startOllamaSim } from '../../ollama-sim';
import { call } from '../../helpers/host';

const tempDir = useTempDir('audit-host-');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

function delayedIngest(ms: number): typeof ingestFile {
  return async (path, options) => {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      options?.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new AppError(ErrorCode.CANCELLED, 'Cancelled.'));
      });
    });
    return ingestFile(path, options);
  };
}

describe('engine host', () => {
  it('persists settings in SQLite, validates them, and refuses unknown commands and bad input', async () => {
    const dir = tempDir();
    let host = createEngineHost({ dataDir: dir, appVersion: 't' });
    const defaults = await call<{ ollamaHost: string; models: Record<string, string | null> }>(host, 'settings.get');
    expect(defaults.ollamaHost).toBe('');
    expect(defaults.models.extract).toBeNull();
    await call(host, 'settings.update', { ollamaHost: 'http://127.0.0.1:1234', reviewerName: 'R', idPatterns: [{ name: 'JIRA', source: '\\bJIRA-\\d+\\b' }] });
    expect(await host.invoke('settings.update', { idPatterns: [{ name: 'bad', source: '(' }] })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await host.invoke('settings.update', { nope: 1 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await host.invoke('no.such', {})).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await host.invoke('tree.get', { documentId: 'x' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    await host.close();
    host = createEngineHost({ dataDir: dir, appVersion: 't' });
    expect(await call(host, 'settings.get')).toMatchObject({ ollamaHost: 'http://127.0.0.1:1234', reviewerName: 'R', idPatterns: [{ name: 'JIRA' }] });
    expect(await call(host, 'app.info')).toEqual({ version: 't', dataDir: dir, dbPath: join(dir, 'audit.sqlite') });
    await host.close();
  });

  it('imports uploads, rejects non-PDFs, runs the rest with throttled progress, and serves tree, text and mentions', async () => {
    const dir = tempDir();
    const host = createEngineHost({ dataDir: dir, appVersion: 't' });
    const events: HostEvent[] = [];
    host.onEvent((e) => events.push(e));
    const good = await makeTextPdf(sampleReportSpec());
    const imported = await call<{ runId: number; accepted: { name: string }[]; rejected: { name: string; error: { code: string } }[] }>(
      host,
      'documents.import',
      {
        files: [
          { name: 'report.pdf', bytes: b64(good) },
          { name: 'cut.pdf', bytes: b64(truncate(good, 0.4)) },
          { name: 'zip.pdf', bytes: b64(notAPdfBytes()) },
          { name: 'empty.pdf', bytes: '' },
          { path: join(dir, 'missing.pdf') },
        ],
        // No Ollama here: the rules-only analysis (full runs are tested in fullRun.test.ts).
        mode: 'rules-only',
      },
    );
    expect(imported.accepted.map((a) => a.name)).toEqual(['report.pdf', 'cut.pdf']);
    expect(imported.rejected.map((r) => [r.name, r.error.code])).toEqual([
      ['zip.pdf', 'PDF_NOT_A_PDF'],
      ['empty.pdf', 'FILE_EMPTY'],
      ['missing.pdf', 'FILE_NOT_FOUND'],
    ]);
    await host.idle();

    const finished = events.filter((e) => e.type === 'run.finished');
    expect(finished).toHaveLength(1);
    const run = finished[0]!.data as { status: string; inputs: { fileName: string; status: string; error: { code: string; message: string } | null }[] };
    expect(run.status).toBe('done');
    expect(run.inputs.map((i) => [i.fileName, i.status, i.error?.code ?? null])).toEqual([
      ['report.pdf', 'done', null],
      ['cut.pdf', 'failed', 'PDF_CORRUPT'],
    ]);
    // The last progress event comes before run.finished and reports the final state.
    const lastFinished = events.findIndex((e) => e.type === 'run.finished');
    const progress = events.filter((e, i) => e.type === 'run.progress' && i < lastFinished);
    expect(progress.length).toBeGreaterThan(0);
    const last = progress.at(-1)!.data as { overall: number; inputs: { status: string }[] };
    expect(last.overall).toBe(1);
    expect(last.inputs.map((i) => i.status)).toEqual(['done', 'failed']);

    const [doc] = await call<{ id: number; pageCount: number; status: string; lastRun: { runId: number } | null; findingsCount: number | null }[]>(
      host,
      'documents.list',
    );
    expect(doc).toMatchObject({ pageCount: 4, status: 'done', lastRun: { runId: imported.runId }, findingsCount: null });
    const tree = await call<{ nodes: { index: number; title: string }[] }>(host, 'tree.get', { documentId: doc!.id });
    const node = tree.nodes.find((n) => n.title.includes('Missing input validation'))!;
    const text = await call<{ text: string; highlights: { start: number; end: number; kind: string; label: string }[] }>(host, 'chunk.text', {
      documentId: doc!.id,
      nodeIndex: node.index,
    });
    const mention = text.highlights.find((h) => h.label === 'TOB-ACME-001')!;
    expect(text.text.slice(mention.start, mention.end)).toBe('TOB-ACME-001');
    expect(await call(host, 'mentions.list', { documentId: doc!.id })).toEqual([expect.objectContaining({ id: 'TOB-ACME-001', pages: [2] })]);
    expect(await call(host, 'findings.list', {})).toEqual([]);
    expect(await call(host, 'splitAttempts.list', { documentId: doc!.id })).toEqual([]);
    expect(await host.invoke('chunk.text', { documentId: doc!.id, nodeIndex: 9999 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const events2 = await call<{ level: string }[]>(host, 'runs.events', { runId: imported.runId });
    expect(events2.some((e) => e.level === 'error')).toBe(true);
    await host.close();
  });

  it('pauses and cancels runs (resumable) and resumes them to the end', async () => {
    const dir = tempDir();
    const host = createEngineHost({ dataDir: dir, appVersion: 't', ingestFile: delayedIngest(400) });
    const a = writeFixture(join(dir, 'a.pdf'), await makeTextPdf(sampleReportSpec()));
    const b = writeFixture(join(dir, 'b.pdf'), await makeTextPdf({ ...sampleReportSpec(), title: 'B' }));
    const { runId } = await call<{ runId: number }>(host, 'runs.start', { files: [a, b], mode: 'rules-only' });
    expect(await call(host, 'runs.pause', { runId })).toEqual({ runId, status: 'paused' });
    const paused = (await call<{ id: number; status: string; active: boolean }[]>(host, 'runs.list'))[0]!;
    expect(paused).toMatchObject({ id: runId, status: 'paused', active: false });
    await call(host, 'runs.resume', { runId });
    await new Promise((r) => setTimeout(r, 100));
    expect(await call(host, 'runs.cancel', { runId })).toEqual({ runId, status: 'cancelled' });
    await call(host, 'runs.resume', { runId });
    await host.idle();
    const done = (await call<{ status: string; inputs: { status: string }[] }[]>(host, 'runs.list'))[0]!;
    expect(done.status).toBe('done');
    expect(done.inputs.map((i) => i.status)).toEqual(['done', 'done']);
    expect(await host.invoke('runs.resume', { runId: 999 })).toMatchObject({ ok: false, error: { code: 'RUN_NOT_FOUND' } });
    await host.close();
  });

  it('tells the windows when a paused run is cancelled: the run as recorded, and that the library changed', async () => {
    const dir = tempDir();
    const host = createEngineHost({ dataDir: dir, appVersion: 't', ingestFile: delayedIngest(400) });
    const file = writeFixture(join(dir, 'a.pdf'), await makeTextPdf(sampleReportSpec()));
    const { runId } = await call<{ runId: number }>(host, 'runs.start', { files: [file], mode: 'rules-only' });
    expect(await call(host, 'runs.pause', { runId })).toEqual({ runId, status: 'paused' });
    // No runner executes a paused run: the cancel below is recorded by the host itself, and must be said as a stop is.
    const events: HostEvent[] = [];
    host.onEvent((e) => events.push(e));
    expect(await call(host, 'runs.cancel', { runId })).toEqual({ runId, status: 'cancelled' });
    const finished = events.filter((e) => e.type === 'run.finished');
    expect(finished).toHaveLength(1);
    expect(finished[0]!.data).toMatchObject({ id: runId, status: 'cancelled', inputs: [{ status: 'cancelled' }] });
    expect(events.some((e) => e.type === 'documents.changed')).toBe(true);
    await host.close();
  });

  it('checks Ollama: versions and models from the simulator, guidance when unreachable or a model is missing', async () => {
    const sim = await startOllamaSim();
    const host = createEngineHost({ dataDir: tempDir(), appVersion: 't' });
    try {
      await call(host, 'settings.update', {
        ollamaHost: sim.url,
        models: { judge: null, split: null, extract: 'qwen3:8b', summary: 'missing:7b', embed: null },
      });
      const status = await call<{ reachable: boolean; version: string; models: { name: string }[]; missing: unknown[]; guidance: string[] }>(
        host,
        'ollama.check',
        {},
      );
      expect(status.reachable).toBe(true);
      expect(status.version).toMatch(/^\d+\.\d+/);
      expect(status.models.map((m) => m.name)).toContain('qwen3:8b');
      expect(status.missing).toEqual([{ stage: 'summary', model: 'missing:7b' }]);
      expect(status.guidance.join(' ')).toContain('ollama pull missing:7b');
      const down = await call<{ reachable: boolean; error: { code: string }; guidance: string[] }>(host, 'ollama.check', { host: 'http://127.0.0.1:9' });
      expect(down.reachable).toBe(false);
      expect(down.error.code).toBe('OLLAMA_UNREACHABLE');
      expect(down.guidance.join(' ')).toContain('ollama serve');
    } finally {
      await host.close();
      await sim.close();
    }
  });

  it('serves the same handlers over the WebSocket bridge, only to clients with the token', async () => {
    const host = createEngineHost({ dataDir: tempDir(), appVersion: 't' });
    const bridge = await startWsBridge(host);
    try {
      const refused = await new Promise<string>((resolve) => {
        const socket = new WebSocket(`${bridge.url}/?token=wrong`);
        socket.on('open', () => resolve('open'));
        socket.on('error', (error) => resolve(error.message));
      });
      expect(refused).toMatch(/401/);
      const missing = await new Promise<string>((resolve) => {
        const socket = new WebSocket(bridge.url);
        socket.on('open', () => resolve('open'));
        socket.on('error', (error) => resolve(error.message));
      });
      expect(missing).toMatch(/401/);

      const socket = new WebSocket(`${bridge.url}/?token=${bridge.token}`);
      await new Promise((resolve) => socket.on('open', resolve));
      const replies: unknown[] = [];
      socket.on('message', (raw) => replies.push(JSON.parse(raw.toString())));
      socket.send(JSON.stringify({ id: 1, command: 'app.info', input: {} }));
      socket.send(JSON.stringify({ id: 2, command: 'app.info', input: { extra: true } }));
      await new Promise((r) => setTimeout(r, 200));
      expect(replies).toEqual(
        expect.arrayContaining([
          { id: 1, result: { ok: true, data: expect.objectContaining({ version: 't' }) } },
          { id: 2, result: { ok: false, error: expect.objectContaining({ code: 'INVALID_INPUT' }) } },
        ]),
      );
      socket.close();
    } finally {
      await bridge.close();
      await host.close();
    }
  });
});
