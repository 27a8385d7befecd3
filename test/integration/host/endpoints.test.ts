import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EndpointStatus, RunView } from '../../../shared/contract';
import { createEngineHost, type EngineHost } from '../../../electron/host/engineHost';
import { plantedReport, plantedResponder } from '../../fixtures/plantedFindings';
import { useTempDir } from '../../helpers/tempDir';
import { startOpenAiSim, type OpenAiSim } from '../../ollama-sim/openai';
import { plantedPdf } from '../../e2e/plantedPipeline';

const tempDir = useTempDir('audit-host-endpoints-');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

async function call<T = unknown>(host: EngineHost, command: string, input: unknown = {}): Promise<T> {
  const result = await host.invoke(command, input);
  if (!result.ok) throw new Error(`${command}: ${result.error.code} ${result.error.message}`);
  return result.data as T;
}

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
    expect(good).toMatchObject({ reachable: true, contextTokens: 12288, warning: null, error: null });
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
    await call(host, 'settings.update', { strategy: 'pages', useJudge: false, endpoints: [{ kind: 'openai', url: sim.baseUrl, concurrency: 2, keyRef: 'endpoint-b', label: 'vLLM box' }] });
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
});
