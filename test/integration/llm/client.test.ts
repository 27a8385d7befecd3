import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorCode } from '../../../shared/errors';
import { buildMessages, describeSchema, planContext } from '../../../electron/engine/llm';
import { expectCode, harness, type Harness } from './helpers';

const Reply = z.object({ findings: z.array(z.object({ title: z.string(), page: z.number().int() })) });
const good = JSON.stringify({ findings: [{ title: 'Late payment', page: 3 }] });
const instructions = 'You are an auditor. Find ALL problems in the document and report each one.';

function request(text: string, extra: Record<string, unknown> = {}) {
  const [system, user] = buildMessages({ instructions, schemaDescription: describeSchema(Reply), document: { id: 1, text } });
  return { purpose: 'extract' as const, model: 'llama3.1:8b', schema: Reply, system: system!.content, user: user!.content, numCtx: 4096, ...extra };
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('LLM client against the simulator', () => {
  it('probes, then runs calls of different sizes at one num_ctx with zero reloads', async () => {
    h = await harness({ responder: () => good });
    const plan = planContext({ modelContextLength: 131072, desiredChunkTokens: 1500, instructionTokens: 300, outputTokens: 500 });
    const probe = await h.client.probe(['llama3.1:8b', 'qwen3:8b'], plan.numCtx);
    expect(probe.supportsTruncate).toBe(true);
    expect(probe.models['qwen3:8b']).toMatchObject({ thinking: true, contextLength: 40960 });
    expect(probe.models['llama3.1:8b']).toMatchObject({ thinking: false, contextLength: 131072 });
    const loadsAfterProbe = h.sim.counters.loads;
    for (const size of [50, 400, 1200, 90, 800]) {
      const text = 'The supplier invoiced twice for the same delivery. '.repeat(size / 10 + 1);
      const r = await h.client.chatJson(request(text, { numCtx: plan.numCtx }));
      expect(r.value.findings[0]!.title).toBe('Late payment');
    }
    await h.client.chatJson({ ...request('qwen text', { numCtx: plan.numCtx }), model: 'qwen3:8b' });
    expect(h.sim.counters.reloads).toBe(0);
    expect(h.sim.counters.loads).toBe(loadsAfterProbe);
    // think:false only to the thinking model; truncate:false on a new server.
    const chats = h.sim.requests.filter((r) => r.messages.length > 0);
    expect(chats.filter((r) => r.model.startsWith('llama')).every((r) => r.think === undefined)).toBe(true);
    expect(chats.filter((r) => r.model.startsWith('qwen')).every((r) => r.think === false)).toBe(true);
    expect(chats.every((r) => r.numCtx === plan.numCtx && r.options.temperature === 0 && r.options.seed === 42)).toBe(true);
    // the prefix cache is reused: identical instructions first
    expect(h.sim.counters.promptTokensEvaluated).toBeLessThan(h.sim.counters.promptTokens);
    const rows = h.rows();
    expect(rows.filter((r) => r.purpose === 'probe')).toHaveLength(2);
    expect(rows.filter((r) => r.purpose === 'extract' && r.outcome === 'ok')).toHaveLength(6);
    expect(rows.find((r) => r.purpose === 'extract')).toMatchObject({ done_reason: 'stop', attempt: 1 });
    expect(rows.every((r) => typeof r.prompt_hash === 'string')).toBe(true);
  });

  it('serves the second identical call from the cache, and not with cache:false', async () => {
    h = await harness({ responder: () => good });
    await h.client.chatJson(request('same text'));
    const before = h.sim.counters.chatRequests;
    const again = await h.client.chatJson(request('same text'));
    expect(again.call.outcome).toBe('cached');
    expect(again.value.findings).toHaveLength(1);
    expect(h.sim.counters.chatRequests).toBe(before);
    await h.client.chatJson(request('same text', { cache: false }));
    expect(h.sim.counters.chatRequests).toBe(before + 1);
    expect((h.db.prepare('SELECT COUNT(*) AS n FROM llm_cache').get() as { n: number }).n).toBe(1);
  });

  const transient = [
    { kind: 'runnerCrash' },
    { kind: 'busy' },
    { kind: 'loadTimeout' },
    { kind: 'dropBeforeHeaders' },
    { kind: 'dropMidStream', afterFrames: 2 },
    { kind: 'noDoneFrame' },
    { kind: 'streamErrorLine', afterFrames: 1, error: 'an error was encountered while running the model: unexpected EOF' },
    { kind: 'http', status: 503, error: 'server busy, please try again.  maximum pending requests exceeded' },
    { kind: 'http', status: 429, error: 'too many requests' },
  ] as const;
  it.each(transient)('transient fault %o: retried after a back-off, then success, stored once', async (fault) => {
    h = await harness({ responder: () => good });
    h.sim.addFault({ fault: fault as never, times: 1, endpoint: 'chat' });
    const r = await h.client.chatJson(request('text'));
    expect(r.value.findings).toHaveLength(1);
    const rows = h.rows();
    expect(rows.map((x) => x.outcome)).toEqual(['retried', 'ok']);
    expect(rows[1]!.attempt).toBe(2);
    expect(h.sleeps).toHaveLength(1);
    expect((h.db.prepare('SELECT COUNT(*) AS n FROM llm_cache').get() as { n: number }).n).toBe(1);
  });

  it('gives up on a persistent transient fault after 4 tries with 3 back-offs', async () => {
    h = await harness({ responder: () => good });
    h.sim.addFault({ fault: { kind: 'runnerCrash' }, times: 10 });
    await expectCode(h.client.chatJson(request('text')), ErrorCode.LLM_TRANSIENT);
    expect(h.rows().map((x) => x.outcome)).toEqual(['retried', 'retried', 'retried', 'failed']);
    expect(h.sleeps.length).toBe(3);
    expect(h.sleeps[1]!).toBeGreaterThan(h.sleeps[0]!);
  });

  const permanent = [
    [{ kind: 'modelNotFound' }, ErrorCode.MODEL_NOT_FOUND],
    [{ kind: 'outOfMemory' }, ErrorCode.LLM_OUT_OF_MEMORY],
    [{ kind: 'invalidSchema' }, ErrorCode.LLM_BAD_REQUEST],
    [{ kind: 'http', status: 403, error: 'forbidden' }, ErrorCode.LLM_BAD_REQUEST],
    [{ kind: 'http', status: 400, error: 'missing request body' }, ErrorCode.LLM_BAD_REQUEST],
  ] as const;
  it.each(permanent)('permanent fault %o: no retry, a clear code', async (fault, code) => {
    h = await harness({ responder: () => good });
    h.sim.addFault({ fault: fault as never, times: 1 });
    const err = await expectCode(h.client.chatJson(request('text')), code);
    if (code === ErrorCode.MODEL_NOT_FOUND) expect(err.message).toContain('ollama pull llama3.1:8b');
    if (code === ErrorCode.LLM_OUT_OF_MEMORY) expect(err.message).toMatch(/smaller/);
    expect(h.rows().map((x) => x.outcome)).toEqual(['failed']);
    expect(h.sleeps).toHaveLength(0);
    expect((h.db.prepare('SELECT COUNT(*) AS n FROM llm_cache').get() as { n: number }).n).toBe(0);
  });

  it('accepts JSON in code fences and split multibyte characters', async () => {
    h = await harness({ responder: () => JSON.stringify({ findings: [{ title: 'Überweisung doppelt – 二重払い', page: 1 }] }) });
    h.sim.addFault({ fault: { kind: 'codeFences' }, times: 1 });
    expect((await h.client.chatJson(request('a'))).value.findings[0]!.title).toBe('Überweisung doppelt – 二重払い');
    h.sim.addFault({ fault: { kind: 'splitMultibyte' }, times: 1 });
    expect((await h.client.chatJson(request('b'))).value.findings[0]!.title).toBe('Überweisung doppelt – 二重払い');
  });

  it('retries cut JSON once at temperature 0 with a larger num_predict, then reports it', async () => {
    h = await harness({ responder: () => good });
    h.sim.addFault({ fault: { kind: 'cutJson', keepChars: 10 }, times: 1 });
    const ok = await h.client.chatJson(request('a', { numPredict: 300 }));
    expect(ok.value.findings).toHaveLength(1);
    const retry = h.sim.requests.at(-1)!;
    expect(retry.options.temperature).toBe(0);
    expect(retry.options.num_predict).toBe(600);
    expect(retry.numCtx).toBe(4096);
    h.sim.addFault({ fault: { kind: 'cutJson', keepChars: 10 }, times: 2 });
    // the simulator's cut JSON ends with done_reason "length": reported as a cut reply, never parsed
    const err = await expectCode(h.client.chatJson(request('b')), ErrorCode.LLM_REPLY_CUT);
    expect(err.message).toMatch(/marked failed/);
    // a reply cut by num_predict (done_reason length) is never parsed
    h.sim.setResponder(() => ({ content: good, doneReason: 'length' }));
    await expectCode(h.client.chatJson(request('c')), ErrorCode.LLM_REPLY_CUT);
    h.sim.setResponder(() => 'not json at all');
    await expectCode(h.client.chatJson(request('d')), ErrorCode.LLM_INVALID_REPLY);
    expect(h.sim.counters.reloads).toBe(0);
    const cached = (h.db.prepare('SELECT COUNT(*) AS n FROM llm_cache').get() as { n: number }).n;
    expect(cached).toBe(1);
  });

  it('refuses a prompt estimated above num_ctx before sending', async () => {
    h = await harness({ responder: () => good });
    await expectCode(h.client.chatJson(request('word '.repeat(6000), { numCtx: 2048 })), ErrorCode.LLM_CONTEXT_OVERFLOW);
    expect(h.sim.counters.chatRequests).toBe(0);
  });

  it('gets a 400 instead of truncation on a new server (truncate:false)', async () => {
    h = await harness({ responder: () => good });
    // '.' is one token each for the simulator but ~1.6 chars/token for our estimate: the estimate is too low.
    await expectCode(h.client.chatJson(request('.'.repeat(2600), { numCtx: 2048 })), ErrorCode.LLM_CONTEXT_OVERFLOW);
    expect(h.sim.counters.truncations).toBe(0);
  });

  it('never accepts a silently truncated prompt on an old server (0.6.8)', async () => {
    h = await harness({ version: '0.6.8', responder: () => good });
    await h.client.chatJson(request('A short healthy call first.', { numCtx: 2048 }));
    await expectCode(h.client.chatJson(request('.'.repeat(2600), { numCtx: 2048 })), ErrorCode.LLM_TRUNCATED_PROMPT);
    expect(h.sim.counters.truncations).toBe(1);
    expect(h.sim.requests.every((r) => !('truncate' in r.options))).toBe(true);
    expect((h.db.prepare('SELECT COUNT(*) AS n FROM llm_cache').get() as { n: number }).n).toBe(1);
    // and healthy calls that hit the prefix cache are not mistaken for truncation
    for (let i = 0; i < 3; i++) await h.client.chatJson(request(`Another healthy chunk ${i}. `.repeat(40), { numCtx: 2048 }));
  });

  it('cancels before headers, while queued, and mid-stream; the simulator stops generating', async () => {
    h = await harness({ responder: () => good });
    h.sim.addFault({ fault: { kind: 'slowFirstToken', ms: 3000 }, times: 1 });
    const first = new AbortController();
    const queued = new AbortController();
    const p1 = h.client.chatJson(request('one', { signal: first.signal }));
    const p2 = h.client.chatJson(request('two', { signal: queued.signal }));
    await new Promise((r) => setTimeout(r, 200));
    queued.abort();
    await expectCode(p2, ErrorCode.CANCELLED);
    first.abort();
    await expectCode(p1, ErrorCode.CANCELLED);
    await new Promise((r) => setTimeout(r, 100));
    expect(h.sim.counters.cancellations).toBe(1);
    expect(h.sim.counters.chatRequests).toBe(1);

    h.sim.addFault({ fault: { kind: 'stall', afterFrames: 2, ms: 3000 }, times: 1 });
    const mid = new AbortController();
    const p3 = h.client.chatJson(request('three', { signal: mid.signal }));
    await new Promise((r) => setTimeout(r, 300));
    mid.abort();
    await expectCode(p3, ErrorCode.CANCELLED);
    await new Promise((r) => setTimeout(r, 100));
    expect(h.sim.counters.cancellations).toBe(2);
    expect(h.rows().map((r) => r.outcome)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  });

  it('turns watchdog timeouts into a transient LLM_TIMEOUT and retries', async () => {
    h = await harness({ responder: () => good }, { watchdog: { firstTokenBaseMs: 150, minPrefillTokensPerSec: 1e9, idleMs: 150, deadlineMs: 10_000 } });
    h.sim.addFault({ fault: { kind: 'slowFirstToken', ms: 1500 }, times: 1 });
    expect((await h.client.chatJson(request('a'))).value.findings).toHaveLength(1);
    h.sim.addFault({ fault: { kind: 'stall', afterFrames: 2, ms: 1500 }, times: 1 });
    expect((await h.client.chatJson(request('b'))).value.findings).toHaveLength(1);
    const rows = h.rows();
    expect(rows.map((r) => [r.outcome, r.error_code])).toEqual([
      ['retried', 'LLM_TIMEOUT'],
      ['ok', null],
      ['retried', 'LLM_TIMEOUT'],
      ['ok', null],
    ]);
    await new Promise((r) => setTimeout(r, 100));
    expect(h.sim.counters.cancellations).toBe(2);
  });

  it('probe errors: unreachable host, missing model, out of memory', async () => {
    h = await harness({ memoryBytes: 6 * 1024 ** 3 });
    const closedPort = h.sim.port;
    const err = await expectCode(h.client.probe(['llama3.1:8b'], 131072), ErrorCode.LLM_OUT_OF_MEMORY);
    expect(err.message).toMatch(/smaller context/);
    await expectCode(h.client.probe(['mistral:7b'], 4096), ErrorCode.MODEL_NOT_FOUND).then((e) => expect(e.message).toContain('ollama pull mistral:7b'));
    await h.client.probe(['llama3.1:8b'], 4096);
    await h.sim.close();
    const gone = h.newClient();
    const unreachable = await expectCode(gone.probe(['llama3.1:8b'], 4096), ErrorCode.OLLAMA_UNREACHABLE);
    expect(unreachable.message).toContain('ollama serve');
    expect(unreachable.message).toContain(`127.0.0.1:${closedPort}`);
  });

  it('resolves models from the recommended list and embeds at the run num_ctx', async () => {
    h = await harness();
    const r = await h.client.resolveModels({ stages: ['extract', 'embed'] });
    expect(r.models).toEqual({ extract: 'qwen3:8b', embed: 'nomic-embed-text:latest' });
    await h.client.probe(['nomic-embed-text:latest'], 2048);
    const e = await h.client.embed({ model: 'nomic-embed-text:latest', input: ['alpha beta', 'gamma'], numCtx: 2048 });
    expect(e.embeddings).toHaveLength(2);
    expect(h.sim.counters.reloads).toBe(0);
    expect(h.rows().map((x) => [x.purpose, x.outcome])).toEqual([
      ['probe', 'ok'],
      ['embed', 'ok'],
    ]);
  });

  it('calibrates the estimator from full evaluations and persists it per model', async () => {
    h = await harness({ responder: () => good });
    for (let i = 0; i < 6; i++) {
      await h.client.chatJson(
        request(`Chunk ${i}: ` + 'Invoices 2023-04-01 to 2023-06-30, totals 12,345.67 EUR; approvals missing. '.repeat(30 + i), { numCtx: 8192 }),
      );
    }
    const row = h.db.prepare("SELECT factor, samples FROM llm_token_calibration WHERE model = 'llama3.1:8b'").get() as
      | { factor: number; samples: number }
      | undefined;
    expect(row?.samples).toBeGreaterThan(0);
    const fresh = h.newClient();
    expect(fresh.estimator.factor('llama3.1:8b')).toBeCloseTo(row!.factor, 6);
    const last = h.sim.requests.at(-1)!;
    const estimated = h.rows().at(-1)!.estimated_prompt_tokens as number;
    expect(Math.abs(estimated - last.promptTokens) / last.promptTokens).toBeLessThan(0.25);
  });
});
