/**
 * OCR (pipeline stage `ocr/`): pages without a usable text layer are
 * rendered with pdf.js and read with tesseract.js, offline. Public surface:
 * the ingestion step, the recognizer, the garbage heuristic, the store rows
 * for page viewers, and the warnings about OCR pages.
 */
export { LOW_OCR_CONFIDENCE, ocrReadsBetter, pagesNeedingOcr, readPagesWithOcr, type OcrCandidate, type OcrStepInput, type OcrStepResult } from './ocrDocument';
export { isGarbageText, judgeTextLayer, type GarbageVerdict } from './garbage';
export { assertOcrLanguagesInstalled, createTesseractRecognizer, installedOcrLanguages, languageDataPath } from './recognizer';
export { openForRendering, RENDER_DPI } from './render';
export { oversizedImages, type OversizedImage } from './oversizedImages';
export { getCachedOcr, listOcrPages, loadPageOcrWords, savePageOcr, type OcrWordView, type PageOcrMark } from './store';
export { ocrWarnings } from './warnings';
export type { OcrLine, OcrPageText, OcrWord, PageBox, PageRecognizer, RenderedPage } from './types';
