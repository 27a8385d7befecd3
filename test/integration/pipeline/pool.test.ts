import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EndpointSettings } from '../../../shared/endpoints';
import { AppError, ErrorCode } from '../../../shared/errors';
import { createEngine, StopRequest, type Engine } from '../../../electron/engine';
import { listChunkResults, listFindings } from '../../../electron/engine/extract';
import { createLlmClient, resolveEndpoint, type LlmSettings } from '../../../electron/engine/llm';
import { startBlackHole } from '../../helpers/blackHole';
import { listRunInputs, openDatabase, type Database } from '../../../electron/engine/store';
import { plantedReport, plantedResponder } from '../../fixtures/plantedFindings';
import { startOllamaSim, type OllamaSim, type SimChatRequest } from '../../ollama-sim/index';
import { startOpenAiSim, type OpenAiSim } from '../../ollama-sim/openai';
import { findingFingerprint, mergedOf, MODEL } from '../pipeline/helpers';

const report = plantedReport();
const responder = plantedResponder(report);
const FILES = 6;
const settings = {
  strategy: 'pages' as const,
  judge: false,
  llm: { models: { default: MODEL }, cache: false, desiredChunkTokens: 1500, replyTokens: 1024, maxInFlight: 1, unitTokens: 1 },
};

/** Marks every page of copy n, so its calls can be told apart on the servers (and its bytes differ). */
const marker = (n: number) => `Distribution copy number ${n} of this report.`;

interface PoolHarness {
  dir: string;
  db: Database;
  engine: Engine;
  files: string[];
  close(): Promise<void>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function poolHarness(keys: Record<string, string> = {}, llmSettings: Partial<LlmSettings> = {}): Promise<PoolHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'pool-'));
  const db = openDatabase(join(dir, 'store.sqlite'));
  const files = Array.from({ length: FILES }, (_, i) => {
    const file = join(dir, `report-${i + 1}.txt`);
    writeFileSync(file, report.pageTexts.map((page) => `${page}\n${marker(i + 1)}`).join('\f'));
    return file;
  });
  const sleep = async (_ms: number, signal?: AbortSignal) => {
    if (signal?.aborted) throw new AppError(ErrorCode.CANCELLED, 'Cancelled.');
  };
  const engine = createEngine({
    db,
    appVersion: 'test',
    createLlm: (s, endpoint) =>
      createLlmClient({
        db,
        sleep,
        ...(endpoint ? { endpoint: resolveEndpoint(endpoint, (ref) => keys[ref]) } : { host: s.llm.host }),
        settings: { ...llmSettings, maxInFlight: endpoint?.concurrency ?? 1, cache: s.llm.cache },
      }),
  });
  const h = {
    dir,
    db,
    engine,
    files,
    async close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  cleanups.push(() => h.close());
  return h;
}

async function openAi(options: Parameters<typeof startOpenAiSim>[0] = {}): Promise<OpenAiSim> {
  const sim = await startOpenAiSim({ responder, contextLength: 16384, ...options });
  cleanups.push(() => sim.close());
  return sim;
}
async function ollama(): Promise<OllamaSim> {
  const sim = await startOllamaSim({ timeScale: 0, responder });
  cleanups.push(() => sim.close());
  return sim;
}

/** Per file (by its position in the batch): the fingerprint of its document's merged findings. */
function perDocument(db: Database, runId: number): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const input of listRunInputs(db, runId)) {
    const merged = mergedOf(db, runId).filter((f) => f.documentId === input.documentId);
    out.set(input.ordinal, findingFingerprint(merged));
  }
  return out;
}

/** Which servers saw extraction calls for copy n: a file stays on one endpoint, so exactly one. */
function serversOf(n: number, servers: ReadonlyArray<{ requests: SimChatRequest[] }>): number[] {
  return servers.flatMap((s, i) => (s.requests.some((r) => r.messages.some((m) => m.content.includes(marker(n)))) ? [i] : []));
}

