import { MODEL_STAGES, type AppSettings, type OllamaStatus } from '../../shared/contract';
import { ErrorCode, toErrorInfo } from '../../shared/errors';
import { simulatorOf } from '../../shared/simulator';
import { createLlmClient, resolveHost, sameModel } from '../engine/llm';
import { automaticModels, isEmbeddingModel } from './modelChoice';

const PULL_HINT = 'qwen3:8b';

/**
 * The settings page's live check: one quick request for the version and one
 * for the installed models, no retries (the user is typing), and a sentence
 * for each thing that would stop a run.
 */
export async function checkOllama(
  hostSetting: string,
  models: AppSettings['models'],
  options: { timeoutMs?: number; env?: Record<string, string | undefined> } = {},
): Promise<OllamaStatus> {
  const host = resolveHost(hostSetting, options.env ?? process.env);
  const timeoutMs = options.timeoutMs ?? 3000;
  const base: OllamaStatus = { host, reachable: false, version: null, models: [], missing: [], guidance: [], error: null };
  let version: string;
  let simulator: string | null;
  try {
    const response = await fetch(`${host}/api/version`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body = (await response.json()) as { version?: unknown };
    if (typeof body.version !== 'string') throw new Error('the answer is not from Ollama');
    version = body.version;
    simulator = simulatorOf(body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ...base,
      error: { code: ErrorCode.OLLAMA_UNREACHABLE, message: `Ollama does not answer at ${host} (${reason}).` },
      guidance: [
        `Start Ollama (run \`ollama serve\`, or open the Ollama app) and check that it listens on ${host}.`,
        'Not installed yet? Install Ollama from ollama.com, then pull a model, for example `ollama pull ' + PULL_HINT + '`.',
        'If Ollama runs on another port or machine, enter its address above (for example http://127.0.0.1:11434).',
      ],
    };
  }
  const client = createLlmClient({ host, settings: { retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, jitter: 0 } } });
  try {
    const installed = await client.listModels(AbortSignal.timeout(timeoutMs));
    const missing = MODEL_STAGES.flatMap((stage) => {
      const model = models[stage];
      return model && !installed.some((m) => sameModel(m.name, model)) ? [{ stage, model }] : [];
    });
    const guidance: string[] = [];
    if (installed.length === 0) guidance.push(`No model is installed. Run \`ollama pull ${PULL_HINT}\` (and \`ollama pull nomic-embed-text\` for embeddings).`);
    for (const m of missing) guidance.push(`The ${m.stage} model ${m.model} is not installed. Run \`ollama pull ${m.model}\`, or choose an installed model.`);
    const views = installed.map((m) => ({ ...m, embedding: isEmbeddingModel(m.name) }));
    return {
      ...base,
      reachable: true,
      version,
      models: views,
      missing,
      guidance,
      automatic: automaticModels(installed.map((m) => m.name)),
      ...(simulator ? { simulator } : {}),
    };
  } catch (error) {
    return { ...base, reachable: true, version, error: toErrorInfo(error), guidance: ['Ollama answered but could not list its models. Check its log.'] };
  } finally {
    await client.close().catch(() => undefined);
  }
}
