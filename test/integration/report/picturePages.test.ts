/**
 * A page that holds only pictures (a logo on the back cover: OCR finds no words on it) is noted quietly in the
 * exported report, in the sentence the app uses, and is no place to check: the report's completeness headline is the
 * library badge's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { makeTextPdf, writeFixture } from '../../fixtures/pdfFactory';
import { MODEL, pipelineHarness, type PipelineHarness } from '../pipeline/helpers';
import { FINDINGS, headingResponder, reportSpec } from '../completeness/helpers';

const settings = {
  strategy: 'pages' as const,
  judge: false,
  llm: { models: { default: MODEL }, cache: false, desiredChunkTokens: 1500, replyTokens: 1024, maxInFlight: 1 },
};

let h: PipelineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('picture-only pages in reports', () => {
  it('a blank back cover is noted in one quiet sentence, not listed as a place, and the report says Complete', async () => {
    h = await pipelineHarness({ responder: headingResponder(FINDINGS) });
    const doc = await PDFDocument.load(
      await makeTextPdf(reportSpec(['Total High-Severity Issues 1', 'Total Medium-Severity Issues 1', 'Total Low-Severity Issues 1'])),
    );
    doc.addPage([612, 792]);
    const backPage = doc.getPageCount();
    const file = writeFixture(join(h.dir, 'with-back-cover.pdf'), await doc.save({ useObjectStreams: false }));
    const outcome = await h.engine.analyze([file], settings);
    expect(outcome.run.status).toBe('done');

    const markdown = (await h.engine.exportReport(outcome.run.id, 'md')) as string;
    expect(markdown).toContain('### Completeness: Complete');
    expect(markdown).toContain(`Page ${backPage} has only pictures or nothing on it (OCR found no words).`);
    expect(markdown).not.toContain('Places to check');
    const html = (await h.engine.exportReport(outcome.run.id, 'html')) as string;
    expect(html).toContain('<h3>Completeness: Complete</h3>');
    expect(html).toContain(`<p class="section-note" data-note="picture-pages">Page ${backPage} has only pictures or nothing on it (OCR found no words).</p>`);
    const json = JSON.parse((await h.engine.exportReport(outcome.run.id, 'json')) as string) as {
      inputs: { document: { completeness: { headline: string; places: unknown[] } } }[];
    };
    expect(json.inputs[0]!.document.completeness).toMatchObject({ headline: 'Complete', places: [] });
  }, 120_000);
});
