import { Ollama } from 'ollama';
import { createOllamaFetch, type FetchLike, type OllamaAgent } from './fetch';
import { simulatorOf } from '../../../shared/simulator';
import { parseShow, TRUNCATE_MIN_VERSION, versionAtLeast } from './models';
import type { DoneRecord, LlmTransport } from './transport';

/** Ollama's native API through the `ollama` npm client, on our own fetch (no hidden time-outs, our AbortSignal merged in). */
export function createOllamaTransport(init: { host: string; agent: OllamaAgent; fetch?: FetchLike }): LlmTransport {
  const client = (signal?: AbortSignal) =>
    new Ollama({
      host: init.host,
      fetch: createOllamaFetch({ agent: init.agent, ...(signal ? { signal } : {}), ...(init.fetch ? { baseFetch: init.fetch } : {}) }),
    });
  return {
    kind: 'ollama',
    async serverInfo(signal) {
      const answer = await client(signal).version();
      const supportsTruncate = versionAtLeast(answer.version, TRUNCATE_MIN_VERSION);
      const simulator = simulatorOf(answer);
      return { version: answer.version, supportsTruncate, refusesOverflow: supportsTruncate, ...(simulator ? { simulator } : {}) };
    },
    async listModels(signal) {
      const tags = await client(signal).list();
      return (tags.models ?? []).map((m) => ({
        name: m.name ?? m.model,
        ...(m.details?.parameter_size ? { parameterSize: m.details.parameter_size } : {}),
        ...(m.details?.quantization_level ? { quantization: m.details.quantization_level } : {}),
        ...(typeof m.size === 'number' ? { sizeBytes: m.size } : {}),
        ...(m.digest ? { digest: m.digest } : {}),
      }));
    },
    async show(model, signal) {
      return parseShow(model, await client(signal).show({ model }));
    },
    async chat(request, signal, onFrame) {
      const ollama = client(signal);
      const body: Record<string, unknown> = {
        model: request.model,
        messages: request.messages,
        stream: true,
        options: request.options,
        keep_alive: request.keepAlive,
        ...(request.format ? { format: request.format } : {}),
        ...(request.think !== undefined ? { think: request.think } : {}),
        ...(request.truncate !== undefined ? { truncate: request.truncate } : {}),
      };
      // `truncate` is not in the client's ChatRequest type; the client forwards the body as is.
      const stream = await ollama.chat(body as unknown as Parameters<typeof ollama.chat>[0] & { stream: true });
      let content = '';
      let done: DoneRecord | undefined;
      try {
        for await (const frame of stream) {
          // Newer servers may put the last piece of content in the done frame: always append it.
          const piece = frame.message?.content ?? '';
          content += piece;
          onFrame(piece);
          if (frame.done) done = frame as unknown as DoneRecord;
        }
      } finally {
        // Stop Ollama generating if we leave early for any reason.
        if (!done) stream.abort();
      }
      if (!done) throw new Error('Did not receive done or success response in stream.');
      return { content, done };
    },
    async embed(request, signal) {
      return client(signal).embed({
        model: request.model,
        input: request.input,
        options: { num_ctx: request.numCtx },
        truncate: false,
        keep_alive: request.keepAlive,
      });
    },
    async load(info, numCtx, keepAlive, signal) {
      const ollama = client(signal);
      const options = { num_ctx: numCtx };
      if (info.embedding) {
        const r = await ollama.embed({ model: info.name, input: 'load', options, keep_alive: keepAlive });
        return { total_duration: r.total_duration, load_duration: r.load_duration, prompt_eval_count: r.prompt_eval_count, done_reason: 'load' };
      }
      const r = await ollama.chat({ model: info.name, messages: [], options, keep_alive: keepAlive, stream: false });
      return r as unknown as DoneRecord;
    },
  };
}
