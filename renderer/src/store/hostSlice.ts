/**
 * The one way the window calls the engine: every slice sends its commands
 * through `host.call`, which also notes a command the engine has not answered
 * within a second. While the engine works through a heavy step (merging a
 * thousand findings), the window stays usable and says what it is waiting
 * for instead of looking frozen (see `waitingText`).
 */
import type { CommandInput, CommandName, CommandOutputs } from '../../../shared/contract';
import type { Result } from '../../../shared/errors';
import { invoke, transportName } from '../api';
import { patcher, type SliceCreator } from './slice';

/** A command unanswered for this long is shown as waiting. */
export const WAITING_AFTER_MS = 1000;

export interface WaitingCommand {
  id: number;
  command: CommandName;
  /** Date.now() when it was sent. */
  since: number;
}

export interface HostSlice {
  /** Commands sent and still unanswered after WAITING_AFTER_MS, oldest first. */
  waiting: WaitingCommand[];
  /** How the window reaches the engine: the desktop app's preload bridge, or the dev and test WebSocket bridge. */
  transport: 'preload' | 'websocket' | 'none';
  call<C extends CommandName>(command: C, input: CommandInput<C>): Promise<Result<CommandOutputs[C]>>;
}

let nextCall = 0;

export const createHostSlice: SliceCreator<'host'> = (set, get) => {
  const patch = patcher(set, 'host');
  return {
    host: {
      waiting: [],
      transport: transportName,
      async call(command, input) {
        const id = ++nextCall;
        const since = Date.now();
        const timer = setTimeout(() => patch((s) => ({ waiting: [...s.waiting, { id, command, since }] })), WAITING_AFTER_MS);
        try {
          return await invoke(command, input);
        } finally {
          clearTimeout(timer);
          if (get().host.waiting.some((w) => w.id === id)) patch((s) => ({ waiting: s.waiting.filter((w) => w.id !== id) }));
        }
      },
    },
  };
};
