/**
 * Which models a run used, with the digest Ollama listed for each, so a
 * report can say exactly what produced its findings.
 *
 * Source: the run's info event written before the first document
 * (pipeline/runner.ts: `data.models` = stage -> model name). A digest is read from
 * `data.digests` (model name -> digest) or `data.installed` ([{ name, digest }],
 * the probe's model list) when the run logged one; runs that did not log
 * digests report `digest: null`. Models that only appear in the run's LLM
 * call log (no event) are listed under their call purpose.
 */
import type { RunModel } from '../../../shared/review';
import { simulatorOf } from '../../../shared/simulator';
import type { ReadDb } from '../store';
import { runCalledModels, runInfoEventData } from './store';

export interface RunModels {
  runId: number;
  models: RunModel[];
  numCtx: number | null;
  /** The run logged its model plan (false for runs without an LLM stage or from before it was logged). */
  logged: boolean;
  /** Every model has a digest. */
  complete: boolean;
  /** The server said it is a stand-in, not a language model (shared/simulator.ts): its description; null for a real one. */
  simulator: string | null;
}

const sameModel = (a: string, b: string): boolean => {
  const norm = (s: string) => (s.includes(':') ? s : `${s}:latest`).toLowerCase();
  return norm(a) === norm(b);
};

function digestIn(data: Record<string, unknown>, name: string): string | null {
  const digests = data['digests'];
  if (digests && typeof digests === 'object' && !Array.isArray(digests)) {
    for (const [model, digest] of Object.entries(digests as Record<string, unknown>)) if (sameModel(model, name) && typeof digest === 'string') return digest;
  }
  const installed = data['installed'];
  if (Array.isArray(installed)) {
    for (const m of installed as unknown[]) {
      if (!m || typeof m !== 'object') continue;
      const entry = m as Record<string, unknown>;
      if (typeof entry['name'] === 'string' && sameModel(entry['name'], name) && typeof entry['digest'] === 'string') return entry['digest'];
    }
  }
  return null;
}

export function getRunModels(db: ReadDb, runId: number): RunModels {
  let plan: Record<string, unknown> | undefined;
  for (const data of runInfoEventData(db, runId)) {
    if (
      data &&
      typeof data === 'object' &&
      !Array.isArray(data) &&
      (data as Record<string, unknown>)['models'] &&
      typeof (data as Record<string, unknown>)['models'] === 'object'
    ) {
      plan = data as Record<string, unknown>;
    }
  }
  const models: RunModel[] = [];
  if (plan) {
    for (const [stage, name] of Object.entries(plan['models'] as Record<string, unknown>)) {
      if (typeof name === 'string') models.push({ stage, name, digest: digestIn(plan, name) });
    }
  }
  for (const c of runCalledModels(db, runId)) {
    if (!models.some((m) => sameModel(m.name, c.model))) models.push({ stage: c.purpose, name: c.model, digest: plan ? digestIn(plan, c.model) : null });
  }
  const numCtx = plan && typeof plan['numCtx'] === 'number' ? (plan['numCtx'] as number) : null;
  return {
    runId,
    models,
    numCtx,
    logged: plan !== undefined,
    complete: models.length > 0 && models.every((m) => m.digest !== null),
    simulator: plan ? simulatorOf(plan) : null,
  };
}
