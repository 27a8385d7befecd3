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

/** Smallest context an endpoint may be given: below it the instructions and a reply leave no room for text. */
export const MIN_ENDPOINT_CONTEXT_TOKENS = 2048;

/**
 * One `--endpoint` value of the CLI: `kind=openai,url=http://host:8000/v1,concurrency=4,context=32768,key-env=MY_KEY`
 * (also `label=…`); `kind=ollama,url=http://host:11434` for an Ollama host. Returns the endpoint, or a sentence
 * saying what is wrong with the value.
 */
export function parseEndpointSpec(spec: string): EndpointSettings | string {
  const fields = new Map<string, string>();
  for (const part of spec.split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) return `"${part}" is not key=value (in --endpoint ${spec}).`;
    const key = part.slice(0, eq).trim().toLowerCase();
    if (fields.has(key)) return `${key} is given twice (in --endpoint ${spec}).`;
    fields.set(key, part.slice(eq + 1).trim());
  }
  const known = new Set(['kind', 'url', 'concurrency', 'context', 'key-env', 'label']);
  const unknown = [...fields.keys()].filter((k) => !known.has(k));
  if (unknown.length > 0) return `Unknown --endpoint field ${unknown.join(', ')}: use kind, url, concurrency, context, key-env, label.`;
  const kind = fields.get('kind');
  if (!kind || !(ENDPOINT_KINDS as readonly string[]).includes(kind)) return `--endpoint needs kind=ollama or kind=openai; got ${kind ? `"${kind}"` : 'none'}.`;
  const url = fields.get('url');
  if (!url) return `--endpoint needs url=… (e.g. ${kind === 'ollama' ? 'http://host:11434' : 'http://host:8000/v1'}).`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not a URL: write it with its scheme, e.g. http://host:8000/v1.`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `"${url}" must start with http:// or https://.`;
  if (parsed.username || parsed.password)
    return `Put no user or password in the URL ${parsed.host}: give the key with key-env=VARIABLE, so it never shows in a process list or a log.`;
  const endpoint: EndpointSettings = { kind: kind as EndpointKind, url: url.replace(/\/+$/, ''), concurrency: 1 };
  const concurrency = fields.get('concurrency');
  if (concurrency !== undefined) {
    const n = Number(concurrency);
    if (!Number.isInteger(n) || n < 1 || n > 256) return `concurrency must be a whole number from 1 to 256; got "${concurrency}".`;
    endpoint.concurrency = n;
  }
  const context = fields.get('context');
  if (context !== undefined) {
    if (kind === 'ollama') return "context= is for OpenAI-compatible endpoints; an Ollama endpoint gets the run's num_ctx (--num-ctx to fix it).";
    const n = Number(context);
    if (!Number.isInteger(n) || n < MIN_ENDPOINT_CONTEXT_TOKENS)
      return `context must be a whole number of tokens of at least ${MIN_ENDPOINT_CONTEXT_TOKENS}; got "${context}".`;
    endpoint.contextTokens = n;
  }
  const keyEnv = fields.get('key-env');
  if (keyEnv !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)) return `key-env takes the name of an environment variable (letters, digits, _), not the key itself.`;
    endpoint.keyRef = keyEnv;
  }
  const label = fields.get('label');
  if (label) endpoint.label = label;
  return endpoint;
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
