/**
 * The host runs the FULL pipeline by default, with the app settings mapped
 * onto the run's settings, and serves what the pipeline stored (merged
 * findings, split attempts, judge decision, summary, chunk results,
 * unreviewed mentions). An unreachable Ollama fails the run at once with
 * its sentence; after the host setting is fixed the run resumes to the end.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppSettings, DocumentAnalysis, FindingView, RunView, SplitAttemptView } from '../../../shared/contract';
import { DEFAULT_PROFILE } from '../../../shared/findings';
import { createEngineHost, type EngineHost } from '../../../electron/host/engineHost';
import { truncate } from '../../fixtures/pdfFactory';
import { useTempDir } from '../../helpers/tempDir';
import { startOllamaSim, type OllamaSim } from '../../ollama-sim';
import { plantedPdf, scriptedModel } from '../../e2e/plantedPipeline';
import { call } from '../../helpers/host';

const tempDir = useTempDir('audit-host-full-');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

let host: EngineHost | undefined;
let sim: OllamaSim | undefined;
afterEach(async () => {
  await host?.close();
  await sim?.close();
  host = undefined;
  sim = undefined;
});

describe('engine host: full pipeline from the app settings', () => {
  it('defaults to a full run with the judge and auto strategy, and maps the settings onto the run', async () => {
    host = createEngineHost({ dataDir: tempDir(), appVersion: 't' });
    const settings = await call<AppSettings>(host, 'settings.get');
    expect(settings).toMatchObject({ analysisMode: 'full', strategy: 'auto', useJudge: true, chunkTokens: 1500 });
    expect(await host.invoke('settings.update', { strategy: 'nope' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await host.invoke('settings.update', { chunkTokens: 10 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    // A profile that does not validate is refused, and the stored one is unchanged.
    expect(await host.invoke('settings.update', { profile: { ...DEFAULT_PROFILE, severityAliases: { major: 'Huge' } } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    expect((await call<AppSettings>(host, 'settings.get')).profile).toBeNull();
  });

  it('runs judge-free llm-tree analysis end to end, then serves findings, attempts, summary, chunk results and unreviewed mentions', async () => {
    const model = scriptedModel();
    sim = await startOllamaSim({ responder: model.responder });
    host = createEngineHost({ dataDir: tempDir(), appVersion: 't' });
    const profile = {
      ...DEFAULT_PROFILE,
      name: 'Platform audit',
      description: 'A finding is any weakness of the platform the report states, with its evidence.',
    };
    await call(host, 'settings.update', {
      ollamaHost: sim.url,
      strategy: 'llm-tree',
      chunkTokens: 400,
      contextPolicy: { mode: 'fixed', numCtx: 6144 },
      profile,
    });
    const good = await plantedPdf();
    const imported = await call<{ runId: number }>(host, 'documents.import', {
      files: [
        { name: 'planted.pdf', bytes: b64(good) },
        { name: 'broken.pdf', bytes: b64(truncate(good, 0.4)) },
      ],
    });
    await host.idle();
    const [run] = await call<RunView[]>(host, 'runs.list');
    expect(run).toMatchObject({ id: imported.runId, mode: 'full', status: 'done' });
    expect(run!.inputs.map((i) => [i.fileName, i.status, i.error?.code ?? null])).toEqual([
      ['planted.pdf', 'done', null],
      ['broken.pdf', 'failed', 'PDF_CORRUPT'],
    ]);
    const documentId = run!.inputs[0]!.documentId!;
    // The fixed context policy from Settings is the run's num_ctx for every call.
    expect(new Set(sim.requests.map((r) => r.numCtx))).toEqual(new Set([6144]));
    // The profile edited in Settings is what every extraction call is instructed with.
    const extraction = sim.requests.filter((r) => JSON.stringify(r.format ?? null).includes('"findings"'));
    expect(extraction.length).toBeGreaterThan(0);
    for (const request of extraction) expect(request.messages[0]!.content).toContain(profile.description);

    const attempts = await call<SplitAttemptView[]>(host, 'splitAttempts.list', { documentId });
    expect(attempts[0]).toMatchObject({ attempt: 1, outcome: 'validation_failed' });
    expect(attempts[0]!.validationErrors.join(' ')).toMatch(/starts at line 6, not after the previous chapter's line 12/);
    expect(attempts.some((a) => a.outcome === 'accepted')).toBe(true);

    const findings = await call<FindingView[]>(host, 'findings.list', { documentId });
    expect(findings.some((f) => f.grounded && f.findingKey === 'PBI-1201')).toBe(true);
    expect(findings.some((f) => !f.grounded && f.title === 'Hard-coded administrator password')).toBe(true);

    const analysis = await call<DocumentAnalysis>(host, 'documents.analysis', { documentId });
    expect(analysis.runId).toBe(imported.runId);
    expect(analysis.judge).toMatchObject({ strategy: 'llm-tree' });
    expect(analysis.summary?.text.length).toBeGreaterThan(0);
    expect(analysis.chunks.length).toBeGreaterThan(1);
    expect(analysis.counts).toMatchObject({ done: analysis.chunks.length, failed: 0, queued: 0 });
    expect(analysis.chunks.every((c) => c.pageStart !== null)).toBe(true);
    expect(analysis.unreviewedMentions.map((m) => m.id)).toEqual(expect.arrayContaining(['CR-310', 'CR-77']));
    expect(analysis.unreviewedMentions.map((m) => m.id)).not.toContain('PBI-1201');
    const tree = await call<{ treeId: number; strategy: string }>(host, 'tree.get', { documentId });
    expect(tree.treeId).toBe(analysis.treeId);
    expect(await host.invoke('documents.analysis', { documentId: 999 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('fails a full run at once when Ollama is unreachable, with its sentence, and resumes after the host is fixed', async () => {
    const model = scriptedModel();
    sim = await startOllamaSim({ responder: model.responder });
    host = createEngineHost({ dataDir: tempDir(), appVersion: 't' });
    await call(host, 'settings.update', { ollamaHost: 'http://127.0.0.1:9', strategy: 'pages', useJudge: false });
    const started = Date.now();
    const { runId } = await call<{ runId: number }>(host, 'documents.import', { files: [{ name: 'planted.pdf', bytes: b64(await plantedPdf()) }] });
    await host.idle();
    expect(Date.now() - started).toBeLessThan(8000);
    let [run] = await call<RunView[]>(host, 'runs.list');
    expect(run).toMatchObject({ id: runId, status: 'failed', error: { code: 'OLLAMA_UNREACHABLE' } });
    expect(run!.error!.message).toMatch(/ollama serve/);
    expect(run!.inputs[0]!.status).toBe('queued');

    await call(host, 'settings.update', { ollamaHost: sim.url });
    await call(host, 'runs.resume', { runId });
    await host.idle();
    [run] = await call<RunView[]>(host, 'runs.list');
    expect(run).toMatchObject({ id: runId, status: 'done', error: null });
    expect(run!.inputs[0]!.status).toBe('done');
    // The resumed run kept its own strategy: no split attempts with 'pages'.
    expect(await call<SplitAttemptView[]>(host, 'splitAttempts.list', { documentId: run!.inputs[0]!.documentId! })).toEqual([]);
  });
});
