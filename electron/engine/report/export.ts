import { AppError, ErrorCode } from '../../../shared/errors';
import { renderCsv } from './csv';
import { renderHtml } from './html';
import { renderJson } from './json';
import { renderMarkdown } from './markdown';
import { renderPdfWithChromium } from './pdf';
import { withPrintedLabels } from './printedLabels';
import { limitToConfirmed, type ReportData } from './reportData';

import { REPORT_FORMATS, type ReportFormat } from '../../../shared/reportFormats';

export { formatFromPath, isReportFormat, REPORT_FORMATS, type ReportFormat } from '../../../shared/reportFormats';

export interface ExportOptions {
  /** Depth of the chunk tree in the outline appendix (1 = top-level sections); default 2. */
  outlineDepth?: number;
  /** Only this document of the run (the per-document Export button). */
  documentId?: number;
  /** Only findings an auditor confirmed (the review counts still cover every finding). */
  confirmedOnly?: boolean;
}

/** Prints report HTML to PDF bytes: headless Chromium by default, Electron's printToPDF in the app. */
export type PdfRenderer = (html: string, meta: { footerLabel: string }) => Promise<Buffer>;

export const defaultPdfRenderer: PdfRenderer = (html, meta) => renderPdfWithChromium(html, { footerLabel: meta.footerLabel });

/** One report in one format: text for md/html/csv/json, bytes for pdf. */
export async function renderReport(
  data: ReportData,
  format: ReportFormat,
  options: ExportOptions = {},
  renderPdf: PdfRenderer = defaultPdfRenderer,
): Promise<Buffer | string> {
  const outlineDepth = options.outlineDepth;
  if (outlineDepth !== undefined && !(Number.isInteger(outlineDepth) && outlineDepth >= 1)) {
    throw new AppError(ErrorCode.INVALID_INPUT, `The outline depth must be a whole number of at least 1, got ${outlineDepth}.`);
  }
  const depth = outlineDepth === undefined ? {} : { outlineDepth };
  if (options.confirmedOnly) data = limitToConfirmed(data);
  // Pages are cited as the app shows them: "page 8, printed 7" where the document numbers its pages otherwise.
  data = await withPrintedLabels(data);
  switch (format) {
    case 'md':
      return renderMarkdown(data, depth);
    case 'html':
      return renderHtml(data, depth);
    case 'csv':
      return renderCsv(data);
    case 'json':
      return renderJson(data);
    case 'pdf':
      return renderPdf(renderHtml(data, depth), { footerLabel: `Audit report, run ${data.run.id}` });
    default:
      throw new AppError(ErrorCode.INVALID_INPUT, `Unknown report format "${String(format)}": use one of ${REPORT_FORMATS.join(', ')}.`);
  }
}
