/** Run commands: start, pause, cancel, resume (through run control), the run list and a run's event log. */
import { listRunEvents } from '../engine/store';
import type { HostContext } from './context';
import type { HandlerModule } from './handlerMap';

export function runHandlers(ctx: HostContext): HandlerModule {
  const { runs, views } = ctx;
  return {
    'runs.start': ({ files, mode }) => ({ runId: runs.start(files, mode), status: 'running' }),
    'runs.cancel': ({ runId }) => runs.stop(runId, 'cancel'),
    'runs.pause': ({ runId }) => runs.stop(runId, 'pause'),
    'runs.resume': ({ runId }) => runs.resume(runId),
    'runs.list': () => ctx.engine.listRuns().reverse().map(views.runView),
    'runs.events': ({ runId }) =>
      listRunEvents(ctx.db, runId).map(({ id, at, level, phase, documentId, message }) => ({ id, at, level, phase, documentId, message })),
  };
}
