import type { CommandName, CommandOutputs, CommandInput } from '../../shared/contract';
import type { Result } from '../../shared/errors';

interface Transport {
  invoke(command: string, input: unknown): Promise<Result<unknown>>;
}

declare global {
  interface Window {
    auditApi?: Transport;
  }
}

/** The API the components use, built from the contract; the preload bridge is its transport in the app. */
export async function invoke<C extends CommandName>(command: C, input: CommandInput<C>): Promise<Result<CommandOutputs[C]>> {
  if (!window.auditApi) {
    return { ok: false, error: { code: 'INTERNAL', message: 'The engine is not connected. Start the app with `npm start`.' } };
  }
  return (await window.auditApi.invoke(command, input)) as Result<CommandOutputs[C]>;
}
