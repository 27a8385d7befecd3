/**
 * Faithful Ollama simulator: speaks Ollama's HTTP API on 127.0.0.1 so that the real `ollama` npm
 * client and the real engine run unchanged against it. See test/ollama-sim/README.md for what
 * is simulated and the deliberate deviations.
 *
 * This file is its public surface and the server; the parts take the simulator's state (state.ts)
 * as an argument: types.ts (public types), models.ts (model registry and metadata), responders.ts,
 * errors.ts (Ollama's messages), faults.ts, timing.ts (simulated time, shared with openai.ts),
 * runners.ts (loaded models), scheduler.ts, protocol.ts (wire format), completion.ts (chat and
 * generate), embed.ts, router.ts, util.ts.
 */
import { serveOnLoopback } from './loopback';
import { sendError } from './protocol';
import { route } from './router';
import { expireRunners, expiresIso } from './runners';
import { createSimState, newCounters } from './state';
import type { OllamaSim, SimOptions } from './types';

export { defaultTokenize } from './tokenizer';
export { minimalInstance } from './schema';
export type { Fault, FaultRule, OllamaSim, Responder, SimChatRequest, SimCounters, SimModel, SimOptions, SimRates, SimReply } from './types';
export { defaultSimModels } from './models';
export { defaultResponder, schemaResponder } from './responders';
export { ollamaErrors } from './errors';
export { embedTokens, fnv1a } from './util';
export { renderPrompt } from './protocol';

export async function startOllamaSim(options: SimOptions = {}): Promise<OllamaSim> {
  const state = createSimState(options);
  const { counters, requests, runners } = state;
  const { port, close } = await serveOnLoopback(
    (req, res) => route(state, req, res),
    (res, message) => sendError(res, 500, message),
    options.port,
  );

  const sim: OllamaSim = {
    url: `http://127.0.0.1:${port}`,
    port,
    counters,
    requests,
    setResponder(fn) {
      state.responder = fn;
    },
    addFault(rule) {
      state.faults.push({ ...rule });
    },
    clearFaults() {
      state.faults = [];
    },
    resetCounters() {
      Object.assign(counters, newCounters());
      requests.length = 0;
    },
    loaded() {
      expireRunners(state);
      return [...runners.values()].map((r) => ({ model: r.model.name, numCtx: r.numCtx, expiresAt: expiresIso(state, r) }));
    },
    close,
  };
  return sim;
}
