import { afterEach, describe, expect, it, vi } from 'vitest';
import { startOpenAiSim, type OpenAiSim, type OpenAiSimOptions } from '../../ollama-sim/openai';

const sims: OpenAiSim[] = [];
afterEach(async () => {
  while (sims.length) await sims.pop()!.close();
});
async function sim(options: OpenAiSimOptions = {}): Promise<OpenAiSim> {
  const s = await startOpenAiSim(options);
  sims.push(s);
  return s;
}

const chatBody = (extra: Record<string, unknown> = {}) => ({ model: 'llama3.1:8b', messages: [{ role: 'user', content: 'Say something.' }], ...extra });

async function post(s: OpenAiSim, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${s.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

/** The `data:` payloads of an SSE body, in order. */
function events(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice(6));
}

describe('OpenAI-compatible simulator surface', () => {
  it('lists models with max_model_len and answers /health', async () => {
    const s = await sim({ contextLength: 12000 });
    const models = (await (await fetch(`${s.baseUrl}/models`)).json()) as { data: Array<{ id: string; max_model_len?: number }> };
    expect(models.data.map((m) => m.id)).toContain('llama3.1:8b');
    expect(models.data.every((m) => m.max_model_len === 12000)).toBe(true);
    expect((await fetch(`${s.url}/health`)).status).toBe(200);
    const bare = await sim({ listContextLength: false });
    const listed = (await (await fetch(`${bare.baseUrl}/models`)).json()) as { data: Array<Record<string, unknown>> };
    expect(listed.data[0]).not.toHaveProperty('max_model_len');
  });

  it('streams SSE chunks, then finish_reason, usage when asked, and [DONE]', async () => {
    const s = await sim({ responder: () => 'The quick brown fox jumps over the lazy dog.' });
    const res = await post(s, chatBody({ stream: true, stream_options: { include_usage: true } }));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const data = events(await res.text());
    expect(data.at(-1)).toBe('[DONE]');
    const parsed = data.slice(0, -1).map(
      (d) =>
        JSON.parse(d) as {
          choices: Array<{ delta: { content?: string }; finish_reason: string | null }>;
          usage?: { prompt_tokens: number; completion_tokens: number };
        },
    );
    expect(parsed.map((p) => p.choices[0]?.delta.content ?? '').join('')).toBe('The quick brown fox jumps over the lazy dog.');
    expect(parsed.filter((p) => p.choices[0]?.finish_reason).map((p) => p.choices[0]!.finish_reason)).toEqual(['stop']);
    const usage = parsed.at(-1)!.usage!;
    expect(usage.prompt_tokens).toBe(s.requests[0]!.promptTokens);
    expect(usage.completion_tokens).toBe(s.counters.outputTokens);
    // Without include_usage no usage chunk.
    const plain = events(await (await post(s, chatBody({ stream: true }))).text());
    expect(plain.some((d) => d.includes('"usage"'))).toBe(false);
  });

  it('cuts at max_tokens with finish_reason "length", and refuses a prompt beyond the context with a 400', async () => {
    const s = await sim({ contextLength: 256, responder: () => 'word '.repeat(100) });
    const cut = (await (await post(s, chatBody({ max_tokens: 10 }))).json()) as {
      choices: Array<{ finish_reason: string }>;
      usage: { completion_tokens: number };
    };
    expect(cut.choices[0]!.finish_reason).toBe('length');
    expect(cut.usage.completion_tokens).toBe(10);
    const long = await post(s, chatBody({ messages: [{ role: 'user', content: 'many words here '.repeat(100) }] }));
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: { message: string } }).error.message).toMatch(/maximum context length is 256 tokens/);
  });

  it('401 without the right key; 429 when every slot and the queue are taken', async () => {
    const keyed = await sim({ apiKey: 'k1' });
    expect((await post(keyed, chatBody())).status).toBe(401);
    expect((await fetch(`${keyed.baseUrl}/models`)).status).toBe(401);
    expect((await post(keyed, chatBody(), { authorization: 'Bearer k1' })).status).toBe(200);

    // The first reply takes about 2 s (100 tokens at 50 a second): the second request comes while it holds the one slot.
    const busy = await sim({
      slots: 1,
      maxQueue: 0,
      timeScale: 1,
      rates: { prefillTokensPerSec: 1e6, decodeTokensPerSec: 50, loadSeconds: 0 },
      responder: () => 'a b c d e f g h i j '.repeat(10),
    });
    const first = post(busy, chatBody());
    // Sent once the server holds the first one (a fixed 30 ms wait lost that race on a loaded machine).
    await vi.waitFor(() => expect(busy.counters.inFlight).toBe(1), { timeout: 30_000, interval: 5 });
    const second = await post(busy, chatBody());
    expect(second.status).toBe(429);
    expect((await first).status).toBe(200);
  });

  it('serves N requests at once with N slots: all three streaming together, where one slot streams them one after another', async () => {
    const rates = { prefillTokensPerSec: 1e6, decodeTokensPerSec: 20, loadSeconds: 0 };
    const reply = () => 'x '.repeat(20);
    const one = await sim({ slots: 1, timeScale: 1, rates, responder: reply });
    const three = await sim({ slots: 3, timeScale: 1, rates, responder: reply });
    // When each reply started and ended streaming: an order of events, not a duration (the machine may be loaded).
    const intervals = async (s: OpenAiSim) =>
      Promise.all(
        [0, 1, 2].map(async () => {
          const response = await post(s, chatBody({ stream: true }));
          const reader = response.body!.getReader();
          let first: number | null = null;
          while (!(await reader.read()).done) first ??= performance.now();
          return { first: first!, end: performance.now() };
        }),
      );
    const serial = await intervals(one);
    const parallel = await intervals(three);
    expect(one.counters.maxInFlight).toBe(1);
    expect(three.counters.maxInFlight).toBe(3);
    // One slot: each reply starts streaming only once the one before it has ended.
    const bySerialStart = [...serial].sort((a, b) => a.first - b.first);
    for (let i = 1; i < bySerialStart.length; i++) expect(bySerialStart[i]!.first).toBeGreaterThanOrEqual(bySerialStart[i - 1]!.end - 5);
    // Three slots: every reply has started before the first one ends.
    const firstEnd = Math.min(...parallel.map((p) => p.end));
    expect(parallel.every((p) => p.first < firstEnd)).toBe(true);
  });
});
