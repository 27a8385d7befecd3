/** OCR data for the window: the words OCR read on a page, with their boxes, for the page viewer to draw over the page. */
import type { OcrWordBox, ParsedInput } from '../../shared/contract';
import { AppError, ErrorCode } from '../../shared/errors';
import { loadPageOcrWords } from '../engine';
import { loadExtractedDocument, type Database } from '../engine/store';

export function ocrHandlers(db: Database) {
  return {
    'pages.ocrWords': async ({ documentId, pageNumber }: ParsedInput<'pages.ocrWords'>): Promise<OcrWordBox[]> => {
      const page = loadExtractedDocument(db, documentId)?.pages.find((candidate) => candidate.pageNumber === pageNumber);
      if (!page) throw new AppError(ErrorCode.INVALID_INPUT, `There is no page ${pageNumber} in document ${documentId}. Refresh the library.`);
      return loadPageOcrWords(db, documentId, page);
    },
  };
}