let baseline: Map<number, string[]> | undefined;
/** The batch on one Ollama endpoint, one file at a time: what every pool run must reproduce. */
async function singleEndpointFindings(): Promise<Map<number, string[]>> {
  if (baseline) return baseline;
  const sim = await startOllamaSim({ timeScale: 0, responder });
  const h = await poolHarness();
  const outcome = await h.engine.analyze(h.files, { ...settings, llm: { ...settings.llm, endpoints: [{ kind: 'ollama', url: sim.url, concurrency: 1 }] } });
  await sim.close();
  expect(outcome.run.status, JSON.stringify(outcome.run.error ?? outcome.inputs.map((i) => i.error))).toBe('done');
  baseline = perDocument(h.db, outcome.run.id);
  expect([...baseline.values()].every((f) => f.length > 0)).toBe(true);
  return baseline;
}

describe('a pool of inference endpoints (simulators on loopback)', () => {
  it('one Ollama endpoint runs exactly as --host did: one file after another, the same requests, one load and no reload', async () => {
    const requestsOf = async (llm: (url: string) => { host: string } | { endpoints: EndpointSettings[] }) => {
      const sim = await ollama();
      const h = await poolHarness();
      const outcome = await h.engine.analyze(h.files, { ...settings, llm: { ...settings.llm, ...llm(sim.url) } });
      expect(outcome.run.status).toBe('done');
      // Sequential: never two requests at once, and every call of a file before the first call of the next.
      expect(sim.counters.maxInFlight).toBe(1);
      expect(sim.counters.reloads).toBe(0);
      const fileOrder = sim.requests
        .map((r) => Array.from({ length: FILES }, (_, i) => i + 1).find((n) => r.prompt.includes(marker(n))) ?? 0)
        .filter((n) => n > 0);
      expect(fileOrder).toEqual([...fileOrder].sort((a, b) => a - b));
      expect(new Set(fileOrder).size).toBe(FILES);
      return { prompts: sim.requests.map((r) => r.prompt), loads: sim.counters.loads };
    };
    const viaHost = await requestsOf((url: string) => ({ host: url }));
    const viaEndpoint = await requestsOf((url: string) => ({ endpoints: [{ kind: 'ollama' as const, url, concurrency: 1 }] }));
    expect(viaEndpoint).toEqual(viaHost);
    expect(viaHost.loads).toBe(1);
  });

  it('spreads the batch over Ollama and OpenAI-compatible endpoints: the same findings, each file on one endpoint', async () => {
    const expected = await singleEndpointFindings();
    const [a, b, c] = [await openAi({ slots: 2 }), await openAi({ slots: 1 }), await ollama()];
    const h = await poolHarness();
    const endpoints: EndpointSettings[] = [
      { kind: 'openai', url: a.baseUrl, concurrency: 2 },
      { kind: 'openai', url: b.baseUrl, concurrency: 1 },
      { kind: 'ollama', url: c.url, concurrency: 1 },
    ];
    const seen = new Set<string>();
    const outcome = await h.engine.analyze(
      h.files,
      { ...settings, llm: { ...settings.llm, endpoints } },
      { onProgress: (e) => e.endpoint && seen.add(e.endpoint) },
    );
    expect(outcome.run.status).toBe('done');
    expect(outcome.inputs.every((i) => i.status === 'done')).toBe(true);
    expect(perDocument(h.db, outcome.run.id)).toEqual(expected);
    for (let n = 1; n <= FILES; n++) expect(serversOf(n, [a, b, c]), `copy ${n}`).toHaveLength(1);
    // Every endpoint took files, and progress said which.
    expect([a.counters.completed, b.counters.completed, c.counters.chatRequests].every((n) => n > 0)).toBe(true);
    expect(seen.size).toBe(3);
    expect(a.counters.maxInFlight).toBeLessThanOrEqual(2);
    expect(b.counters.maxInFlight).toBe(1);
    const events = h.db.prepare("SELECT message FROM run_events WHERE message LIKE 'file % on %'").all() as Array<{ message: string }>;
    expect(events).toHaveLength(FILES);
  });

  it('an endpoint killed mid-batch: its files resume on the other endpoint, nothing lost or analysed twice', async () => {
    const expected = await singleEndpointFindings();
    const survivor = await openAi({ slots: 1 });
    const doomed = await openAi({ slots: 1 });
    let calls = 0;
    doomed.setResponder(async (req) => {
      // Dies in the middle of its fourth call, before a byte of the reply: that unit was never committed.
      if (++calls === 4) await doomed.kill();
      return responder(req);
    });
    const h = await poolHarness();
    const endpoints: EndpointSettings[] = [
      { kind: 'openai', url: doomed.baseUrl, concurrency: 1, label: 'doomed' },
      { kind: 'openai', url: survivor.baseUrl, concurrency: 1, label: 'survivor' },
    ];
    const outcome = await h.engine.analyze(h.files, { ...settings, llm: { ...settings.llm, endpoints } });
    expect(outcome.run.status).toBe('done');
    expect(outcome.inputs.every((i) => i.status === 'done')).toBe(true);
    expect(perDocument(h.db, outcome.run.id)).toEqual(expected);
    // Each leaf committed once, and the raw findings are exactly the baseline's in number (no unit done twice).
    for (const input of outcome.inputs) {
      const results = listChunkResults(h.db, outcome.run.id, input.documentId!);
      expect(results.every((r) => r.status === 'done')).toBe(true);
      expect(new Set(results.map((r) => r.nodeIndex)).size).toBe(results.length);
    }
    const raw = outcome.inputs.map((i) => listFindings(h.db, outcome.run.id, i.documentId!).length);
    expect(raw.every((n) => n > 0)).toBe(true);
    expect(new Set(raw).size).toBe(1);
    const left = h.db.prepare("SELECT message FROM run_events WHERE level = 'warn' AND message LIKE 'doomed stopped answering%'").all() as Array<{
      message: string;
    }>;
    expect(left).toHaveLength(1);
    expect(left[0]!.message).toMatch(/does not answer/);
    expect(calls).toBe(4);
    // The one file in flight on the dead endpoint moved: its later calls went to the survivor.
    const moved = Array.from({ length: FILES }, (_, i) => i + 1).filter((n) => serversOf(n, [doomed, survivor]).length === 2);
    expect(moved).toHaveLength(1);
    // No unit analysed twice, from the servers' request logs: per file, every prompt the servers received is
    // distinct, except for the moved file's one unit in flight when its endpoint died (asked again on the survivor).
    const received = [...doomed.requests, ...survivor.requests];
    const lastOnDoomed = doomed.requests.at(-1)!.prompt;
    for (let n = 1; n <= FILES; n++) {
      const prompts = received.filter((r) => r.messages.some((m) => m.content.includes(marker(n)))).map((r) => r.prompt);
      const repeated = prompts.filter((p, i) => prompts.indexOf(p) !== i);
      expect(repeated, `copy ${n}`).toEqual(n === moved[0] ? [lastOnDoomed] : []);
    }
    // ... and from the call log: no prompt of a document answered twice (ok or cached); the call the dying endpoint
    // never answered is logged as failed (unreachable), and answered once, on the survivor.
    const answeredTwice = h.db
      .prepare(
        "SELECT document_id, prompt_hash, COUNT(*) AS n FROM llm_calls WHERE run_id = ? AND outcome IN ('ok', 'cached') GROUP BY document_id, prompt_hash HAVING n > 1",
      )
      .all(outcome.run.id);
    expect(answeredTwice).toEqual([]);
    const lost = h.db
      .prepare("SELECT document_id, prompt_hash FROM llm_calls WHERE run_id = ? AND outcome = 'failed' AND error_code = ?")
      .all(outcome.run.id, ErrorCode.ENDPOINT_UNREACHABLE) as Array<{ document_id: number; prompt_hash: string }>;
    expect(lost).toHaveLength(1);
    const answered = h.db
      .prepare("SELECT COUNT(*) AS n FROM llm_calls WHERE run_id = ? AND outcome = 'ok' AND document_id = ? AND prompt_hash = ?")
      .get(outcome.run.id, lost[0]!.document_id, lost[0]!.prompt_hash) as { n: number };
    expect(answered.n).toBe(1);
  });

  it('an endpoint that goes silent mid-call (a machine switched off): after the call times out it fails a liveness check, and its file moves at once', async () => {
    const expected = await singleEndpointFindings();
    const behind = await openAi({ slots: 1 });
    const survivor = await openAi({ slots: 1 });
    const hole = await startBlackHole(behind.port);
    cleanups.push(() => hole.close());
    let calls = 0;
    behind.setResponder((req) => {
      // Its third call is never answered, nor anything after it: no reply, no refusal, no reset.
      if (++calls === 3) hole.swallow();
      return responder(req);
    });
    const watchdog = { firstTokenBaseMs: 1000, minPrefillTokensPerSec: 1e9, idleMs: 1000, deadlineMs: 60_000, livenessMs: 300 };
    const h = await poolHarness({}, { watchdog });
    const endpoints: EndpointSettings[] = [
      { kind: 'openai', url: `http://127.0.0.1:${hole.port}/v1`, concurrency: 1, label: 'silent' },
      { kind: 'openai', url: survivor.baseUrl, concurrency: 1, label: 'survivor' },
    ];
    const outcome = await h.engine.analyze(h.files, { ...settings, llm: { ...settings.llm, endpoints } });
    expect(outcome.run.status).toBe('done');
    expect(outcome.inputs.every((i) => i.status === 'done')).toBe(true);
    expect(perDocument(h.db, outcome.run.id)).toEqual(expected);
    const left = (
      h.db.prepare("SELECT message FROM run_events WHERE level = 'warn' AND message LIKE 'silent stopped answering%'").all() as Array<{ message: string }>
    ).map((r) => r.message);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/does not answer .*time to first token exceeded 1000 ms, and the server then did not answer a liveness check within 300 ms/);
    // The timed-out call was not waited out again on the silent server: one failure, no retry, nothing sent after it.
    const silentCalls = h.db
      .prepare("SELECT outcome, error_code FROM llm_calls WHERE run_id = ? AND outcome != 'ok' AND error_code IN (?, ?)")
      .all(outcome.run.id, ErrorCode.ENDPOINT_UNREACHABLE, ErrorCode.LLM_TIMEOUT);
    expect(silentCalls).toEqual([{ outcome: 'failed', error_code: ErrorCode.ENDPOINT_UNREACHABLE }]);
    expect(calls).toBe(3);
  });

  it('a bad key and an unreachable endpoint are each left out with a clear reason while the rest of the pool goes on', async () => {
    const expected = await singleEndpointFindings();
    const good = await openAi({ slots: 2 });
    const keyed = await openAi({ apiKey: 'right' });
    const gone = await openAi();
    await gone.close();
    const h = await poolHarness({ KEYED: 'wrong' });
    const endpoints: EndpointSettings[] = [
      { kind: 'openai', url: keyed.baseUrl, concurrency: 1, keyRef: 'KEYED', label: 'keyed' },
      { kind: 'openai', url: gone.baseUrl, concurrency: 1, label: 'gone' },
      { kind: 'openai', url: good.baseUrl, concurrency: 2, label: 'good' },
      // Another machine over plain http (that does not exist): warned about before anything is sent, then left out.
      { kind: 'ollama', url: 'http://audit-gpu.invalid:11434', concurrency: 1, label: 'remote' },
    ];
    const outcome = await h.engine.analyze(h.files, { ...settings, llm: { ...settings.llm, endpoints } });
    expect(outcome.run.status).toBe('done');
    expect(perDocument(h.db, outcome.run.id)).toEqual(expected);
    const warnings = (h.db.prepare("SELECT message FROM run_events WHERE level = 'warn' ORDER BY id").all() as Array<{ message: string }>).map(
      (r) => r.message,
    );
    expect(warnings.find((m) => m.startsWith('keyed left out'))).toMatch(/refused the API key/);
    expect(warnings.find((m) => m.startsWith('gone left out'))).toMatch(/does not answer/);
    expect(warnings.find((m) => m.startsWith('remote left out'))).toMatch(/not reachable/);
    // The plain-http warning names the remote endpoint only: loopback endpoints are not warned about.
    expect(warnings.filter((m) => /unencrypted/.test(m))).toEqual([
      expect.stringMatching(/^remote: Document text will be sent unencrypted over plain http to audit-gpu\.invalid:11434/),
    ]);
    expect(warnings.join('\n')).not.toContain('wrong');
    expect(keyed.counters.completed + keyed.counters.chatRequests).toBe(0);
  });

  it('no usable endpoint: the run fails with every reason, and resumes once one is fixed', async () => {
    const keyed = await openAi({ apiKey: 'right' });
    const gone = await openAi();
    await gone.close();
    const keys: Record<string, string> = { KEYED: 'wrong' };
    const h = await poolHarness(keys);
    const endpoints: EndpointSettings[] = [
      { kind: 'openai', url: keyed.baseUrl, concurrency: 2, keyRef: 'KEYED', label: 'keyed' },
      { kind: 'openai', url: gone.baseUrl, concurrency: 1, label: 'gone' },
    ];
    const outcome = await h.engine.analyze(h.files.slice(0, 2), { ...settings, llm: { ...settings.llm, endpoints } });
    expect(outcome.run.status).toBe('failed');
    expect(outcome.run.error!.message).toMatch(/No inference endpoint of the run can be used \(keyed: LLM_UNAUTHORIZED; gone: ENDPOINT_UNREACHABLE\)/);
    keys.KEYED = 'right';
    const resumed = await h.engine.resume(outcome.run.id);
    expect(resumed.run.status).toBe('done');
    expect(resumed.inputs.every((i) => i.status === 'done')).toBe(true);
  });

  it.each(['pause', 'cancel'] as const)('%s across the pool stops every file at its next unit, and a resume reaches the same findings', async (how) => {
    const expected = await singleEndpointFindings();
    const a = await openAi({ slots: 2 });
    const b = await openAi({ slots: 1 });
    const h = await poolHarness();
    const endpoints: EndpointSettings[] = [
      { kind: 'openai', url: a.baseUrl, concurrency: 2 },
      { kind: 'openai', url: b.baseUrl, concurrency: 1 },
    ];
    const stop = new AbortController();
    let extracted = 0;
    const outcome = await h.engine.analyze(
      h.files,
      { ...settings, llm: { ...settings.llm, endpoints } },
      {
        signal: stop.signal,
        onProgress: (e) => {
          if (e.phase === 'extract' && /analysed/.test(e.message) && ++extracted === 5) stop.abort(new StopRequest(how));
        },
      },
    );
    expect(outcome.run.status).toBe(how === 'pause' ? 'paused' : 'cancelled');
    // Files were in flight on both endpoints when it stopped; none is left running, none is lost.
    expect(a.counters.chatRequests).toBeGreaterThan(0);
    expect(b.counters.chatRequests).toBeGreaterThan(0);
    expect(outcome.inputs.some((i) => i.status !== 'done')).toBe(true);
    expect(outcome.inputs.every((i) => i.status !== 'running')).toBe(true);
    const resumed = await h.engine.resume(outcome.run.id);
    expect(resumed.run.status).toBe('done');
    expect(perDocument(h.db, resumed.run.id)).toEqual(expected);
    // The resume continued from what was committed: no prompt of a document answered twice over the two executions.
    const answeredTwice = h.db
      .prepare(
        "SELECT document_id, prompt_hash, COUNT(*) AS n FROM llm_calls WHERE run_id = ? AND outcome IN ('ok', 'cached') GROUP BY document_id, prompt_hash HAVING n > 1",
      )
      .all(outcome.run.id);
    expect(answeredTwice).toEqual([]);
  });
});
