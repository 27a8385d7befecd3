/**
 * The action a "find all ..." answer offers: retrieval reads the most
 * relevant passages, not every page, so the complete answer is an extraction
 * profile run over every chunk. `ask.extractAll` starts that run (full mode,
 * the saved profile) on the documents the question was about.
 */
import { DEFAULT_PROFILE } from '../../shared/findings';
import { exhaustiveTargets } from '../engine/retrieval';
import type { HostContext } from './context';
import type { HandlerModule } from './handlerMap';
import { readSettings } from './settings';

export function askExtractionHandlers(ctx: HostContext): HandlerModule {
  return {
    'ask.extractAll': ({ documentIds }) => {
      const files = exhaustiveTargets(ctx.db, documentIds ?? []).map((t) => t.filePath);
      const profile = (readSettings(ctx.db).profile ?? DEFAULT_PROFILE).name;
      return { runId: ctx.runs.start(files, 'full'), files: files.length, profile };
    },
  };
}
