/**
 * Run settings are defined once (shared/runSettings.ts): one schema, one
 * defaults table, one function from the chosen settings to a run's settings.
 * The host and the CLI both call it; here its rules, and that the app's
 * defaults make the defaults table's run.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, type ExtractionProfile } from '../../../shared/findings';
import {
  DEFAULT_RUN_LLM_SETTINGS,
  DEFAULT_RUN_SETTINGS,
  defaultRunSettings,
  runSettingsFrom,
  runSettingsSchema,
  storedRunSettingsSchema,
} from '../../../shared/runSettings';
import { appRunSettings } from '../../../electron/host/runControl';
import { DEFAULT_SETTINGS } from '../../../electron/host/settings';

const ownProfile: ExtractionProfile = { ...DEFAULT_PROFILE, name: 'contracts', idPatterns: [{ name: 'clause', source: 'CL-\\d+' }] };

describe('runSettingsFrom', () => {
  it('with nothing chosen gives the defaults table, and what it gives passes the strict schema', () => {
    const settings = runSettingsFrom({}, { mode: 'full' });
    expect(settings).toEqual(defaultRunSettings());
    expect(settings).toEqual({ ...DEFAULT_RUN_SETTINGS, llm: DEFAULT_RUN_LLM_SETTINGS });
    expect(runSettingsSchema.strict().parse(settings)).toEqual(settings);
  });

  it("the app's default Settings make the defaults table's run (one table, not two)", () => {
    const { app, ...settings } = appRunSettings(DEFAULT_SETTINGS, 'full');
    expect(settings).toEqual(defaultRunSettings());
    expect(app).toEqual({ contextPolicy: DEFAULT_SETTINGS.contextPolicy, reviewerName: '' });
    expect(storedRunSettingsSchema.parse({ ...settings, app })).toMatchObject({ app });
  });

  it('keeps the models chosen, drops the automatic ones, and gives the tree review the split model unless it has its own', () => {
    const split = runSettingsFrom({ models: { judge: null, split: 'qwen3:14b', extract: 'qwen3:8b', summary: null, embed: null } }, { mode: 'full' });
    expect(split.llm.models).toEqual({ split: 'qwen3:14b', review: 'qwen3:14b', extract: 'qwen3:8b' });
    const own = runSettingsFrom({ models: { default: 'llama3.1:8b', split: 'qwen3:14b', review: 'gemma3:12b' } }, { mode: 'full' });
    expect(own.llm.models).toEqual({ default: 'llama3.1:8b', split: 'qwen3:14b', review: 'gemma3:12b' });
    expect(runSettingsFrom({ models: { default: 'llama3.1:8b' } }, { mode: 'full' }).llm.models).toEqual({ default: 'llama3.1:8b' });
  });

  it("ID patterns set on their own win over the profile's; without either, the built-in profile's", () => {
    const own = [{ name: 'ticket', source: 'TKT-\\d+' }];
    expect(runSettingsFrom({ profile: ownProfile, idPatterns: own }, { mode: 'full' }).idPatterns).toEqual(own);
    const fromProfile = runSettingsFrom({ profile: ownProfile, idPatterns: [] }, { mode: 'full' });
    expect(fromProfile.idPatterns).toEqual(ownProfile.idPatterns);
    expect(fromProfile.profile).toEqual(ownProfile);
    const none = runSettingsFrom({ profile: null }, { mode: 'full' });
    expect(none.profile).toBe(DEFAULT_PROFILE);
    expect(none.idPatterns).toEqual(DEFAULT_PROFILE.idPatterns);
  });

  it('a fixed context policy fixes num_ctx; automatic plans it', () => {
    expect(runSettingsFrom({ contextPolicy: { mode: 'fixed', numCtx: 4096 } }, { mode: 'full' }).llm.numCtx).toBe(4096);
    expect(runSettingsFrom({ contextPolicy: { mode: 'auto', numCtx: 4096 } }, { mode: 'full' }).llm).not.toHaveProperty('numCtx');
  });

  it('takes the host trimmed (blank is none), endpoints only when there are some, and the run-only options', () => {
    const endpoint = { kind: 'openai' as const, url: 'http://gpu.example:8000', concurrency: 2 };
    const settings = runSettingsFrom(
      {
        ollamaHost: '  http://127.0.0.1:11500 ',
        endpoints: [endpoint],
        chunkTokens: 900,
        strategy: 'pages',
        useJudge: false,
        ocrMode: 'off',
        ocrLanguages: ['deu', 'eng'],
      },
      { mode: 'rules-only', unitTokens: 1, cache: false, summaryMapModel: 'qwen3:4b' },
    );
    expect(settings).toMatchObject({ mode: 'rules-only', strategy: 'pages', judge: false, ocr: 'off', ocrLanguages: ['deu', 'eng'] });
    expect(settings.llm).toEqual({
      ...DEFAULT_RUN_LLM_SETTINGS,
      host: 'http://127.0.0.1:11500',
      endpoints: [endpoint],
      desiredChunkTokens: 900,
      unitTokens: 1,
      cache: false,
      summaryMapModel: 'qwen3:4b',
    });
    const blank = runSettingsFrom({ ollamaHost: '   ', endpoints: [] }, { mode: 'full' });
    expect(blank.llm).not.toHaveProperty('host');
    expect(blank.llm).not.toHaveProperty('endpoints');
  });

  it('copies the lists it is given, so a later change to the settings does not change a started run', () => {
    const ocrLanguages = ['eng'];
    const settings = runSettingsFrom({ ocrLanguages }, { mode: 'full' });
    ocrLanguages.push('deu');
    expect(settings.ocrLanguages).toEqual(['eng']);
    defaultRunSettings().idPatterns.push({ name: 'x', source: 'X-\\d+' });
    expect(defaultRunSettings().idPatterns).toEqual(DEFAULT_PROFILE.idPatterns);
  });
});
