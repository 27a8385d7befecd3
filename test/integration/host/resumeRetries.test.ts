/**
 * The app's Resume tries again what failed, as `--resume` does (issue 38): a document whose every chunk failed while
 * the server was broken is analysed again once it works, and the run's events say what was retried.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEventView, RunView } from '../../../shared/contract';
import { createEngineHost, type EngineHost } from '../../../electron/host/engineHost';
import { plantedPdf, scriptedModel } from '../../e2e/plantedPipeline';
import { call } from '../../helpers/host';
import { useTempDir } from '../../helpers/tempDir';
import { startOllamaSim, type OllamaSim } from '../../ollama-sim';

const tempDir = useTempDir('audit-host-retry-');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

let host: EngineHost | undefined;
let sim: OllamaSim | undefined;
afterEach(async () => {
  await host?.close();
  await sim?.close();
  host = undefined;
  sim = undefined;
});

describe('the app resumes a run that had failures', () => {
  it('retries the chunks an outage failed and says so in the run events', async () => {
    const model = scriptedModel();
    let broken = true;
    // While broken, every extraction reply is cut off mid-JSON: each chunk fails after its retries.
    sim = await startOllamaSim({
      responder: (req) => (broken && JSON.stringify(req.format ?? null).includes('"findings"') ? '{"findings": [ {"title": ' : model.responder(req)),
    });
    host = createEngineHost({ dataDir: tempDir(), appVersion: 't', unitTokens: 1 });
    await call(host, 'settings.update', { ollamaHost: sim.url, strategy: 'pages', useJudge: false });
    const { runId } = await call<{ runId: number }>(host, 'documents.import', { files: [{ name: 'planted.pdf', bytes: b64(await plantedPdf()) }] });
    await host.idle();
    let [run] = await call<RunView[]>(host, 'runs.list');
    expect(run!.inputs[0]).toMatchObject({ status: 'failed' });

    broken = false;
    await call(host, 'runs.resume', { runId });
    await host.idle();
    [run] = await call<RunView[]>(host, 'runs.list');
    expect(run).toMatchObject({ status: 'done' });
    expect(run!.inputs[0]).toMatchObject({ status: 'done', error: null });
    const events = await call<RunEventView[]>(host, 'runs.events', { runId });
    expect(events.map((e) => e.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Retrying what failed: 1 file \(planted\.pdf: \d+ chunks?\)$/)]),
    );
    const findings = await call<unknown[]>(host, 'findings.list', { documentId: run!.inputs[0]!.documentId });
    expect(findings.length).toBeGreaterThan(0);
  });
});
