import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../../electron/engine';
import { DEFAULT_RUN_LLM_SETTINGS } from '../../electron/engine/jobs/settings';
import { openDatabase } from '../../electron/engine/store';
import { Fleet } from './fleet';
const { fleet, urls } = await Fleet.start({ ollama: 1, openai: null, timeScale: 0 });
const dir = mkdtempSync(join(tmpdir(), 'prof-'));
for (const f of process.argv.slice(2)) {
  const db = openDatabase(join(dir, `${f.split('/').pop()}.sqlite`));
  await createEngine({ db, appVersion: 'p' }).analyze([f], { llm: { ...DEFAULT_RUN_LLM_SETTINGS, host: urls.ollama[0]!, cache: false } });
  db.close();
}
await fleet.stop();
