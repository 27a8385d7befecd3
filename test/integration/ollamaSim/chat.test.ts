import { describe, expect, it } from 'vitest';
import type { Ollama } from 'ollama';
import { defaultTokenize } from '../../ollama-sim/index';
import { useSims } from '../../helpers/sim';

const setup = useSims();

const user = (content: string) => [{ role: 'user', content }];

async function rawLines(url: string, body: unknown): Promise<{ status: number; type: string | null; lines: Record<string, unknown>[] }> {
  const r = await fetch(url + '/api/chat', { method: 'POST', body: JSON.stringify(body) });
  const text = await r.text();
  return {
    status: r.status,
    type: r.headers.get('content-type'),
    lines: text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('chat streaming', () => {
  it('stream absent means true: NDJSON frames per token, last piece in the done frame, integer ns metrics', async () => {
    const reply = 'The total is 1,234 EUR.';
    const { sim } = await setup({ responder: () => reply });
    const { status, type, lines } = await rawLines(sim.url, { model: 'llama3.1:8b', messages: user('sum?') });
    expect(status).toBe(200);
    expect(type).toBe('application/x-ndjson');
    const toks = defaultTokenize(reply);
    expect(lines).toHaveLength(toks.length); // n-1 content frames + done frame carrying the last piece
    const done = lines.at(-1)!;
    expect(done.done).toBe(true);
    expect(done.done_reason).toBe('stop');
    expect((done.message as { content: string }).content).toBe(toks.at(-1));
    for (const k of ['total_duration', 'load_duration', 'prompt_eval_count', 'prompt_eval_duration', 'eval_count', 'eval_duration']) {
      expect(Number.isInteger(done[k]), k).toBe(true);
      expect(done[k] as number, k).toBeGreaterThan(0);
    }
    expect(done.eval_count).toBe(toks.length);
    expect(lines.slice(0, -1).every((l) => l.done === false && (l.message as { role: string }).role === 'assistant')).toBe(true);
    // a client that ignores done-frame content loses text
    const ignoring = lines
      .filter((l) => !l.done)
      .map((l) => (l.message as { content: string }).content)
      .join('');
    expect(ignoring).not.toBe(reply);
    const all = lines.map((l) => (l.message as { content: string }).content).join('');
    expect(all).toBe(reply);
  });

  it('the real client reassembles the reply from the stream', async () => {
    const reply = JSON.stringify({ findings: [{ id: 1, text: 'Größe über 5 €' }] });
    const { client, sim } = await setup({ responder: () => reply });
    const it = await client.chat({ model: 'llama3.1:8b', messages: user('x'), stream: true, format: 'json' });
    let text = '';
    let frames = 0;
    let last: { done: boolean; prompt_eval_count: number } | undefined;
    for await (const part of it) {
      text += part.message.content;
      frames++;
      last = part;
    }
    expect(text).toBe(reply);
    expect(frames).toBeGreaterThan(5);
    expect(last?.done).toBe(true);
    expect(last?.prompt_eval_count).toBe(sim.requests[0]!.promptTokens);
    expect(sim.requests[0]!.format).toBe('json');
  });

  it('non-stream returns one JSON object; default responder gives {} for a format', async () => {
    const { client } = await setup();
    const r = await client.chat({ model: 'llama3.1:8b', messages: user('x'), format: { type: 'object' } });
    expect(r.message.content).toBe('{}');
    expect(r.done_reason).toBe('stop');
    const r2 = await client.chat({ model: 'llama3.1:8b', messages: user('x') });
    expect(r2.message.content).toBe('OK');
  });

  it('thinking goes to message.thinking for thinking models, dropped with think:false', async () => {
    const { client } = await setup({ responder: () => ({ content: 'answer', thinking: 'let me think' }) });
    const r = await client.chat({ model: 'qwen3:8b', messages: user('x') });
    expect(r.message.thinking).toBe('let me think');
    expect(r.message.content).toBe('answer');
    const r2 = await client.chat({ model: 'qwen3:8b', messages: user('x'), think: false });
    expect(r2.message.thinking).toBeUndefined();
    const s = await client.chat({ model: 'qwen3:8b', messages: user('x'), stream: true, think: true });
    let th = '';
    let ct = '';
    for await (const p of s) {
      th += p.message.thinking ?? '';
      ct += p.message.content;
    }
    expect(th).toBe('let me think');
    expect(ct).toBe('answer');
  });

  it('messages: [] only loads (done_reason load); first load counted', async () => {
    const { client, sim } = await setup();
    const r = await client.chat({ model: 'qwen3:8b', messages: [] });
    expect(r.done_reason).toBe('load');
    expect(sim.counters.loads).toBe(1);
    expect(sim.loaded()).toEqual([expect.objectContaining({ model: 'qwen3:8b', numCtx: 4096 })]);
  });

  it('num_predict cuts the reply with done_reason length', async () => {
    const { client, sim } = await setup({ responder: () => 'one two six ten red big cat' });
    const r = await client.chat({ model: 'llama3.1:8b', messages: user('x'), options: { num_predict: 3 } });
    expect(r.done_reason).toBe('length');
    expect(r.message.content).toBe('one two six');
    expect(r.eval_count).toBe(3);
    expect(sim.counters.outputTokens).toBe(3);
  });

  it('default num_ctx is 2048 on old versions', async () => {
    const { client, sim } = await setup({ version: '0.6.6' });
    await client.chat({ model: 'llama3.1:8b', messages: [] });
    expect(sim.loaded()[0]?.numCtx).toBe(2048);
  });
});

describe('context length', () => {
  const system = 'SYSTEM INSTRUCTIONS: find errors.';
  const longText = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ') + ' THE-END';

  it('silently truncates with HTTP 200: keeps the first tokens and the tail, prompt_eval_count == num_ctx', async () => {
    const { client, sim } = await setup();
    const r = await client.chat({
      model: 'llama3.1:8b',
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: longText },
      ],
      options: { num_ctx: 256 },
    });
    expect(r.done).toBe(true);
    expect(r.prompt_eval_count).toBe(256);
    const seen = sim.requests[0]!;
    expect(seen.truncated).toBe(true);
    expect(seen.promptTokens).toBe(256);
    expect(seen.fullPromptTokens).toBeGreaterThan(256);
    expect(seen.prompt.startsWith('<|syst')).toBe(true); // the first 4 tokens survive ('<', '|', 'syst', 'em')
    expect(seen.prompt).not.toContain('INSTRUCTIONS'); // the instructions are lost
    expect(seen.prompt).not.toContain('word0 ');
    expect(seen.prompt.endsWith('THE-END\n<|assistant|>\n')).toBe(true); // the tail survives
    expect(sim.counters.truncations).toBe(1);
  });

  it('drops old messages first, keeping system messages', async () => {
    const { client, sim } = await setup();
    const filler = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
    await client.chat({
      model: 'llama3.1:8b',
      messages: [
        { role: 'system', content: 'SYS' },
        { role: 'user', content: 'OLD ' + filler },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'NEW question' },
      ],
      options: { num_ctx: 64 },
    });
    const seen = sim.requests[0]!;
    expect(seen.truncated).toBe(true);
    expect(seen.prompt).toContain('SYS');
    expect(seen.prompt).not.toContain('OLD');
    expect(seen.prompt).toContain('NEW question');
    expect(seen.messages).toHaveLength(4);
  });

  it('truncate:false -> 400 on >= 0.12.6, ignored on older versions', async () => {
    const { client } = await setup();
    const req = { model: 'llama3.1:8b', messages: user(longText), options: { num_ctx: 128 }, truncate: false };
    try {
      await client.chat(req as Parameters<Ollama['chat']>[0] & { stream?: false });
      throw new Error('expected 400');
    } catch (e) {
      const err = e as { name: string; status_code: number; message: string };
      expect(err.name).toBe('ResponseError');
      expect(err.status_code).toBe(400);
      expect(err.message).toBe('the input length exceeds the context length');
    }
    const old = await setup({ version: '0.12.5' });
    const r = await old.client.chat(req as Parameters<Ollama['chat']>[0] & { stream?: false });
    expect(r.prompt_eval_count).toBe(128);
  });
});

