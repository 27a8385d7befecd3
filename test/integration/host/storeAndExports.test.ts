/**
 * The app's engine host with hostile file-system state (security probe 2026-11-28): an export never follows a link
 * planted where it goes, and a store that is damaged answers every command with DB_CORRUPT and what to do (the
 * engine process used to die at start, "The engine stopped unexpectedly"), leaving the file as it was.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngineHost, type EngineHost } from '../../../electron/host/engineHost';
import { exportFileName } from '../../../electron/host/reportExport';
import { call } from '../../helpers/host';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir('audit-host-store-');
const hosts: EngineHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const AT = new Date('2026-11-28T12:00:00.000Z');

describe('engine host: exports and a damaged store', () => {
  it('refuses to export through a link planted at the export name, and leaves its target unchanged', async () => {
    const dataDir = tempDir();
    const host = createEngineHost({ dataDir, appVersion: 't', now: () => AT, logFile: null });
    hosts.push(host);
    const { runId } = await call<{ runId: number }>(host, 'documents.import', {
      files: [{ name: 'notes.md', bytes: b64('# Notes\n\nSee TOB-ACME-1.\n') }],
      mode: 'rules-only',
    });
    await host.idle();
    const victim = join(dataDir, 'victim.txt');
    writeFileSync(victim, 'ORIGINAL\n');
    mkdirSync(join(dataDir, 'exports'), { recursive: true });
    symlinkSync(victim, join(dataDir, 'exports', exportFileName({ runId, format: 'md' }, AT)));

    const result = await host.invoke('reports.export', { runId, format: 'md' });
    expect(result).toMatchObject({ ok: false, error: { code: 'OUTPUT_IS_SYMLINK' } });
    expect(readFileSync(victim, 'utf8')).toBe('ORIGINAL\n');
  });

  it('answers with DB_CORRUPT (what to do, the file unchanged) when its store is not a database', async () => {
    const dataDir = tempDir();
    const dbPath = join(dataDir, 'audit.sqlite');
    const garbage = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 251));
    writeFileSync(dbPath, garbage);
    const host = createEngineHost({ dataDir, appVersion: '1.2.3', logFile: null });
    hosts.push(host);

    const settings = await host.invoke('settings.get', {});
    expect(settings).toMatchObject({ ok: false, error: { code: 'DB_CORRUPT' } });
    expect(settings.ok ? '' : settings.error.message).toMatch(
      new RegExp(`The database ${dbPath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is damaged .*left unchanged.*Restore a copy`),
    );
    expect(await host.invoke('documents.list', {})).toMatchObject({ ok: false, error: { code: 'DB_CORRUPT' } });
    // Where the data lives is still said, so the window can point at the file.
    expect(await call(host, 'app.info', {})).toEqual({ version: '1.2.3', dataDir, dbPath });
    expect(readFileSync(dbPath).equals(garbage)).toBe(true);
  });
});
