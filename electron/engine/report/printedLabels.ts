import { readFile } from 'node:fs/promises';
import { printedLabelOf } from '../../../shared/printedPages';
import type { ReportData, ReportDocument } from './reportData';

/**
 * Adds to every finding source the page label its PDF prints ("printed 7" on PDF page 8), read with the same
 * derivation the app shows beside a finding (shared/printedPages.ts), so a report and the app cite the same
 * pages. Only the pages findings cite are read. A file that can no longer be opened (moved, deleted) leaves the
 * labels out: the PDF page numbers stay right, and a report is never refused for want of a label.
 */
export async function withPrintedLabels(data: ReportData): Promise<ReportData> {
  const inputs = await Promise.all(data.inputs.map(async (input) => (input.document ? { ...input, document: await labelDocument(input.document) } : input)));
  return { ...data, inputs };
}

async function labelDocument(doc: ReportDocument): Promise<ReportDocument> {
  if (doc.document.kind !== 'pdf') return doc;
  const pages = new Set<number>();
  for (const f of doc.findings) for (const s of f.sources) if (s.page !== null) pages.add(s.page);
  if (pages.size === 0) return doc;
  const labels = await readLabels(doc.document.filePath, [...pages]);
  if (labels.size === 0) return doc;
  return {
    ...doc,
    findings: doc.findings.map((f) => ({
      ...f,
      sources: f.sources.map((s) => (s.page !== null && labels.has(s.page) ? { ...s, printed: labels.get(s.page)! } : s)),
    })),
  };
}

async function readLabels(filePath: string, pages: readonly number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(filePath));
  } catch {
    return out;
  }
  const { openPdf, closePdf } = await import('../pdf/rawExtractor.mjs');
  const task = openPdf(bytes);
  try {
    const pdf = await task.promise;
    const pageLabels = await pdf.getPageLabels();
    for (const page of pages) {
      if (page < 1 || page > pdf.numPages) continue;
      const label = await printedLabelOf(pdf, page, pageLabels);
      if (label !== null) out.set(page, label);
    }
  } catch {
    // An encrypted or damaged file was already reported when it was read; the labels are simply left out.
  } finally {
    await closePdf(task);
  }
  return out;
}
