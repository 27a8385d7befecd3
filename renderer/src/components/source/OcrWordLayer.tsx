/**
 * The OCR words of a scanned page over its image (issue 18): each word's box, tinted by how sure OCR was of it,
 * with the word and its confidence on hover; and the bar above the page that says the page was read by OCR and
 * turns the boxes on and off.
 */
import type { OcrWordBox } from '../../../../shared/contract';
import { LOW_OCR_CONFIDENCE } from '../../../../shared/ocr';
import { store, useStore } from '../../store';

/** Words at or above this are drawn as sure; between it and the low threshold, as doubtful. */
const SURE_CONFIDENCE = 90;

export type ConfidenceBand = 'sure' | 'doubtful' | 'low';

export function confidenceBand(confidence: number): ConfidenceBand {
  return confidence >= SURE_CONFIDENCE ? 'sure' : confidence >= LOW_OCR_CONFIDENCE ? 'doubtful' : 'low';
}

export interface PixelBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A word's box (page fractions) in pixels of a page drawn `width` x `height`. */
export function pixelBox(word: OcrWordBox, width: number, height: number): PixelBox {
  const [x0, y0, x1, y1] = word.box;
  return { left: x0 * width, top: y0 * height, width: (x1 - x0) * width, height: (y1 - y0) * height };
}

/** The OCR words of the quote [start, end) of the canonical text: what is highlighted on a scanned page. */
export function quoteWords(words: readonly OcrWordBox[], start: number, end: number): OcrWordBox[] {
  return words.filter((word) => word.start < end && word.end > start);
}

/** Mean confidence of a page's words, weighted by length (as the engine computes a page's), rounded. */
function meanConfidence(words: readonly OcrWordBox[]): number {
  const characters = words.reduce((sum, word) => sum + word.text.length, 0);
  return Math.round(words.reduce((sum, word) => sum + word.confidence * word.text.length, 0) / Math.max(1, characters));
}

export function OcrPageBar({ words }: { words: readonly OcrWordBox[] }) {
  const showWords = useStore((s) => s.ocr.showWords);
  const setShowWords = store().ocr.setShowWords;
  const mean = meanConfidence(words);
  const low = words.filter((word) => word.confidence < LOW_OCR_CONFIDENCE).length;
  return (
    <div className="ocr-bar" data-testid="ocr-bar" data-confidence={mean}>
      <span className={mean < LOW_OCR_CONFIDENCE ? 'ocr-bar__low' : undefined}>
        Scanned page, read by OCR: {mean}% confidence{mean < LOW_OCR_CONFIDENCE ? ' (low: check quotes against the image)' : ''}
        {low > 0 ? `; ${low} ${low === 1 ? 'word' : 'words'} below ${LOW_OCR_CONFIDENCE}%` : ''}.
      </span>
      <button type="button" className="button button--small" aria-pressed={showWords} onClick={() => setShowWords(!showWords)}>
        {showWords ? 'Hide OCR words' : 'Show OCR words'}
      </button>
      {showWords ? (
        <span className="ocr-legend" aria-label="Word confidence">
          <span className="ocr-word--sure">≥ {SURE_CONFIDENCE}%</span>
          <span className="ocr-word--doubtful">
            {LOW_OCR_CONFIDENCE}–{SURE_CONFIDENCE}%
          </span>
          <span className="ocr-word--low">&lt; {LOW_OCR_CONFIDENCE}%</span>
        </span>
      ) : null}
    </div>
  );
}

/** Every word's box over the drawn page; hovering one shows the word OCR read and its confidence. */
export function OcrWordLayer({ words, width, height }: { words: readonly OcrWordBox[]; width: number; height: number }) {
  return (
    <div className="ocr-words" data-testid="ocr-words" aria-hidden="true">
      {words.map((word, i) => {
        const band = confidenceBand(word.confidence);
        return (
          <span
            key={i}
            className={`ocr-word ocr-word--${band}`}
            data-band={band}
            title={`${word.text} (${Math.round(word.confidence)}%)`}
            style={pixelBox(word, width, height)}
          />
        );
      })}
    </div>
  );
}
