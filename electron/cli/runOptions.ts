/**
 * The model options analyze and compare share (`--model`, `--model-<stage>`), as the models of a run's choices
 * (shared/runSettings.ts runSettingsFrom makes the run's settings from them, as the app does from its Settings).
 * Light on purpose: analyze reads it before it loads the engine.
 */
import { PIPELINE_STAGES, type PipelineStage } from '../../shared/pipeline';

export function modelChoices(values: { model?: unknown } & Record<string, unknown>): Partial<Record<PipelineStage | 'default', string>> {
  const models: Partial<Record<PipelineStage | 'default', string>> = {};
  if (typeof values.model === 'string' && values.model) models.default = values.model;
  for (const stage of PIPELINE_STAGES) {
    const value = values[`model-${stage}`];
    if (typeof value === 'string') models[stage] = value;
  }
  return models;
}
