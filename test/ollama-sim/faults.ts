/**
 * Injected faults: which of the configured rules apply to a request (by endpoint, model, request number, a
 * remaining count or a seeded probability), and the HTTP error a scheduling-time fault answers with.
 */
import { ollamaErrors } from './errors';
import { normName } from './models';
import type { SimState } from './state';
import type { Fault } from './types';

export function pickFaults(state: SimState, endpoint: 'chat' | 'embed', index: number, model: string): Fault[] {
  const out: Fault[] = [];
  for (const rule of state.faults) {
    const ep = rule.endpoint ?? 'chat';
    if (ep !== 'any' && ep !== endpoint) continue;
    if (rule.model !== undefined && normName(rule.model) !== normName(model)) continue;
    if (rule.onRequest !== undefined && rule.onRequest !== index) continue;
    if (rule.times !== undefined && rule.times <= 0) continue;
    if (rule.probability !== undefined && !(state.rand() < rule.probability)) continue;
    if (rule.times !== undefined) rule.times--;
    out.push(rule.fault);
  }
  state.counters.faultsInjected += out.length;
  return out;
}

export const findFault = <K extends Fault['kind']>(fs: Fault[], kind: K) => fs.find((f): f is Extract<Fault, { kind: K }> => f.kind === kind);

export function httpFaultResponse(f: Fault, modelName: string, need: number, have: number): { status: number; error: string } | undefined {
  switch (f.kind) {
    case 'http':
      return { status: f.status, error: f.error };
    case 'modelNotFound':
      return { status: 404, error: ollamaErrors.notFound(modelName) };
    case 'outOfMemory':
      return { status: 500, error: ollamaErrors.oom(need, have) };
    case 'runnerCrash':
      return { status: 500, error: ollamaErrors.runnerCrash };
    case 'loadTimeout':
      return { status: 500, error: ollamaErrors.loadTimeout };
    case 'busy':
      return { status: 503, error: ollamaErrors.busy };
    case 'invalidSchema':
      return { status: 500, error: ollamaErrors.invalidSchema };
    default:
      return undefined;
  }
}
