/**
 * DEV AND TESTS ONLY: a real engine host behind the WebSocket bridge, the
 * built renderer (out/renderer) served over http on 127.0.0.1, and optionally
 * the Ollama simulator, so the UI runs in a plain Chromium. The bridge token
 * travels in the URL fragment (never sent to the http server).
 *
 *   npm run build && npx tsx test/e2e/bridgeServer.ts   # prints the URL to open
 */
import { createReadStream, existsSync, readFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
import { AppError, ErrorCode } from '../../shared/errors';
import type { KeyStorageStatus } from '../../shared/keyStorage';
import { ingestFile } from '../../electron/engine/pdf';
import { createEngineHost, type EngineHost, type HostProviders } from '../../electron/host/engineHost';
import { startWsBridge, type WsBridge } from '../../electron/host/wsBridge';
import { startOllamaSim, type OllamaSim, type SimOptions } from '../ollama-sim';
import { demoResponder } from '../ollama-sim/demoResponder';

const root = resolve(import.meta.dirname, '../..');

export interface BridgeServerOptions {
  rendererDir?: string;
  /** App data folder; a fresh temp folder (removed on close) when omitted. */
  dataDir?: string;
  /** Text per extraction call (the host's unitTokens): 1 for a scripted model that answers page by page. */
  unitTokens?: number;
  /** Start the Ollama simulator and point the settings at it. */
  ollamaSim?: boolean | SimOptions;
  /** Extra wait before each file is read (abortable), so tests can cancel a run mid-way. */
  ingestDelayMs?: number;
  providers?: HostProviders;
  progressIntervalMs?: number;
  /** What the host says of key storage (default: keys for the session): a spec stands in for a Linux without a keyring. */
  keyStorage?: KeyStorageStatus;
}

export interface BridgeServer {
  /** Open this: the renderer with the bridge address and token in the fragment. */
  appUrl: string;
  httpUrl: string;
  host: EngineHost;
  bridge: WsBridge;
  sim: OllamaSim | null;
  dataDir: string;
  close(): Promise<void>;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    if (signal?.aborted) return reject(new AppError(ErrorCode.CANCELLED, 'Cancelled.'));
    const timer = setTimeout(resolvePromise, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new AppError(ErrorCode.CANCELLED, 'Cancelled.'));
    });
  });
}

export async function startBridgeServer(options: BridgeServerOptions = {}): Promise<BridgeServer> {
  const rendererDir = resolve(options.rendererDir ?? join(root, 'out/renderer'));
  if (!existsSync(join(rendererDir, 'index.html'))) throw new Error(`No built renderer in ${rendererDir}: run \`npm run build\` first.`);
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'audit-bridge-'));
  const sim = options.ollamaSim ? await startOllamaSim(options.ollamaSim === true ? {} : options.ollamaSim) : null;
  const delay = options.ingestDelayMs ?? 0;
  const host = createEngineHost({
    dataDir,
    appVersion: `${(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version}-dev`,
    ...(delay > 0 ? { ingestFile: async (path, o) => (await abortableDelay(delay, o?.signal), ingestFile(path, o)) } : {}),
    ...(options.providers ? { providers: options.providers } : {}),
    ...(options.progressIntervalMs !== undefined ? { progressIntervalMs: options.progressIntervalMs } : {}),
    ...(options.unitTokens !== undefined ? { unitTokens: options.unitTokens } : {}),
    ...(options.keyStorage ? { keyStorage: options.keyStorage } : {}),
  });
  if (sim) await host.invoke('settings.update', { ollamaHost: sim.url });

  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    const file = resolve(rendererDir, `.${pathname === '/' ? '/index.html' : pathname}`);
    if (!(file === rendererDir || file.startsWith(rendererDir + sep)) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, {
      'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const httpUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const bridge = await startWsBridge(host, { allowedOrigins: [httpUrl] });
  const appUrl = `${httpUrl}/#bridge=${encodeURIComponent(bridge.url)}&token=${encodeURIComponent(bridge.token)}`;

  return {
    appUrl,
    httpUrl,
    host,
    bridge,
    sim,
    dataDir,
    async close() {
      await bridge.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await host.close();
      await sim?.close();
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  // --sim answers with the demo model: findings read from the dropped document's own finding-like headings, with verbatim evidence.
  const server = await startBridgeServer({
    ollamaSim: process.argv.includes('--sim') ? { responder: demoResponder } : false,
    ...(process.env.AUDIT_DATA_DIR ? { dataDir: process.env.AUDIT_DATA_DIR } : {}),
  });
  console.log(`Open ${server.appUrl}\n(data: ${server.dataDir}; Ctrl+C to stop)`);
  process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
}
