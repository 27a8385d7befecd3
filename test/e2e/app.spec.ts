/**
 * The desktop UI in Chromium, through the WebSocket bridge, against a real
 * engine (temp SQLite, real PDF ingestion, the FULL pipeline) and the Ollama
 * simulator scripted from the planted report: change settings, drop files,
 * watch progress, read the tree with chunk statuses and the split attempt
 * that failed validation, read grounded and ungrounded findings and the
 * unreviewed ID mentions, cancel and resume, recover from an unreachable
 * Ollama, pause and resume, and check accessibility. Screenshots of each view go to
 * test-results/screenshots/.
 */
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright';
import type { FindingView, SplitAttemptView, TreeView } from '../../shared/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { plantedReport } from '../fixtures/plantedFindings';
import { makeTextPdf, sampleReportSpec, truncate } from '../fixtures/pdfFactory';
import { startBridgeServer, type BridgeServer } from './bridgeServer';
import { buildRenderer, dropFiles, openApp, screenshot, seriousAxeViolations, type DroppedFile } from './browser';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import { plantedPdf, scriptedModel } from './plantedPipeline';
import { SETUP_DEADLINE_MS, poll } from './waits';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const pdf = (name: string, bytes: Uint8Array): DroppedFile => ({ name, bytes });

/** The planted report with another title line: other text, so no cached LLM answer is reused. */
function plantedVariant(title: string) {
  const report = plantedReport();
  report.pageTexts[0] = report.pageTexts[0]!.replace('Internal Audit Report: Platform Operations 2024', title);
  return plantedPdf(report);
}

// One renderer build for both suites (it is the slowest part of the setup).
let rendererBuild: Promise<string> | null = null;
const renderer = () => (rendererBuild ??= buildRenderer());

