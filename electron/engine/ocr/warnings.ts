/**
 * Warnings about OCR pages, built from the page spans alone (like
 * pdf/pageWarnings), so a stored document that is reused warns the same way.
 */
import { formatPageRanges } from '../../../shared/canonical';
import { ErrorCode } from '../../../shared/errors';
import type { PageSpan } from '../../../shared/types';
import type { IngestWarning } from '../pdf';
import { MAX_DECODED_IMAGE_PIXELS } from '../../../shared/ocr';
import { LOW_OCR_CONFIDENCE } from './ocrDocument';
import type { OversizedImage } from './oversizedImages';

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

/**
 * Images OCR left out because decoding them would take gigabytes (render.ts). Which page showed one is not known
 * (pdf.js drops it silently); the pages that OCR then read as blank are named, as the likely ones.
 */
export function oversizedImageWarning(fileName: string, images: readonly OversizedImage[], blankPages: readonly number[]): IngestWarning {
  const largest = images.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
  const what =
    images.length === 1
      ? `an image too large to read (${largest.width} x ${largest.height} pixels`
      : `${images.length} images too large to read (the largest ${largest.width} x ${largest.height} pixels`;
  const limit = `; OCR reads images of up to ${MAX_DECODED_IMAGE_PIXELS / 1_000_000} megapixels, a whole page scanned at 500 dpi)`;
  const where =
    blankPages.length === 0
      ? `${images.length === 1 ? 'it was' : 'they were'} left out, so the page showing ${images.length === 1 ? 'it' : 'them'} was read without ${images.length === 1 ? 'it' : 'them'}`
      : `${images.length === 1 ? 'it was' : 'they were'} left out, and ${blankPages.length === 1 ? `page ${blankPages[0]} reads` : `pages ${formatPageRanges([...blankPages])} read`} as blank without ${images.length === 1 ? 'it' : 'them'}`;
  return {
    code: ErrorCode.PDF_IMAGE_TOO_LARGE,
    message: `"${fileName}" holds ${what}${limit}: ${where}. Scan or export ${blankPages.length === 1 ? 'that page' : 'those pages'} again at 300 dpi (enough for OCR) and add the file again.`,
    ...(blankPages.length === 0 ? {} : { pages: [...blankPages] }),
  };
}
