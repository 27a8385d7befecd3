/**
 * The app's password flow through the engine host (the same handler map the
 * Electron utility process and the WebSocket bridge serve): a dropped
 * encrypted PDF fails with PDF_ENCRYPTED, `runs.unlock` with a wrong password
 * fails it again with PDF_PASSWORD_WRONG, with the right one the same input
 * is read and analysed; the password is nowhere in the database file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { RunView } from '../../../shared/contract';
import { createEngineHost, type EngineHost } from '../../../electron/host/engineHost';
import { makeTextPdf, sampleReportSpec, writeFixture } from '../../fixtures/pdfFactory';
import { useTempDir } from '../../helpers/tempDir';
import { describeNeeding, QPDF as QPDF_INSTALLED } from '../../helpers/requirements';
import { call } from '../../helpers/host';

const tempDir = useTempDir('audit-host-password-');
const PASSWORD = 'Ledger-2024!';

async function runOf(host: EngineHost, runId: number): Promise<RunView> {
  await host.idle();
  return (await call<RunView[]>(host, 'runs.list')).find((run) => run.id === runId)!;
}

describeNeeding([QPDF_INSTALLED], 'runs.unlock (password dialog retry)', () => {
  it('asks, refuses a wrong password with PDF_PASSWORD_WRONG, opens with the right one, and stores no password', async () => {
    const dir = tempDir();
    const plain = writeFixture(join(dir, 'plain.pdf'), await makeTextPdf(sampleReportSpec()));
    const locked = join(dir, 'bank-confirmation.pdf');
    execFileSync('qpdf', ['--encrypt', PASSWORD, 'owner', '256', '--', plain, locked]);
    const other = writeFixture(join(dir, 'other.pdf'), await makeTextPdf({ ...sampleReportSpec(), title: 'Other report' }));
    const host = createEngineHost({ dataDir: dir, appVersion: 't' });

    const { runId } = await call<{ runId: number }>(host, 'runs.start', { files: [locked, other], mode: 'rules-only' });
    let run = await runOf(host, runId);
    expect(run.inputs[0]).toMatchObject({ status: 'failed', error: { code: 'PDF_ENCRYPTED' } });
    expect(run.inputs[1]).toMatchObject({ status: 'done' });

    // Only an input waiting for a password can be unlocked.
    expect(await host.invoke('runs.unlock', { runId, ordinal: 1, password: 'x' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await host.invoke('runs.unlock', { runId, ordinal: 0, password: '' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });

    await call(host, 'runs.unlock', { runId, ordinal: 0, password: 'not-it' });
    run = await runOf(host, runId);
    expect(run.inputs[0]).toMatchObject({ status: 'failed', error: { code: 'PDF_PASSWORD_WRONG' } });
    expect(run.inputs[0]!.error!.message).toContain('"bank-confirmation.pdf" is wrong');

    await call(host, 'runs.unlock', { runId, ordinal: 0, password: PASSWORD });
    run = await runOf(host, runId);
    expect(run.status).toBe('done');
    expect(run.inputs[0]).toMatchObject({ status: 'done', error: null });
    const documentId = run.inputs[0]!.documentId!;
    const tree = await call<{ nodes: unknown[] } | null>(host, 'tree.get', { documentId });
    expect(tree!.nodes.length).toBeGreaterThan(1);
    // The other file was done before and stays done, once.
    expect(run.inputs[1]).toMatchObject({ status: 'done' });
    await host.close();

    // Never stored: not in the database, its WAL, or any table.
    for (const file of ['audit.sqlite', 'audit.sqlite-wal']) {
      if (existsSync(join(dir, file))) expect(readFileSync(join(dir, file)).includes(PASSWORD)).toBe(false);
    }
  });
});
