/**
 * DEV AND TESTS ONLY: serves the host's handler map over a WebSocket on
 * 127.0.0.1 so the renderer runs in a plain browser (Playwright in Chromium)
 * against a real engine. A random token is required on connect; any other
 * client (wrong token, foreign Origin, non-loopback) is refused before the
 * upgrade. The packaged app never starts it: Electron uses IPC.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EngineHost } from './engineHost';

export interface WsBridge {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export interface WsBridgeOptions {
  port?: number;
  token?: string;
  /** Origins allowed to connect (the dev server / test http server); any when omitted. */
  allowedOrigins?: readonly string[];
  /** Largest message (uploads travel as base64); default 256 MiB. */
  maxPayload?: number;
}

/** Client -> bridge: `{ id, command, input }`. Bridge -> client: `{ id, result }` or `{ event }`. */
export interface BridgeRequest {
  id: number;
  command: string;
  input: unknown;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function isAllowedClient(request: IncomingMessage, token: string, allowedOrigins?: readonly string[]): boolean {
  const remote = request.socket.remoteAddress ?? '';
  if (!['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(remote)) return false;
  const url = new URL(request.url ?? '/', 'ws://127.0.0.1');
  const given = url.searchParams.get('token') ?? '';
  if (!sameSecret(given, token)) return false;
  if (allowedOrigins && request.headers.origin !== undefined && !allowedOrigins.includes(request.headers.origin)) return false;
  return true;
}

export async function startWsBridge(host: EngineHost, options: WsBridgeOptions = {}): Promise<WsBridge> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: options.port ?? 0,
    maxPayload: options.maxPayload ?? 256 * 1024 * 1024,
    verifyClient: (info: { req: IncomingMessage }) => isAllowedClient(info.req, token, options.allowedOrigins),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;

  server.on('connection', (socket: WebSocket) => {
    const unsubscribe = host.onEvent((event) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ event }));
    });
    socket.on('close', unsubscribe);
    socket.on('message', (raw) => {
      let request: BridgeRequest;
      try {
        request = JSON.parse(raw.toString()) as BridgeRequest;
      } catch {
        socket.close(1003, 'not JSON');
        return;
      }
      void host.invoke(request.command, request.input).then((result) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ id: request.id, result }));
      });
    });
  });

  return {
    url: `ws://127.0.0.1:${port}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
