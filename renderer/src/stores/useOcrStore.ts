/**
 * OCR in the window (issue 18): whether the page viewer draws the OCR words, and the OCR data of pages and
 * documents, fetched once per window (a document's OCR never changes once stored: a document is read once).
 */
import { create } from 'zustand';
import type { OcrLanguageInfo, OcrPageInfo, OcrWordBox } from '../../../shared/contract';
import { invoke } from '../api';

interface OcrState {
  /** Draw every OCR word's box on OCR pages, tinted by its confidence. Kept while moving between findings. */
  showWords: boolean;
  setShowWords(show: boolean): void;
  /** The OCR languages installed on this computer (null until asked); asked again each time Settings opens, so a package installed meanwhile shows up. */
  languages: OcrLanguageInfo[] | null;
  loadLanguages(): Promise<void>;
}

export const useOcrStore = create<OcrState>()((set) => ({
  showWords: false,
  setShowWords: (showWords) => set({ showWords }),
  languages: null,
  async loadLanguages() {
    const result = await invoke('ocr.languages', {});
    if (result.ok) set({ languages: result.data });
  },
}));

const pageWords = new Map<string, Promise<OcrWordBox[]>>();
const documentPages = new Map<number, Promise<OcrPageInfo[]>>();

/** The words OCR read on a page; empty for a page with a text layer (or when they cannot be fetched: the page is then drawn without them). */
export function ocrWordsOf(documentId: number, pageNumber: number): Promise<OcrWordBox[]> {
  const key = `${documentId}:${pageNumber}`;
  let words = pageWords.get(key);
  if (!words) {
    words = invoke('pages.ocrWords', { documentId, pageNumber }).then((r) => (r.ok ? r.data : []));
    pageWords.set(key, words);
  }
  return words;
}

/** A document's pages read by OCR, with their confidence. Not cached while empty: the document may still be being read. */
export function ocrPagesOf(documentId: number): Promise<OcrPageInfo[]> {
  let pages = documentPages.get(documentId);
  if (!pages) {
    pages = invoke('documents.ocrPages', { documentId }).then((r) => (r.ok ? r.data : []));
    documentPages.set(documentId, pages);
    void pages.then((list) => list.length === 0 && documentPages.delete(documentId));
  }
  return pages;
}
