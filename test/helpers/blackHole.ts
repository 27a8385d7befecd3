/**
 * A TCP relay on 127.0.0.1 in front of a server that can turn into a black hole: a machine switched off or cut from
 * the network, which answers nothing (no reply, no refusal, no reset) on the connections already open and on new ones.
 * Until then it passes bytes both ways unchanged.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface BlackHole {
  /** The relay's port: point the client at http://127.0.0.1:<port>. */
  port: number;
  /** From now on nothing is answered: open connections go silent, new ones are accepted and never served. */
  swallow(): void;
  close(): Promise<void>;
}

export async function startBlackHole(targetPort: number): Promise<BlackHole> {
  const clients = new Set<net.Socket>();
  const upstreams = new Set<net.Socket>();
  let swallowing = false;
  const server = net.createServer((client) => {
    clients.add(client);
    client.on('close', () => clients.delete(client));
    client.on('error', () => undefined);
    if (swallowing) return;
    const upstream = net.connect(targetPort, '127.0.0.1');
    upstreams.add(upstream);
    upstream.on('close', () => upstreams.delete(upstream));
    upstream.on('error', () => undefined);
    client.pipe(upstream);
    upstream.pipe(client, { end: false });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    swallow() {
      swallowing = true;
      // The far side stops: what it would still send never arrives, and the client's sockets stay open and silent.
      for (const upstream of upstreams) {
        upstream.unpipe();
        upstream.destroy();
      }
      for (const client of clients) client.unpipe();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of [...clients, ...upstreams]) s.destroy();
        server.close(() => resolve());
      }),
  };
}
