/**
 * The setup every UI spec shares: a fresh renderer build, a real engine host
 * behind the WebSocket bridge (with the Ollama simulator when asked), the
 * spec's own preparation on that host, then Chromium on the app. `close`
 * undoes all of it.
 */
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright';
import { startBridgeServer, type BridgeServer, type BridgeServerOptions } from './bridgeServer';
import { buildRenderer, openApp } from './browser';

export interface AppUnderTest {
  server: BridgeServer;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/** Starts the app for a spec; `prepare` runs on the host before the window opens (settings, imports). */
export async function startApp(
  options: Omit<BridgeServerOptions, 'rendererDir'> = {},
  prepare?: (server: BridgeServer) => Promise<void>,
): Promise<AppUnderTest> {
  const rendererDir = await buildRenderer();
  let server: BridgeServer | undefined;
  try {
    server = await startBridgeServer({ ...options, rendererDir });
    await prepare?.(server);
    const { browser, page } = await openApp(server.appUrl);
    const started = server;
    return {
      server: started,
      browser,
      page,
      async close() {
        await browser.close();
        await started.close();
        rmSync(rendererDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server?.close();
    rmSync(rendererDir, { recursive: true, force: true });
    throw error;
  }
}
