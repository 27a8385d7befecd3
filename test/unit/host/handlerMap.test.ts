import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../../shared/contract';
import { combineHandlers, type HandlerModule } from '../../../electron/host/handlerMap';

/** A module answering every command except `skip`, each with its own name. */
function everyCommand(skip: readonly string[] = []): HandlerModule {
  const module: Record<string, () => string> = {};
  for (const name of COMMAND_NAMES) if (!skip.includes(name)) module[name] = () => name;
  return module as unknown as HandlerModule;
}

describe('combineHandlers', () => {
  it('joins the domains into one map that answers every command with its own handler', async () => {
    const map = combineHandlers(everyCommand(['runs.list']), { 'runs.list': () => [] });
    expect(await map['app.info']({})).toBe('app.info');
    expect(await map['runs.list']({})).toEqual([]);
  });

  it('refuses two modules answering the same command', () => {
    expect(() => combineHandlers(everyCommand(), { 'runs.list': () => [] })).toThrow(/Two handler modules answer the command runs\.list/);
  });

  it('refuses a map that leaves a command of the contract unanswered', () => {
    expect(() => combineHandlers(everyCommand(['review.trail', 'tree.get']))).toThrow(/No handler for the command\(s\) tree\.get, review\.trail/);
  });
});
