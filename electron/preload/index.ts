/**
 * Exposes exactly the contract's commands to the renderer, nothing else: no
 * ipcRenderer, no Node. Inputs are validated again in main.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { commands, ipcChannel, type CommandName } from '../../shared/contract';

const names = Object.keys(commands) as CommandName[];

contextBridge.exposeInMainWorld('auditApi', {
  invoke: (command: string, input: unknown) => {
    if (!names.includes(command as CommandName)) return Promise.resolve({ ok: false, error: { code: 'INVALID_INPUT', message: `Unknown command ${command}` } });
    return ipcRenderer.invoke(ipcChannel(command as CommandName), input);
  },
});
