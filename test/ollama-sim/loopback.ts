/**
 * The simulators' HTTP server on 127.0.0.1: started on a free port (or the one asked for), every connection tracked
 * so close() ends kept-alive sockets at once instead of waiting for their timeout. One copy for both simulators
 * (the Ollama API and the OpenAI-compatible one).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LoopbackServer {
  port: number;
  close: () => Promise<void>;
}

/** Serves `handle` on 127.0.0.1; a handler that throws answers 500 (`onError`) or, once headers went out, drops the socket. */
export async function serveOnLoopback(
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
  onError: (res: http.ServerResponse, message: string) => void,
  port = 0,
): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) onError(res, e instanceof Error ? e.message : String(e));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
