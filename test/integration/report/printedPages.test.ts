/**
 * Printed page labels in the exported reports: a generated audit report with an unnumbered cover, so PDF page
 * N prints "Page | N-1" in its footer. Every format cites a finding's page as the app does ("page 4, printed 3").
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
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

/** The four-page generated report numbered "Page | 1".."Page | 4", behind a cover that prints no number. */
async function reportWithCover(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(
    await makeTextPdf({ ...reportSpec(['Total High-Severity Issues 1', 'Total Medium-Severity Issues 1', 'Total Low-Severity Issues 1']), footer: 'Page |' }),
  );
  const cover = doc.insertPage(0, [612, 792]);
  cover.drawText('Generated Audit Report: security review of the customer portal', {
    x: 72,
    y: 600,
    size: 14,
    font: await doc.embedFont(StandardFonts.HelveticaBold),
  });
  return doc.save({ useObjectStreams: false });
}

describe('printed page labels in reports', () => {
  it('each finding source and main page shows the number the page prints beside the PDF page, in Markdown, HTML, CSV and JSON', async () => {
    h = await pipelineHarness({ responder: headingResponder(FINDINGS) });
    const file = writeFixture(join(h.dir, 'covered-report.pdf'), await reportWithCover());
    const outcome = await h.engine.analyze([file], settings);
    expect(outcome.run.status).toBe('done');
    const runId = outcome.run.id;

    const json = JSON.parse((await h.engine.exportReport(runId, 'json')) as string) as {
      inputs: {
        document: { findings: { title: string; mainPage: number; mainPagePrinted: string | null; sources: { page: number; printedPage: string | null }[] }[] };
      }[];
    };
    const findings = json.inputs[0]!.document.findings;
    expect(findings.map((f) => f.title).sort()).toEqual(FINDINGS.map((f) => f.title).sort());
    // Each finding's PDF page is one more than the number its footer prints.
    for (const f of findings) {
      expect(f.mainPagePrinted).toBe(String(f.mainPage - 1));
      for (const s of f.sources) expect(s.printedPage).toBe(String(s.page - 1));
    }
    const sample = findings[0]!;
    const cited = `page ${sample.mainPage}, printed ${sample.mainPage - 1}`;

    const markdown = (await h.engine.exportReport(runId, 'md')) as string;
    expect(markdown).toContain(`main page: ${sample.mainPage}, printed ${sample.mainPage - 1};`);
    expect(markdown).toMatch(new RegExp(`^\\d+\\. ${cited} \\(main\\)`, 'm'));
    const html = (await h.engine.exportReport(runId, 'html')) as string;
    expect(html).toContain(`main page ${sample.mainPage}, printed ${sample.mainPage - 1} ·`);
    expect(html).toContain(`<p class="where">${cited} (main)`);

    const csv = ((await h.engine.exportReport(runId, 'csv')) as string).split('\r\n');
    const header = csv[0]!.split(',');
    const printedColumn = header.indexOf('main_page_printed');
    expect(printedColumn).toBe(header.indexOf('main_page') + 1);
    const rows = csv.slice(1).filter((line) => line.includes(sample.title));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toContain(`${sample.mainPage},${sample.mainPage - 1},`);
    expect(rows[0]).toContain(cited);
  });
});
