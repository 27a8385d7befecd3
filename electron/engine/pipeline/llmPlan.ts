import { DEFAULT_PROFILE } from '../../../shared/findings';
import { extractionInstructions } from '../extract';
import { PIPELINE_STAGES, type PipelineStage } from '../../../shared/pipeline';
import { findInstalled, planContext, type LlmClient, type ProbeResult } from '../llm';
import type { RunSettings } from './settings';

/** What every LLM call of a run shares: the models, and one num_ctx so the model never reloads mid-run. */
export interface LlmRunPlan {
  models: Record<PipelineStage, string>;
  /** Map step of long summaries, when the user chose a faster model for it. */
  summaryMapModel?: string;
  numCtx: number;
  /** Largest chunk (estimated tokens) an extraction prompt can carry at numCtx. */
  chunkTokenBudget: number;
  /** Text (estimated tokens) packed into one extraction call: consecutive leaves up to this; at least one leaf. */
  unitTokenBudget: number;
  /** All the room numCtx leaves an extraction prompt's text once the instructions and the reply have theirs (estimated tokens). */
  textTokenRoom: number;
  replyTokens: number;
  probe: ProbeResult;
}

/**
 * What the run's plan event records (one per start or resume, single endpoint or pool): the models with the digest the
 * server listed for each (a report must say exactly which weights produced it), the context, and whether the server
 * said it is a simulator (shared/simulator.ts). review/runModels.ts and report/reportData.ts read it back.
 */
export function planRecord(plan: LlmRunPlan): Record<string, unknown> {
  return {
    models: plan.models,
    digests: Object.fromEntries(Object.values(plan.models).map((name) => [name, findInstalled(name, plan.probe.installed)?.digest ?? null])),
    numCtx: plan.numCtx,
    chunkTokenBudget: plan.chunkTokenBudget,
    warnings: plan.probe.warnings,
    ...(plan.probe.simulator ? { simulator: plan.probe.simulator } : {}),
  };
}

/**
 * Resolves the models, plans num_ctx from the largest prompt the run sends
 * (extraction: instructions + chunk + reply), then probes Ollama with a
 * load-only request at that num_ctx, so an unreachable server, a missing
 * model or out-of-memory stop the run before its first chunk with a sentence
 * that says what to do.
 */
export async function prepareLlmRun(llm: LlmClient, settings: RunSettings, signal?: AbortSignal): Promise<LlmRunPlan> {
  // Reachability first, tried once: a stopped Ollama must say OLLAMA_UNREACHABLE at once, not after the
  // transient-error back-off that model resolution would apply to a refused connection.
  await llm.probe([], 0, signal);
  const resolved = await llm.resolveModels({ stages: PIPELINE_STAGES, flags: settings.llm.models }, signal);
  const models = Object.fromEntries(PIPELINE_STAGES.map((stage) => [stage, resolved.models[stage]!])) as LlmRunPlan['models'];
  const extractModel = models.extract;
  const info = await llm.modelInfo(extractModel, signal);
  const instructionTokens = llm.estimator.estimateText(extractionInstructions(settings.profile ?? DEFAULT_PROFILE), extractModel) + 400;
  const fixed = settings.llm.numCtx;
  // num_ctx carries the larger of a leaf and a unit; leaves keep their own (retrieval-sized) budget.
  const unitTokens = settings.llm.unitTokens ?? 0;
  const plan = planContext({
    modelContextLength: info.contextLength ?? 0,
    desiredChunkTokens: Math.max(settings.llm.desiredChunkTokens, unitTokens),
    instructionTokens,
    outputTokens: settings.llm.replyTokens,
    // A fixed size is the only size: floor and cap both at it (still clamped to what the model supports).
    ...(fixed ? { floor: fixed, cap: fixed } : {}),
  });
  const summaryMapModel = settings.llm.summaryMapModel;
  // Every model of the run is loaded once at the run's num_ctx now, the map model included.
  const probe = await llm.probe([...new Set([...Object.values(models), ...(summaryMapModel ? [summaryMapModel] : [])])], plan.numCtx, signal);
  return {
    models,
    ...(summaryMapModel ? { summaryMapModel } : {}),
    numCtx: plan.numCtx,
    chunkTokenBudget: Math.min(plan.chunkTokenBudget, settings.llm.desiredChunkTokens),
    unitTokenBudget: Math.min(plan.chunkTokenBudget, unitTokens),
    textTokenRoom: plan.numCtx - Math.ceil(instructionTokens) - Math.ceil(settings.llm.replyTokens) - plan.reserveTokens,
    replyTokens: settings.llm.replyTokens,
    probe,
  };
}
