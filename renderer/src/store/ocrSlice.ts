/** OCR in the window (issue 18): whether the page viewer draws the OCR words (kept while moving between findings). */
import { patcher, type SliceCreator } from './slice';

export interface OcrSlice {
  /** Draw every OCR word's box on OCR pages, tinted by its confidence. */
  showWords: boolean;
  setShowWords(show: boolean): void;
}

export const createOcrSlice: SliceCreator<'ocr'> = (set) => {
  const patch = patcher(set, 'ocr');
  return { ocr: { showWords: false, setShowWords: (showWords) => patch({ showWords }) } };
};
