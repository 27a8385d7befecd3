import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EndpointStatus, RunProgressPayload, RunView } from '../../../shared/contract';
import type { SimChatRequest } from '../../ollama-sim/index';
import { createEngineHost, type EngineHost } from '../../../electron/host/engineHost';
import { plantedReport, plantedResponder } from '../../fixtures/plantedFindings';
import { useTempDir } from '../../helpers/tempDir';
import { startOpenAiSim, type OpenAiSim } from '../../ollama-sim/openai';
import { plantedPdf } from '../../e2e/plantedPipeline';
import { call } from '../../helpers/host';

const tempDir = useTempDir('audit-host-endpoints-');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

let host: EngineHost | undefined;
const sims: OpenAiSim[] = [];
afterEach(async () => {
  await host?.close();
  host = undefined;
  while (sims.length) await sims.pop()!.close();
});

describe('engine host: Settings › Inference', () => {
  it('checks an endpoint live: its models and context, a refused key, an unreachable one, and the plain-http warning', async () => {
    const sim = await startOpenAiSim({ apiKey: 'sk-host', contextLength: 12288 });
    sims.push(sim);
    host = createEngineHost({ dataDir: tempDir(), appVersion: 't', logFile: null });
    const endpoint = { kind: 'openai' as const, url: sim.baseUrl, concurrency: 2, keyRef: 'endpoint-a' };

    const noKey = await call<EndpointStatus>(host, 'endpoints.check', { endpoint });
    expect(noKey).toMatchObject({ reachable: false, error: { code: 'ENDPOINT_INVALID' } });
    expect(noKey.error!.message).toMatch(/Settings › Inference/);

    await call(host, 'endpoints.setKey', { keyRef: 'endpoint-a', key: 'sk-wrong' });
    expect(await call<EndpointStatus>(host, 'endpoints.check', { endpoint })).toMatchObject({ reachable: false, error: { code: 'LLM_UNAUTHORIZED' } });

    expect(await call(host, 'endpoints.setKey', { keyRef: 'endpoint-a', key: 'sk-host' })).toEqual({ keyRef: 'endpoint-a', stored: true });
    const good = await call<EndpointStatus>(host, 'endpoints.check', { endpoint });
    expect(good).toMatchObject({ reachable: true, contextTokens: 12288, slots: null, warning: null, error: null });
    expect(good.models).toContain('qwen3:8b');

    const gone = await call<EndpointStatus>(host, 'endpoints.check', { endpoint: { kind: 'openai', url: 'http://127.0.0.1:9/v1', concurrency: 1 } });
    expect(gone).toMatchObject({ reachable: false, error: { code: 'ENDPOINT_UNREACHABLE' } });
    const remote = await call<EndpointStatus>(host, 'endpoints.check', { endpoint: { kind: 'ollama', url: 'http://audit-gpu.invalid:11434', concurrency: 1 } });
    expect(remote.warning).toMatch(/unencrypted over plain http to audit-gpu\.invalid:11434/);
  });

  it('runs an import on the endpoints of the settings with the stored key; the key is in no file of the data folder', async () => {
    const secret = 'sk-host-run-5e1d';
    const report = plantedReport();
    const sim = await startOpenAiSim({ apiKey: secret, contextLength: 16384, slots: 2, responder: plantedResponder(report) });
    sims.push(sim);
    const dataDir = tempDir();
    host = createEngineHost({ dataDir, appVersion: 't', unitTokens: 1 });
    await call(host, 'endpoints.setKey', { keyRef: 'endpoint-b', key: secret });
    await call(host, 'settings.update', {
      strategy: 'pages',
      useJudge: false,
      endpoints: [{ kind: 'openai', url: sim.baseUrl, concurrency: 2, keyRef: 'endpoint-b', label: 'vLLM box' }],
    });
    const { runId } = await call<{ runId: number }>(host, 'documents.import', { files: [{ name: 'planted.pdf', bytes: b64(await plantedPdf(report)) }] });
    await host.idle();
    const run = (await call<RunView[]>(host, 'runs.list')).find((r) => r.id === runId)!;
    expect(run.status).toBe('done');
    expect(sim.counters.completed).toBeGreaterThan(0);
    const events = await call<Array<{ message: string }>>(host, 'runs.events', { runId });
    expect(events.some((e) => /planted\.pdf\) on vLLM box/.test(e.message))).toBe(true);

    // A question goes where runs go: the same endpoint, with the same stored key (no Ollama runs here to answer it).
    const asked: Array<{ type: string; error?: { code: string } }> = [];
    const stop = host.onEvent((event) => {
      if (event.type === 'ask.event') asked.push(event.data as { type: string; error?: { code: string } });
    });
    const chatsBefore = sim.counters.chatRequests;
    await call(host, 'ask.start', { question: 'Which findings concern backups?' });
    await host.idle();
    stop();
    expect(sim.counters.chatRequests).toBeGreaterThan(chatsBefore);
    expect(asked.filter((e) => e.type === 'failed').map((e) => e.error?.code)).not.toContain('OLLAMA_UNREACHABLE');
    await host.close();
    host = undefined;
    const files = (function walk(dir: string): string[] {
      return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)]));
    })(dataDir);
    expect(files.some((f) => f.endsWith('.sqlite'))).toBe(true);
    for (const file of files) expect(readFileSync(file).toString('latin1'), file).not.toContain(secret);
  });

  it("a pool run: each running file's progress names its endpoint, and the library is told of changes per file, not per event", async () => {
    const report = plantedReport();
    const answer = plantedResponder(report);
    // Each endpoint holds its first call until the other has one too: two files are then in flight at once however
    // slowly this machine reads the second file (a loaded machine finished the first file before the second started).
    const called = [false, false];
    const slow = (box: number) => async (req: SimChatRequest) => {
      called[box] = true;
      for (let waited = 0; !called.every(Boolean) && waited < 30_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 40));
      return answer(req);
    };
    const pool = [await startOpenAiSim({ responder: slow(0), contextLength: 16384 }), await startOpenAiSim({ responder: slow(1), contextLength: 16384 })];
    sims.push(...pool);
    // Every progress event sent (no 100 ms throttle): how many there are then depends on the run, not on how fast this machine is.
    host = createEngineHost({ dataDir: tempDir(), appVersion: 't', unitTokens: 1, logFile: null, progressIntervalMs: 0 });
    await call(host, 'settings.update', {
      strategy: 'pages',
      useJudge: false,
      endpoints: pool.map((s, i) => ({ kind: 'openai', url: s.baseUrl, concurrency: 1, label: `box ${i + 1}` })),
    });
    const files = await Promise.all(
      [1, 2, 3].map(async (n) => ({
        name: `copy-${n}.pdf`,
        bytes: b64(await plantedPdf({ ...report, pageTexts: report.pageTexts.map((t) => `${t}\nCopy ${n} of the report.`) })),
      })),
    );
    const payloads: RunProgressPayload[] = [];
    let libraryChanges = 0;
    const stop = host.onEvent((event) => {
      if (event.type === 'run.progress') payloads.push(event.data as RunProgressPayload);
      if (event.type === 'documents.changed') libraryChanges++;
    });
    const { runId } = await call<{ runId: number }>(host, 'documents.import', { files });
    await host.idle();
    stop();
    expect((await call<RunView[]>(host, 'runs.list')).find((r) => r.id === runId)!.status).toBe('done');
    // Two files were seen in flight at once, each with its own endpoint; every running file always says where it is.
    const running = payloads.map((p) => p.inputs.filter((i) => i.status === 'running' && i.progress));
    expect(running.some((inputs) => inputs.length === 2 && new Set(inputs.map((i) => i.progress!.endpoint)).size === 2)).toBe(true);
    for (const inputs of running) for (const input of inputs) expect(input.progress!.endpoint).toMatch(/^box [12]$/);
    // Per file: its document stored, the next file started, the end of the run; never once per interleaved event.
    expect(payloads.length).toBeGreaterThan(10);
    expect(libraryChanges).toBeLessThanOrEqual(2 * files.length + 2);
  });
});
