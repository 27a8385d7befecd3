/**
 * The no-GPU demo's Ask (issue 27), in Chromium through the WebSocket bridge with the demo model the README
 * documents (`bridgeServer --sim`): the sample document analysed in full, then a question answered with the
 * document's own severity and a [n] citation that opens the cited place; an answer whose citations all fail
 * the check is shown as unverified, never like a grounded one; and `msg[0]` in quoted code stays text.
 */
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoResponder } from '../ollama-sim/demoResponder';
import type { SimChatRequest } from '../ollama-sim/index';
import { promptBlocks } from '../fixtures/plantedFindings';
import { startApp, type AppUnderTest } from './appUnderTest';
import { screenshot, seriousAxeViolations } from './browser';
import { SETUP_DEADLINE_MS, poll } from './waits';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';

/** Questions this spec asks of a model that cites badly: its answer quotes words that are in no passage. */
const MISCITED = 'How does the portal protect the passwords?';

function isAnswerRequest(req: SimChatRequest): boolean {
  return /"notFound"/.test(JSON.stringify(req.format ?? null));
}

describeNeeding([CHROMIUM], 'Ask in the no-GPU demo', () => {
  let app: AppUnderTest;
  let page: Page;

  beforeAll(async () => {
    app = await startApp(
      {
        ollamaSim: {
          responder: (req) => {
            const question = /Question:\s*(.*)/.exec(promptBlocks(req).user)?.[1] ?? '';
            if (isAnswerRequest(req) && question === MISCITED) {
              return JSON.stringify({
                answer: 'The passwords use AES-256 with `keys[0]` as the master key [1].',
                notFound: false,
                citations: [{ n: 1, quote: 'Passwords are encrypted with AES-256.' }],
              });
            }
            return demoResponder(req);
          },
        },
      },
      async ({ host }) => {
        await host.invoke('settings.update', { reviewerName: 'A. Auditor', strategy: 'headings', useJudge: false });
        const sample = await host.invoke('documents.sample', {});
        if (!sample.ok) throw new Error(sample.error.message);
        const { name, bytes } = sample.data as { name: string; bytes: string };
        await host.invoke('documents.import', { files: [{ name, bytes }] });
        await host.idle();
      },
    );
    page = app.page;
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  const ask = async (question: string) => {
    const before = await page.getByTestId('ask-answer').count();
    await page.getByLabel('Question').fill(question);
    await page.locator('form.ask-form').getByRole('button', { name: 'Ask', exact: true }).click();
    await poll(() => page.getByTestId('ask-answer').count()).toBe(before + 1);
    return page.getByTestId('ask-answer').last();
  };

  it('answers with the document’s severity and a citation that opens the cited finding', async () => {
    await page.getByRole('navigation', { name: 'Places' }).getByRole('button', { name: 'Ask', exact: true }).click();
    await page.getByLabel('Documents').selectOption({ label: 'sample-audit-report.pdf' });
    const answer = await ask('What severity does the report give to the first finding?');
    await poll(() => answer.getAttribute('data-not-found')).toBe('false');
    await poll(() => answer.locator('.ask-answer__text').textContent()).toMatch(
      /^High \[\d\]: the report rates "Passwords are stored with an outdated hash" High\.$/,
    );
    const sources = answer.getByRole('list', { name: 'Sources' });
    await poll(() => sources.textContent()).toContain('sample-audit-report.pdf, page 1');
    await poll(() => sources.locator('q').first().textContent()).toBe('Severity: High');
    expect(await answer.getByTestId('ask-unverified').count()).toBe(0);
    await screenshot(page, 'demo-ask-answer-1440');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await answer.getByRole('button', { name: /^Source \d:/ }).click();
    // The first finding is cited from its finding passage: the click opens it in the Findings view, selected.
    await poll(() => page.getByTestId('review-detail').textContent()).toContain('SAMPLE-001');
    await poll(() => page.locator('.place[aria-current="page"]').textContent()).toContain('Findings');
  });

  it('marks an answer whose citations were all dropped as unverified, and keeps code brackets as text', async () => {
    await page.getByRole('navigation', { name: 'Places' }).getByRole('button', { name: 'Ask', exact: true }).click();
    const answer = await ask(MISCITED);
    await poll(() => answer.getByTestId('ask-unverified').textContent()).toMatch(
      /^Unverified: none of the places this answer cites could be found in the documents/,
    );
    // The marker went with its failed citation; the bracket inside the quoted code is the answer's own text.
    await poll(() => answer.locator('.ask-answer__text').textContent()).toBe('The passwords use AES-256 with `keys[0]` as the master key.');
    expect(await answer.getByRole('list', { name: 'Sources' }).count()).toBe(0);
    await screenshot(page, 'demo-ask-unverified-1440');
  });

  it('answers "not in the documents" when nothing speaks of the question', async () => {
    const answer = await ask('Who won the football league in 1998?');
    await poll(() => answer.getAttribute('data-not-found')).toBe('true');
  });
});
