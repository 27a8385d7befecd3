/**
 * Ask the documents in the UI, through the WebSocket bridge, with a real
 * engine host and the Ollama simulator answering from the context it gets:
 * a question about one document is answered with [n] links, the judge's
 * steps can be expanded, a click on a citation opens the chunk with the
 * quoted words marked, an absent answer says so, and the conversation is
 * still there after a reload of the window.
 */
import { join } from 'node:path';
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAskResponder } from '../helpers/askResponder';
import { SIM_OPTIONS, writeHandbook } from '../integration/retrieval/fixtures';
import type { BridgeServer } from './bridgeServer';
import { startApp, type AppUnderTest } from './appUnderTest';
import { screenshot, seriousAxeViolations } from './browser';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';

describeNeeding([CHROMIUM], 'Ask panel', () => {
  let app: AppUnderTest;
  let server: BridgeServer;
  let page: Page;

  beforeAll(async () => {
    app = await startApp({ ollamaSim: { ...SIM_OPTIONS, responder: createAskResponder().responder } }, async ({ host, dataDir }) => {
      await host.invoke('settings.update', { strategy: 'headings', useJudge: false });
      await host.invoke('runs.start', { files: [writeHandbook(dataDir)], mode: 'rules-only' });
      await host.idle();
    });
    ({ server, page } = app);
  });

  afterAll(async () => {
    await app?.close();
  });

  const askTab = () => page.getByRole('navigation', { name: 'Places' }).getByRole('button', { name: 'Ask', exact: true });
  const ask = async (question: string) => {
    const before = await page.getByTestId('ask-answer').count();
    await page.getByLabel('Question').fill(question);
    await page.locator('form.ask-form').getByRole('button', { name: 'Ask', exact: true }).click();
    await expect.poll(() => page.getByTestId('ask-answer').count(), { timeout: 20_000 }).toBe(before + 1);
    return page.getByTestId('ask-answer').last();
  };

  it('answers with citation links that open the cited passage, highlighted', async () => {
    await askTab().click();
    await page.getByRole('heading', { name: 'Ask the library' }).waitFor();
    await page.getByLabel('Documents').selectOption({ label: 'handbook.md' });
    await page.getByRole('heading', { name: 'Ask handbook.md' }).waitFor();

    const answer = await ask('How long are database backups kept?');
    expect(await answer.getAttribute('data-not-found')).toBe('false');
    expect(await answer.textContent()).toMatch(/35 days/);
    const sources = answer.getByRole('list', { name: 'Sources' });
    expect(await sources.textContent()).toMatch(/handbook\.md, page 3, Backup policy/);
    await answer.getByText(/How the answer was found/).click();
    expect(await answer.locator('details.ask-steps').textContent()).toMatch(/judge: llm, kept: Backup policy/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'ask-answer');

    await answer.getByRole('button', { name: /^Source \d+: handbook\.md, page 3, Backup policy/ }).click();
    const body = page.getByTestId('chunk-text-body');
    await body.waitFor();
    const mark = body.locator('mark', { hasText: '35 days' });
    await mark.waitFor();
    expect(await mark.getAttribute('title')).toMatch(/citation \[\d+\]/);
  });

  it('says when the documents do not hold the answer, and keeps the conversation across a reload', async () => {
    await askTab().click();
    await page.getByLabel('Documents').selectOption({ label: 'handbook.md' });
    await page.getByLabel('Conversation').selectOption({ index: 1 });
    // The stored conversation is loaded before the next question is counted against it.
    await expect.poll(() => page.getByTestId('ask-answer').count()).toBe(1);
    const absent = await ask('What colour is the company logo on the marketing brochure?');
    expect(await absent.getAttribute('data-not-found')).toBe('true');
    expect(await absent.textContent()).toMatch(/not in the documents/i);

    await page.reload();
    await page.getByRole('heading', { name: 'Offline Audit' }).waitFor();
    await askTab().click();
    await page.getByLabel('Documents').selectOption({ label: 'handbook.md' });
    await page.getByLabel('Conversation').selectOption({ index: 1 });
    await expect.poll(() => page.getByTestId('ask-answer').count()).toBe(2);
    await page.getByRole('button', { name: 'Export HTML' }).click();
    const written = page.getByTestId('ask-export');
    await written.waitFor();
    expect(await written.getAttribute('data-path')).toMatch(new RegExp(`^${join(server.dataDir, 'exports').replace(/[/\\]/g, '.')}.*\\.html$`));
  });
});
