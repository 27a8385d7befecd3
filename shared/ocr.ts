/**
 * OCR facts every process shares: the low-confidence threshold, and the
 * languages: tesseract's three-letter codes (the names of the
 * `@tesseract.js-data/<code>` packages), how a choice of several is written
 * ("eng+deu", as tesseract writes it), and their names for Settings.
 */
import { z } from 'zod';
import type { OcrPageInfo } from './contract';

/** One tesseract language code: lower-case letters, digits and `_` (eng, deu, chi_sim). */
export const ocrLanguageCodeSchema = z.string().regex(/^[a-z][a-z0-9_]{1,15}$/, 'an OCR language code such as eng or deu');
/** The languages a run reads with, in order (the first is tesseract's main language); at least one. */
export const ocrLanguagesSchema = z.array(ocrLanguageCodeSchema).min(1).max(8);

/** What a run does with pages without a usable text layer: read them with OCR (auto), leave them out (off), or OCR every page (force). */
export const OCR_MODES = ['auto', 'off', 'force'] as const;

/** Pages (and words) read by OCR with a confidence below this are flagged: their text, and quotes from it, may be misread. */
export const LOW_OCR_CONFIDENCE = 70;

/**
 * The largest image (width x height in pixels) pdf.js decodes when it draws a page, for OCR and in the window's page
 * viewer. pdf.js decodes an image whole before scaling it onto the page, at 15 to 25 bytes a pixel at the peak (the
 * decoded samples, their RGBA copy, the canvas they are drawn from; 16-bit colour with a transparency mask is the
 * costliest), so 25 megapixels keep the CLI under about 750 MB while every page scanned at up to 500 dpi (A4 or
 * Letter) is read. A larger image is left out of its page, with a warning: a 1 MB PDF can hold a 20000 x 20000
 * image that would need 4.9 GB.
 */
export const MAX_DECODED_IMAGE_PIXELS = 25_000_000;

/** A page OCR read, as the window and the reports show it: low confidence is judged only where OCR gave text. */
export function ocrPageInfo({ page, confidence, hasText }: { page: number; confidence: number | null; hasText: boolean }): OcrPageInfo {
  return { page, confidence, hasText, low: hasText && confidence !== null && confidence < LOW_OCR_CONFIDENCE };
}

export const DEFAULT_OCR_LANGUAGES: readonly string[] = ['eng'];

/** "eng+deu" (or "eng,deu") -> ['eng', 'deu']; repeats dropped; null when a part is not a language code. */
export function parseOcrLanguages(spec: string): string[] | null {
  const parts = [...new Set(spec.split(/[+,]/).map((part) => part.trim().toLowerCase()))].filter((part) => part.length > 0);
  const parsed = ocrLanguagesSchema.safeParse(parts);
  return parsed.success ? parsed.data : null;
}

const NAMES: Record<string, string> = {
  eng: 'English',
  deu: 'German',
  fra: 'French',
  spa: 'Spanish',
  ita: 'Italian',
  nld: 'Dutch',
  por: 'Portuguese',
  pol: 'Polish',
  swe: 'Swedish',
  dan: 'Danish',
  nor: 'Norwegian',
  fin: 'Finnish',
  ces: 'Czech',
  hun: 'Hungarian',
  ron: 'Romanian',
  tur: 'Turkish',
  ell: 'Greek',
  rus: 'Russian',
  ukr: 'Ukrainian',
  ara: 'Arabic',
  heb: 'Hebrew',
  hin: 'Hindi',
  jpn: 'Japanese',
  kor: 'Korean',
  chi_sim: 'Chinese (simplified)',
  chi_tra: 'Chinese (traditional)',
  osd: 'Orientation and script detection',
};

/** "German (deu)"-style display name; an unknown code is shown as itself. */
export function ocrLanguageName(code: string): string {
  return NAMES[code] ?? code;
}
