import { useEffect, useRef, useState } from 'react';
import { quoteBoxes, type PdfBox, type TextItemLike } from '../../pdfHighlight';
import { pdfOf } from '../../sourceCache';

interface Drawn {
  width: number;
  height: number;
  boxes: { left: number; top: number; width: number; height: number }[];
}

/** One page of the document's PDF, drawn with pdf.js, with the quote highlighted where the page's text holds it. */
export function PdfPage({ documentId, page, quote, width }: { documentId: number; page: number; quote: string; width: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawn, setDrawn] = useState<Drawn | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    let task: { cancel(): void; promise: Promise<void> } | null = null;
    setError(null);
    void (async () => {
      try {
        const doc = await pdfOf(documentId);
        if (page < 1 || page > doc.numPages) throw new Error(`The PDF has no page ${page}.`);
        const pdfPage = await doc.getPage(page);
        const base = pdfPage.getViewport({ scale: 1 });
        const viewport = pdfPage.getViewport({ scale: Math.max(0.3, width / base.width) });
        const target = canvas.current;
        if (cancelled || !target) return;
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
        if (!cancelled) setDrawn({ width: viewport.width, height: viewport.height, boxes });
      } catch (e) {
        if (!cancelled && (e as Error).name !== 'RenderingCancelledException') setError((e as Error).message);
      }
    })();
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [documentId, page, quote, width]);

  if (error) return <p className="warning" data-testid="pdf-page-error">The page cannot be shown: {error}</p>;
  return (
    <div className="pdf-page" data-testid="pdf-page" data-page={page} data-rendered={drawn ? 'true' : 'false'} data-highlights={drawn?.boxes.length ?? 0} style={drawn ? { width: drawn.width, height: drawn.height } : undefined}>
      <canvas ref={canvas} role="img" aria-label={`Page ${page} of the document${drawn && drawn.boxes.length > 0 ? ', with the quote highlighted' : ''}`} />
      {drawn?.boxes.map((b, i) => (
        <span key={i} className="pdf-page__highlight" data-testid="pdf-highlight" style={{ left: b.left, top: b.top, width: b.width, height: b.height }} />
      ))}
      {drawn && drawn.boxes.length === 0 ? <p className="pdf-page__note">The quote could not be placed on the drawn page; it is highlighted in the text above.</p> : null}
    </div>
  );
}
