/**
 * One function makes a run's settings for the app and the CLI: the same
 * choices (Settings in the app, options on the command line) store the same
 * run settings. The CLI runs as a real child process into a real store; the
 * host's side is the function its run control creates runs with.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { AppSettings } from '../../../shared/contract';
import { runSettingsSchema } from '../../../shared/runSettings';
import { appRunSettings } from '../../../electron/host/runControl';
import { DEFAULT_SETTINGS } from '../../../electron/host/settings';
import { useTempDir } from '../../helpers/tempDir';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-run-settings-');

function storedSettings(dbPath: string): unknown {
  const store = new BetterSqlite3(dbPath, { readonly: true });
  try {
    const rows = store.prepare('SELECT settings_json FROM runs ORDER BY id').all() as { settings_json: string }[];
    expect(rows).toHaveLength(1);
    return JSON.parse(rows[0]!.settings_json) as unknown;
  } finally {
    store.close();
  }
}

describe('host and CLI make the same run settings from the same choices', () => {
  it('models, host, strategy, judge, context, unit size and OCR chosen alike store alike', () => {
    const dir = tempDir();
    const file = join(dir, 'notes.md');
    writeFileSync(file, '# Findings\n\nTOB-ACME-001 The session token is logged in clear text.\n');
    const dbPath = join(dir, 'store.sqlite');
    const cli = spawnSync(
      join(root, 'node_modules/.bin/tsx'),
      [
        join(root, 'electron/cli/analyze.ts'),
        file,
        '--db',
        dbPath,
        '--out',
        join(dir, 'report.json'),
        '--rules-only',
        '--host',
        'http://127.0.0.1:11500',
        '--model-split',
        'qwen3:14b',
        '--model-extract',
        'qwen3:8b',
        '--strategy',
        'pages',
        '--no-judge',
        '--num-ctx',
        '4096',
        '--unit-tokens',
        '2000',
        '--ocr',
        'off',
        '--ocr-lang',
        'eng',
      ],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: 'true' } },
    );
    expect(cli.stderr).not.toMatch(/Error|must|needs/);
    expect(cli.status).toBe(0);

    const app: AppSettings = {
      ...DEFAULT_SETTINGS,
      ollamaHost: 'http://127.0.0.1:11500',
      models: { judge: null, split: 'qwen3:14b', extract: 'qwen3:8b', summary: null, embed: null },
      strategy: 'pages',
      useJudge: false,
      contextPolicy: { mode: 'fixed', numCtx: 4096 },
      ocrMode: 'off',
      ocrLanguages: ['eng'],
    };
    const { app: appContext, ...host } = appRunSettings(app, 'rules-only', 2000);
    expect(appContext).toEqual({ contextPolicy: app.contextPolicy, reviewerName: '' });

    const fromCli = storedSettings(dbPath);
    expect(fromCli).toEqual(JSON.parse(JSON.stringify(host)));
    // Both are exactly the schema's shape (no stray key from either side), with what was chosen in it.
    expect(runSettingsSchema.strict().parse(fromCli)).toMatchObject({
      mode: 'rules-only',
      strategy: 'pages',
      judge: false,
      ocr: 'off',
      llm: { host: 'http://127.0.0.1:11500', numCtx: 4096, unitTokens: 2000, models: { split: 'qwen3:14b', review: 'qwen3:14b', extract: 'qwen3:8b' } },
    });
  });
});
