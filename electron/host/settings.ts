import { settingsSchema, type AppSettings } from '../../shared/contract';
import { assertOcrLanguagesInstalled } from '../engine';
import { DEFAULT_RETRIEVAL_SETTINGS } from '../../shared/retrieval';
import { DEFAULT_RUN_SETTINGS } from '../../shared/runSettings';
import { loadSettingValues, saveSettingValues, type Database } from '../engine/store';

/** The app's defaults; what a run does by default comes from the run settings' one defaults table. */
export const DEFAULT_SETTINGS: AppSettings = {
  ollamaHost: '',
  models: { judge: null, split: null, extract: null, summary: null, embed: null },
  contextPolicy: { mode: 'auto', numCtx: 8192 },
  idPatterns: [],
  reviewerName: '',
  analysisMode: DEFAULT_RUN_SETTINGS.mode,
  strategy: DEFAULT_RUN_SETTINGS.strategy,
  useJudge: DEFAULT_RUN_SETTINGS.judge,
  chunkTokens: DEFAULT_RUN_SETTINGS.llm.desiredChunkTokens,
  profile: null,
  ocrMode: DEFAULT_RUN_SETTINGS.ocr,
  ocrLanguages: [...DEFAULT_RUN_SETTINGS.ocrLanguages],
  retrieval: DEFAULT_RETRIEVAL_SETTINGS,
  endpoints: [],
};

type Key = keyof AppSettings;
const KEYS = Object.keys(DEFAULT_SETTINGS) as Key[];

/** Stored values over the defaults; a stored value that no longer parses (older app, hand edit) falls back to its default. */
export function readSettings(db: Database): AppSettings {
  const stored = loadSettingValues(db);
  const out = structuredClone(DEFAULT_SETTINGS) as Record<Key, unknown>;
  for (const key of KEYS) {
    if (!(key in stored)) continue;
    const parsed = settingsSchema.shape[key].safeParse(stored[key]);
    if (parsed.success) out[key] = parsed.data;
  }
  return out as AppSettings;
}

export function writeSettings(db: Database, patch: Partial<AppSettings>, now: string): AppSettings {
  // A language without its data would fail every scanned page later: refused now, with how to install it.
  if (patch.ocrLanguages) assertOcrLanguagesInstalled(patch.ocrLanguages);
  const values: Record<string, unknown> = {};
  for (const key of KEYS) if (patch[key] !== undefined) values[key] = patch[key];
  saveSettingValues(db, values, now);
  return readSettings(db);
}
