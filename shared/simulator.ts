/**
 * A stand-in server that is not a language model says so, and the app says so wherever it names a model.
 *
 * The project's own Ollama simulator (test/ollama-sim, `npm run ollama-sim`) answers from scripts: it lets someone
 * without a GPU see the pipeline run, and the tests run every stage against real HTTP. It puts SIMULATOR_FIELD in
 * the answer a server gives about itself (Ollama's /api/version, an OpenAI-compatible server's /models list); real
 * servers never send it. A run against it records that in its plan, and the report, the terminal and the window add
 * "simulator" beside every model name, so scripted findings are never mistaken for a model's.
 */

/** The field of /api/version (and of an OpenAI-compatible /models answer) holding the stand-in's description. */
export const SIMULATOR_FIELD = 'simulator';

/** The stand-in's description from a server's self-description, or null for a real server. */
export function simulatorOf(body: unknown): string | null {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[SIMULATOR_FIELD] : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** What follows every model name of a simulated run. */
export const SIMULATED_SUFFIX = ' (simulator, not a language model)';

/** "qwen3:8b (simulator, not a language model)": a model name as every view shows it for a simulated run. */
export function modelLabel(name: string, simulator: string | null | undefined): string {
  return simulator ? `${name}${SIMULATED_SUFFIX}` : name;
}

/** The sentence a simulated run's report and terminal say once, near the models. */
export function simulatorNotice(simulator: string): string {
  return `The models named here were answered by ${simulator}: a stand-in that answers from scripts, not a language model. Its findings show the pipeline working; they are not an analysis.`;
}
