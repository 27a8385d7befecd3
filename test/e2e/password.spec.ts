/**
 * The password dialog in Chromium through the WebSocket bridge against a real
 * engine host: a dropped encrypted PDF fails with PDF_ENCRYPTED and the
 * dialog asks for its password; a wrong one brings the dialog back saying so;
 * the right one opens the file and the run finishes. The password is not in
 * the app's database afterwards.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunView } from '../../shared/contract';
import { makeTextPdf, sampleReportSpec, writeFixture } from '../fixtures/pdfFactory';
import { startBridgeServer, type BridgeServer } from './bridgeServer';
import { buildRenderer, openApp, screenshot, seriousAxeViolations } from './browser';
import { CHROMIUM, describeNeeding, QPDF as QPDF_INSTALLED } from '../helpers/requirements';
import { poll } from './waits';

const PASSWORD = 'Dialog-Pass-42';

describeNeeding([CHROMIUM, QPDF_INSTALLED], 'desktop UI: password dialog for encrypted PDFs', () => {
  let server: BridgeServer;
  let browser: Browser;
  let page: Page;
  let encrypted: Buffer;
  const work = mkdtempSync(join(tmpdir(), 'audit-e2e-password-'));

  beforeAll(async () => {
    const plain = writeFixture(join(work, 'plain.pdf'), await makeTextPdf(sampleReportSpec()));
    execFileSync('qpdf', ['--encrypt', PASSWORD, 'owner', '256', '--', plain, join(work, 'locked.pdf')]);
    encrypted = readFileSync(join(work, 'locked.pdf'));
    server = await startBridgeServer({ rendererDir: await buildRenderer() });
    await server.host.invoke('settings.update', { analysisMode: 'rules-only' });
    ({ browser, page } = await openApp(server.appUrl));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('asks for the password, says when it is wrong, and opens the file with the right one', { timeout: 120_000 }, async () => {
    await page.evaluate((base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'bank-letter.pdf', { type: 'application/pdf' }));
      const zone = document.querySelector('[data-testid="dropzone"]')!;
      zone.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: transfer }));
      zone.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }));
    }, encrypted.toString('base64'));

    const dialog = page.getByRole('dialog', { name: 'Password needed' });
    await dialog.waitFor({ timeout: 60_000 });
    await poll(() => dialog.textContent()).toContain('bank-letter.pdf is protected by a password');
    expect(await dialog.getByRole('alert').count()).toBe(0);
    const field = dialog.getByLabel('Password');
    await poll(() => field.getAttribute('type')).toBe('password');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await field.fill('wrong-one');
    await dialog.getByRole('button', { name: 'Open' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'That password is wrong' }).waitFor({ timeout: 60_000 });
    await screenshot(page, 'password-dialog-wrong');
    await poll(() => field.inputValue()).toBe('');

    await field.fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Open' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 60_000 });
    await server.host.idle();
    const runs = (await server.host.invoke('runs.list', {})) as { ok: true; data: RunView[] };
    expect(runs.data[0]!.inputs[0]).toMatchObject({ fileName: 'bank-letter.pdf', status: 'done', error: null });
    expect(readFileSync(join(server.dataDir, 'audit.sqlite')).includes(PASSWORD)).toBe(false);
  });
});
