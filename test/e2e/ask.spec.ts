/**
 * Ask the documents in the UI, through the WebSocket bridge, with a real
 * engine host and the Ollama simulator answering from the context it gets:
 * a question about one document is answered with [n] links, the judge's
 * steps can be expanded, a click on a citation opens the chunk with the
 * quoted words marked, an absent answer says so, the conversation is
 * still there after a reload of the window, the retrieval settings saved in
 * Settings are what the panel answers with, and a "find all" answer's
 * *Analyse every chunk* starts the full run.
 */
import { join } from 'node:path';
import type { Page } from 'playwright';
import type { RunView } from '../../shared/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAskResponder } from '../helpers/askResponder';
import { SIM_OPTIONS, writeHandbook } from '../integration/retrieval/fixtures';
import type { BridgeServer } from './bridgeServer';
import { startApp, type AppUnderTest } from './appUnderTest';
import { screenshot, seriousAxeViolations } from './browser';
import { SETUP_DEADLINE_MS, poll } from './waits';
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
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  const askTab = () => page.getByRole('navigation', { name: 'Places' }).getByRole('button', { name: 'Ask', exact: true });
  const ask = async (question: string) => {
    const before = await page.getByTestId('ask-answer').count();
    await page.getByLabel('Question').fill(question);
    await page.locator('form.ask-form').getByRole('button', { name: 'Ask', exact: true }).click();
    await poll(() => page.getByTestId('ask-answer').count()).toBe(before + 1);
    return page.getByTestId('ask-answer').last();
  };

  it('answers with citation links that open the cited passage, highlighted', async () => {
    await askTab().click();
    await page.getByRole('heading', { name: 'Ask the library' }).waitFor();
    await page.getByLabel('Documents').selectOption({ label: 'handbook.md' });
    await page.getByRole('heading', { name: 'Ask handbook.md' }).waitFor();

    const answer = await ask('How long are database backups kept?');
    await poll(() => answer.getAttribute('data-not-found')).toBe('false');
    await poll(() => answer.textContent()).toMatch(/35 days/);
    const sources = answer.getByRole('list', { name: 'Sources' });
    await poll(() => sources.textContent()).toMatch(/handbook\.md, page 3, Backup policy/);
    await answer.getByText(/How the answer was found/).click();
    await poll(() => answer.locator('details.ask-steps').textContent()).toMatch(/the judge kept Backup policy/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'ask-answer');

    await answer.getByRole('button', { name: /^Source \d+: handbook\.md, page 3, Backup policy/ }).click();
    const body = page.getByTestId('chunk-text-body');
    await body.waitFor();
    const mark = body.locator('mark', { hasText: '35 days' });
    await mark.waitFor();
    await poll(() => mark.getAttribute('title')).toMatch(/citation \[\d+\]/);
  });

  it('says when the documents do not hold the answer, and keeps the conversation across a reload', async () => {
    await askTab().click();
    await page.getByLabel('Documents').selectOption({ label: 'handbook.md' });
    await page.getByLabel('Conversation').selectOption({ index: 1 });
    // The stored conversation is loaded before the next question is counted against it.
    await poll(() => page.getByTestId('ask-answer').count()).toBe(1);
    const absent = await ask('What colour is the company logo on the marketing brochure?');
    await poll(() => absent.getAttribute('data-not-found')).toBe('true');
    await poll(() => absent.textContent()).toMatch(/not in the documents/i);

    await page.reload();
    await page.getByRole('heading', { name: 'Offline Audit' }).waitFor();
    await askTab().click();
    await page.getByLabel('Documents').selectOption({ label: 'handbook.md' });
    await page.getByLabel('Conversation').selectOption({ index: 1 });
    await poll(() => page.getByTestId('ask-answer').count()).toBe(2);
    await page.getByRole('button', { name: 'Export HTML' }).click();
    const written = page.getByTestId('ask-export');
    await written.waitFor();
    await poll(() => written.getAttribute('data-path')).toMatch(new RegExp(`^${join(server.dataDir, 'exports').replace(/[/\\]/g, '.')}.*\\.html$`));
  });

  it('answers with the retrieval settings saved in Settings (judge off: the search ranking, no judge step)', async () => {
    await page.getByRole('navigation', { name: 'Places' }).getByRole('button', { name: 'Settings', exact: true }).click();
    const section = page.getByTestId('retrieval-settings');
    await section.waitFor();
    await poll(() => section.getByTestId('retrieval-embed-model').textContent()).toMatch(/Automatic/);
    await section.getByLabel('Use the retrieval judge').uncheck();
    await poll(() => section.getByLabel('Search rounds the judge may ask for').isDisabled()).toBe(true);
    await section.getByLabel('Relevance threshold (0 to 1)').fill('0.25');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    expect(await server.host.invoke('settings.get', {})).toMatchObject({ ok: true, data: { retrieval: { judge: false, threshold: 0.25, maxRounds: 2 } } });

    await askTab().click();
    await page.getByLabel('Documents').selectOption({ label: 'handbook.md' });
    // The panel starts from the saved values.
    await poll(() => page.locator('form.ask-form').getByLabel('Retrieval judge').isChecked()).toBe(false);
    await poll(() => page.locator('form.ask-form').getByLabel('Relevance threshold').inputValue()).toBe('0.25');
    const answer = await ask('Who reviews the incident log?');
    await answer.getByText(/How the answer was found/).click();
    await poll(() => answer.locator('details.ask-steps').textContent()).toMatch(/passages? found\. Judge turned off: the search ranking is used\./);
    await server.host.invoke('settings.update', { retrieval: { judge: true, threshold: 0.3, maxRounds: 2 } });
  });

  it('a "find all" answer offers to analyse every chunk, and the button starts that run', async () => {
    await askTab().click();
    await page.getByLabel('Documents').selectOption({ label: 'handbook.md' });
    const answer = await ask('Find all backup rules');
    const offer = answer.getByTestId('ask-extract-all');
    await poll(() => offer.textContent()).toMatch(/not every page/);
    const listRuns = async () => {
      const result = await server.host.invoke('runs.list', {});
      if (!result.ok) throw new Error(`runs.list: ${result.error.message}`);
      return result.data as RunView[];
    };
    const runsBefore = await listRuns();
    await offer.getByRole('button', { name: 'Analyse every chunk' }).click();
    const started = offer.getByRole('status');
    await started.waitFor();
    await poll(() => started.textContent()).toMatch(/^Run \d+ started: every chunk of 1 document through the profile/);
    await server.host.idle();
    const runs = await listRuns();
    expect(runs.length).toBe(runsBefore.length + 1);
    expect(runs[0]).toMatchObject({ mode: 'full', inputs: [{ fileName: 'handbook.md' }] });
    await offer.getByRole('button', { name: 'Follow it in Runs' }).click();
    await page.getByRole('heading', { name: 'Runs', exact: true }).waitFor();
  });
});
