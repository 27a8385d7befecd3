import { describe, expect, it } from 'vitest';
import type { Ollama } from 'ollama';
import { defaultTokenize, type Fault, type FaultRule } from '../../ollama-sim/index';
import { useSims } from '../../helpers/sim';

const setup = useSims();

type Err = Error & { status_code?: number; cause?: unknown };
const MODEL = 'llama3.1:8b';
const REPLY = 'alpha beta gamma delta epsilon zeta eta theta';
const msgs = [{ role: 'user', content: 'go' }];

async function streamed(
  client: Ollama,
  extra: Record<string, unknown> = {},
): Promise<{ text: string; frames: number; error?: Err; last?: Record<string, unknown> }> {
  let text = '';
  let frames = 0;
  let last: Record<string, unknown> | undefined;
  try {
    const it = await client.chat({ model: MODEL, messages: msgs, stream: true, ...extra });
    for await (const p of it) {
      text += p.message.content;
      frames++;
      last = p as unknown as Record<string, unknown>;
    }
    return { text, frames, last };
  } catch (e) {
    return { text, frames, error: e as Err, last };
  }
}
async function nonStreamed(client: Ollama): Promise<Err> {
  try {
    await client.chat({ model: MODEL, messages: msgs });
  } catch (e) {
    return e as Err;
  }
  throw new Error('expected a rejection');
}
const withFault = (fault: Fault, extra: Partial<FaultRule> = {}) => setup({ responder: () => REPLY, faults: [{ fault, ...extra }] });

describe('HTTP error faults -> ResponseError with status_code', () => {
  const cases: [Fault, number, RegExp][] = [
    [{ kind: 'http', status: 429, error: 'too many requests' }, 429, /^too many requests$/],
    [{ kind: 'modelNotFound' }, 404, /^model 'llama3\.1:8b' not found$/],
    [{ kind: 'outOfMemory' }, 500, /^model requires more system memory \(\d+\.\d GiB\) than is available \(\d+\.\d GiB\)$/],
    [{ kind: 'runnerCrash' }, 500, /^model runner has unexpectedly stopped/],
    [{ kind: 'loadTimeout' }, 500, /^timed out waiting for llama runner to start/],
    [{ kind: 'busy' }, 503, /^server busy, please try again\.  maximum pending requests exceeded$/],
    [{ kind: 'invalidSchema' }, 500, /^invalid JSON schema in format$/],
  ];
  for (const [fault, status, message] of cases) {
    it(`${fault.kind} (stream and non-stream)`, async () => {
      const { client, sim } = await withFault(fault, { times: 2 });
      const s = await streamed(client);
      expect(s.error?.name).toBe('ResponseError');
      expect(s.error?.status_code).toBe(status);
      expect(s.error?.message).toMatch(message);
      const n = await nonStreamed(client);
      expect(n.name).toBe('ResponseError');
      expect(n.status_code).toBe(status);
      expect(sim.counters.faultsInjected).toBe(2);
      // the fault is used up: the third request succeeds
      expect((await client.chat({ model: MODEL, messages: msgs })).message.content).toBe(REPLY);
    });
  }

  it('runnerCrash unloads the runner: the next request loads again', async () => {
    const { client, sim } = await setup({ faults: [{ fault: { kind: 'runnerCrash' }, onRequest: 1 }] });
    await client.chat({ model: MODEL, messages: msgs });
    await expect(client.chat({ model: MODEL, messages: msgs })).rejects.toMatchObject({ status_code: 500 });
    await client.chat({ model: MODEL, messages: msgs });
    expect(sim.counters.loads).toBe(2);
  });
});

