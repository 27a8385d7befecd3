/**
 * Exposes exactly the contract to the renderer, nothing else: `invoke` for the
 * contract's commands and `onEvent` for the host's events. No ipcRenderer, no
 * Node. Inputs are validated again in main.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
// Only the zod-free channels module: a sandboxed preload can require nothing but `electron`.
import { EVENT_CHANNEL, ipcChannel, isCommandName } from '../../shared/channels';
import type { HostEvent } from '../../shared/contract';

contextBridge.exposeInMainWorld('auditApi', {
  invoke: (command: string, input: unknown) => {
    if (!isCommandName(command)) return Promise.resolve({ ok: false, error: { code: 'INVALID_INPUT', message: `Unknown command ${command}` } });
    return ipcRenderer.invoke(ipcChannel(command), input);
  },
  /** Subscribes to host events; returns the function that unsubscribes. */
  onEvent: (listener: (event: HostEvent) => void) => {
    if (typeof listener !== 'function') return () => undefined;
    const wrapped = (_event: IpcRendererEvent, payload: HostEvent) => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL, wrapped);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
    };
  },
});
