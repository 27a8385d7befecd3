/** OCR types shared by the renderer, the recognizer, the cache and the document rebuild. */

/** [x0, y0, x1, y1] as fractions (0..1) of the page's width and height, origin top-left, page rotation applied. */
export type PageBox = [number, number, number, number];

export interface OcrWord {
  text: string;
  /** 0..100, tesseract's confidence for the word. */
  confidence: number;
  box: PageBox;
}

export interface OcrLine {
  text: string;
  box: PageBox;
  words: OcrWord[];
}

/** What OCR read on one page. Boxes are page-relative, so a page viewer can draw them over the page at any scale. */
export interface OcrPageText {
  lines: OcrLine[];
  /** Mean word confidence (0..100) weighted by word length; null when no word was read. */
  confidence: number | null;
}

/** A rendered page: PNG bytes and the page's size in PDF units (scale 1, rotation applied). */
export interface RenderedPage {
  png: Buffer;
  /** Pixel size of the image and the page size in PDF units. */
  pixelWidth: number;
  pixelHeight: number;
  pageWidth: number;
  pageHeight: number;
  /** True when every pixel is (nearly) white: nothing to read, no OCR call needed. */
  blank: boolean;
  /** False when the page's content paints nothing, known before rendering: no image was made (png is empty). */
  rendered: boolean;
}

/** Reads text from a page image. One instance is reused for every page of a run (the worker keeps its language data loaded). */
export interface PageRecognizer {
  /** Identifies the engine, its version and languages: part of the cache key, so another engine or language never reuses a result. */
  readonly id: string;
  recognize(page: RenderedPage, signal?: AbortSignal): Promise<OcrPageText>;
  close(): Promise<void>;
}
