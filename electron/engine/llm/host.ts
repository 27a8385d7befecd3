/**
 * Where Ollama listens: settings first, then OLLAMA_HOST (which the npm client
 * ignores), then the default. OLLAMA_HOST is a *listen* address for the
 * server, so 0.0.0.0 / [::] mean "all interfaces" and we connect to loopback.
 */
export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';
const DEFAULT_PORT = '11434';

export function resolveHost(settingsHost?: string | null, env: Record<string, string | undefined> = process.env): string {
  const fromSettings = settingsHost?.trim();
  if (fromSettings) return normalizeHost(fromSettings);
  const fromEnv = env.OLLAMA_HOST?.trim();
  if (fromEnv) return normalizeHost(fromEnv);
  return DEFAULT_OLLAMA_HOST;
}

/** `0.0.0.0` -> `http://127.0.0.1:11434`, `example:8080` -> `http://example:8080`, `https://h` keeps 443. */
export function normalizeHost(raw: string): string {
  let host = raw.trim();
  if (host.startsWith(':')) host = `127.0.0.1${host}`;
  const explicitProtocol = /^[a-z][a-z0-9+.-]*:\/\//i.test(host);
  if (!explicitProtocol) host = `http://${host}`;
  let url: URL;
  try {
    url = new URL(host);
  } catch {
    return DEFAULT_OLLAMA_HOST;
  }
  let hostname = url.hostname;
  if (hostname === '0.0.0.0' || hostname === '[::]' || hostname === '::') hostname = '127.0.0.1';
  let port = url.port;
  if (!port) port = url.protocol === 'https:' && explicitProtocol ? '443' : DEFAULT_PORT;
  const auth = url.username ? `${url.username}${url.password ? `:${url.password}` : ''}@` : '';
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${auth}${hostname}:${port}${path}`;
}
