/**
 * The corpus's image-only scan (hard-scanned-no-text.pdf, 6 pages, p4 with a
 * scanner's garbage OCR layer) through the whole pipeline with the Ollama
 * simulator: OCR reads the pages, the LLM stages run on the OCR text, a
 * finding quoting it is grounded and the report says its evidence is OCR text.
 */
import { afterEach, expect, it } from 'vitest';
import { ErrorCode } from '../../../shared/errors';
import type { SimChatRequest } from '../../ollama-sim/index';
import { promptBlocks } from '../../fixtures/plantedFindings';
import { loadExtractedDocument } from '../../../electron/engine/store';
import { MODEL, mergedOf, pipelineHarness, type PipelineHarness } from '../pipeline/helpers';
import { corpusFile } from '../../helpers/corpus';
import { corpusDocuments, describeNeeding } from '../../helpers/requirements';

const scan = corpusFile('hard-scanned-no-text', 'pdf');

/** Extraction replies with one finding quoting the chunk's first long plain line verbatim (with its page marker); other calls get minimal JSON. */
function quotingResponder(req: SimChatRequest): string {
  const isExtraction = typeof req.format === 'object' && req.format !== null && /"findings"/.test(JSON.stringify(req.format));
  if (!isExtraction) return req.format ? '{}' : 'A scanned document.';
  let page = 1;
  let quote: { evidence: string; page: number } | undefined;
  for (const line of (promptBlocks(req).chunk ?? '').split('\n')) {
    const marker = /^\[page (\d+)\]/.exec(line);
    if (marker) page = Number(marker[1]);
    else if (!quote && /^[A-Za-z][A-Za-z ,.;]{30,}$/.test(line.trim())) quote = { evidence: line.trim(), page };
  }
  const findings = quote
    ? [{ id: null, type: 'observation', title: `Quoted from page ${quote.page}`, severity: 'Low', description: 'From OCR text.', ...quote }]
    : [];
  return JSON.stringify({ findings, summary: 'Part of a scanned book.' });
}

let h: PipelineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describeNeeding([corpusDocuments(['hard-scanned-no-text'], ['pdf'])], 'corpus scan through the whole pipeline (OCR + simulator)', () => {
  it('reads the scanned pages with OCR, analyses them, grounds a quote and marks it as OCR text', { timeout: 400_000 }, async () => {
    h = await pipelineHarness({ responder: quotingResponder });
    const outcome = await h.engine.analyze([scan], {
      strategy: 'pages',
      judge: false,
      llm: { models: { default: MODEL }, cache: false, desiredChunkTokens: 1500, replyTokens: 1024, maxInFlight: 1 },
    });
    expect(outcome.run.status).toBe('done');
    expect(outcome.inputs[0]).toMatchObject({ status: 'done', error: null });

    const doc = loadExtractedDocument(h.db, outcome.inputs[0]!.documentId!)!;
    const ocrPages = doc.pages.filter((page) => page.textSource === 'ocr').map((page) => page.pageNumber);
    // Every image-only page is read; p4's garbage layer stays unless OCR reads it clearly better.
    expect(ocrPages).toEqual(expect.arrayContaining([1, 2, 3, 5, 6]));
    const page5 = doc.text.slice(doc.pages[4]!.start, doc.pages[4]!.end);
    expect(page5.length).toBeGreaterThan(1000);
    expect(page5).toMatch(/\b(the|and|was)\b/);

    const grounded = mergedOf(h.db, outcome.run.id).filter((finding) => finding.grounded);
    expect(grounded.length).toBeGreaterThan(0);
    const markdown = h.engine.markdownReport(outcome.run.id);
    expect(markdown).toMatch(/### Pages read by OCR \(\d/);
    expect(markdown).toMatch(/page \d+ \(main\) \(OCR text, \d+% confidence/);
    const json = JSON.parse(h.engine.jsonReport(outcome.run.id)) as {
      inputs: { warnings: { code: string }[]; document: { ocrPages: { page: number; low: boolean }[]; findings: { sources: { ocr: unknown }[] }[] } }[];
    };
    expect(json.inputs[0]!.document.ocrPages.map((p) => p.page)).toEqual(expect.arrayContaining([1, 2, 3, 5, 6]));
    expect(json.inputs[0]!.document.findings.flatMap((f) => f.sources).some((s) => s.ocr !== null)).toBe(true);
    // Low-confidence pages (page 3, a chart OCR reads at about 40%) are flagged in the report and among the input's warnings.
    expect(json.inputs[0]!.document.ocrPages.filter((p) => p.low).map((p) => p.page)).toContain(3);
    expect(json.inputs[0]!.warnings.map((w) => w.code)).toContain(ErrorCode.OCR_LOW_CONFIDENCE);
    // Page 2 is OCRmyPDF's "Huge Page" test, one 9000 x 9000 image (81 megapixels, 1.2 GB to decode): it is left out
    // with a warning naming the page, so memory stays bounded (shared/ocr.ts MAX_DECODED_IMAGE_PIXELS).
    const tooLarge = (json.inputs[0]!.warnings as { code: string; message: string; details?: { pages?: number[] } }[]).find(
      (w) => w.code === ErrorCode.PDF_IMAGE_TOO_LARGE,
    );
    expect(tooLarge?.message).toMatch(/holds an image too large to read \(9000 x 9000 pixels; .*page 2 reads as blank/);
    expect(tooLarge?.details?.pages).toEqual([2]);
    expect(markdown).toMatch(/3 \(\d+%, low\)/);
    // The CSV's sources cell says which quotes are OCR text.
    expect(String(await h.engine.exportReport(outcome.run.id, 'csv'))).toMatch(/page \d+ \(main\) \(OCR text, \d+% confidence[^)]*\), found/);
  });
});
