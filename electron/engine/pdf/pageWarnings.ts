/**
 * Warnings about pages whose text is missing from a document that still
 * ingested: pages pdf.js could not read (damaged content) and pages without a
 * text layer (scanned). Built from the page spans alone, so a stored document
 * that is reused gets exactly the warnings its first import got.
 */
import { formatPageRanges } from '../../../shared/canonical';
import { ErrorCode } from '../../../shared/errors';
import type { PageSpan } from '../../../shared/types';
import type { IngestWarning } from './types';

export function pageWarnings(pages: readonly PageSpan[], fileName: string): IngestWarning[] {
  const warnings: IngestWarning[] = [];
  const damaged = pages.filter((page) => page.readError !== undefined);
  if (damaged.length > 0) {
    const numbers = damaged.map((page) => page.pageNumber);
    const which = numbers.length === 1 ? `Page ${numbers[0]}` : `Pages ${formatPageRanges(numbers)}`;
    const reason = numbers.length === 1 ? damaged[0]!.readError : `page ${numbers[0]}: ${damaged[0]!.readError}`;
    warnings.push({
      code: ErrorCode.PDF_PAGE_UNREADABLE,
      message: `${which} of "${fileName}" could not be read (${reason}), so ${numbers.length === 1 ? 'its text is' : 'their text is'} missing from the analysis. Get a fresh copy of the file (download or export it again) if ${numbers.length === 1 ? 'that page matters' : 'those pages matter'}.`,
      pages: numbers,
    });
  }
  // Pages OCR already read (and found nothing on) are reported by ocr/warnings.
  const scanned = pages.filter((page) => !page.hasTextLayer && page.readError === undefined && page.textSource !== 'ocr').map((page) => page.pageNumber);
  if (scanned.length > 0) {
    warnings.push({
      code: ErrorCode.PDF_NO_TEXT_LAYER,
      message: `Scanned? No text layer on ${scanned.length === 1 ? 'page' : 'pages'} ${formatPageRanges(scanned)} of "${fileName}": these pages cannot be analysed without OCR (turn it on: OCR in Settings, or --ocr auto).`,
      pages: scanned,
    });
  }
  return warnings;
}
