import { AppError, ErrorCode } from '../../../shared/errors';
import { LLM_STAGES, type LlmSettings, type LlmStage } from './types';

/** An installed model as /api/tags lists it. */
export interface InstalledModel {
  name: string;
  parameterSize?: string;
  quantization?: string;
  sizeBytes?: number;
  /** Content digest from Ollama's model list: names move (a re-pull), digests say exactly which weights ran. */
  digest?: string;
}

/** What /api/show tells us about one model. */
export interface ModelInfo {
  name: string;
  architecture?: string;
  /** `<arch>.context_length`: the most the model supports. */
  contextLength?: number;
  /** A `num_ctx` set in the Modelfile's parameters, if any. */
  modelfileNumCtx?: number;
  capabilities: string[];
  thinking: boolean;
  embedding: boolean;
}

/** `llama3.1` and `llama3.1:latest` are the same model. */
export function sameModel(a: string, b: string): boolean {
  const norm = (s: string) => (s.includes(':') ? s : `${s}:latest`).toLowerCase();
  return norm(a) === norm(b);
}

export function findInstalled(name: string, installed: readonly InstalledModel[]): InstalledModel | undefined {
  return installed.find((m) => sameModel(m.name, name));
}

export function parseShow(name: string, show: { model_info?: unknown; capabilities?: unknown; parameters?: unknown }): ModelInfo {
  // model_info is a plain JSON object at runtime even though the client types it as a Map.
  const raw = show.model_info;
  const info: Record<string, unknown> = raw instanceof Map ? Object.fromEntries(raw) : raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const architecture = typeof info['general.architecture'] === 'string' ? (info['general.architecture'] as string) : undefined;
  const ctx = architecture ? info[`${architecture}.context_length`] : undefined;
  const capabilities = Array.isArray(show.capabilities) ? show.capabilities.filter((c): c is string => typeof c === 'string') : [];
  const params = typeof show.parameters === 'string' ? show.parameters : '';
  const numCtxMatch = /^\s*num_ctx\s+(\d+)/m.exec(params);
  return {
    name,
    ...(architecture ? { architecture } : {}),
    ...(typeof ctx === 'number' && ctx > 0 ? { contextLength: ctx } : {}),
    ...(numCtxMatch?.[1] ? { modelfileNumCtx: Number(numCtxMatch[1]) } : {}),
    capabilities,
    thinking: capabilities.includes('thinking'),
    embedding: capabilities.includes('embedding') && !capabilities.includes('completion'),
  };
}

export interface ResolveModelsInput {
  /** Which stages need a model; default every stage but embed. */
  stages?: readonly LlmStage[];
  /** Command-line flags; `default` applies to every stage without its own. */
  flags?: Partial<Record<LlmStage | 'default', string>>;
}

export interface ResolvedModels {
  models: Partial<Record<LlmStage, string>>;
  source: Partial<Record<LlmStage, 'flag' | 'settings' | 'recommended'>>;
}

/**
 * Per-stage model: flag, then settings (stage, then default), then the first
 * installed model of the recommended list. Explicit choices are checked by
 * the probe (MODEL_NOT_FOUND with the pull command), not here.
 */
export function resolveModelsFrom(installed: readonly InstalledModel[], settings: LlmSettings, input: ResolveModelsInput = {}): ResolvedModels {
  const stages = input.stages ?? LLM_STAGES.filter((s) => s !== 'embed');
  const flags = input.flags ?? {};
  const out: ResolvedModels = { models: {}, source: {} };
  for (const stage of stages) {
    const fromFlag = flags[stage] ?? (stage === 'embed' ? undefined : flags.default);
    const fromSettings = settings.models[stage] ?? (stage === 'embed' ? undefined : settings.defaultModel);
    if (fromFlag) {
      out.models[stage] = fromFlag;
      out.source[stage] = 'flag';
      continue;
    }
    if (fromSettings) {
      out.models[stage] = fromSettings;
      out.source[stage] = 'settings';
      continue;
    }
    const list = stage === 'embed' ? settings.recommendedEmbedModels : settings.recommendedModels;
    const found = list.map((name) => findInstalled(name, installed)).find((m) => m !== undefined);
    if (!found) {
      const first = list[0] ?? 'qwen3:8b';
      throw new AppError(
        ErrorCode.NO_MODEL_INSTALLED,
        stage === 'embed'
          ? `No embedding model is installed in Ollama. Run \`ollama pull ${first}\`, or choose an installed embedding model in the settings.`
          : `No recommended model is installed in Ollama. Run \`ollama pull ${first}\` (or another of: ${list.join(', ')}), or choose an installed model in the settings.`,
        { stage, installed: installed.map((m) => m.name), recommended: list },
      );
    }
    out.models[stage] = found.name;
    out.source[stage] = 'recommended';
  }
  return out;
}

/** "0.12.11" >= "0.12.6"; unparsable versions count as old (the safe side: truncation is then detected, not assumed refused). */
export function versionAtLeast(version: string, min: string): boolean {
  const parse = (v: string) => /^v?(\d+)\.(\d+)\.(\d+)/.exec(v.trim())?.slice(1).map(Number);
  const a = parse(version);
  const b = parse(min);
  if (!a || !b) return false;
  if (a.every((n) => n === 0)) return false;
  for (let i = 0; i < 3; i++) {
    if (a[i]! !== b[i]!) return a[i]! > b[i]!;
  }
  return true;
}

export const TRUNCATE_MIN_VERSION = '0.12.6';
