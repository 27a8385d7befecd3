/**
 * Stored run settings are parsed once, where the store reads the row: the
 * runner, the reports and the host get typed settings, and an old or damaged
 * row gives RUN_SETTINGS_INVALID with what is wrong instead of a wrong report.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine, defaultRunSettings } from '../../../electron/engine';
import { createRun, getRun, listRuns, openDatabase, runSettingsOf } from '../../../electron/engine/store';
import { createEngineHost } from '../../../electron/host/engineHost';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir('audit-run-settings-');
const NOW = '2026-01-01T00:00:00.000Z';

describe('run settings at the store boundary', () => {
  it('reads back exactly the settings a run was started with', () => {
    const db = openDatabase(join(tempDir(), 'a.sqlite'));
    const settings = { ...defaultRunSettings({ strategy: 'pages' }), app: { reviewerName: 'A' } };
    const runId = createRun(db, 'full', settings, ['/x.pdf'], NOW);
    const run = getRun(db, runId)!;
    expect(run.settingsError).toBeNull();
    expect(runSettingsOf(run)).toEqual(settings);
    db.close();
  });

  it('refuses an old or damaged row with a clear error everywhere its settings are needed, and still lists the run', async () => {
    const dir = tempDir();
    const dbPath = join(dir, 'audit.sqlite');
    const db = openDatabase(dbPath);
    const { profile: _dropped, ...old } = defaultRunSettings();
    const oldRun = createRun(db, 'full', old, ['/x.pdf'], NOW);
    const damaged = createRun(db, 'full', defaultRunSettings(), ['/y.pdf'], NOW);
    db.prepare('UPDATE runs SET settings_json = ? WHERE id = ?').run('{"mode": "full", "llm": ', damaged);
    db.prepare("UPDATE runs SET status = 'paused' WHERE id IN (?, ?)").run(oldRun, damaged);

    expect(listRuns(db).map((r) => r.id)).toEqual([oldRun, damaged]);
    const oldError = getRun(db, oldRun)!.settingsError!;
    expect(oldError.code).toBe('RUN_SETTINGS_INVALID');
    expect(oldError.message).toMatch(
      new RegExp(`run ${oldRun} cannot be read \\(profile: .*older version of the app, or the database is damaged\\. Start a new run`),
    );
    expect(getRun(db, damaged)!.settingsError!.message).toContain('not JSON');

    const engine = createEngine({ db, appVersion: 't' });
    await expect(engine.resume(oldRun)).rejects.toMatchObject({ code: 'RUN_SETTINGS_INVALID' });
    expect(() => engine.markdownReport(damaged)).toThrow(/cannot be read/);
    db.close();

    const host = createEngineHost({ dataDir: dir, dbPath, appVersion: 't', logFile: null });
    expect(await host.invoke('runs.resume', { runId: oldRun })).toMatchObject({ ok: false, error: { code: 'RUN_SETTINGS_INVALID' } });
    expect(await host.invoke('reports.export', { runId: damaged, format: 'md' })).toMatchObject({ ok: false, error: { code: 'RUN_SETTINGS_INVALID' } });
    expect(await host.invoke('runs.list', {})).toMatchObject({
      ok: true,
      data: [
        { id: damaged, status: 'paused' },
        { id: oldRun, status: 'paused' },
      ],
    });
    await host.close();
  });

  it('parses the OCR settings (issue 18): a run from before OCR reads with the defaults, a bad language is refused', () => {
    const db = openDatabase(join(tempDir(), 'a.sqlite'));
    const { ocr: _mode, ocrLanguages: _languages, ...beforeOcr } = defaultRunSettings();
    const oldRun = createRun(db, 'full', beforeOcr, ['/x.pdf'], NOW);
    expect(getRun(db, oldRun)!.settingsError).toBeNull();
    expect(runSettingsOf(getRun(db, oldRun)!).ocrLanguages).toBeUndefined();
    const french = createRun(db, 'full', defaultRunSettings({ ocr: 'force', ocrLanguages: ['fra', 'eng'] }), ['/x.pdf'], NOW);
    expect(runSettingsOf(getRun(db, french)!)).toMatchObject({ ocr: 'force', ocrLanguages: ['fra', 'eng'] });
    const bad = createRun(db, 'full', { ...defaultRunSettings(), ocrLanguages: ['../eng'], ocr: 'sometimes' } as never, ['/x.pdf'], NOW);
    expect(getRun(db, bad)!.settingsError!.message).toMatch(/ocr/);
    db.close();
  });
});
