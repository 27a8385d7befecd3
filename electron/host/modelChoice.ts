/**
 * What the settings pane needs to offer models honestly: which installed
 * models are embedding models (never offered for the chat stages), and which
 * model "Automatic" resolves to on this server for each stage, by the rule a
 * run uses (the first installed model of the recommended list).
 */
import { MODEL_STAGES, type ModelStage } from '../../shared/contract';
import { DEFAULT_LLM_SETTINGS, sameModel } from '../engine/llm';

export function isEmbeddingModel(name: string): boolean {
  return /embed|minilm|bge-/i.test(name) || DEFAULT_LLM_SETTINGS.recommendedEmbedModels.some((m) => sameModel(name, m));
}

export function automaticModels(installed: readonly string[]): Record<ModelStage, string | null> {
  const pick = (recommended: readonly string[]) =>
    recommended.map((want) => installed.find((name) => sameModel(name, want))).find((name) => name !== undefined) ?? null;
  return Object.fromEntries(
    MODEL_STAGES.map((stage) => [stage, pick(stage === 'embed' ? DEFAULT_LLM_SETTINGS.recommendedEmbedModels : DEFAULT_LLM_SETTINGS.recommendedModels)]),
  ) as Record<ModelStage, string | null>;
}
