import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { quoteBoxes, type PdfBox, type TextItemLike } from '../../pdfHighlight';
import { pdfOf } from '../../sourceCache';
import type { OcrWordBox } from '../../../../shared/contract';
import { ocrWordsOf } from '../../sourceCache';
import { useStore } from '../../store';
import { OcrPageBar, OcrWordLayer, pixelBox, quoteWords } from './OcrWordLayer';

interface Drawn {
  /** What was drawn: the document, page, width and quote (see drawingKey). */
  key: string;
  width: number;
  height: number;
  boxes: { left: number; top: number; width: number; height: number }[];
}

/**
 * One page of the document's PDF, drawn with pdf.js, with the quote highlighted where the page's text holds it.
 * A page read by OCR has no text to search: its quote is highlighted on the OCR words that hold `range` (offsets
 * into the canonical text), and the words' boxes can be shown, tinted by confidence.
 */
export function PdfPage({
  documentId,
  page,
  quote,
  range,
  width,
}: {
  documentId: number;
  page: number;
  quote: string;
  range?: { start: number; end: number };
  width: number;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [lastDrawing, setLastDrawing] = useState<Drawn | null>(null);
  // Why the drawing asked for failed; an error of an earlier drawing (another page or width) is not shown.
  const [failure, setFailure] = useState<{ key: string; message: string } | null>(null);
  // The OCR words of the page shown (words fetched for another page are not used while this one's arrive).
  const [ocr, setOcr] = useState<{ page: string; words: OcrWordBox[] } | null>(null);
  const pageKey = `${documentId}:${page}`;
  // The drawing asked for now. Until it is done the page is not drawn: the canvas is being sized and drawn again, and
  // an earlier drawing's highlights (another page, width or quote) are not shown over it.
  const drawingKey = `${pageKey}:${width}:${quote}`;
  const drawn = lastDrawing?.key === drawingKey ? lastDrawing : null;
  const error = failure?.key === drawingKey ? failure.message : null;
  const ocrWords = ocr?.page === pageKey ? ocr.words : [];
  const showOcrWords = useStore((s) => s.ocr.showWords);

  useEffect(() => {
    let cancelled = false;
    void ocrWordsOf(documentId, page).then((words) => !cancelled && setOcr({ page: `${documentId}:${page}`, words }));
    return () => {
      cancelled = true;
    };
  }, [documentId, page]);

  useEffect(() => {
    let cancelled = false;
    let task: { cancel(): void; promise: Promise<void> } | null = null;
    void (async () => {
      try {
        const doc = await pdfOf(documentId);
        if (page < 1 || page > doc.numPages) throw new Error(`The PDF has no page ${page}.`);
        const pdfPage = await doc.getPage(page);
        const base = pdfPage.getViewport({ scale: 1 });
        const viewport = pdfPage.getViewport({ scale: Math.max(0.3, width / base.width) });
        const target = canvas.current;
        if (cancelled || !target) return;
        // Sizing the canvas clears it: no drawing is shown as done from here (not even this key's, after a drawing
        // for another width was started and given up), until this one is.
        flushSync(() => setLastDrawing(null));
        const ratio = window.devicePixelRatio || 1;
        target.width = Math.floor(viewport.width * ratio);
        target.height = Math.floor(viewport.height * ratio);
        target.style.width = `${viewport.width}px`;
        target.style.height = `${viewport.height}px`;
        task = pdfPage.render({ canvas: target, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
        await task.promise;
        const content = await pdfPage.getTextContent();
        const items = content.items.filter((i): i is TextItemLike & (typeof content.items)[number] => 'str' in i);
        const boxes = quoteBoxes(items, quote).map((b: PdfBox) => {
          const [x0, y0, x1, y1] = viewport.convertToViewportRectangle([b.x0, b.y0, b.x1, b.y1]);
          return { left: Math.min(x0, x1), top: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0) };
        });
        if (!cancelled) setLastDrawing({ key: drawingKey, width: viewport.width, height: viewport.height, boxes });
      } catch (e) {
        if (!cancelled && (e as Error).name !== 'RenderingCancelledException') setFailure({ key: drawingKey, message: (e as Error).message });
      }
    })();
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [documentId, page, quote, width, drawingKey]);

  if (error)
    return (
      <p className="warning" data-testid="pdf-page-error">
        The page cannot be shown: {error}
      </p>
    );
  const ocrPage = ocrWords.length > 0;
  // On an OCR page the words OCR read are the page's text: the quote is where its offsets fall.
  const boxes = !drawn
    ? []
    : ocrPage
      ? range
        ? quoteWords(ocrWords, range.start, range.end).map((word) => pixelBox(word, drawn.width, drawn.height))
        : []
      : drawn.boxes;
  return (
    <>
      {ocrPage ? <OcrPageBar words={ocrWords} /> : null}
      <div
        className="pdf-page"
        data-testid="pdf-page"
        data-page={page}
        data-rendered={drawn ? 'true' : 'false'}
        data-highlights={boxes.length}
        data-ocr={ocrPage ? 'true' : 'false'}
        style={drawn ? { width: drawn.width, height: drawn.height } : undefined}
      >
        <canvas
          ref={canvas}
          role="img"
          aria-label={`Page ${page} of the document${ocrPage ? ' (read by OCR)' : ''}${boxes.length > 0 ? ', with the quote highlighted' : ''}`}
        />
        {drawn && ocrPage && showOcrWords ? <OcrWordLayer words={ocrWords} width={drawn.width} height={drawn.height} /> : null}
        {boxes.map((b, i) => (
          <span key={i} className="pdf-page__highlight" data-testid="pdf-highlight" style={{ left: b.left, top: b.top, width: b.width, height: b.height }} />
        ))}
        {drawn && boxes.length === 0 ? (
          <p className="pdf-page__note">The quote could not be placed on the drawn page; it is highlighted in the text above.</p>
        ) : null}
      </div>
    </>
  );
}
