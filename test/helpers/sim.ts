import { Ollama } from 'ollama';
import { afterEach } from 'vitest';
import { startOllamaSim, type OllamaSim, type SimOptions } from '../ollama-sim/index';

/** Starts simulators on demand, each with a real ollama client on it; every one is closed after each test. */
export function useSims(): (opts?: SimOptions) => Promise<{ sim: OllamaSim; client: Ollama }> {
  const sims: OllamaSim[] = [];
  afterEach(async () => {
    while (sims.length) await sims.pop()!.close();
  });
  return async (opts = {}) => {
    const sim = await startOllamaSim(opts);
    sims.push(sim);
    return { sim, client: new Ollama({ host: sim.url }) };
  };
}
