/**
 * Every export of one real run read back and checked against the store:
 * HTML parsed by Chromium (with JavaScript ON, so an escaping slip would
 * run), PDF read back with pdf.js, CSV parsed with papaparse, JSON validated
 * against docs/report.schema.json with ajv.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv from 'ajv';
import Papa from 'papaparse';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MergedFinding } from '../../../shared/findings';
import { listMergedFindings } from '../../../electron/engine/merge';
import { CHROMIUM_ARGS, CSV_COLUMNS, findChromium, REPORT_JSON_VERSION } from '../../../electron/engine/report';
import { readableTime } from '../../../electron/engine/report/format';
import { addManualFinding, addNote, editField, getReviewView, setState } from '../../../electron/engine/review';
import { CHROMIUM, itNeeding } from '../../helpers/requirements';
import { settings as runSettings, FORMULA_TITLE, IMG, PDF_TITLE, runReportFixture, SCRIPT, XSS_TITLE, type ReportFixture } from './fixture';

const root = resolve(import.meta.dirname, '../../..');
const schema = JSON.parse(readFileSync(resolve(root, 'docs/report.schema.json'), 'utf8')) as object;

let f: ReportFixture;
let browser: Browser;
let merged: MergedFinding[];
const docIds: number[] = [];

beforeAll(async () => {
  f = await runReportFixture();
  merged = listMergedFindings(f.h.db, f.runId);
  for (const input of f.h.engine.listRunInputs(f.runId)) if (input.documentId !== null) docIds.push(input.documentId);
  // The HTML and PDF checks need a browser (itNeeding below); the CSV and JSON ones run everywhere.
  if (CHROMIUM.missing() === null) browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  await f?.h.close();
});

/** Loads HTML in a page with JavaScript enabled and records any dialog, console message or request. */
async function openHtml(html: string): Promise<{ page: Page; dialogs: string[]; requests: string[] }> {
  const context = await browser.newContext({ javaScriptEnabled: true });
  const page = await context.newPage();
  const dialogs: string[] = [];
  const requests: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => requests.push(r.url()));
  await page.setContent(html, { waitUntil: 'load' });
  return { page, dialogs, requests };
}

const squash = (text: string) => text.replace(/\s+/g, '');

