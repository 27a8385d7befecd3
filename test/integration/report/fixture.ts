/**
 * One real run for the report tests: the planted-findings report (a text file)
 * plus a real PDF, through the whole pipeline against the Ollama simulator.
 * Both documents carry markup (`<script>`, `<img onerror>`) in their text and
 * in finding titles and quotes, a finding has a spreadsheet formula for a
 * title, the PDF has a page without a text layer and a chunk whose replies stay
 * broken. So every section of a report has something in it.
 */
import { join } from 'node:path';
import type { SimChatRequest } from '../../ollama-sim/index';
import { makeTextPdf, writeFixture } from '../../fixtures/pdfFactory';
import { plantedReport, plantedResponder, type PlantedFinding, type PlantedReport } from '../../fixtures/plantedFindings';
import { MODEL, pipelineHarness, writePlantedReport, type PipelineHarness } from '../pipeline/helpers';

export const SCRIPT = '<script>alert(1)</script>';
export const IMG = '<img src=x onerror=alert(1)>';
export const XSS_TITLE = `Stored XSS ${SCRIPT} in the comment preview`;
export const XSS_SENTENCE = `The comment preview renders ${IMG} and ${SCRIPT} from user input without escaping.`;
export const FORMULA_TITLE = '=HYPERLINK("http://attacker.example/","Open evidence")';
export const FORMULA_SENTENCE = '=HYPERLINK("http://attacker.example/","Open evidence") is stored as the display name of imported users.';
export const PDF_TITLE = `Preview shows ${IMG} as an image`;
export const PDF_SENTENCE = `The upload preview inserts ${IMG} into the page as markup.`;
export const BROKEN = 'BROKEN-CHUNK marker: every reply for this page is cut.';

export const settings = {
  strategy: 'pages' as const,
  judge: false,
  llm: { models: { default: MODEL }, cache: false, desiredChunkTokens: 1500, replyTokens: 1024, maxInFlight: 1 },
};

function plant(report: PlantedReport): void {
  report.pageTexts.push(
    [
      '10 PBI-1601 Stored XSS in the comment preview ' + SCRIPT,
      XSS_SENTENCE,
      'Severity: High.',
      '11 Formula in imported user names',
      FORMULA_SENTENCE,
      'Severity: Low.',
    ].join('\n'),
  );
  const extra: PlantedFinding[] = [
    {
      key: 'PBI-1601',
      id: 'PBI-1601',
      title: XSS_TITLE,
      severity: 'High',
      type: 'vulnerability',
      sentence: XSS_SENTENCE,
      page: 7,
      pages: [7],
      behaviour: 'report',
      occurrences: [
        {
          anchor: XSS_SENTENCE,
          quote: XSS_SENTENCE,
          title: XSS_TITLE,
          description: `Markup in user input reaches the page: <b>bold</b> & "quotes" & ${IMG}.`,
          statedPage: 7,
        },
      ],
    },
    {
      key: 'formula',
      id: null,
      title: FORMULA_TITLE,
      severity: 'Low',
      type: 'risk',
      sentence: FORMULA_SENTENCE,
      page: 7,
      pages: [7],
      behaviour: 'report',
      occurrences: [
        { anchor: FORMULA_SENTENCE, quote: FORMULA_SENTENCE, title: FORMULA_TITLE, description: '+SUM(1,2) and @cmd end up in spreadsheets.', statedPage: 7 },
      ],
    },
    {
      key: 'PBI-1701',
      id: 'PBI-1701',
      title: PDF_TITLE,
      severity: 'Medium',
      type: 'defect',
      sentence: PDF_SENTENCE,
      page: 1,
      pages: [1],
      behaviour: 'report',
      occurrences: [{ anchor: PDF_SENTENCE, quote: PDF_SENTENCE, title: PDF_TITLE, description: 'An image tag from an upload is rendered.', statedPage: 1 }],
    },
  ];
  report.truth.push(...extra);
}

export interface ReportFixture {
  h: PipelineHarness;
  report: PlantedReport;
  runId: number;
  textFile: string;
  pdfFile: string;
}

export async function runReportFixture(): Promise<ReportFixture> {
  const report = plantedReport();
  plant(report);
  const good = plantedResponder(report);
  const h = await pipelineHarness({
    responder: (req: SimChatRequest) => (req.messages.some((m) => m.content.includes('BROKEN-CHUNK')) ? '{"findings": [ {"title": ' : good(req)),
  });
  const textFile = writePlantedReport(h.dir, report);
  const pdf = await makeTextPdf({
    title: 'Upload review',
    pages: [
      {
        blocks: [
          { kind: 'heading', text: `Upload review ${SCRIPT}` },
          { kind: 'body', lines: [PDF_SENTENCE, 'PBI-1701 is tracked by the web team.', 'Severity: Medium.'] },
        ],
      },
      { blocks: [] },
      { blocks: [{ kind: 'body', lines: [BROKEN, 'The rest of this page is ordinary text about uploads.'] }] },
    ],
  });
  const pdfFile = writeFixture(join(h.dir, 'upload-review.pdf'), pdf);
  const outcome = await h.engine.analyze([textFile, pdfFile], settings);
  return { h, report, runId: outcome.run.id, textFile, pdfFile };
}
