/** Host commands in integration tests: the answer's data, or an error naming the command, its code and message. */
import type { EngineHost } from '../../electron/host/engineHost';

export async function call<T = unknown>(host: EngineHost, command: string, input: unknown = {}): Promise<T> {
  const result = await host.invoke(command, input);
  if (!result.ok) throw new Error(`${command}: ${result.error.code} ${result.error.message}`);
  return result.data as T;
}
