import { useEffect, useState } from 'react';
import type { OcrPageInfo } from '../../../shared/contract';
import { LOW_OCR_CONFIDENCE } from '../../../shared/ocr';
import { formatPageList } from '../format';
import { ocrPagesOf } from '../sourceCache';
import { useStore } from '../store';

/**
 * Which pages of a document were read by OCR, and which of them with low confidence (issue 18): quotes from those
 * may be misread, so the auditor checks them against the page image before relying on them.
 */
export function OcrPagesNote({ documentId }: { documentId: number }) {
  const [fetched, setFetched] = useState<{ documentId: number; pages: OcrPageInfo[] } | null>(null);
  const status = useStore((s) => s.library.documents.find((d) => d.id === documentId)?.status);
  useEffect(() => {
    let current = true;
    void ocrPagesOf(documentId).then((pages) => current && setFetched({ documentId, pages }));
    return () => {
      current = false;
    };
  }, [documentId, status]);
  const pages = fetched?.documentId === documentId ? fetched.pages : [];
  // Pages OCR found no text on are the picture-only ones: DocumentHealthNote notes them in its one sentence.
  const read = pages.filter((page) => page.hasText);
  if (read.length === 0) return null;
  const low = read.filter((page) => page.low);
  const lowest = low.length > 0 ? Math.round(Math.min(...low.map((page) => page.confidence!))) : null;
  return (
    <div className={low.length > 0 ? 'warning' : 'muted'} role="note" data-testid="ocr-pages" data-low={low.map((page) => page.page).join(',')}>
      Read by OCR: {formatPageList(read.map((page) => page.page))} (no usable text layer).
      {low.length > 0
        ? ` Low confidence on ${formatPageList(low.map((page) => page.page))} (${lowest}% at worst, below ${LOW_OCR_CONFIDENCE}%): words may be misread, so check findings quoting ${low.length === 1 ? 'it' : 'them'} against the page image.`
        : ''}
    </div>
  );
}