describe('report exports read back', () => {
  it('the run has what every section needs', () => {
    expect(merged.filter((m) => m.grounded).length).toBeGreaterThanOrEqual(8);
    expect(merged.filter((m) => !m.grounded).length).toBeGreaterThanOrEqual(2);
    expect(merged.map((m) => m.title)).toEqual(expect.arrayContaining([XSS_TITLE, FORMULA_TITLE, PDF_TITLE]));
  });

  itNeeding([CHROMIUM], 'HTML: findings and sections counted per document, markup from documents shown as text and never run', async () => {
    const html = (await f.h.engine.exportReport(f.runId, 'html')) as string;
    expect(typeof html).toBe('string');
    const { page, dialogs, requests } = await openHtml(html);
    try {
      // Nothing executable or loadable came from the documents.
      expect(await page.locator('script').count()).toBe(0);
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('[onerror], [onload], [onclick]').count()).toBe(0);
      expect(await page.locator('[src], link[href], iframe, object, embed').count()).toBe(0);
      const external = await page.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? '').filter((h) => !h.startsWith('#')));
      expect(external).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(requests.filter((u) => !u.startsWith('about:') && !u.startsWith('data:'))).toEqual([]);

      const documents = page.locator('section.document');
      expect(await documents.count()).toBe(2);
      for (const [i, documentId] of docIds.entries()) {
        const doc = page.locator(`section.document[data-document-id="${documentId}"]`);
        const expected = merged.filter((m) => m.documentId === documentId);
        expect(await doc.locator('section[data-section="findings"] article.finding[data-grounded="true"]').count()).toBe(
          expected.filter((m) => m.grounded).length,
        );
        expect(await doc.locator('section[data-section="ungrounded"] article.finding[data-grounded="false"]').count()).toBe(
          expected.filter((m) => !m.grounded).length,
        );
        expect(await doc.locator('section[data-section="findings"] table.findings-table tbody tr').count()).toBe(expected.filter((m) => m.grounded).length);
        for (const section of ['summary', 'findings', 'ungrounded', 'unreviewed', 'no-text', 'failed', 'mentions']) {
          expect(await doc.locator(`section[data-section="${section}"]`).count(), `${section} of document ${i + 1}`).toBe(1);
        }
        // Each merged finding once, with its ID and title as text.
        for (const m of expected) {
          const article = page.locator(`article#finding-${m.id}`);
          expect(await article.count()).toBe(1);
          expect(await article.locator('.finding-title').textContent()).toBe(m.title);
          if (m.findingKey) expect(await article.locator('.finding-key').textContent()).toBe(m.findingKey);
          expect(await article.locator('blockquote.evidence').count()).toBe(m.sources.length);
        }
      }
      // The text shows literally.
      expect(await page.locator(`.finding-title:text-is("${XSS_TITLE.replace(/"/g, '\\"')}")`).count()).toBe(1);
      const body = (await page.locator('body').textContent()) ?? '';
      expect(body).toContain(SCRIPT);
      expect(body).toContain(IMG);
      expect(body).toContain(`Upload review ${SCRIPT}`);
      // Apart sections say what they hold.
      const planted = page.locator(`section.document[data-document-id="${docIds[0]}"]`);
      expect(await planted.locator('section[data-section="unreviewed"] li').allTextContents()).toEqual(['CR-310: pages 3', 'CR-77: pages 3']);
      const pdfDoc = page.locator(`section.document[data-document-id="${docIds[1]}"]`);
      expect(await pdfDoc.locator('section[data-section="no-text"] h3').textContent()).toBe('Pages without a text layer (1)');
      expect(await pdfDoc.locator('section[data-section="no-text"] .warning').textContent()).toMatch(/^Pages 2\./);
      expect(await pdfDoc.locator('section[data-section="failed"] li').count()).toBe(1);
      expect(await pdfDoc.locator('section[data-section="failed"] li').textContent()).toMatch(/page 3.*LLM_INVALID_REPLY/);
      // Severity is written out, not only coloured.
      const badges = await page.locator('section[data-section="findings"] table.findings-table .sev').allTextContents();
      expect(badges.every((b) => /(Critical|High|Medium|Low|Informational|Major)/.test(b))).toBe(true);
      // Header: hashes, models, num_ctx, usage, judge.
      for (const input of f.h.engine.listRunInputs(f.runId)) {
        const sha = f.h.engine.listDocuments().find((d) => d.id === input.documentId)!.sha256;
        expect(body).toContain(sha);
      }
      const settingsText = (await page.locator('#settings').textContent()) ?? '';
      expect(settingsText).toMatch(/num_ctx\s*\d+/);
      expect(settingsText).toContain(runSettings.llm.models.default);
      expect(settingsText).toMatch(/LLM usage\s*\d+ calls/);
      // Chunking said in plain words, never 'pages (override)'; no internal path in the body.
      expect(await planted.locator('dl.meta').textContent()).toContain('Chunkingone chunk per page, chosen in the settings');
      expect(await planted.locator('dl.meta').textContent()).not.toMatch(/[\\/]imports?[\\/]|\(override\)/);
      // Internals (models, digests, times) are in the appendix, after the documents; times in words, never ISO stamps.
      expect(await page.locator('main > section').last().getAttribute('id')).not.toBe('settings');
      expect(await page.locator('#settings h2').textContent()).toBe('Appendix: how this analysis was made');
      expect(body.replace(/datetime="[^"]*"/g, '')).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
      // Table of contents: every anchor lands on an element; outline appendix present.
      const anchors = await page.locator('nav.toc a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
      expect(anchors.length).toBeGreaterThan(10);
      for (const href of anchors) expect(await page.locator(href).count(), href).toBe(1);
      expect(await page.locator('section[data-section="outline"] ul.outline li').count()).toBe(7 + 2);
    } finally {
      await page.context().close();
    }
  });

  itNeeding([CHROMIUM], 'PDF: printed from the HTML with page numbers; pdf.js finds every finding ID and title', async () => {
    const pdf = await f.h.engine.exportReport(f.runId, 'pdf');
    expect(Buffer.isBuffer(pdf)).toBe(true);
    const bytes = pdf as Buffer;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    writeFileSync(resolve(f.h.dir, 'report.pdf'), bytes);
    if (process.env.REPORT_PDF_OUT) writeFileSync(process.env.REPORT_PDF_OUT, bytes);
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
    }
    await doc.destroy();
    expect(pages.length).toBeGreaterThan(2);
    // Footer: "n / total" on every page.
    pages.forEach((text, i) => expect(squash(text)).toContain(`${i + 1}/${pages.length}`));
    const all = squash(pages.join(' '));
    for (const m of merged) {
      expect(all, m.title).toContain(squash(m.title));
      if (m.findingKey) expect(all, m.findingKey).toContain(m.findingKey);
    }
    expect(all).toContain(squash(SCRIPT));
    expect(all).toContain(squash(IMG));
    for (const heading of ['Ungroundedfindings', 'UnreviewedIDmentions', 'Pageswithoutatextlayer', 'Chunksthatfailedanalysis', 'Appendix:documentoutlines'])
      expect(all).toContain(heading);
  });

  it('CSV: one RFC 4180 row per merged finding matching the store, formulas neutralised', async () => {
    const csv = (await f.h.engine.exportReport(f.runId, 'csv')) as string;
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
    const parsed = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual([...CSV_COLUMNS]);
    expect(parsed.data).toHaveLength(merged.length);
    const byId = new Map(parsed.data.map((row) => [Number(row.finding), row]));
    const disarm = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
    for (const m of merged) {
      const row = byId.get(m.id);
      expect(row, m.title).toBeDefined();
      expect(row!.run).toBe(String(f.runId));
      // The document's ID, else the number it prints before the title; where that comes from beside it.
      expect(row!.id).toBe(m.findingKey ?? m.printedNumber ?? '');
      expect(row!.id_origin).toBe(m.findingKey || m.printedNumber ? 'document' : m.modelLabels.length > 0 ? 'model' : 'none');
      expect(row!.model_labels).toBe(m.modelLabels.join(', '));
      expect(row!.title).toBe(disarm(m.title));
      expect(row!.description).toBe(disarm(m.description));
      expect(row!.type).toBe(m.type);
      expect(row!.grounded).toBe(m.grounded ? 'yes' : 'no');
      expect(Number(row!.source_count)).toBe(m.sources.length);
      expect(row!.main_page).toBe(m.mainPage === null ? '' : String(m.mainPage));
      for (const s of m.sources) expect(row!.sources).toContain(s.evidence);
    }
    // No cell can start a formula; the planted ones are quoted with a leading apostrophe.
    for (const row of parsed.data) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    const formula = parsed.data.find((row) => row.title === `'${FORMULA_TITLE}`);
    expect(formula).toBeDefined();
    // Its description is the document's sentence, which opens with the formula too.
    expect(formula!.description!.startsWith("'=HYPERLINK(")).toBe(true);
    expect(formula!.sources).toContain(`"${FORMULA_TITLE.slice(0, 10)}`);
    // Markup stays as text in CSV too.
    expect(parsed.data.some((row) => row.title === XSS_TITLE)).toBe(true);
  });

  it('JSON: valid against docs/report.schema.json, counts equal to the store', async () => {
    const text = (await f.h.engine.exportReport(f.runId, 'json')) as string;
    const json = JSON.parse(text) as {
      version: number;
      run: { llm: { numCtx: number } | null; usage: { calls: number } };
      inputs: {
        document: {
          id: number;
          findings: { findingId: number; sources: { contextBefore: string | null }[] }[];
          ungroundedFindings: unknown[];
          chunkTree: unknown[];
          judge: { source: string } | null;
        };
      }[];
    };
    const ajv = new Ajv({ allErrors: true, strict: true });
    const validate = ajv.compile(schema);
    expect(validate(json), ajv.errorsText(validate.errors)).toBe(true);
    expect(json.version).toBe(REPORT_JSON_VERSION);
    expect(json.run.llm?.numCtx).toBeGreaterThan(0);
    expect(json.run.usage.calls).toBeGreaterThan(0);
    for (const input of json.inputs) {
      const stored = merged.filter((m) => m.documentId === input.document.id);
      expect(input.document.findings.map((x) => x.findingId).sort()).toEqual(
        stored
          .filter((m) => m.grounded)
          .map((m) => m.id)
          .sort(),
      );
      expect(input.document.ungroundedFindings).toHaveLength(stored.filter((m) => !m.grounded).length);
      expect(input.document.chunkTree.length).toBeGreaterThan(1);
      expect(input.document.judge?.source).toBe('override');
      expect(input.document.findings.every((x) => x.sources.every((s) => typeof s.contextBefore === 'string'))).toBe(true);
    }
    // The schema rejects drift: an unknown field or a wrong version fails.
    expect(validate({ ...json, version: 1 })).toBe(false);
    expect(validate({ ...json, extra: true })).toBe(false);
  });

  it('Markdown: every section, markup escaped', async () => {
    const md = (await f.h.engine.exportReport(f.runId, 'md', { outlineDepth: 1 })) as string;
    expect(md).not.toContain(SCRIPT);
    expect(md).not.toContain('<img');
    expect(md).toContain('&lt;script\\>alert(1)&lt;/script\\>');
    for (const heading of [
      '### Summary',
      '### Findings (9',
      '### Ungrounded findings (2)',
      '### Unreviewed ID mentions (2)',
      '### Pages without a text layer (1)',
      '### Chunks that failed analysis (1)',
      '## Appendix: document outlines',
    ]) {
      expect(md).toContain(heading);
    }
    expect(md).toBe(f.h.engine.markdownReport(f.runId, { outlineDepth: 1 }).replace(/Generated: \S+/, md.match(/Generated: \S+/)![0]));
  });

  itNeeding([CHROMIUM], 'per document: only that document, and a clear error for one outside the run', async () => {
    const html = (await f.h.engine.exportReport(f.runId, 'html', { documentId: docIds[1]! })) as string;
    const { page } = await openHtml(html);
    try {
      expect(await page.locator('section.document').count()).toBe(1);
      expect(await page.locator('article.finding').count()).toBe(merged.filter((m) => m.documentId === docIds[1]).length);
    } finally {
      await page.context().close();
    }
    await expect(f.h.engine.exportReport(f.runId, 'csv', { documentId: 999 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(f.h.engine.exportReport(999, 'md')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
  });

  itNeeding([CHROMIUM], 'rules-only run: no findings sections, and the report says so', async () => {
    const outcome = await f.h.engine.analyze([f.textFile], { mode: 'rules-only', strategy: 'pages' });
    const runId = outcome.run.id;
    const html = (await f.h.engine.exportReport(runId, 'html')) as string;
    const { page } = await openHtml(html);
    try {
      expect(await page.locator('[data-section="rules-only"]').textContent()).toMatch(/rules only.*no findings/i);
      for (const section of ['summary', 'findings', 'ungrounded', 'unreviewed', 'failed'])
        expect(await page.locator(`[data-section="${section}"]`).count(), section).toBe(0);
      expect(await page.locator('[data-section="mentions"] tbody tr').count()).toBe(9);
      expect(await page.locator('[data-section="no-text"]').count()).toBe(1);
    } finally {
      await page.context().close();
    }
    const md = (await f.h.engine.exportReport(runId, 'md')) as string;
    expect(md).toMatch(/rules only/);
    expect(md).not.toMatch(/### Findings|### Ungrounded/);
    const csv = Papa.parse<Record<string, string>>((await f.h.engine.exportReport(runId, 'csv')) as string, { header: true, skipEmptyLines: true });
    expect(csv.data).toEqual([]);
    const ajv = new Ajv({ strict: true });
    const json = JSON.parse((await f.h.engine.exportReport(runId, 'json')) as string) as { run: { llm: unknown } };
    expect(ajv.validate(schema, json), ajv.errorsText(ajv.errors)).toBe(true);
    expect(json.run.llm).toBeNull();
  });
});

describe('report exports carry the review', () => {
  const reviewer = 'A. Auditor';
  const when = '2025-03-04T10:00:00.000Z';
  let ids: { confirmed: number; rejected: number; manual: number; confirmedMerged: number; rejectedMerged: number; editedTitle: string; originalTitle: string };

  beforeAll(() => {
    const documentId = docIds[0]!;
    const view = getReviewView(f.h.db, documentId);
    const grounded = view.findings.filter((x) => x.grounded && x.origin === 'model');
    const [a, b] = [grounded[0]!, grounded[1]!];
    editField(f.h.db, { reviewedId: a.id, reviewer, field: 'title', value: `${a.original.title} (confirmed by audit)`, now: when });
    setState(f.h.db, { reviewedId: a.id, reviewer, state: 'confirmed', now: when });
    addNote(f.h.db, { reviewedId: a.id, reviewer, text: 'Checked against the ticket <b>log</b>.', now: when });
    setState(f.h.db, { reviewedId: b.id, reviewer, state: 'rejected', reason: 'Duplicate of an older ticket', now: when });
    const text = (f.h.db.prepare('SELECT canonical_text FROM documents WHERE id = ?').get(documentId) as { canonical_text: string }).canonical_text;
    const at = text.indexOf('CR-310');
    const manual = addManualFinding(f.h.db, {
      documentId,
      start: at,
      end: at + 6,
      title: 'CR-310 left open',
      severity: 'Low',
      type: 'observation',
      description: 'Found by the auditor.',
      reviewer,
      now: when,
    });
    setState(f.h.db, { reviewedId: manual.reviewedId, reviewer, state: 'confirmed', now: when });
    ids = {
      confirmed: a.id,
      rejected: b.id,
      manual: manual.reviewedId,
      confirmedMerged: a.mergedIds[0]!,
      rejectedMerged: b.mergedIds[0]!,
      editedTitle: `${a.original.title} (confirmed by audit)`,
      originalTitle: a.original.title,
    };
  });

  it('JSON: state, reason, edits beside originals, notes, reviewer and time per finding; counts per document; model digests; schema-valid', async () => {
    const json = JSON.parse((await f.h.engine.exportReport(f.runId, 'json')) as string) as {
      version: number;
      confirmedOnly: boolean;
      run: { models: { stage: string; name: string; digest: string | null }[] };
      inputs: {
        document: {
          id: number;
          review: { counts: Record<string, number>; findings: { reviewId: number; origin: string; state: string; manualEvidence: { text: string } | null }[] };
          findings: {
            findingId: number;
            title: string;
            review: {
              reviewId: number;
              state: string;
              rejectReason: string | null;
              edits: { field: string; original: string; effective: string }[];
              notes: { reviewer: string; text: string }[];
              lastReviewer: string | null;
              lastChangedAt: string | null;
            }[];
          }[];
        };
      }[];
    };
    const ajv = new Ajv({ allErrors: true, strict: true });
    const validate = ajv.compile(schema);
    expect(validate(json), ajv.errorsText(validate.errors)).toBe(true);
    expect(json.version).toBe(REPORT_JSON_VERSION);
    expect(json.confirmedOnly).toBe(false);
    expect(json.run.models.map((m) => m.name)).toContain(runSettings.llm.models.default);
    const doc = json.inputs.find((i) => i.document.id === docIds[0])!.document;
    expect(doc.review.counts).toMatchObject({ confirmed: 2, rejected: 1 });
    expect(doc.review.counts.total).toBe(doc.review.findings.length);
    const confirmed = doc.findings.find((x) => x.findingId === ids.confirmedMerged)!;
    expect(confirmed.review).toHaveLength(1);
    expect(confirmed.review[0]).toMatchObject({ reviewId: ids.confirmed, state: 'confirmed', lastReviewer: reviewer, lastChangedAt: when });
    expect(confirmed.review[0]!.edits).toEqual([{ field: 'title', original: ids.originalTitle, effective: ids.editedTitle }]);
    expect(confirmed.review[0]!.notes).toEqual([expect.objectContaining({ reviewer, text: 'Checked against the ticket <b>log</b>.' })]);
    // The model's title stays the merged finding's own; the edit is beside it.
    expect(confirmed.title).toBe(ids.originalTitle);
    const rejected = doc.findings.find((x) => x.findingId === ids.rejectedMerged)!;
    expect(rejected.review[0]).toMatchObject({ state: 'rejected', rejectReason: 'Duplicate of an older ticket' });
    expect(doc.review.findings.find((r) => r.reviewId === ids.manual)).toMatchObject({
      origin: 'manual',
      state: 'confirmed',
      manualEvidence: { text: 'CR-310' },
    });
  });

  itNeeding([CHROMIUM], 'Markdown and HTML: review state, edit original -> effective, notes, reviewer and time, review summary', async () => {
    const md = (await f.h.engine.exportReport(f.runId, 'md')) as string;
    expect(md).toMatch(/### Review \(2 confirmed, 1 rejected, 0 need follow-up, \d+ not reviewed yet \(\d+ in all\)\)/);
    expect(md).toContain(`Review R-`);
    expect(md).toContain('rejected: Duplicate of an older ticket');
    expect(md).toContain(`last change by ${reviewer}, ${readableTime(when)}`);
    expect(md).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(md).toContain('Checked against the ticket &lt;b\\>log&lt;/b\\>.');
    expect(md).toMatch(/Edited title: model “[^”]+” → auditor “[^”]+\(confirmed by audit\)”/);
    expect(md).toContain('Model digests');

    const { page, dialogs } = await openHtml((await f.h.engine.exportReport(f.runId, 'html')) as string);
    try {
      expect(dialogs).toEqual([]);
      expect(await page.locator('b').count()).toBe(0);
      const counts = page.locator(`section.document[data-document-id="${docIds[0]}"] [data-section="review"] .review-counts`);
      expect(await counts.getAttribute('data-confirmed')).toBe('2');
      expect(await counts.getAttribute('data-rejected')).toBe('1');
      const article = page.locator(`article#finding-${ids.confirmedMerged}`);
      expect(await article.locator('.finding-title').textContent()).toBe(ids.editedTitle);
      const review = article.locator('.review');
      expect(await review.getAttribute('data-state')).toBe('confirmed');
      expect(await review.locator('.reviewer').first().textContent()).toBe(reviewer);
      expect(await review.locator('time').first().textContent()).toBe(readableTime(when));
      expect(await review.locator('time').first().getAttribute('datetime')).toBe(when);
      expect(await review.locator('.edit[data-field="title"] .original').textContent()).toBe(ids.originalTitle);
      expect(await review.locator('.edit[data-field="title"] .effective').textContent()).toBe(ids.editedTitle);
      expect(await review.locator('.note').textContent()).toContain('Checked against the ticket <b>log</b>.');
      expect(await page.locator(`article#finding-${ids.rejectedMerged} .reject-reason`).textContent()).toBe('Reason: Duplicate of an older ticket');
      expect(await page.locator(`.manual-finding[data-review-id="${ids.manual}"] blockquote.evidence`).textContent()).toBe('CR-310');
      expect(await page.locator('#settings ul.models li').count()).toBeGreaterThan(0);
    } finally {
      await page.context().close();
    }
  });

  it('every review count in every format comes from one set of numbers, and the states add up to the total', async () => {
    // A finding needing follow-up too, so every state is represented (the trial's "17 open (of 18)" counted it twice).
    const documentId = docIds[0]!;
    const view = getReviewView(f.h.db, documentId);
    const fresh = view.findings.find((x) => x.state === 'new' && x.origin === 'model')!;
    setState(f.h.db, { reviewedId: fresh.id, reviewer, state: 'needs_follow_up', now: when });
    const after = getReviewView(f.h.db, documentId).counters;
    const expected = { confirmed: after.confirmed, rejected: after.rejected, followUp: after.needsFollowUp, notReviewed: after.new, total: after.total };
    expect(expected.confirmed + expected.rejected + expected.followUp + expected.notReviewed).toBe(expected.total);
    expect(expected.followUp).toBe(1);
    const sentence = (c: typeof expected) =>
      `${c.confirmed} confirmed, ${c.rejected} rejected, ${c.followUp} need follow-up, ${c.notReviewed} not reviewed yet (${c.total} in all)`;

    const json = JSON.parse((await f.h.engine.exportReport(f.runId, 'json')) as string) as {
      inputs: { document: { id: number; review: { counts: Record<string, number> } } | null }[];
    };
    const counts = json.inputs.find((i) => i.document?.id === documentId)!.document!.review.counts;
    expect(counts).toMatchObject({
      confirmed: expected.confirmed,
      rejected: expected.rejected,
      needsFollowUp: expected.followUp,
      notReviewed: expected.notReviewed,
      total: expected.total,
    });
    expect(counts.confirmed! + counts.rejected! + counts.needsFollowUp! + counts.notReviewed!).toBe(counts.total);
    expect(counts.open).toBe(counts.notReviewed! + counts.needsFollowUp!);

    const md = (await f.h.engine.exportReport(f.runId, 'md')) as string;
    expect(md).toContain(`### Review (${sentence(expected)})`);
    // No other review sentence in the Markdown disagrees with it.
    expect(md).not.toMatch(/open \(of \d+\)/);

    const html = (await f.h.engine.exportReport(f.runId, 'html')) as string;
    const text = html.replace(/<[^>]+>/g, '');
    expect(text).toContain(`${sentence(expected)}.`);
    expect(text).toContain(`Review (${expected.confirmed} confirmed, ${expected.notReviewed} not reviewed yet)`);
    // The executive summary adds up the same per-document counts; every "Review:" sentence adds up.
    for (const m of text.matchAll(/(\d+) confirmed, (\d+) rejected, (\d+) need follow-up, (\d+) not reviewed yet \((\d+) in all\)/g)) {
      expect(Number(m[1]) + Number(m[2]) + Number(m[3]) + Number(m[4])).toBe(Number(m[5]));
    }
    const summary = /<p data-summary="review">Review: ([^<]+)\.<\/p>/.exec(html)?.[1];
    const all = json.inputs.flatMap((i) => (i.document ? [i.document.review.counts] : []));
    const add = (k: string) => all.reduce((n, c) => n + c[k]!, 0);
    expect(summary).toBe(
      sentence({
        confirmed: add('confirmed'),
        rejected: add('rejected'),
        followUp: add('needsFollowUp'),
        notReviewed: add('notReviewed'),
        total: add('total'),
      }),
    );

    setState(f.h.db, { reviewedId: fresh.id, reviewer, state: 'new', now: when });
  });

  it('CSV: review columns per row, the edited title with the original in `edits`, the manual finding as its own row', async () => {
    const parsed = Papa.parse<Record<string, string>>((await f.h.engine.exportReport(f.runId, 'csv')) as string, { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toHaveLength(merged.length + 1);
    const confirmed = parsed.data.find((r) => r.finding === String(ids.confirmedMerged))!;
    expect(confirmed).toMatchObject({ review_state: 'confirmed', reviewer, reviewed_at: when, title: ids.editedTitle, origin: 'model' });
    expect(confirmed.edits).toBe(`title: "${ids.originalTitle}" -> "${ids.editedTitle}"`);
    expect(confirmed.notes).toContain('Checked against the ticket <b>log</b>.');
    expect(parsed.data.find((r) => r.finding === String(ids.rejectedMerged))).toMatchObject({
      review_state: 'rejected',
      reject_reason: 'Duplicate of an older ticket',
    });
    expect(parsed.data.find((r) => r.origin === 'manual')).toMatchObject({
      finding: '',
      title: 'CR-310 left open',
      review_state: 'confirmed',
      grounded: 'yes',
    });
  });

  itNeeding([CHROMIUM], 'confirmedOnly: only confirmed findings in every format, the counts still cover all', async () => {
    const json = JSON.parse((await f.h.engine.exportReport(f.runId, 'json', { confirmedOnly: true })) as string) as {
      confirmedOnly: boolean;
      inputs: {
        document: {
          id: number;
          review: { confirmedOnly: boolean; counts: { rejected: number }; findings: { state: string }[] };
          findings: { findingId: number }[];
          ungroundedFindings: unknown[];
        };
      }[];
    };
    expect(ajv().validate(schema, json)).toBe(true);
    expect(json.confirmedOnly).toBe(true);
    const doc = json.inputs.find((i) => i.document.id === docIds[0])!.document;
    expect(doc.findings.map((x) => x.findingId)).toEqual([ids.confirmedMerged]);
    expect(doc.ungroundedFindings).toEqual([]);
    expect(doc.review.findings.map((r) => r.state)).toEqual(['confirmed', 'confirmed']);
    expect(doc.review.counts.rejected).toBe(1);
    expect(json.inputs.find((i) => i.document.id === docIds[1])!.document.findings).toEqual([]);
    const csv = Papa.parse<Record<string, string>>((await f.h.engine.exportReport(f.runId, 'csv', { confirmedOnly: true })) as string, {
      header: true,
      skipEmptyLines: true,
    });
    expect(csv.data.map((r) => r.review_state)).toEqual(['confirmed', 'confirmed']);
    const md = (await f.h.engine.exportReport(f.runId, 'md', { confirmedOnly: true })) as string;
    expect(md).toContain('Limited to confirmed findings');
    expect(md).not.toContain('Duplicate of an older ticket');
    const { page } = await openHtml((await f.h.engine.exportReport(f.runId, 'html', { confirmedOnly: true })) as string);
    try {
      expect(await page.locator('[data-section="confirmed-only"]').count()).toBe(1);
      expect(await page.locator('article.finding').count()).toBe(1);
      expect(await page.locator('.review[data-state]:not([data-state="confirmed"])').count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });
});

function ajv() {
  return new Ajv({ strict: true });
}
