/** OCR data for the window: the words OCR read on a page (boxes for the page viewer), a document's OCR pages, and the installed languages. */
import type { OcrLanguageInfo, OcrPageInfo, OcrWordBox, ParsedInput } from '../../shared/contract';
import { AppError, ErrorCode } from '../../shared/errors';
import { ocrLanguageName, ocrPageInfo } from '../../shared/ocr';
import { installedOcrLanguages, listOcrPages, loadPageOcrWords } from '../engine';
import { loadExtractedDocument, type Database } from '../engine/store';

export function ocrHandlers(db: Database) {
  return {
    'pages.ocrWords': async ({ documentId, pageNumber }: ParsedInput<'pages.ocrWords'>): Promise<OcrWordBox[]> => {
      const page = loadExtractedDocument(db, documentId)?.pages.find((candidate) => candidate.pageNumber === pageNumber);
      if (!page) throw new AppError(ErrorCode.INVALID_INPUT, `There is no page ${pageNumber} in document ${documentId}. Refresh the library.`);
      return loadPageOcrWords(db, documentId, page);
    },
    'documents.ocrPages': async ({ documentId }: ParsedInput<'documents.ocrPages'>): Promise<OcrPageInfo[]> => listOcrPages(db, documentId).map(ocrPageInfo),
    'ocr.languages': async (): Promise<OcrLanguageInfo[]> => installedOcrLanguages().map((code) => ({ code, name: ocrLanguageName(code) })),
  };
}
