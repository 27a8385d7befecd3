/**
 * The typed handler map: one module per domain (runs, documents, review...)
 * contributes the handlers of its commands, and `combineHandlers` joins them
 * into the one map `invoke` dispatches on, refusing two modules that answer
 * the same command and a map that leaves a command of the contract without
 * a handler (the way Actual's `app.combine` joins its handler groups). A new
 * feature adds its commands to the contract and one module to the list in
 * engineHost.ts.
 */
import { COMMAND_NAMES, type CommandName, type CommandOutputs, type ParsedInput } from '../../shared/contract';

export type Handler<C extends CommandName> = (input: ParsedInput<C>) => Promise<CommandOutputs[C]> | CommandOutputs[C];

export type Handlers = { [C in CommandName]: (input: ParsedInput<C>) => Promise<CommandOutputs[C]> };

/** The handlers of one domain. */
export type HandlerModule = { [C in CommandName]?: Handler<C> };

/** Joins the domains' handlers; throws at startup on a command answered twice or not at all. */
export function combineHandlers(...modules: readonly HandlerModule[]): Handlers {
  const combined: Partial<Record<CommandName, (input: never) => Promise<unknown>>> = {};
  for (const module of modules) {
    for (const [name, handler] of Object.entries(module) as [CommandName, (input: never) => unknown][]) {
      if (combined[name]) throw new Error(`Two handler modules answer the command ${name}: keep one.`);
      combined[name] = async (input) => handler(input);
    }
  }
  const missing = COMMAND_NAMES.filter((name) => !combined[name]);
  if (missing.length > 0) throw new Error(`No handler for the command(s) ${missing.join(', ')}: add them to a handler module.`);
  return combined as unknown as Handlers;
}
