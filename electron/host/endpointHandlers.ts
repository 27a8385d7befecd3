/** Settings › Inference: the live check of one endpoint, its API key, and whether a key can be stored safely here. */
import { DEFAULT_OPENAI_CONTEXT_TOKENS, plainHttpWarning } from '../../shared/endpoints';
import type { EndpointStatus } from '../../shared/contract';
import { AppError, ErrorCode, toErrorInfo } from '../../shared/errors';
import { createLlmClient, resolveEndpoint } from '../engine/llm';
import type { HostContext } from './context';
import type { HandlerModule } from './handlerMap';

const CHECK_TIMEOUT_MS = 3000;

export function endpointHandlers(ctx: HostContext): HandlerModule {
  return {
    'endpoints.check': async ({ endpoint, apiKey }) => {
      const base: EndpointStatus = {
        url: endpoint.url,
        kind: endpoint.kind,
        reachable: false,
        models: [],
        contextTokens: null,
        slots: null,
        warning: plainHttpWarning(endpoint.url),
        error: null,
      };
      let client;
      try {
        // No retries: the user is looking at the page; one quick answer or why not.
        // A key typed and not stored yet is what the user means to check with; otherwise the stored one.
        const { keyRef: _stored, ...withoutKey } = endpoint;
        const resolved = apiKey ? { ...resolveEndpoint(withoutKey, undefined), apiKey } : resolveEndpoint(endpoint, (ref) => ctx.keys.get(ref));
        client = createLlmClient({ endpoint: resolved, settings: { retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, jitter: 0 } } });
      } catch (error) {
        return { ...base, error: toErrorInfo(error) };
      }
      try {
        const signal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
        const probe = await client.probe([], 0, signal);
        const models = (await client.listModels(signal)).map((m) => m.name);
        const contextTokens =
          endpoint.kind === 'openai' && models[0] ? ((await client.modelInfo(models[0], signal)).contextLength ?? DEFAULT_OPENAI_CONTEXT_TOKENS) : null;
        return { ...base, reachable: true, models, contextTokens, slots: probe.slots ?? null };
      } catch (error) {
        return { ...base, error: toErrorInfo(error) };
      } finally {
        await client.close().catch(() => undefined);
      }
    },
    'endpoints.setKey': ({ keyRef, key }) => {
      if (key !== '' && !ctx.keyStorage.canStore) throw new AppError(ErrorCode.KEY_STORAGE_UNSAFE, ctx.keyStorage.message);
      ctx.keys.set(keyRef, key);
      return { keyRef, stored: key !== '' };
    },
    'endpoints.keyStorage': () => ctx.keyStorage,
  };
}
