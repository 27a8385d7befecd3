import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../../shared/errors';
import { DEFAULT_OPENAI_CONTEXT_TOKENS } from '../../../shared/endpoints';
import { buildMessages, createLlmClient, describeSchema, isRunWideLlmError, type LlmClient, type LlmSettings } from '../../../electron/engine/llm';
import { openDatabase, type Database } from '../../../electron/engine/store/db';
import { startOpenAiSim, type OpenAiSim, type OpenAiSimOptions } from '../../ollama-sim/openai';
import { expectCode } from './helpers';

const Reply = z.object({ findings: z.array(z.object({ title: z.string(), page: z.number().int() })) });
const good = JSON.stringify({ findings: [{ title: 'Late payment', page: 3 }] });
const instructions = 'You are an auditor. Find ALL problems in the document and report each one.';

function request(text: string, extra: Record<string, unknown> = {}) {
  const [system, user] = buildMessages({ instructions, schemaDescription: describeSchema(Reply), document: { id: 1, text } });
  return { purpose: 'extract' as const, model: 'llama3.1:8b', schema: Reply, system: system!.content, user: user!.content, numCtx: 4096, ...extra };
}

interface OpenAiHarness {
  sim: OpenAiSim;
  db: Database;
  client: LlmClient;
  sleeps: number[];
  newClient(endpoint?: { apiKey?: string; contextTokens?: number }, settings?: Partial<LlmSettings>): LlmClient;
  rows(): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

const open: OpenAiHarness[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

async function harness(simOptions: OpenAiSimOptions = {}, endpoint: { apiKey?: string; contextTokens?: number } = {}): Promise<OpenAiHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'llm-openai-'));
  const db = openDatabase(join(dir, 'store.sqlite'));
  const sim = await startOpenAiSim({ timeScale: 0, ...simOptions });
  const sleeps: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal) => {
    sleeps.push(ms);
    if (signal?.aborted) throw new AppError(ErrorCode.CANCELLED, 'Cancelled.');
  };
  const clients: LlmClient[] = [];
  const newClient = (e = endpoint, settings: Partial<LlmSettings> = {}) => {
    const client = createLlmClient({ db, sleep, settings, endpoint: { kind: 'openai', url: sim.baseUrl, ...e } });
    clients.push(client);
    return client;
  };
  const h: OpenAiHarness = {
    sim,
    db,
    client: newClient(),
    sleeps,
    newClient,
    rows: () => db.prepare('SELECT * FROM llm_calls ORDER BY id').all() as Array<Record<string, unknown>>,
    async close() {
      for (const c of clients) await c.close();
      await sim.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  open.push(h);
  return h;
}

describe('LLM client against an OpenAI-compatible server (simulator over HTTP)', () => {
  it('probes through /v1/models, streams SSE with a json_schema response_format, and logs usage as tokens', async () => {
    const h = await harness({ responder: () => good, contextLength: 16384 });
    const probe = await h.client.probe(['llama3.1:8b'], 8192);
    expect(probe.version).toBe('openai-compatible');
    expect(probe.installed.map((m) => m.name)).toContain('llama3.1:8b');
    // vLLM lists max_model_len: that is the endpoint's context when no setting says otherwise.
    expect(probe.models['llama3.1:8b']).toMatchObject({ contextLength: 16384, thinking: false });
    let streamed = '';
    const r = await h.client.chatJson({ ...request('The supplier invoiced twice.'), onContent: (s: string) => (streamed = s) });
    expect(r.value.findings[0]!.title).toBe('Late payment');
    expect(streamed).toBe(good);
    const body = h.sim.bodies[0]!;
    expect(body).toMatchObject({ model: 'llama3.1:8b', stream: true, stream_options: { include_usage: true }, temperature: 0, seed: 42 });
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { schema: { type: 'object' } } });
    expect(body).not.toHaveProperty('options');
    // usage is the call log's token count, finish_reason its done reason; no load call is made or logged.
    const rows = h.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      outcome: 'ok',
      done_reason: 'stop',
      prompt_eval_count: h.sim.requests[0]!.promptTokens,
      eval_count: h.sim.counters.outputTokens,
    });
    expect(h.sim.counters.chatRequests).toBe(1);
  });

  it('keeps max_tokens inside the context the prompt leaves, and the setting caps the listed context', async () => {
    const h = await harness({ responder: () => good, contextLength: 32768 }, { contextTokens: 4096 });
    expect((await h.client.modelInfo('llama3.1:8b')).contextLength).toBe(4096);
    await h.client.chatJson(request('A short text.', { numCtx: 4096, numPredict: 8000 }));
    const maxTokens = h.sim.bodies[0]!.max_tokens as number;
    expect(maxTokens).toBeLessThan(4096 - h.sim.requests[0]!.promptTokens);
    expect(maxTokens).toBeGreaterThan(1000);
    // A server that lists no context with no setting: the default.
    const bare = await harness({ responder: () => good, listContextLength: false });
    expect((await bare.client.modelInfo('llama3.1:8b')).contextLength).toBe(DEFAULT_OPENAI_CONTEXT_TOKENS);
    expect((await bare.client.probe([], 0)).slots).toBeUndefined();
    // llama-server: no max_model_len, but /props says the context of a slot and how many slots it runs.
    const llama = await harness({ responder: () => good, listContextLength: false, props: true, contextLength: 12288, slots: 3 });
    expect((await llama.client.modelInfo('llama3.1:8b')).contextLength).toBe(12288);
    expect((await llama.client.probe([], 0)).slots).toBe(3);
    // The endpoint's setting still caps it.
    const capped = llama.newClient({ contextTokens: 4096 });
    expect((await capped.modelInfo('llama3.1:8b')).contextLength).toBe(4096);
  });

  it('serves an identical call from the response cache, keyed apart from Ollama replies', async () => {
    const h = await harness({ responder: () => good });
    await h.client.chatJson(request('same text'));
    const again = await h.client.chatJson(request('same text'));
    expect(again.call.outcome).toBe('cached');
    expect(h.sim.counters.chatRequests).toBe(1);
  });

  it('finish_reason "length" is a cut reply: retried once with more room, then LLM_REPLY_CUT', async () => {
    const h = await harness({ responder: () => ({ content: good, doneReason: 'length' }) });
    await expectCode(h.client.chatJson(request('text')), ErrorCode.LLM_REPLY_CUT);
    expect(h.rows().map((x) => [x.outcome, x.error_code])).toEqual([
      ['retried', ErrorCode.LLM_REPLY_CUT],
      ['failed', ErrorCode.LLM_REPLY_CUT],
    ]);
    expect(h.sim.bodies[1]!.max_tokens as number).toBeGreaterThan(h.sim.bodies[0]!.max_tokens as number);
    // A reply longer than max_tokens is cut by the server itself, with the same finish reason.
    const small = await harness({
      responder: () => JSON.stringify({ findings: Array.from({ length: 200 }, (_, i) => ({ title: `Finding number ${i}`, page: i })) }),
    });
    await expectCode(small.client.chatJson(request('text', { numPredict: 64, retryCutReply: false })), ErrorCode.LLM_REPLY_CUT);
    expect(small.rows()[0]).toMatchObject({ done_reason: 'length', eval_count: 64 });
  });

  it('a 400 "maximum context length" is the context-overflow error, never retried', async () => {
    // The planner thinks the context is 8192; the server was started with 1024.
    const h = await harness({ responder: () => good, contextLength: 1024, listContextLength: false });
    const err = await expectCode(
      h.client.chatJson(request('The supplier invoiced twice for the same delivery. '.repeat(60), { numCtx: 8192 })),
      ErrorCode.LLM_CONTEXT_OVERFLOW,
    );
    expect(err.message).toMatch(/maximum context length is 1024 tokens/);
    expect(err.message).toMatch(/context=/);
    expect(h.sim.counters.contextOverflows).toBe(1);
    expect(h.sim.counters.chatRequests).toBe(1);
    expect(h.sleeps).toHaveLength(0);
  });

  it('a wrong key is a clear LLM_UNAUTHORIZED at the probe and on a call, the key never in a message or the log', async () => {
    const secret = 'sk-wrong-0123456789';
    const h = await harness({ responder: () => good, apiKey: 'sk-right' }, { apiKey: secret });
    const probeErr = await expectCode(h.client.probe([], 0), ErrorCode.LLM_UNAUTHORIZED);
    expect(probeErr.message).toMatch(/refused the API key/);
    expect(isRunWideLlmError(probeErr.code)).toBe(true);
    const callErr = await expectCode(h.client.chatJson(request('text')), ErrorCode.LLM_UNAUTHORIZED);
    expect(h.sleeps).toHaveLength(0);
    const logged = JSON.stringify(h.rows());
    for (const text of [probeErr.message, callErr.message, JSON.stringify(callErr.details), logged]) expect(text).not.toContain(secret);
    // The right key passes, in the Authorization header.
    const right = h.newClient({ apiKey: 'sk-right' });
    await right.chatJson(request('text'));
    expect(h.sim.counters.completed).toBe(1);
  });

  it('a server that quotes the refused key in its error: the key is in no error message or detail', async () => {
    const secret = 'sk-quoted-7c41d0';
    const h = await harness({ responder: () => good });
    // A server of the kind that echoes the key it refused (as OpenAI's own API does), in front of the simulator.
    const quoting: typeof fetch = async (input, init) => {
      const auth = new Headers(init?.headers).get('authorization') ?? '';
      const body = JSON.stringify({ error: { message: `Incorrect API key provided: ${auth.replace(/^Bearer /, '')}.`, type: 'invalid_request_error' } });
      return new Response(body, { status: 401, headers: { 'content-type': 'application/json' } });
    };
    const client = createLlmClient({
      db: h.db,
      sleep: async () => undefined,
      fetch: quoting,
      endpoint: { kind: 'openai', url: h.sim.baseUrl, apiKey: secret },
    });
    try {
      const probeErr = await expectCode(client.probe([], 0), ErrorCode.LLM_UNAUTHORIZED);
      const callErr = await expectCode(client.chatJson(request('text')), ErrorCode.LLM_UNAUTHORIZED);
      for (const err of [probeErr, callErr]) {
        expect(err.message).toMatch(/Incorrect API key provided: \[the API key\]/);
        expect(`${err.message} ${JSON.stringify(err.details)}`).not.toContain(secret);
      }
    } finally {
      await client.close();
    }
  });

  it('429 and 503 are retried with back-off; an error event or a dropped stream too', async () => {
    const h = await harness({
      responder: () => good,
      faults: [
        { fault: { kind: 'busy' }, onRequest: 0 },
        { fault: { kind: 'unavailable' }, onRequest: 1 },
        { fault: { kind: 'dropMidStream', afterFrames: 2 }, onRequest: 2 },
        { fault: { kind: 'errorEvent', afterFrames: 1, message: 'server busy, please try again' }, onRequest: 4 },
        { fault: { kind: 'noFinish' }, onRequest: 5 },
      ],
    });
    // At most 4 tries per call: three failures, then the reply.
    const r = await h.client.chatJson(request('text'));
    expect(r.value.findings).toHaveLength(1);
    const second = await h.client.chatJson(request('other text'));
    expect(second.value.findings).toHaveLength(1);
    expect(h.rows().map((x) => x.outcome)).toEqual(['retried', 'retried', 'retried', 'ok', 'retried', 'retried', 'ok']);
    expect(h.sleeps).toHaveLength(5);
    expect(h.sleeps[1]!).toBeGreaterThan(h.sleeps[0]!);
    expect(h.sim.counters.rejectedBusy).toBe(1);
  });

  it("a busy server's Retry-After is waited for; one that stays busy is LLM_TRANSIENT with what to change", async () => {
    const h = await harness({ responder: () => good, faults: [{ fault: { kind: 'busy', retryAfterSeconds: 5 }, onRequest: 0 }] });
    const r = await h.client.chatJson(request('text'));
    expect(r.value.findings).toHaveLength(1);
    // The back-off alone would be about 1 s; the server asked for 5.
    expect(h.sleeps).toEqual([5000]);
    expect(h.rows().map((x) => [x.outcome, x.error_code])).toEqual([
      ['retried', ErrorCode.LLM_TRANSIENT],
      ['ok', null],
    ]);
    // Busy on every try: the call fails after its attempts, and the sentence says it is the endpoint's load.
    const busy = await harness({ responder: () => good, faults: [{ fault: { kind: 'busy' }, times: 10 }] });
    const err = await expectCode(busy.client.chatJson(request('text')), ErrorCode.LLM_TRANSIENT);
    expect(err.message).toMatch(/kept answering that it is busy \(HTTP 429/);
    expect(err.message).toMatch(/concurrency/);
    expect(busy.sim.counters.rejectedBusy).toBe(4);
    expect(busy.sleeps).toHaveLength(3);
  });

  it('falls back to json_object when the server refuses json_schema, and still validates the reply', async () => {
    let reply = '{"findings": "not a list"}';
    const h = await harness({ responder: () => reply, structuredOutput: 'json_object' });
    await expectCode(h.client.chatJson(request('text')), ErrorCode.LLM_INVALID_REPLY);
    expect(h.sim.bodies.map((b) => (b.response_format as { type: string }).type)).toEqual(['json_schema', 'json_object', 'json_object']);
    expect(h.sim.requests.every((r) => r.format === 'json')).toBe(true);
    reply = good;
    const ok = await h.client.chatJson(request('other text'));
    expect(ok.value.findings[0]!.page).toBe(3);
  });

  it('an unreachable server, an unknown model and a URL without /v1 each say what to do', async () => {
    const h = await harness({ responder: () => good });
    const port = h.sim.port;
    await h.sim.close();
    const down = createLlmClient({ endpoint: { kind: 'openai', url: `http://127.0.0.1:${port}/v1` } });
    const unreachable = await expectCode(down.probe([], 0), ErrorCode.ENDPOINT_UNREACHABLE);
    expect(unreachable.message).toMatch(/does not answer/);
    await down.close();

    const live = await harness({ responder: () => good });
    const missing = await expectCode(live.client.probe(['no-such-model:1b'], 4096), ErrorCode.MODEL_NOT_FOUND);
    expect(missing.message).toMatch(/\/v1\/models/);
    expect(missing.message).not.toMatch(/ollama pull/);
    const noV1 = createLlmClient({ endpoint: { kind: 'openai', url: live.sim.url } });
    await expectCode(noV1.probe([], 0), ErrorCode.ENDPOINT_INVALID);
    await noV1.close();
  });

  it('cancels mid-stream: the request is closed and the server stops generating', async () => {
    const h = await harness(
      { responder: () => good.repeat(40).slice(0, 2000), timeScale: 1, rates: { prefillTokensPerSec: 1e6, decodeTokensPerSec: 200, loadSeconds: 0 } },
      {},
    );
    const controller = new AbortController();
    const pending = h.client.chatText({
      purpose: 'extract',
      model: 'llama3.1:8b',
      user: 'write',
      numCtx: 4096,
      signal: controller.signal,
      onContent: () => controller.abort(),
    });
    await expectCode(pending, ErrorCode.CANCELLED);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(h.sim.counters.cancellations).toBe(1);
    expect(h.sim.counters.completed).toBe(0);
    expect(h.rows().map((x) => x.outcome)).toEqual(['cancelled']);
  });

  it('embeds through /v1/embeddings', async () => {
    const h = await harness();
    const r = await h.client.embed({ model: 'llama3.1:8b', input: ['backups are kept', 'for thirty days'], numCtx: 2048 });
    expect(r.embeddings).toHaveLength(2);
    expect(r.embeddings[0]!.length).toBe(64);
    expect(r.call.outcome).toBe('ok');
  });
});