describe('runners, reloads, prefix cache, keep_alive, memory', () => {
  it('reload counted when num_ctx changes, not when the same options repeat', async () => {
    const { client, sim } = await setup({ rates: { prefillTokensPerSec: 1000, decodeTokensPerSec: 50, loadSeconds: 2 } });
    const ask = (num_ctx: number) => client.chat({ model: 'llama3.1:8b', messages: user('x'), options: { num_ctx, temperature: 0 } });
    const a = await ask(8192);
    await ask(8192);
    await ask(8192);
    expect(sim.counters.loads).toBe(1);
    expect(sim.counters.reloads).toBe(0);
    expect(a.load_duration).toBeGreaterThan(2e9);
    const b = await ask(16384);
    expect(sim.counters.reloads).toBe(1);
    expect(b.load_duration).toBeGreaterThan(2e9);
    const c = await ask(16384);
    expect(c.load_duration).toBeLessThan(1e9);
    await client.chat({ model: 'llama3.1:8b', messages: user('x'), options: { num_ctx: 16384, num_batch: 256 } });
    expect(sim.counters.reloads).toBe(2);
    expect(sim.counters.simulatedSeconds).toBeGreaterThan(6);
  });

  it('prefix cache: an identical-prefix request evaluates fewer tokens; a reload clears the cache', async () => {
    const { client, sim } = await setup();
    const sys = { role: 'system', content: Array.from({ length: 200 }, (_, i) => `rule${i}`).join(' ') };
    const ask = (chunk: string, num_ctx = 4096) =>
      client.chat({ model: 'llama3.1:8b', messages: [sys, { role: 'user', content: chunk }], options: { num_ctx } });
    const r1 = await ask('first chunk text');
    const r2 = await ask('second chunk text');
    const [q1, q2] = sim.requests;
    expect(q1!.evaluatedTokens).toBe(q1!.promptTokens);
    expect(q2!.evaluatedTokens).toBeLessThan(20);
    // prompt_eval_count counts all prompt tokens (cache hits included), the duration only the evaluated ones
    expect(r2.prompt_eval_count).toBe(q2!.promptTokens);
    expect(r2.prompt_eval_duration).toBeLessThan(r1.prompt_eval_duration / 5);
    expect(sim.counters.promptTokensEvaluated).toBeLessThan(sim.counters.promptTokens);
    await ask('third chunk text', 8192); // reload
    expect(sim.requests[2]!.evaluatedTokens).toBe(sim.requests[2]!.promptTokens);
  });

  it("promptEvalCountMode 'evaluated' reports cache-excluded counts", async () => {
    const { client } = await setup({ promptEvalCountMode: 'evaluated' });
    await client.chat({ model: 'llama3.1:8b', messages: user('same same same') });
    const r = await client.chat({ model: 'llama3.1:8b', messages: user('same same same') });
    expect(r.prompt_eval_count).toBe(1);
  });

  it("keep_alive: '0' unloads after the request, expiry is lazy against the clock, -1 is forever", async () => {
    let t = Date.parse('2025-01-01T00:00:00Z');
    const { client, sim } = await setup({ now: () => t });
    await client.chat({ model: 'llama3.1:8b', messages: user('x'), keep_alive: 0 });
    expect(sim.loaded()).toEqual([]);
    expect(sim.counters.unloads).toBe(1);
    await client.chat({ model: 'llama3.1:8b', messages: user('x'), keep_alive: '10m' });
    expect(sim.loaded()[0]?.expiresAt).toBe('2025-01-01T00:10:00.000Z');
    t += 9 * 60_000;
    expect(sim.loaded()).toHaveLength(1);
    t += 2 * 60_000;
    expect((await client.ps()).models).toHaveLength(0);
    expect(sim.counters.unloads).toBe(2);
    await client.chat({ model: 'llama3.1:8b', messages: user('x'), keep_alive: -1 });
    t += 1000 * 24 * 3600_000;
    expect(sim.loaded()).toHaveLength(1);
    expect(sim.counters.loads).toBe(3);
  });

  it('out of memory when the model plus its num_ctx does not fit', async () => {
    const { client } = await setup({ memoryBytes: 8 * 1024 ** 3 });
    const ok = await client.chat({ model: 'llama3.1:8b', messages: user('x'), options: { num_ctx: 4096 } });
    expect(ok.done).toBe(true);
    try {
      await client.chat({ model: 'llama3.1:8b', messages: user('x'), options: { num_ctx: 131072 } });
      throw new Error('expected OOM');
    } catch (e) {
      const err = e as { status_code: number; message: string };
      expect(err.status_code).toBe(500);
      expect(err.message).toMatch(/^model requires more system memory \(\d+\.\d GiB\) than is available \(8\.0 GiB\)$/);
    }
  });
});