describeNeeding([CHROMIUM], 'desktop UI: the full pipeline through the WebSocket bridge', () => {
  let server: BridgeServer;
  let browser: Browser;
  let page: Page;
  const model = scriptedModel(plantedReport(), { extractDelayMs: 150 });
  const axeFindings: Record<string, unknown[]> = {};

  const goTo = async (label: string) => page.getByRole('navigation', { name: 'Places' }).getByRole('button', { name: label, exact: true }).click();
  const saveSettings = async () => {
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
  };

  beforeAll(async () => {
    const rendererDir = await renderer();
    server = await startBridgeServer({ rendererDir, unitTokens: 1, ollamaSim: { responder: model.responder } });
    ({ browser, page } = await openApp(server.appUrl));
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('checks the Ollama connection live and saves the analysis settings (full mode, LLM tree split, small chunks)', async () => {
    await goTo('Settings');
    const status = page.getByTestId('connection-status');
    await poll(() => status.textContent()).toContain('Connected to Ollama');
    await poll(() => status.textContent()).toContain(server.sim!.url.replace(/\/$/, ''));
    await poll(() => page.getByLabel('Analysis mode').inputValue()).toBe('full');
    await poll(() => page.getByLabel('Use the LLM judge to choose the strategy').isChecked()).toBe(true);

    const hostField = page.getByLabel('Ollama host');
    await hostField.fill('http://127.0.0.1:9');
    await poll(() => status.textContent()).toContain('Not connected');
    await poll(() => status.textContent()).toContain('ollama serve');
    await screenshot(page, 'settings-unreachable');

    await hostField.fill(server.sim!.url);
    await poll(() => status.textContent()).toContain('Connected to Ollama');
    await page.getByLabel('Structure strategy').selectOption('llm-tree');
    // With a forced strategy the judge has nothing to choose.
    await poll(() => page.getByLabel('Use the LLM judge to choose the strategy').isDisabled()).toBe(true);
    await page.getByLabel('Chunk size (tokens)').fill('400');
    await page.getByLabel('Finding extraction').selectOption('qwen3:8b');
    await page.getByLabel('Reviewer name (in reports)').fill('A. Auditor');
    await saveSettings();
    expect(await server.host.invoke('settings.get', {})).toMatchObject({
      ok: true,
      data: { analysisMode: 'full', strategy: 'llm-tree', chunkTokens: 400, reviewerName: 'A. Auditor', models: { extract: 'qwen3:8b' } },
    });
    await screenshot(page, 'settings');
    axeFindings.settings = await seriousAxeViolations(page);
  });

  it('analyses dropped files with the full pipeline: chunk n of N live, the corrupt PDF fails with its sentence, a non-PDF is rejected', async () => {
    await goTo('Library');
    const good = await plantedPdf();
    await dropFiles(page, [
      pdf('planted-report.pdf', good),
      pdf('broken.pdf', truncate(good, 0.4)),
      { name: 'notes.docx', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', bytes: new TextEncoder().encode('not a pdf') },
    ]);
    const rejected = page.getByRole('list', { name: 'Rejected files' });
    await poll(() => rejected.textContent()).toContain('notes.docx');
    await poll(() => rejected.textContent()).toContain('FILE_UNSUPPORTED');

    const run = page.getByTestId('run-1');
    await run.waitFor();
    // The facts of the moment 'chunk n of N' shows (read again later, the run may have moved on to the merge).
    const live = await page.waitForFunction(
      () => {
        const facts = document.querySelector('[data-testid="run-1"] .run__facts')?.textContent ?? '';
        return /chunk \d+ of \d+/.test(facts) ? facts : null;
      },
      null,
      { polling: 'raf' },
    );
    expect(await live.jsonValue()).toMatch(/planted-report\.pdf: Extracting findings/);
    await screenshot(page, 'run-progress');

    await page.waitForSelector('[data-testid="run-1"][data-status="done"]');
    const broken = run.locator('[data-testid="run-input"][data-file="broken.pdf"]');
    await poll(() => broken.getAttribute('data-status')).toBe('failed');
    await poll(() => broken.textContent()).toContain('PDF_CORRUPT');
    await poll(() => run.locator('[data-testid="run-input"][data-file="planted-report.pdf"]').getAttribute('data-status')).toBe('done');
    await poll(() => run.textContent()).toContain('full analysis');

    const library = page.getByTestId('library');
    await poll(() => library.locator('tr', { hasText: 'planted-report.pdf' }).locator('td').nth(2).textContent()).toMatch(/^\d+$/);
    await screenshot(page, 'library-and-runs');
    axeFindings.library = await seriousAxeViolations(page);
  });

  it('opens the chunk tree with per-chunk status, the judge decision, the summary and the split attempt that failed validation', async () => {
    await page.getByRole('button', { name: 'Open planted-report.pdf' }).click();
    const tree = page.getByRole('tree');
    await tree.getByRole('treeitem').first().waitFor();
    await poll(() => tree.getByRole('treeitem').count()).toBeGreaterThan(2);
    await poll(() => tree.locator('[role="treeitem"][data-status="done"]').count()).toBeGreaterThan(1);
    expect(await tree.locator('[role="treeitem"][data-status="failed"]').count()).toBe(0);

    // Keyboard: focus the tree, End, Home, down to the first chunk, Enter shows its text.
    await tree.focus();
    await page.keyboard.press('End');
    await page.keyboard.press('Home');
    await poll(() => tree.getAttribute('aria-activedescendant')).toBe('tree-node-0');
    await page.keyboard.press('ArrowDown');
    await poll(() => tree.getAttribute('aria-activedescendant')).not.toBe('tree-node-0');
    const active = await tree.getAttribute('aria-activedescendant');
    await page.keyboard.press('Enter');
    await poll(() => page.locator(`#${active}`).getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('chunk-text').locator('pre').textContent()).not.toBe('');

    const analysis = page.getByTestId('analysis');
    await analysis.getByTestId('judge-decision').waitFor();
    await poll(() => analysis.getByTestId('judge-decision').textContent()).toContain('LLM tree split');
    await poll(() => analysis.getByTestId('chunk-counts').textContent()).toMatch(/Chunks: \d+ done, 0 failed/);
    // The chunks as they came out beside the target, so "~128 tokens" against a budget of 1,500 explains itself.
    await poll(() => analysis.getByTestId('chunk-size').textContent()).toMatch(
      /^average [\d,]+ tokens a chunk; target [\d,]+ tokens a chunk, [^.]+\. Sections shorter than the target stay whole/,
    );
    await poll(() => analysis.getByTestId('document-summary').textContent()).toMatch(/Summary/);
    await screenshot(page, 'chunk-tree');

    const split = page.getByTestId('split-attempts');
    const failed = split.getByRole('article', { name: /Attempt 1: Validation failed/ });
    await failed.waitFor();
    await poll(() => failed.locator('.validation-errors').textContent()).toMatch(/starts at line 6, not after the previous chapter's line 12/);
    // The problem in plain words: the instruction the model was given with it stays internal.
    expect(await failed.locator('.validation-errors').textContent()).not.toContain('must strictly increase');
    await poll(() => split.getByRole('article', { name: /Accepted/ }).count()).toBeGreaterThan(0);
    await failed.scrollIntoViewIfNeeded();
    await screenshot(page, 'split-attempts');
    axeFindings.document = await seriousAxeViolations(page);
  });

  it('lists grounded and ungrounded findings and the unreviewed ID mentions; keyboard opens a finding and its chunk shows the evidence', async () => {
    await goTo('Findings');
    // The triage queue groups the same split: grounded first, the ungrounded ones apart.
    const queue = page.getByRole('listbox', { name: 'Findings to review' });
    await queue
      .getByRole('group', { name: /^Grounded/ })
      .getByRole('option', { name: /PBI-1201/ })
      .first()
      .waitFor();
    await poll(() =>
      queue
        .getByRole('group', { name: /^Not grounded/ })
        .getByRole('option', { name: /Hard-coded administrator password/ })
        .count(),
    ).toBe(1);
    await page.getByRole('button', { name: 'Table of all findings' }).click();
    const grounded = page.getByRole('grid', { name: 'Grounded findings', exact: true });
    await grounded.getByRole('row', { name: /PBI-1201/ }).waitFor();
    const ungrounded = page.getByRole('grid', { name: 'Ungrounded findings' });
    await poll(() => ungrounded.getByRole('row', { name: /Hard-coded administrator password/ }).count()).toBe(1);
    const unreviewed = page.getByTestId('unreviewed-section');
    await unreviewed.locator('[data-id="CR-310"]').waitFor();
    expect(await unreviewed.locator('[data-id="PBI-1201"]').count()).toBe(0);

    // Keyboard: sort by ID, then Home and Enter open the first row's detail.
    await grounded.getByRole('button', { name: 'ID', exact: true }).click();
    await grounded.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const detail = page.getByTestId('finding-detail');
    await detail.waitFor();
    await screenshot(page, 'findings');
    axeFindings.findings = await seriousAxeViolations(page);

    await grounded
      .getByRole('row', { name: /PBI-1201/ })
      .last()
      .click();
    await poll(() => detail.textContent()).toContain('PBI-1201');
    await detail
      .locator('li', { hasText: 'main source' })
      .getByRole('button', { name: /open this place in the document/ })
      .click();
    const text = page.getByTestId('chunk-text');
    // Polls the marks' text, not their count: the chunk shown before the click (the
    // summary table, marked too) is still on screen until the new chunk loads.
    const evidenceMarks = async () => (await text.locator('pre mark.hl--evidence').allTextContents()).map((t) => t.replace(/\s+/g, ' '));
    await poll(evidenceMarks).toEqual(expect.arrayContaining([expect.stringContaining('without parameter binding')]));
    await screenshot(page, 'chunk-evidence');
  });

  it('cancels a running full run between chunks and resumes it to the end', async () => {
    await goTo('Library');
    await dropFiles(page, [pdf('second-report.pdf', await plantedVariant('Internal Audit Report: Payments 2025'))]);
    const run = page.getByTestId('run-2');
    await page.waitForFunction(() => /chunk \d+ of \d+/.test(document.querySelector('[data-testid="run-2"] .run__facts')?.textContent ?? ''), null, {
      polling: 'raf',
    });
    await run.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForSelector('[data-testid="run-2"][data-status="cancelled"]');
    await poll(() => run.locator('[data-testid="run-input"]').getAttribute('data-status')).not.toBe('done');
    await screenshot(page, 'run-cancelled');

    await run.getByRole('button', { name: 'Resume' }).click();
    await page.waitForSelector('[data-testid="run-2"][data-status="done"]');
    await poll(() => run.locator('[data-testid="run-input"]').getAttribute('data-status')).toBe('done');
  });

  it('fails a full run at once when Ollama is unreachable, says what to do where it happened, and resumes after the fix', async () => {
    await goTo('Settings');
    await page.getByLabel('Ollama host').fill('http://127.0.0.1:9');
    await saveSettings();
    // The engine holds the host typed (not the one the pane loaded before the edit): the run below uses it.
    expect(await server.host.invoke('settings.get', {})).toMatchObject({ ok: true, data: { ollamaHost: 'http://127.0.0.1:9' } });
    await goTo('Library');
    await dropFiles(page, [pdf('third-report.pdf', await plantedVariant('Internal Audit Report: Logistics 2025'))]);
    await page.waitForSelector('[data-testid="run-3"][data-status="failed"]');
    const run = page.getByTestId('run-3');
    const error = run.getByTestId('run-error');
    await poll(() => error.locator('[data-code]').getAttribute('data-code')).toBe('OLLAMA_UNREACHABLE');
    await poll(() => error.textContent()).toContain('ollama serve');
    await screenshot(page, 'run-ollama-unreachable');
    axeFindings.runError = await seriousAxeViolations(page);

    await error.getByRole('button', { name: 'Open the settings' }).click();
    await page.getByLabel('Ollama host').fill(server.sim!.url);
    await saveSettings();
    await goTo('Library');
    await run.getByRole('button', { name: 'Resume' }).click();
    await page.waitForSelector('[data-testid="run-3"][data-status="done"]');
    expect(await run.getByTestId('run-error').count()).toBe(0);
    await screenshot(page, 'run-resumed');
  });

  it('pauses a running full run between chunks: the run and its file say Paused and keep their progress, and resume finishes it', async () => {
    await goTo('Library');
    await dropFiles(page, [pdf('fourth-report.pdf', await plantedVariant('Internal Audit Report: Procurement 2025'))]);
    const run = page.getByTestId('run-4');
    // Pause once at least one chunk is analysed, so there is committed progress to keep.
    await page.waitForFunction(() => /chunk ([2-9]|\d{2,}) of \d+/.test(document.querySelector('[data-testid="run-4"] .run__facts')?.textContent ?? ''), null, {
      polling: 'raf',
    });
    await run.getByRole('button', { name: 'Pause' }).click();
    await page.waitForSelector('[data-testid="run-4"][data-status="paused"]');
    const input = run.locator('[data-testid="run-input"][data-file="fourth-report.pdf"]');
    await poll(() => input.getAttribute('data-status')).toBe('paused');
    await poll(() => input.locator('.badge').textContent()).toMatch(/\bPaused$/);
    expect(await run.textContent()).not.toContain('Cancelled');
    // With extraction units a short report is a unit or two: the pause lands in extraction or in the merge right after it.
    await poll(() => input.textContent()).toMatch(/at: (Extracting|Merging) findings/);
    const fileBar = Number(await input.getByRole('progressbar').getAttribute('aria-valuenow'));
    const runBar = Number(await run.getByRole('progressbar', { name: 'Run #4 overall progress' }).getAttribute('aria-valuenow'));
    // Ingest, tree and at least one analysed chunk are kept: past the extraction phase's start (30%), not finished.
    expect(fileBar).toBeGreaterThan(30);
    expect(fileBar).toBeLessThan(100);
    expect(runBar).toBe(fileBar);
    await screenshot(page, 'run-paused');

    await run.getByRole('button', { name: 'Resume' }).click();
    await page.waitForSelector('[data-testid="run-4"][data-status="done"]');
    await poll(() => input.getAttribute('data-status')).toBe('done');
    await poll(() => input.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
  });

  it('has no serious or critical axe-core violations in any view', () => {
    expect(axeFindings).toEqual({ settings: [], library: [], document: [], findings: [], runError: [] });
  });
});

describeNeeding([CHROMIUM], 'tree-split diff and findings views rendered from fixed data', () => {
  let server: BridgeServer;
  let browser: Browser;
  let page: Page;
  const findings: FindingView[] = [];
  const attempts: SplitAttemptView[] = [];

  beforeAll(async () => {
    const rendererDir = await renderer();
    // The host's providers feed fixed data through the real contract: a diff the simulator cannot provoke (it comes from cutting bugs).
    server = await startBridgeServer({ rendererDir, providers: { findings: () => findings, splitAttempts: () => attempts } });
    const good = await makeTextPdf(sampleReportSpec());
    await server.host.invoke('documents.import', { files: [{ name: 'report.pdf', bytes: b64(good) }], mode: 'rules-only' });
    await server.host.idle();
    const tree = (await server.host.invoke('tree.get', { documentId: 1 })) as { ok: true; data: TreeView };
    const node = tree.data.nodes.find((n) => n.title.includes('Missing input validation'))!;
    const text = (await server.host.invoke('chunk.text', { documentId: 1, nodeIndex: node.index })) as { ok: true; data: { text: string } };
    const quote = 'accepts any document without checking its size';
    const at = node.start + text.data.text.indexOf(quote);
    const source = (grounded: boolean, id: number) => ({
      findingId: id,
      documentId: 1,
      nodeIndex: node.index,
      page: 2,
      evidence: grounded ? quote : 'the parser was written in a hurry',
      evidenceStart: grounded ? at : null,
      evidenceEnd: grounded ? at + quote.length : null,
      grounded,
      isMain: true,
    });
    findings.push(
      {
        id: 1,
        documentId: 1,
        runId: 1,
        findingKey: 'TOB-ACME-001',
        idLabel: 'TOB-ACME-001',
        idOrigin: 'document',
        conflicts: [],
        title: 'Missing input validation',
        severity: 'High',
        severityRank: 1,
        type: 'vulnerability',
        description: 'The parser accepts documents of any size.',
        pages: [2],
        grounded: true,
        sources: [source(true, 1)],
      },
      {
        id: 2,
        documentId: 1,
        runId: 1,
        findingKey: null,
        idLabel: "F-2 (model's label)",
        idOrigin: 'model',
        conflicts: [],
        title: 'Rushed parser implementation',
        severity: 'Low',
        severityRank: 3,
        type: 'observation',
        description: 'Claimed by the model, not found in the text.',
        pages: [2],
        grounded: false,
        sources: [source(false, 2)],
      },
    );
    attempts.push(
      {
        id: 1,
        documentId: 1,
        runId: 1,
        nodeKey: `${node.start}-${node.end}`,
        nodePath: ['2 Findings', '2.1 Missing input validation'],
        attempt: 1,
        outcome: 'validation_failed',
        chapters: [
          { chapterIndex: 1, chapterTitle: 'Problem', chapterStartLineNumber: 1 },
          { chapterIndex: 2, chapterTitle: 'Example', chapterStartLineNumber: 3 },
        ],
        review: { passes: false, comments: 'Chapter 2 starts in the middle of a sentence.' },
        validationErrors: ['joined chapters differ from the node text at offset 57'],
        diff: { offset: 57, expectedContext: 'without checking its size, see TOB-ACME-001.', actualContext: 'without checking its sise, see TOB-ACME-001.' },
        createdAt: new Date().toISOString(),
      },
      {
        id: 2,
        documentId: 1,
        runId: 1,
        nodeKey: `${node.start}-${node.end}`,
        nodePath: ['2 Findings', '2.1 Missing input validation'],
        attempt: 2,
        outcome: 'accepted',
        chapters: [{ chapterIndex: 1, chapterTitle: 'Problem', chapterStartLineNumber: 1 }],
        review: { passes: true, comments: 'Good.' },
        validationErrors: [],
        diff: null,
        createdAt: new Date().toISOString(),
      },
    );
    ({ browser, page } = await openApp(server.appUrl));
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    const dir = rendererBuild ? await rendererBuild : null;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists grounded and ungrounded findings apart, sorts, opens a detail and jumps to the chunk with the evidence highlighted', async () => {
    await page.getByRole('navigation', { name: 'Places' }).getByRole('button', { name: 'Findings', exact: true }).click();
    await page.getByRole('button', { name: 'Table of all findings' }).click();
    const grounded = page.getByRole('grid', { name: 'Grounded findings', exact: true });
    await grounded.getByRole('row', { name: /Missing input validation/ }).waitFor();
    const ungrounded = page.getByRole('grid', { name: 'Ungrounded findings' });
    await poll(() => ungrounded.getByRole('row', { name: /Rushed parser/ }).count()).toBe(1);
    // Once the document's analysis is loaded (before it, the heading says 0 too): none.
    await poll(() => page.getByTestId('unreviewed-section').textContent()).toContain('IDs the rules found in report.pdf');
    await poll(() => page.getByRole('heading', { name: /Unreviewed ID mentions \(0\)/ }).count()).toBe(1);
    await grounded.getByRole('button', { name: 'Title', exact: true }).click();
    await poll(() => grounded.getByRole('columnheader', { name: 'Title', exact: true }).getAttribute('aria-sort')).toBe('ascending');
    await grounded.getByRole('row', { name: /Missing input validation/ }).click();
    const detail = page.getByTestId('finding-detail');
    await detail.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await detail.getByRole('button', { name: /open this place in the document/ }).click();
    const text = page.getByTestId('chunk-text');
    await poll(() => text.locator('pre mark.hl--evidence').first().textContent()).toBe('accepts any document without checking its size');
  });

  it('shows every split attempt with chapters, review comments, validation errors and the diff', async () => {
    const split = page.getByTestId('split-attempts');
    await split.getByTestId('split-attempt').first().waitFor();
    await poll(() => split.getByTestId('split-attempt').count()).toBe(2);
    const failed = split.getByRole('article', { name: /Attempt 1: Validation failed/ });
    await poll(() => failed.textContent()).toContain('Chapter 2 starts in the middle of a sentence.');
    await poll(() => failed.locator('.diff__del').textContent()).toContain('ze, see');
    await poll(() => failed.locator('.diff__ins').textContent()).toContain('se, see');
    await failed.scrollIntoViewIfNeeded();
    await screenshot(page, 'split-attempt-diff');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
