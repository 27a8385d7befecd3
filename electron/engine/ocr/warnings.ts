/**
 * Warnings about OCR pages, built from the page spans alone (like
 * pdf/pageWarnings), so a stored document that is reused warns the same way.
 */
import { formatPageRanges } from '../../../shared/canonical';
import { ErrorCode } from '../../../shared/errors';
import type { PageSpan } from '../../../shared/types';
import type { IngestWarning } from '../pdf';
import { LOW_OCR_CONFIDENCE } from './ocrDocument';

export function ocrWarnings(pages: readonly PageSpan[], fileName: string): IngestWarning[] {
  const warnings: IngestWarning[] = [];
  const ocrPages = pages.filter((page) => page.textSource === 'ocr');
  const low = ocrPages.filter((page) => page.hasTextLayer && page.ocrConfidence !== undefined && page.ocrConfidence < LOW_OCR_CONFIDENCE);
  if (low.length > 0) {
    const numbers = low.map((page) => page.pageNumber);
    const lowest = Math.min(...low.map((page) => page.ocrConfidence!));
    warnings.push({
      code: ErrorCode.OCR_LOW_CONFIDENCE,
      message: `${numbers.length === 1 ? 'Page' : 'Pages'} ${formatPageRanges(numbers)} of "${fileName}" ${numbers.length === 1 ? 'was' : 'were'} read by OCR with low confidence (${Math.round(lowest)}% at worst): words may be misread, so check findings quoting ${numbers.length === 1 ? 'it' : 'them'} against the original.`,
      pages: numbers,
    });
  }
  const empty = ocrPages.filter((page) => !page.hasTextLayer).map((page) => page.pageNumber);
  if (empty.length > 0) {
    warnings.push({
      code: ErrorCode.PDF_NO_TEXT_LAYER,
      message: `${empty.length === 1 ? `Page ${empty[0]} has` : `Pages ${formatPageRanges(empty)} have`} only pictures or nothing on ${empty.length === 1 ? 'it' : 'them'} (OCR found no words).`,
      pages: empty,
      picturesOnly: true,
    });
  }
  return warnings;
}
