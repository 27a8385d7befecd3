/**
 * The API the components use, built from the contract. Two transports with
 * the same shape: Electron's preload bridge (`window.auditApi`), and, for dev
 * and tests only, a WebSocket bridge to an engine host on 127.0.0.1 whose
 * address and token come in the URL fragment (`#bridge=ws://...&token=...`).
 * The packaged app always has the preload bridge (and its CSP forbids
 * WebSockets), so the second transport never runs there.
 */
import type { CommandInput, CommandName, CommandOutputs, HostEvent } from '../../shared/contract';
import type { Result } from '../../shared/errors';

export interface Transport {
  invoke(command: string, input: unknown): Promise<Result<unknown>>;
  onEvent(listener: (event: HostEvent) => void): () => void;
}

declare global {
  interface Window {
    auditApi?: Transport;
  }
}

const notConnected: Result<never> = {
  ok: false,
  error: { code: 'INTERNAL', message: 'The engine is not connected. Start the app with `npm start` (or open the dev bridge URL).' },
};

/** Reads `bridge` and `token` from the URL fragment. */
export function bridgeFromLocation(hash: string): { url: string; token: string } | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const url = params.get('bridge');
  const token = params.get('token');
  if (!url || !token || !/^ws:\/\/127\.0\.0\.1:\d+\/?$/.test(url)) return null;
  return { url: url.replace(/\/$/, ''), token };
}

export function createWsTransport(url: string, token: string): Transport {
  const listeners = new Set<(event: HostEvent) => void>();
  const pending = new Map<number, (result: Result<unknown>) => void>();
  let nextId = 1;
  let closedWith: Result<never> | null = null;
  const socket = new WebSocket(`${url}/?token=${encodeURIComponent(token)}`);
  const opened = new Promise<void>((resolve) => {
    socket.addEventListener('open', () => resolve());
    socket.addEventListener('close', () => resolve());
  });
  socket.addEventListener('message', (message) => {
    const data = JSON.parse(String(message.data)) as { id?: number; result?: Result<unknown>; event?: HostEvent };
    if (data.event) for (const listener of listeners) listener(data.event);
    else if (data.id !== undefined && data.result) {
      pending.get(data.id)?.(data.result);
      pending.delete(data.id);
    }
  });
  socket.addEventListener('close', () => {
    closedWith = { ok: false, error: { code: 'INTERNAL', message: 'The connection to the engine was closed. Reload the page after restarting the bridge.' } };
    for (const resolve of pending.values()) resolve(closedWith);
    pending.clear();
  });
  return {
    async invoke(command, input) {
      await opened;
      if (closedWith || socket.readyState !== WebSocket.OPEN) return closedWith ?? notConnected;
      return new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, command, input }));
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function pickTransport(): Transport | null {
  if (window.auditApi) return window.auditApi;
  const bridge = bridgeFromLocation(window.location.hash);
  return bridge ? createWsTransport(bridge.url, bridge.token) : null;
}

const transport = pickTransport();

export const transportName: 'preload' | 'websocket' | 'none' = window.auditApi ? 'preload' : transport ? 'websocket' : 'none';

export async function invoke<C extends CommandName>(command: C, input: CommandInput<C>): Promise<Result<CommandOutputs[C]>> {
  if (!transport) return notConnected;
  try {
    return (await transport.invoke(command, input)) as Result<CommandOutputs[C]>;
  } catch (error) {
    return { ok: false, error: { code: 'INTERNAL', message: `The engine did not answer: ${(error as Error).message}` } };
  }
}

export function onHostEvent(listener: (event: HostEvent) => void): () => void {
  return transport ? transport.onEvent(listener) : () => undefined;
}

/** Base64 of a file's bytes, in slices so large PDFs do not overflow the argument list. */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
