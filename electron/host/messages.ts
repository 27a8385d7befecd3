import type { HostEvent } from '../../shared/contract';
import type { Result } from '../../shared/errors';

/** Main -> utility process. */
export type MainToHost = { type: 'invoke'; id: number; command: string; input: unknown } | { type: 'shutdown' };
/** Utility process -> main. */
export type HostToMain = { type: 'ready' } | { type: 'result'; id: number; result: Result<unknown> } | { type: 'event'; event: HostEvent };
