/**
 * Scanned pages in the window (issue 18), in Chromium through the WebSocket bridge against a real engine host
 * (real tesseract.js OCR, the demo model answering from the document's own text): a dropped PDF whose pages are
 * only images is read by OCR and analysed; beside a finding, its scanned page says it was read by OCR, the quote
 * is highlighted on the OCR words that hold it, and "Show OCR words" draws every word's box tinted by confidence;
 * the document view lists the pages read by OCR; Settings lists the installed OCR languages and saves the choice;
 * the run card shows OCR page by page, and a run cancelled during OCR says so and resumes to the end.
 * Screenshots: test-results/screenshots/ocr-page-1440.png and ocr-settings-1440.png.
 */
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OcrWordBox } from '../../shared/contract';
import { makeScannedPdf } from '../fixtures/scanFactory';
import { demoResponder } from '../ollama-sim/demoResponder';
import { startBridgeServer, type BridgeServer } from './bridgeServer';
import { buildRenderer, dropFiles, openApp, screenshot, seriousAxeViolations } from './browser';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import { poll } from './waits';

const EVIDENCE = 'Nobody has restored a backup of the ledger database since 2021.';

/** Two scanned pages (images only, no text layer); the finding and its evidence are on page 2. */
function scannedReport(): Promise<Uint8Array> {
  return makeScannedPdf(
    [
      { lines: ['# 1 Scope', 'We reviewed the backup and recovery controls of the finance systems', 'for the year ended 31 December 2024.'] },
      {
        lines: [
          '# 2 Findings',
          '2.1 SCAN-001 Backups are never restored',
          'Severity: High',
          EVIDENCE,
          'The restore procedure has not been tested by anyone.',
          '~ Smudged line about the approval limits set by the board.',
        ],
      },
    ],
    { title: 'Scanned audit report' },
  );
}

