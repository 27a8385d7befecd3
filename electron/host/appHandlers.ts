/** The app's own commands: where its data lives, the settings, and the live Ollama check. */
import type { AppSettings } from '../../shared/contract';
import type { HostContext } from './context';
import type { HandlerModule } from './handlerMap';
import { checkOllama } from './ollamaCheck';
import { readSettings, writeSettings } from './settings';

export function appHandlers(ctx: HostContext): HandlerModule {
  const { db } = ctx;
  return {
    'app.info': () => ({ version: ctx.appVersion, dataDir: ctx.dataDir, dbPath: ctx.dbPath }),
    'settings.get': () => readSettings(db),
    'settings.update': (patch) => writeSettings(db, patch as Partial<AppSettings>, ctx.now().toISOString()),
    'ollama.check': ({ host }) => {
      const settings = readSettings(db);
      return checkOllama(host ?? settings.ollamaHost, settings.models, { env: ctx.env });
    },
  };
}
