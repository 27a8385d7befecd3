import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ollama } from 'ollama';
import { defaultTokenize, minimalInstance, startOllamaSim, type OllamaSim } from '../../ollama-sim/index';

let sim: OllamaSim;
let client: Ollama;

beforeAll(async () => {
  sim = await startOllamaSim({ models: undefined });
  client = new Ollama({ host: sim.url });
});
afterAll(async () => {
  await sim.close();
});

async function rejection(p: Promise<unknown>): Promise<Error & { status_code?: number; cause?: unknown }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { status_code?: number };
  }
  throw new Error('expected a rejection');
}

async function raw(path: string, body?: unknown): Promise<{ status: number; type: string | null; json: unknown }> {
  const r = await fetch(sim.url + path, body === undefined ? {} : { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, type: r.headers.get('content-type'), json: text ? JSON.parse(text) : null };
}

describe('metadata endpoints', () => {
  it('GET /api/version', async () => {
    // The real field, plus the mark that lets the app say it talks to a simulator, not a model.
    expect(await client.version()).toEqual({ version: '0.12.11', simulator: "Offline Audit's Ollama simulator" });
  });

  it('GET /api/tags lists the models with details', async () => {
    const { models } = await client.list();
    expect(models.map((m) => m.name)).toEqual(['qwen3:8b', 'llama3.1:8b', 'gemma3:12b', 'nomic-embed-text:latest']);
    const q = models[0]!;
    expect(q.model).toBe('qwen3:8b');
    expect(q.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(q.size).toBeGreaterThan(1e9);
    expect(typeof q.modified_at).toBe('string');
    expect(q.details).toMatchObject({ format: 'gguf', family: 'qwen3', families: ['qwen3'], parameter_size: '8.2B', quantization_level: 'Q4_K_M' });
  });

  it('POST /api/show: model_info is a plain object with <arch>.context_length; capabilities', async () => {
    const show = await client.show({ model: 'qwen3:8b' });
    const info = show.model_info as unknown as Record<string, unknown>;
    expect(info).not.toBeInstanceOf(Map);
    const arch = info['general.architecture'] as string;
    expect(arch).toBe('qwen3');
    expect(info[`${arch}.context_length`]).toBe(40960);
    expect(show.capabilities).toEqual(['completion', 'tools', 'thinking']);
    expect(show.details.parameter_size).toBe('8.2B');
    expect(typeof show.template).toBe('string');
    expect(show.parameters ?? '').not.toMatch(/num_ctx/);
    const emb = await client.show({ model: 'nomic-embed-text' });
    expect(emb.capabilities).toEqual(['embedding']);
  });

  it('POST /api/show reports a Modelfile num_ctx in parameters, and it applies by default', async () => {
    const s2 = await startOllamaSim({
      models: [
        {
          name: 'custom:latest',
          architecture: 'llama',
          contextLength: 8192,
          capabilities: ['completion'],
          parameterSize: '1B',
          quantization: 'Q8_0',
          digest: 'a'.repeat(64),
          sizeBytes: 1e9,
          modelfileNumCtx: 8192,
        },
      ],
    });
    try {
      const c = new Ollama({ host: s2.url });
      const show = await c.show({ model: 'custom' });
      expect(show.parameters).toMatch(/^num_ctx\s+8192$/m);
      await c.chat({ model: 'custom', messages: [] });
      expect(s2.loaded()[0]?.numCtx).toBe(8192);
      await c.chat({ model: 'custom', messages: [], options: { num_ctx: 2048 } });
      expect(s2.loaded()[0]?.numCtx).toBe(2048);
    } finally {
      await s2.close();
    }
  });

  it('GET /api/ps shows loaded runners with expires_at and context_length', async () => {
    await client.chat({ model: 'llama3.1:8b', messages: [], options: { num_ctx: 8192 } });
    const ps = await client.ps();
    const m = ps.models.find((x) => x.name === 'llama3.1:8b');
    expect(m).toBeDefined();
    expect((m as unknown as { context_length: number }).context_length).toBe(8192);
    expect(m!.size_vram).toBeGreaterThan(0);
    const exp = new Date(m!.expires_at).getTime();
    expect(exp - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(exp - Date.now()).toBeLessThanOrEqual(5 * 60_000 + 1000);
    // keep_alive 0 with no messages unloads
    const r = await client.chat({ model: 'llama3.1:8b', messages: [], keep_alive: 0 });
    expect(r.done_reason).toBe('unload');
    expect((await client.ps()).models.find((x) => x.name === 'llama3.1:8b')).toBeUndefined();
  });

  it('POST /api/embed returns deterministic normalised 64-d vectors', async () => {
    const r = await client.embed({ model: 'nomic-embed-text', input: ['alpha beta gamma', 'alpha beta gamma', 'delta'] });
    expect(r.model).toBe('nomic-embed-text');
    expect(r.embeddings).toHaveLength(3);
    expect(r.embeddings[0]).toHaveLength(64);
    expect(r.embeddings[0]).toEqual(r.embeddings[1]);
    expect(r.embeddings[0]).not.toEqual(r.embeddings[2]);
    const norm = Math.sqrt(r.embeddings[0]!.reduce((s, x) => s + x * x, 0));
    expect(norm).toBeCloseTo(1, 6);
    expect(r.prompt_eval_count).toBe(defaultTokenize('alpha beta gamma').length * 2 + defaultTokenize('delta').length);
    expect(r.total_duration).toBeGreaterThan(0);
    expect(Number.isInteger(r.load_duration)).toBe(true);
    const single = await client.embed({ model: 'nomic-embed-text', input: 'delta' });
    expect(single.embeddings[0]).toEqual(r.embeddings[2]);
  });
});

describe('errors exactly as Ollama sends them', () => {
  it('unknown model -> 404 ResponseError', async () => {
    const e = await rejection(client.chat({ model: 'nope:1b', messages: [{ role: 'user', content: 'hi' }] }));
    expect(e.name).toBe('ResponseError');
    expect(e.status_code).toBe(404);
    expect(e.message).toBe("model 'nope:1b' not found");
    const s = await rejection(client.show({ model: 'nope' }));
    expect(s.status_code).toBe(404);
  });

  it('missing model / missing body -> 400', async () => {
    const e = await rejection(client.chat({ model: '', messages: [] }));
    expect(e.status_code).toBe(400);
    expect(e.message).toBe('model is required');
    const r = await raw('/api/chat', '');
    expect(r.status).toBe(400);
    expect(r.type).toContain('application/json');
    expect(r.json).toEqual({ error: 'missing request body' });
  });

  it('num_ctx of the wrong type -> 500; a float is truncated like Go does', async () => {
    const e = await rejection(
      client.chat({ model: 'llama3.1:8b', messages: [{ role: 'user', content: 'x' }], options: { num_ctx: '4096' as unknown as number } }),
    );
    expect(e.status_code).toBe(500);
    expect(e.message).toBe('option "num_ctx" must be of type integer');
    const ok = await client.chat({ model: 'llama3.1:8b', messages: [{ role: 'user', content: 'x' }], options: { num_ctx: 4096.7 } });
    expect(ok.done).toBe(true);
    expect(sim.loaded().find((l) => l.model === 'llama3.1:8b')?.numCtx).toBe(4096);
  });

  it('think on a model without the capability -> 400; think:false is fine', async () => {
    const e = await rejection(client.chat({ model: 'llama3.1:8b', messages: [{ role: 'user', content: 'x' }], think: true }));
    expect(e.status_code).toBe(400);
    expect(e.message).toBe('"llama3.1:8b" does not support thinking');
    const ok = await client.chat({ model: 'llama3.1:8b', messages: [{ role: 'user', content: 'x' }], think: false });
    expect(ok.message.content).toBe('OK');
  });

  it('embed on a chat model and chat on an embedding model -> 400', async () => {
    const e = await rejection(client.embed({ model: 'llama3.1:8b', input: 'x' }));
    expect(e.status_code).toBe(400);
    expect(e.message).toBe('"llama3.1:8b" does not support embeddings');
    const c = await rejection(client.chat({ model: 'nomic-embed-text', messages: [{ role: 'user', content: 'x' }] }));
    expect(c.status_code).toBe(400);
    expect(c.message).toBe('"nomic-embed-text" does not support chat');
  });

  it('invalid keep_alive and unknown path', async () => {
    const e = await rejection(client.chat({ model: 'llama3.1:8b', messages: [], keep_alive: '-1' }));
    expect(e.status_code).toBe(400);
    expect(e.message).toContain('missing unit');
    const r = await fetch(sim.url + '/api/nothing');
    expect(r.status).toBe(404);
  });

  it('nothing listening -> TypeError fetch failed with ECONNREFUSED', async () => {
    const s2 = await startOllamaSim();
    const c = new Ollama({ host: s2.url });
    await s2.close();
    const e = await rejection(c.version());
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toBe('fetch failed');
    expect(String((e.cause as { code?: string })?.code)).toBe('ECONNREFUSED');
  });
});

describe('/api/generate (minimal)', () => {
  it('loads with an empty prompt and answers a prompt', async () => {
    const load = await client.generate({ model: 'qwen3:8b', prompt: '' });
    expect(load.done_reason).toBe('load');
    const r = await client.generate({ model: 'qwen3:8b', prompt: 'hello', system: 'be brief', think: false });
    expect(r.response).toBe('OK');
    expect(r.done).toBe(true);
    expect(sim.requests.at(-1)?.endpoint).toBe('generate');
    expect(sim.requests.at(-1)?.prompt).toContain('<|system|>\nbe brief\n<|user|>\nhello\n');
  });
});

describe('helpers', () => {
  it('default tokenizer is not chars/3.5 and round-trips', () => {
    const text = 'The auditors reviewed 2024 statements.\nTotal: 1,234.56 EUR';
    const toks = defaultTokenize(text);
    expect(toks.join('')).toBe(text);
    expect(toks).toContain('\n');
    expect(toks.length).not.toBe(Math.ceil(text.length / 3.5));
  });

  it('minimalInstance builds a valid instance', () => {
    const schema = {
      type: 'object',
      properties: {
        findings: { type: 'array', items: { type: 'object' } },
        severity: { type: 'string', enum: ['high', 'low'] },
        score: { type: 'number', minimum: 1 },
        ok: { type: 'boolean' },
        note: { type: 'string' },
        optional: { type: 'string' },
        ref: { $ref: '#/$defs/r' },
      },
      required: ['findings', 'severity', 'score', 'ok', 'note', 'ref'],
      $defs: { r: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } },
    };
    expect(minimalInstance(schema)).toEqual({ findings: [], severity: 'high', score: 1, ok: false, note: '', ref: { id: 0 } });
  });
});