describeNeeding([CHROMIUM], 'scanned pages in the window: OCR words on the page viewer', () => {
  let server: BridgeServer;
  let browser: Browser;
  let page: Page;
  let rendererDir: string;

  beforeAll(async () => {
    rendererDir = await buildRenderer();
    server = await startBridgeServer({ rendererDir, ollamaSim: { responder: demoResponder } });
    await server.host.invoke('settings.update', { strategy: 'headings', useJudge: false, ocrMode: 'auto' });
    ({ browser, page } = await openApp(server.appUrl));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (rendererDir) rmSync(rendererDir, { recursive: true, force: true });
  });

  it('highlights the quote on the OCR words of a scanned page and shows the words tinted by confidence', { timeout: 180_000 }, async () => {
    await dropFiles(page, [{ name: 'scanned-report.pdf', bytes: await scannedReport() }]);
    // While OCR reads the pages, the run card says so, page by page.
    const card = page.getByTestId('run-1');
    await poll(() => card.textContent(), { timeout: 60_000, interval: 50 }).toMatch(
      /Reading pages without usable text \(OCR\).*OCR page [12] of 2: (reading page|page [12] read)/s,
    );
    await page.waitForSelector('[data-testid="run-1"][data-status="done"]', { timeout: 150_000 });

    await page
      .getByRole('navigation', { name: 'Places' })
      .getByRole('button', { name: /^Findings/ })
      .click();
    const queue = page.getByRole('listbox', { name: 'Findings to review' });
    await queue.getByRole('option').first().waitFor();
    await poll(() => queue.getByRole('option').first().textContent()).toContain('SCAN-001');
    const place = page.getByTestId('review-detail').getByTestId('source-place');
    await poll(() => place.locator('h3').first().textContent()).toContain('Page 2');
    await poll(() => place.getByTestId('surrounding-text').locator('mark').textContent()).toBe(EVIDENCE);

    const pdfPage = place.getByTestId('pdf-page');
    await page.waitForSelector('[data-testid="pdf-page"][data-rendered="true"][data-ocr="true"]');
    const bar = place.getByTestId('ocr-bar');
    await poll(() => bar.textContent()).toMatch(/Scanned page, read by OCR: \d+% confidence/);
    await poll(() => bar.getAttribute('data-confidence').then(Number)).toBeGreaterThanOrEqual(70);

    // The quote's words, and only they, are highlighted: one box per word of the evidence, on its line of the image.
    const words = (await server.host.invoke('pages.ocrWords', { documentId: 1, pageNumber: 2 })) as { ok: true; data: OcrWordBox[] };
    const evidenceWords = words.data.filter((word) => EVIDENCE.split(' ').includes(word.text));
    expect(evidenceWords.length).toBeGreaterThanOrEqual(EVIDENCE.split(' ').length - 1);
    // The drawn page and its highlights measured at one moment (the pane may change width and the page be drawn again).
    const drawing = () =>
      pdfPage.evaluate((el) => {
        if (el.getAttribute('data-rendered') !== 'true') return null;
        const { x, y, width, height } = el.querySelector('canvas')!.getBoundingClientRect();
        const highlights = [...el.querySelectorAll('[data-testid="pdf-highlight"]')]
          .map((span) => span.getBoundingClientRect())
          .map((r) => ({ x: r.x, y: r.y }));
        return { canvas: { x, y, width, height }, highlights };
      });
    const seen: { drawn: Awaited<ReturnType<typeof drawing>> } = { drawn: null };
    await poll(async () => (seen.drawn = await drawing())?.highlights.length).toBe(EVIDENCE.split(' ').length);
    const { canvas, highlights } = seen.drawn!;
    const nobody = words.data.find((word) => word.text === 'Nobody')!;
    expect(Math.abs(highlights[0]!.x - (canvas.x + nobody.box[0] * canvas.width))).toBeLessThan(3);
    expect(Math.abs(highlights[0]!.y - (canvas.y + nobody.box[1] * canvas.height))).toBeLessThan(3);
    // Nothing else on the page is highlighted: the heading above the evidence is not.
    const heading = words.data.find((word) => word.text === 'SCAN-001')!;
    expect(highlights.every((h) => h.y > canvas.y + heading.box[3] * canvas.height)).toBe(true);

    expect(await pdfPage.getByTestId('ocr-words').count()).toBe(0);
    const toggle = bar.getByRole('button', { name: 'Show OCR words' });
    await poll(() => toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    const drawnWords = pdfPage.getByTestId('ocr-words').locator('.ocr-word');
    await poll(() => drawnWords.count()).toBe(words.data.length);
    // Each word is tinted by its own confidence, and names itself on hover.
    const bands = await drawnWords.evaluateAll((spans) => spans.map((span) => [span.getAttribute('data-band'), span.getAttribute('title')]));
    words.data.forEach((word, i) => {
      expect(bands[i]![0]).toBe(word.confidence >= 90 ? 'sure' : word.confidence >= 70 ? 'doubtful' : 'low');
      expect(bands[i]![1]).toBe(`${word.text} (${Math.round(word.confidence)}%)`);
    });
    // The smudged line is read with low confidence: its words are drawn as such, and the bar counts them.
    expect(bands.filter(([band]) => band === 'low').length).toBeGreaterThan(0);
    await poll(() => bar.textContent()).toMatch(/; \d+ words? below 70%/);
    await poll(() => bar.getByRole('button', { name: 'Hide OCR words' }).getAttribute('aria-pressed')).toBe('true');
    await screenshot(page, 'ocr-page-1440');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await bar.getByRole('button', { name: 'Hide OCR words' }).click();
    await poll(() => pdfPage.getByTestId('ocr-words').count()).toBe(0);
  });

  it('lists the pages read by OCR in the document view', { timeout: 60_000 }, async () => {
    await page.getByTestId('review-detail').getByRole('button', { name: 'Open this place in the document' }).click();
    const note = page.getByTestId('ocr-pages');
    await poll(() => note.textContent()).toContain('Read by OCR: pages 1-2 (no usable text layer).');
    await poll(() => note.getAttribute('data-low')).toBe('');
  });

  it('lists the installed OCR languages in Settings, keeps one at least, and saves the choice', { timeout: 60_000 }, async () => {
    await page
      .getByRole('navigation', { name: 'Places' })
      .getByRole('button', { name: /^Settings/ })
      .click();
    const group = page.getByRole('group', { name: 'OCR languages' });
    const english = group.getByRole('checkbox', { name: 'English eng' });
    const french = group.getByRole('checkbox', { name: 'French fra' });
    await english.waitFor();
    await poll(() => english.isChecked()).toBe(true);
    // The only language chosen cannot be unticked: OCR needs one.
    await poll(() => english.isDisabled()).toBe(true);
    await poll(() => french.isChecked()).toBe(false);
    await french.check();
    await poll(() => english.isDisabled()).toBe(false);
    await screenshot(page, 'ocr-settings-1440');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByTestId('settings-actions').getByRole('button', { name: /^Save/ }).click();
    await poll(async () => ((await server.host.invoke('settings.get', {})) as { ok: true; data: { ocrLanguages: string[] } }).data.ocrLanguages).toEqual([
      'eng',
      'fra',
    ]);
  });

  it('cancels a run while OCR reads a page, says it stopped in OCR, and resumes to the end', { timeout: 180_000 }, async () => {
    await page
      .getByRole('navigation', { name: 'Places' })
      .getByRole('button', { name: /^Library/ })
      .click();
    const pages = [1, 2, 3].map((n) => ({ lines: [`# ${n} Part ${n}`, `This scanned page number ${n} holds nothing but plain text for OCR.`] }));
    await dropFiles(page, [{ name: 'three-scanned-pages.pdf', bytes: await makeScannedPdf(pages) }]);
    const card = page.getByTestId('run-2');
    await poll(() => card.textContent(), { timeout: 60_000, interval: 50 }).toMatch(/OCR page 2 of 3: reading page 2/);
    await card.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForSelector('[data-testid="run-2"][data-status="cancelled"]');
    await poll(() => card.getByTestId('run-input').textContent()).toContain('at: Reading pages without usable text (OCR)');
    await card.getByRole('button', { name: 'Resume' }).click();
    await page.waitForSelector('[data-testid="run-2"][data-status="done"]', { timeout: 120_000 });
    const runs = (await server.host.invoke('runs.list', {})) as { ok: true; data: { id: number; inputs: { status: string; documentId: number | null }[] }[] };
    const input = runs.data.find((run) => run.id === 2)!.inputs[0]!;
    expect(input.status).toBe('done');
    const ocrPages = (await server.host.invoke('documents.ocrPages', { documentId: input.documentId! })) as { ok: true; data: { page: number }[] };
    expect(ocrPages.data.map((p) => p.page)).toEqual([1, 2, 3]);
  });
});