describe('scheduler and disconnects', () => {
  it('one request at a time: concurrent requests are queued FIFO (maxInFlight 1)', async () => {
    const order: number[] = [];
    const { client, sim } = await setup({
      responder: async (req) => {
        order.push(req.requestIndex);
        await new Promise((r) => setTimeout(r, 20));
        return `reply ${req.requestIndex}`;
      },
    });
    const replies = await Promise.all([0, 1, 2, 3].map((i) => client.chat({ model: 'llama3.1:8b', messages: user(`q${i}`) })));
    expect(replies.map((r) => r.message.content)).toEqual(['reply 0', 'reply 1', 'reply 2', 'reply 3']);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(sim.counters.maxInFlight).toBe(1);
    expect(sim.counters.chatRequests).toBe(4);
  });

  it('503 past maxQueue', async () => {
    const { client } = await setup({ maxQueue: 1, responder: () => new Promise((r) => setTimeout(() => r('slow'), 100)) });
    const results = await Promise.allSettled([0, 1, 2].map((i) => client.chat({ model: 'llama3.1:8b', messages: user(`q${i}`) })));
    const rejected = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.reason.status_code).toBe(503);
    expect(rejected[0]!.reason.message).toBe('server busy, please try again.  maximum pending requests exceeded');
  });

  it('client disconnect mid-stream stops generation and frees the scheduler', async () => {
    const long = Array.from({ length: 300 }, (_, i) => `tok${i}`).join(' ');
    const { client, sim } = await setup({
      responder: () => long,
      timeScale: 1,
      rates: { prefillTokensPerSec: 100_000, decodeTokensPerSec: 200, loadSeconds: 0.01 },
    });
    const stream = await client.chat({ model: 'llama3.1:8b', messages: user('x'), stream: true });
    let n = 0;
    const err = await (async () => {
      try {
        for await (const _ of stream) {
          if (++n === 3) stream.abort();
        }
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.name).toBe('AbortError');
    await new Promise((r) => setTimeout(r, 100));
    expect(sim.counters.cancellations).toBe(1);
    const full = defaultTokenize(long).length;
    expect(sim.counters.outputTokens).toBeLessThan(full / 2);
    const after = sim.counters.outputTokens;
    await new Promise((r) => setTimeout(r, 50));
    expect(sim.counters.outputTokens).toBe(after);
    sim.setResponder(() => 'next');
    const r = await client.chat({ model: 'llama3.1:8b', messages: user('y') });
    expect(r.message.content).toBe('next');
  }, 10_000);

  it('a client aborting while queued is removed from the queue and counted', async () => {
    const { sim, client } = await setup({ responder: () => new Promise((r) => setTimeout(() => r('first'), 150)) });
    const first = client.chat({ model: 'llama3.1:8b', messages: user('a') });
    await new Promise((r) => setTimeout(r, 20));
    const ac = new AbortController();
    const queued = fetch(sim.url + '/api/chat', { method: 'POST', body: JSON.stringify({ model: 'llama3.1:8b', messages: user('b') }), signal: ac.signal });
    await new Promise((r) => setTimeout(r, 20));
    ac.abort();
    await expect(queued).rejects.toThrow();
    expect((await first).message.content).toBe('first');
    await new Promise((r) => setTimeout(r, 20));
    expect(sim.counters.cancellations).toBe(1);
    expect(sim.requests).toHaveLength(1); // the queued request never reached the model
  });

  it('timeScale > 0 really sleeps the simulated time (headers only with the first token)', async () => {
    const { client, sim } = await setup({ timeScale: 0.1, rates: { prefillTokensPerSec: 1000, decodeTokensPerSec: 100, loadSeconds: 1 } });
    const t0 = performance.now();
    const s = await client.chat({ model: 'llama3.1:8b', messages: user('x'), stream: true });
    const headersAfter = performance.now() - t0;
    for await (const _ of s) {
      /* drain */
    }
    expect(headersAfter).toBeGreaterThan(90); // 1 s load * 0.1
    expect(sim.counters.simulatedSeconds).toBeGreaterThan(1);
  });
});
