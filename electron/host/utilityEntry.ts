/**
 * Entry of Electron's utility process: hosts the engine off the UI thread and
 * talks to main over `process.parentPort`. No `electron` import: the port is
 * a property Electron puts on `process`, typed here by hand.
 */
import { createEngineHost } from './engineHost';
import type { HostToMain, MainToHost } from './messages';

interface ParentPort {
  on(event: 'message', listener: (message: { data: MainToHost }) => void): void;
  postMessage(message: HostToMain): void;
}

const port = (process as unknown as { parentPort?: ParentPort }).parentPort;
if (!port) throw new Error('utilityEntry runs only inside an Electron utility process');

const config = JSON.parse(process.env.OFFLINE_AUDIT_HOST_CONFIG ?? '{}') as { dataDir: string; appVersion: string; nativeBinding?: string };
const host = createEngineHost({
  dataDir: config.dataDir,
  appVersion: config.appVersion,
  ...(config.nativeBinding ? { nativeBinding: config.nativeBinding } : {}),
});

host.onEvent((event) => port.postMessage({ type: 'event', event }));
port.on('message', ({ data }) => {
  if (data.type === 'invoke') {
    void host.invoke(data.command, data.input).then((result) => port.postMessage({ type: 'result', id: data.id, result }));
  } else if (data.type === 'shutdown') {
    void host.close().then(() => process.exit(0));
  }
});
port.postMessage({ type: 'ready' });
