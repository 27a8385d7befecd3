/**
 * Inference endpoints: where the model calls of a run go. Two kinds speak two APIs:
 * - `ollama`: Ollama's native API (`/api/chat`), which can set `num_ctx` per request. Preferred for Ollama hosts:
 *   Ollama's own `/v1` surface cannot set the context and silently uses a small default.
 * - `openai`: the OpenAI-compatible `/v1/chat/completions` API that llama.cpp's `llama-server`, vLLM, LM Studio and
 *   LocalAI share. Its context size is not in the API: it is a setting of the endpoint (read from `/v1/models`
 *   `max_model_len` where the server lists it), and every prompt is planned to fit it.
 */
export const ENDPOINT_KINDS = ['ollama', 'openai'] as const;
export type EndpointKind = (typeof ENDPOINT_KINDS)[number];

/** Context size of an OpenAI-compatible endpoint that neither the user nor the server states (llama-server's usual -c). */
export const DEFAULT_OPENAI_CONTEXT_TOKENS = 8192;

export interface EndpointSettings {
  kind: EndpointKind;
  /** Base URL: `http://host:11434` for Ollama, `http://host:8000/v1` for an OpenAI-compatible server. */
  url: string;
  /**
   * Files analysed on this endpoint at once (one request in flight per file): 1 for a workstation Ollama, the
   * server's slot count for llama-server (`-np`), more for vLLM.
   */
  concurrency: number;
  /** OpenAI-compatible only: the server's context size in tokens (absent: `/v1/models` max_model_len, else the default). */
  contextTokens?: number;
  /**
   * Where the API key comes from, never the key itself: on the CLI the name of an environment variable, in the app
   * the id of a key kept by the operating system's keychain (Electron safeStorage). Absent: no key is sent.
   */
  keyRef?: string;
  /** A name to show ("GPU box 2"); default: the URL's host. */
  label?: string;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '0.0.0.0']);

/** Whether a URL points at this machine (loopback): only then may document text travel over plain http. */
export function isLoopbackUrl(url: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname.endsWith('.localhost');
}

/**
 * The warning a user must see before documents go to an endpoint, or null: text sent over plain http to another
 * machine can be read by anyone on the network between the two.
 */
export function plainHttpWarning(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' || isLoopbackUrl(url)) return null;
  return `Document text will be sent unencrypted over plain http to ${parsed.host}, another machine: anyone on the network between them can read it. Use https, or a server on this machine.`;
}

/** How an endpoint is named in progress lines, the run card and the log: its label, else kind and host (never a key). */
export function endpointLabel(endpoint: Pick<EndpointSettings, 'kind' | 'url' | 'label'>): string {
  if (endpoint.label) return endpoint.label;
  try {
    return `${endpoint.kind === 'ollama' ? 'Ollama' : 'OpenAI-compatible'} ${new URL(endpoint.url).host}`;
  } catch {
    return endpoint.url;
  }
}
