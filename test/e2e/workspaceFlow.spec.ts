/**
 * The workspace trial's flow rows (issue 27) in Chromium through the WebSocket bridge, against a real engine host:
 * - row 34: the drop zone takes .txt and .md files, as the engine and the CLI read them;
 * - row 14: the Document tab opens the document chosen last (in Findings too), so the tree and the panels beside
 *   it are about one document;
 * - row 37: with "Next new finding after confirm or reject" ticked, `c` and `r` move on to the next "New" finding.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ID_CONFLICT_PAGES, idConflictResponder } from '../fixtures/idConflicts';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import { startApp, type AppUnderTest } from './appUnderTest';
import { dropFiles, screenshot } from './browser';
import { SETUP_DEADLINE_MS, poll } from './waits';

const nav = (page: Page, name: RegExp) => page.getByRole('navigation', { name: 'Places' }).getByRole('button', { name }).click();

describeNeeding([CHROMIUM], 'workspace flow: text files, the document last chosen, advancing after a decision', () => {
  let app: AppUnderTest;
  let page: Page;
  const queue = () => page.getByRole('listbox', { name: 'Findings to review' });
  const activeId = () => queue().locator('[aria-selected="true"]').getAttribute('data-review-id');

  beforeAll(async () => {
    app = await startApp({ unitTokens: 1, ollamaSim: { responder: idConflictResponder } }, async (server) => {
      await server.host.invoke('settings.update', { strategy: 'pages', useJudge: false, reviewerName: 'A. Auditor' });
      const file = join(server.dataDir, 'id-conflicts.txt');
      writeFileSync(file, ID_CONFLICT_PAGES.join('\f'));
      await server.host.invoke('runs.start', { files: [file] });
      await server.host.idle();
    });
    page = app.page;
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  it('accepts dropped .txt and .md files and says so; the picker offers them', async () => {
    const dropzone = page.getByTestId('dropzone');
    expect(await dropzone.textContent()).toContain('Drop PDF, text or Markdown files here');
    const accept = (await page.getByTestId('file-picker').getAttribute('accept')) ?? '';
    expect(accept.split(',')).toEqual(expect.arrayContaining(['.pdf', '.txt', '.md']));
    await dropFiles(page, [
      {
        name: 'meeting-notes.md',
        type: 'text/markdown',
        bytes: new TextEncoder().encode('# Meeting notes\n\nThe backups were discussed.\n\n## Actions\n\nRestore a backup every quarter.\n'),
      },
      { name: 'plain-notes.txt', type: 'text/plain', bytes: new TextEncoder().encode('Plain notes about the audit.\nNothing else.\n') },
    ]);
    const library = page.getByTestId('library');
    await poll(() => library.locator('tr', { hasText: 'meeting-notes.md' }).count()).toBe(1);
    await poll(() => library.locator('tr', { hasText: 'plain-notes.txt' }).count()).toBe(1);
    expect(await page.getByRole('list', { name: 'Rejected files' }).count()).toBe(0);
    await app.server.host.idle();
  });

  it('the Document tab opens the document last chosen in Findings', async () => {
    await page.getByRole('button', { name: 'Open meeting-notes.md' }).click();
    await poll(() => page.locator('#tree-title').textContent()).toBe('meeting-notes.md');
    await nav(page, /^Library/);
    await page.getByRole('button', { name: 'Findings of id-conflicts.txt' }).click();
    await queue().getByRole('option').first().waitFor();
    await nav(page, /^Document/);
    await poll(() => page.locator('#tree-title').textContent()).toBe('id-conflicts.txt');
    await poll(() => page.locator('.tree-panel select').inputValue()).not.toBe('');
    await screenshot(page, 'document-tab-last-chosen-1440');
  });

  it('moves on to the next new finding after c and after r, when asked to', async () => {
    await nav(page, /^Findings/);
    await queue().getByRole('option').first().waitFor();
    const advance = page.getByLabel('Next new finding after confirm or reject');
    await advance.check();
    await queue().focus();
    await page.keyboard.press('Home');
    await poll(() => queue().getByRole('option').first().getAttribute('aria-selected')).toBe('true');
    const first = await activeId();
    await page.keyboard.press('c');
    await poll(() => queue().locator(`[data-review-id="${first}"]`).getAttribute('data-state')).toBe('confirmed');
    await poll(activeId).not.toBe(first);
    const second = await activeId();
    await poll(() => queue().locator(`[data-review-id="${second}"]`).getAttribute('data-state')).toBe('new');

    await page.keyboard.press('r');
    await page.getByLabel('Reason for rejecting').waitFor();
    await page.keyboard.type('Not a finding: background text');
    await page.keyboard.press('Enter');
    await poll(() => queue().locator(`[data-review-id="${second}"]`).getAttribute('data-state')).toBe('rejected');
    await poll(activeId).not.toBe(second);
    await poll(() => queue().locator('[aria-selected="true"]').getAttribute('data-state')).toBe('new');

    // Unticked, the selection stays on the finding decided.
    await advance.uncheck();
    await queue().focus();
    const third = await activeId();
    await page.keyboard.press('c');
    await poll(() => queue().locator(`[data-review-id="${third}"]`).getAttribute('data-state')).toBe('confirmed');
    // Read once on purpose, once the decision is shown: a poll would pass on the selection from before the key.
    expect(await activeId()).toBe(third);
  });
});