describe('stream faults -> what the real client throws', () => {
  it('streamErrorLine inside a 200 stream -> plain Error(msg) after the frames', async () => {
    const { client } = await withFault({ kind: 'streamErrorLine', afterFrames: 2, error: 'an error was encountered while running the model: unexpected EOF' });
    const s = await streamed(client);
    expect(s.frames).toBe(2);
    expect(s.text).toBe(defaultTokenize(REPLY).slice(0, 2).join(''));
    expect(s.error?.constructor).toBe(Error);
    expect(s.error?.name).toBe('Error');
    expect(s.error?.message).toBe('an error was encountered while running the model: unexpected EOF');
  });

  it('streamErrorLine before any frame -> an HTTP 500, as streamResponse does when nothing was written', async () => {
    const { client } = await withFault({ kind: 'streamErrorLine', afterFrames: 0, error: 'boom' }, { times: 2 });
    const s = await streamed(client);
    expect(s.error?.name).toBe('ResponseError');
    expect(s.error?.status_code).toBe(500);
    expect((await nonStreamed(client)).status_code).toBe(500);
  });

  it('dropBeforeHeaders -> TypeError fetch failed', async () => {
    const { client, sim } = await withFault({ kind: 'dropBeforeHeaders' }, { times: 2 });
    const s = await streamed(client);
    expect(s.error).toBeInstanceOf(TypeError);
    expect(s.error?.message).toBe('fetch failed');
    const n = await nonStreamed(client);
    expect(n).toBeInstanceOf(TypeError);
    expect(n.message).toBe('fetch failed');
    expect(sim.counters.cancellations).toBe(0);
  });

  it('dropMidStream -> TypeError terminated', async () => {
    const { client } = await withFault({ kind: 'dropMidStream', afterFrames: 3 });
    const s = await streamed(client);
    expect(s.frames).toBe(3);
    expect(s.error).toBeInstanceOf(TypeError);
    expect(s.error?.message).toBe('terminated');
  });

  it('noDoneFrame -> Did not receive done or success response in stream.', async () => {
    const { client } = await withFault({ kind: 'noDoneFrame' });
    const s = await streamed(client);
    expect(s.text).toBe(REPLY); // every piece arrived, but no done frame
    expect(s.error?.message).toBe('Did not receive done or success response in stream.');
  });

  it('slowFirstToken delays the headers; stall leaves a gap between frames', async () => {
    const { client } = await setup({
      responder: () => REPLY,
      faults: [
        { fault: { kind: 'slowFirstToken', ms: 150 }, onRequest: 0 },
        { fault: { kind: 'stall', afterFrames: 2, ms: 150 }, onRequest: 1 },
      ],
    });
    const t0 = performance.now();
    const it1 = await client.chat({ model: MODEL, messages: msgs, stream: true });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    for await (const _ of it1) {
      /* drain */
    }
    const it2 = await client.chat({ model: MODEL, messages: msgs, stream: true });
    const stamps: number[] = [];
    for await (const _ of it2) stamps.push(performance.now());
    const gaps = stamps.slice(1).map((t, i) => t - stamps[i]!);
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(140);
    expect(gaps.indexOf(Math.max(...gaps))).toBe(1); // between frame 2 and frame 3
  });

  it('codeFences wraps the JSON; cutJson cuts it with done_reason length', async () => {
    const json = JSON.stringify({ findings: [{ id: 1, text: 'total mismatch' }] });
    const { client } = await setup({
      responder: () => json,
      faults: [
        { fault: { kind: 'codeFences' }, onRequest: 0 },
        { fault: { kind: 'cutJson', keepChars: 10 }, onRequest: 1 },
      ],
    });
    const a = await client.chat({ model: MODEL, messages: msgs, format: 'json' });
    expect(a.message.content).toBe('```json\n' + json + '\n```');
    const b = await client.chat({ model: MODEL, messages: msgs, format: 'json' });
    expect(b.done_reason).toBe('length');
    expect(b.message.content).toBe(json.slice(0, 10));
    expect(() => JSON.parse(b.message.content)).toThrow();
  });

  it('splitMultibyte: bytes split inside characters still decode correctly via the real client', async () => {
    const reply = 'Zażółć gęślą jaźń — 5 € 😀 Größe';
    const { client, sim } = await setup({ responder: () => reply, faults: [{ fault: { kind: 'splitMultibyte' }, times: 2 }] });
    const s = await streamed(client);
    expect(s.error).toBeUndefined();
    expect(s.text).toBe(reply);
    // raw bytes: some chunk ends in the middle of a UTF-8 sequence
    const r = await fetch(sim.url + '/api/chat', { method: 'POST', body: JSON.stringify({ model: MODEL, messages: msgs }) });
    const reader = r.body!.getReader();
    let midChar = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const lastByte = value[value.length - 1] ?? 0;
      if (lastByte >= 0xc0) midChar++;
    }
    expect(midChar).toBeGreaterThan(0);
  });
});

describe('fault rule selection', () => {
  it('onRequest hits only that request; endpoint and model filters apply', async () => {
    const { client, sim } = await setup({
      responder: () => REPLY,
      faults: [
        { fault: { kind: 'http', status: 500, error: 'second' }, onRequest: 1 },
        { fault: { kind: 'http', status: 500, error: 'embed' }, endpoint: 'embed' },
        { fault: { kind: 'http', status: 500, error: 'qwen only' }, model: 'qwen3:8b' },
      ],
    });
    await expect(client.chat({ model: MODEL, messages: msgs })).resolves.toBeDefined();
    await expect(client.chat({ model: MODEL, messages: msgs })).rejects.toThrow('second');
    await expect(client.chat({ model: MODEL, messages: msgs })).resolves.toBeDefined();
    await expect(client.embed({ model: 'nomic-embed-text', input: 'x' })).rejects.toThrow('embed');
    await expect(client.chat({ model: 'qwen3:8b', messages: msgs })).rejects.toThrow('qwen only');
    sim.clearFaults();
    await expect(client.chat({ model: 'qwen3:8b', messages: msgs })).resolves.toBeDefined();
    sim.addFault({ fault: { kind: 'busy' }, times: 1 });
    await expect(client.chat({ model: MODEL, messages: msgs })).rejects.toMatchObject({ status_code: 503 });
    await expect(client.chat({ model: MODEL, messages: msgs })).resolves.toBeDefined();
  });

  it('probability is seeded: the same seed gives the same pattern', async () => {
    const pattern = async (seed: number) => {
      const { client } = await setup({ seed, faults: [{ fault: { kind: 'busy' }, probability: 0.5 }] });
      const out: boolean[] = [];
      for (let i = 0; i < 12; i++) {
        out.push(
          await client.chat({ model: MODEL, messages: msgs }).then(
            () => true,
            () => false,
          ),
        );
      }
      return out;
    };
    const a = await pattern(7);
    const b = await pattern(7);
    expect(a).toEqual(b);
    expect(a).toContain(true);
    expect(a).toContain(false);
  });
});
